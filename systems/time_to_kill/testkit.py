"""What the shared system test kit checks of Time to Kill (tests/system_kit.py): test support only,
read by the tests, never by the running site."""

from __future__ import annotations

#: Labels the blank sheet prints (from the engine's tables).
BLANK_LABELS = ["Armed", "Hand-to-Hand", "Knowledge", "Stealth", "Victory conditions", "Fails on 1-5"]


def check_demo(campaign) -> None:
    """The demo's play: a mission run under way."""
    assert campaign.ttk_runs.filter(status="running").exists()
