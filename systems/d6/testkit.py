"""What the shared system test kit checks of the D6 System (tests/system_kit.py): test support
only, read by the tests, never by the running site."""

from __future__ import annotations

#: Labels the blank sheet prints (from the engine's tables).
BLANK_LABELS = ["Perception", "search", "Reflexes", "dodge", "Initiative", "-5D", "Bash"]


def check_demo(campaign) -> None:
    """The demo's play: an encounter under way."""
    assert campaign.d6_encounters.filter(status="running").exists()
