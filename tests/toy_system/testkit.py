"""What the shared system test kit checks of the toy system (tests/system_kit.py)."""

from __future__ import annotations

#: Labels the blank sheet prints.
BLANK_LABELS = ["Toy Game", "Knack", "Dice"]


def check_demo(campaign) -> None:
    """The demo's play: a scored contest."""
    assert campaign.toy_contests.filter(title="The Marble Race").exists()


#: The sample hero's name, and ledger entries the archive round trips append to it (the entry at
#: LEDGER_REVERTED is reverted after).
HERO = "Pip"
LEDGER = ({"kind": "knack_raised"}, {"kind": "knack_raised"})
LEDGER_REVERTED = 0

#: Its play record (a contest's title and score) is the whole table's: the toy keeps nothing from
#: the players, so it brings no part of the non-interference worlds (tests/secrets).
NOTHING_HIDDEN = "A contest's title and score are shown to every member; the toy keeps no secret."

#: The test modules that walk this system's API routes for every role (each has WALKED_ROUTES).
API_ROLE_WALKS = ("tests.test_toy_system",)

#: The test module making a campaign with this system's play records (``play(world, campaign,
#: make_hero, monkeypatch)``) for the archive round trips and the hostile-input walks.
ARCHIVE_PLAY = "tests.toy_system.archive_play"

#: What the key values of a filled sheet and a blank one print (tests/sheets/samples.py).
SHEET_VALUES = ["Toy Game", "Knack", "Dice"]


def sheet_build(variant: str) -> dict:
    """The gallery's hero for each sample variant (tests/sheets/samples.py): the demo's, the
    longest the builder accepts, and the emptiest."""
    from tests.toy_system.engine import MAX_NAME, SYSTEM

    name = {
        "demo": "Pip Quickfoot",
        "long": ("Bartholomew-Quickfoot " * 8)[: MAX_NAME - 4] + " Pip",
        "empty": "P",
    }
    knack = {"demo": 2, "long": 3, "empty": 1}
    return SYSTEM.new_build({"name": name[variant], "player": "kim", "knack": knack[variant]}, rng=None)


def api_route_ids(campaign, members, character) -> dict[str, dict]:
    """The URL ids of the toy API routes in ``campaign``."""
    return {"api-toy-contests": {"campaign_pk": campaign.pk}}


def foreign_records(campaign, owner) -> dict[str, str]:
    """A named contest of a stranger's campaign, for the tests that no page names it to anyone else."""
    from tests.toy_system.models import Contest

    name = "Foreign Marble Derby"
    Contest.objects.create(campaign=campaign, title=name, score=4, created_by=owner)
    return {"contest": name}
