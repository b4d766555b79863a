"""What the shared system test kit checks of Tempo (tests/system_kit.py): test support only, read
by the tests, never by the running site."""

from __future__ import annotations

#: Labels the blank sheet prints (from the module's data).
BLANK_LABELS = ["Primary", "Flashpoint 1", "Athlete", "Thief", "TRUST NO ONE", "Unmitigated Failure"]


def check_demo(campaign) -> None:
    """The demo's play: a conflict under way."""
    assert campaign.tempo_conflicts.filter(status="running").exists()
