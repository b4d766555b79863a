"""What the shared system test kit checks of the D6 System (tests/system_kit.py): test support
only, read by the tests, never by the running site."""

from __future__ import annotations

#: Labels the blank sheet prints (from the engine's tables).
BLANK_LABELS = ["Perception", "search", "Reflexes", "dodge", "Initiative", "-5D", "Bash"]

#: The test modules that walk this system's API routes for every role (each has WALKED_ROUTES).
API_ROLE_WALKS = ("systems.d6.tests.encounters.test_api_roles",)

#: The test module with this system's part of the non-interference worlds (tests/secrets/worlds.py).
SECRET_WORLD = "systems.d6.tests.encounters.secret_world"

#: The sample hero's name, and ledger entries the archive round trips append to it (the entry at
#: LEDGER_REVERTED is reverted after).
HERO = "Ana"
LEDGER = (
    {"kind": "character_points_gained", "count": 5, "reason": "first session"},
    {"kind": "fate_points_gained", "count": 1, "reason": "heroic moment"},
)
LEDGER_REVERTED = 1

#: The test module making a campaign with this system's play records (``play(world, campaign,
#: make_hero, monkeypatch)``) for the archive round trips and the hostile-input walks.
ARCHIVE_PLAY = "systems.d6.tests.encounters.archive_play"

#: What the ids of this system's routes name, for the walks that fill every route: by the path
#: segment before a ``pk`` and by keyword.
ROUTE_PK_OWNERS = {"encounters": "encounter", "d6-encounters": "encounter"}
ROUTE_KWARG_OWNERS = {"encounter_pk": "encounter", "participant_pk": "participant"}


def check_demo(campaign) -> None:
    """The demo's play: an encounter under way."""
    assert campaign.d6_encounters.filter(status="running").exists()


def api_route_ids(campaign, members, character) -> dict[str, dict]:
    """The URL ids of the D6 API routes in ``campaign`` (the personas are its members, ``character``
    a player's): an encounter with the character in it."""
    from systems.d6 import services

    encounter = services.create_encounter(campaign, members["gm"].user, name="Alley")
    participant = services.add_character(encounter, character.pk)
    one = {"campaign_pk": campaign.pk, "pk": encounter.pk}
    routes = {
        "api-d6-encounter-list": {"campaign_pk": campaign.pk},
        "api-d6-participant-detail": {**one, "participant_pk": participant.pk},
    }
    for name in ("detail", "start"):
        routes[f"api-d6-encounter-{name}"] = one
    for name in ("participant-list", "event-list"):
        routes[f"api-d6-{name}"] = one
    return routes


def foreign_records(campaign, owner) -> dict[str, str]:
    """Named records of a stranger's campaign (its character joins an encounter), for the tests
    that no page names them to anyone else: what each name names -> the name."""
    from characters.models import Character
    from systems.d6 import services

    name = "Foreign Ambuscade"
    encounter = services.create_encounter(campaign, owner, name=name)
    for character in Character.objects.filter(campaign=campaign):
        services.add_character(encounter, character.pk)
    return {"encounter": name}


#: This system's part of the chronicle's browser test (tests/e2e/test_chronicle_evenings.py).
BROWSER_EVENING = "tests.e2e.evenings.d6"
