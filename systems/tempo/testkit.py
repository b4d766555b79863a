"""What the shared system test kit checks of Tempo (tests/system_kit.py): test support only, read
by the tests, never by the running site."""

from __future__ import annotations

#: Labels the blank sheet prints (from the module's data).
BLANK_LABELS = ["Primary", "Flashpoint 1", "Athlete", "Thief", "TRUST NO ONE", "Unmitigated Failure"]

#: The test modules that walk this system's API routes for every role (each has WALKED_ROUTES).
API_ROLE_WALKS = ("systems.tempo.tests.conflicts.test_api_roles",)

#: The test module with this system's part of the non-interference worlds (tests/secrets/worlds.py).
SECRET_WORLD = "systems.tempo.tests.conflicts.secret_world"

#: The sample hero's name, and ledger entries the archive round trips append to it (the entry at
#: LEDGER_REVERTED is reverted after).
HERO = "Finn Marlowe"
LEDGER = (
    {"kind": "fate_point_gained", "reason": "qualified_success_complication"},
    {"kind": "veto_card", "note": "the guard was not asleep"},
)
LEDGER_REVERTED = 0

#: The test module making a campaign with this system's play records (``play(world, campaign,
#: make_hero, monkeypatch)``) for the archive round trips and the hostile-input walks.
ARCHIVE_PLAY = "systems.tempo.tests.conflicts.archive_play"

#: What the ids of this system's routes name, for the walks that fill every route: by the path
#: segment before a ``pk`` and by keyword.
ROUTE_PK_OWNERS = {"conflicts": "conflict"}


def check_demo(campaign) -> None:
    """The demo's play: a conflict under way."""
    assert campaign.tempo_conflicts.filter(status="running").exists()


def api_route_ids(campaign, members, character) -> dict[str, dict]:
    """The URL ids of Tempo's API routes in ``campaign`` (the personas are its members,
    ``character`` a player's agent): a conflict with the agent on one side."""
    from systems.tempo import services

    conflict = services.create_conflict(
        members["gm"],
        {
            "title": "Chase",
            "sides": [{"name": "Us", "characters": [character.pk]}, {"name": "Them", "npcs": ["Brandt"]}],
        },
    )
    one = {"campaign_pk": campaign.pk, "pk": conflict.pk}
    return {
        "api-tempo-roll": {"character_pk": character.pk},
        "api-tempo-fate-refresh": {"campaign_pk": campaign.pk},
        "api-tempo-conflicts": {"campaign_pk": campaign.pk},
        "api-tempo-conflict": one,
        "api-tempo-conflict-events": one,
    }


#: This system's part of the chronicle's browser test (tests/e2e/test_chronicle_evenings.py).
BROWSER_EVENING = "tests.e2e.evenings.tempo"
