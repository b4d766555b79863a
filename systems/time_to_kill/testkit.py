"""What the shared system test kit checks of Time to Kill (tests/system_kit.py): test support only,
read by the tests, never by the running site."""

from __future__ import annotations

#: Labels the blank sheet prints (from the engine's tables).
BLANK_LABELS = ["Armed", "Hand-to-Hand", "Knowledge", "Stealth", "Victory conditions", "Fails on 1-5"]

#: The test modules that walk this system's API routes for every role (each has WALKED_ROUTES).
API_ROLE_WALKS = ("systems.time_to_kill.tests.missions.test_api_roles",)

#: The sample hero's name, and ledger entries the archive round trips append to it (the entry at
#: LEDGER_REVERTED is reverted after).
HERO = "Kage"
LEDGER = (
    {"kind": "mission_result", "outcome": "victory", "die_rolls": 7, "mission": None},
    {"kind": "rename", "name": "Kage the Second"},
)
LEDGER_REVERTED = 1

#: The test module making a campaign with this system's play records (``play(world, campaign,
#: make_hero, monkeypatch)``) for the archive round trips and the hostile-input walks.
ARCHIVE_PLAY = "systems.time_to_kill.tests.missions.archive_play"

#: What the ids of this system's routes name, for the walks that fill every route: by the path
#: segment before a ``pk`` and by keyword.
ROUTE_PK_OWNERS = {"ttk": "run", "runs": "run", "ttk-runs": "run"}
#: The test module making this system's part of the non-interference worlds (tests/secrets).
SECRET_WORLD = "systems.time_to_kill.tests.missions.secret_world"


def check_demo(campaign) -> None:
    """The demo's play: a mission run under way."""
    assert campaign.ttk_runs.filter(status="running").exists()


def api_route_ids(campaign, members, character) -> dict[str, dict]:
    """The URL ids of Time to Kill's API routes in ``campaign`` (the personas are its members,
    ``character`` a player's ninja): a mission run of the ninja."""
    from systems.time_to_kill import services

    run = services.start_run(members["gm"], ninja=character.pk, title="Bell", mission_stones=3, briefing={})
    routes = {"api-ttk-runs": {"campaign_pk": campaign.pk}}
    for name in ("events", "abandon", "gm-state", "player-state"):
        routes[f"api-ttk-run-{name}"] = {"pk": run.pk}
    return routes


#: This system's part of the chronicle's browser test (tests/e2e/test_chronicle_evenings.py).
BROWSER_EVENING = "tests.e2e.evenings.time_to_kill"
