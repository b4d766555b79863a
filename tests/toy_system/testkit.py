"""What the shared system test kit checks of the toy system (tests/system_kit.py)."""

from __future__ import annotations

#: Labels the blank sheet prints.
BLANK_LABELS = ["Toy Game", "Knack", "Dice"]


def check_demo(campaign) -> None:
    """The demo's play: a scored contest."""
    assert campaign.toy_contests.filter(title="The Marble Race").exists()
