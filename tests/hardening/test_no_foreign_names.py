"""No API page names anything of a campaign the asking user is not in (issue 18, finding 1).

Every API route of the URL conf is rendered in the browsable API (``?format=api``: its filter form
and its POST/PUT forms) for every persona, with a foreign campaign seeded with names found nowhere
else; and every filter the OpenAPI schema describes answers a foreign id exactly like a missing one.
"""

from __future__ import annotations

import random
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from campaigns import services as campaign_services
from campaigns.models import NPC, Membership, Role, Webhook
from characters import services as character_services
from characters.models import Character
from tests.characters.conftest import agent_choices
from tests.d6_encounters.conftest import character_choices as d6_choices
from tests.systems.tempo.helpers import choices as tempo_choices
from tests.ttk_missions.conftest import ninja_build

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")
# Names that exist only in the foreign campaign: none of them may appear on a page of anyone else.
FOREIGN = {
    "campaign": "Quixotic Foreign Campaign",
    "user": "zebulon_foreigner",
    "character": "Xanthippe Foreignagent",
    "mission": "Operation Ultraforeign",
    "npc": "Vorpal Foreignnpc",
    "tempo_character": "Ysolde Foreigntempo",
    "d6_character": "Wendeline Foreignd",
    "encounter": "Foreign Ambuscade",
}


def _members(campaign, users):
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)
    return {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}


def _seed_foreign(make_user):
    """A stranger's campaigns (TIMEMASTER, Tempo, D6) holding every kind of named record."""
    from systems.d6 import services as d6_services

    stranger = make_user(FOREIGN["user"])
    campaign = campaign_services.create_campaign(stranger, name=FOREIGN["campaign"], system="timemaster")
    agent = character_services.finalize(
        character_services.create_draft(campaign, stranger, choices=agent_choices(name=FOREIGN["character"])),
        is_gm=True,
        rng=random.Random(3),
    )
    campaign.missions.create(title=FOREIGN["mission"])
    NPC.objects.create(campaign=campaign, system="timemaster", name=FOREIGN["npc"], revealed=True)
    tempo = campaign_services.create_campaign(stranger, name="Qx Tempo", system="tempo", module="flashpoints")
    tempo_agent = character_services.finalize(
        character_services.create_draft(
            tempo, stranger, choices=tempo_choices(name=FOREIGN["tempo_character"])
        ),
        is_gm=True,
    )
    d6 = campaign_services.create_campaign(stranger, name="Qx D6", system="d6")
    d6_character = character_services.finalize(
        character_services.create_draft(d6, stranger, choices=d6_choices(FOREIGN["d6_character"]))
    )
    encounter = d6_services.create_encounter(d6, stranger, name=FOREIGN["encounter"])
    d6_services.add_character(encounter, d6_character.pk)
    mission = campaign.missions.get()
    return {
        "character": agent.pk,
        "agent": agent.pk,
        "mission": mission.pk,
        "tempo_character": tempo_agent.pk,
    }


@pytest.fixture
def home(world, make_user):
    """One campaign per system where every persona has its role, each holding the records the API
    routes name, plus the foreign campaigns."""
    from sheets import services as sheet_services
    from systems.d6 import services as d6_services
    from systems.tempo import services as tempo_services
    from systems.time_to_kill import services as ttk_services

    users = world.users
    gm = world.membership["gm"]
    agent = character_services.finalize(
        character_services.create_draft(world.campaign, users["player"], choices=agent_choices()),
        is_gm=True,
        rng=random.Random(3),
    )
    mission = world.campaign.missions.create(title="Op Home")
    npc = NPC.objects.create(campaign=world.campaign, system="timemaster", name="Home NPC", revealed=True)
    roll = campaign_services.record_roll(gm, kind="d6", rng=random.Random(1))
    invitation = campaign_services.create_invitation(world.campaign, users["gm"])
    render, _ = sheet_services.request_render(
        users["player"], "character", world.campaign, world.membership["player"], agent
    )

    tempo = campaign_services.create_campaign(users["gm"], name="Cell", system="tempo", module="flashpoints")
    tempo_members = _members(tempo, users)
    tempo_agent = character_services.finalize(
        character_services.create_draft(tempo, users["player"], choices=tempo_choices()), is_gm=True
    )
    conflict = tempo_services.create_conflict(
        tempo_members["gm"],
        {
            "title": "Chase",
            "sides": [{"name": "Us", "characters": [tempo_agent.pk]}, {"name": "Them", "npcs": ["Brandt"]}],
        },
    )

    d6 = campaign_services.create_campaign(users["gm"], name="Night", system="d6")
    _members(d6, users)
    d6_character = character_services.finalize(
        character_services.create_draft(d6, users["player"], choices=d6_choices("Ada"))
    )
    encounter = d6_services.create_encounter(d6, users["gm"], name="Alley")
    participant = d6_services.add_character(encounter, d6_character.pk)

    ttk = campaign_services.create_campaign(users["gm"], name="Dusk", system="time_to_kill")
    ttk_members = _members(ttk, users)
    build = ninja_build()
    ninja = Character.objects.create(
        campaign=ttk,
        owner=users["player"],
        system="time_to_kill",
        name="Kage",
        status="active",
        build=build,
        creation_build=build,
        revision=1,
    )
    run = ttk_services.start_run(
        ttk_members["gm"], ninja=ninja.pk, title="Bell", mission_stones=3, briefing={}
    )

    from archive.models import CampaignExport

    export = CampaignExport.objects.create(campaign=world.campaign, requested_by=users["gm"])
    foreign = _seed_foreign(make_user)
    timemaster = {"campaign_pk": world.campaign.pk, "character_pk": agent.pk}
    # Which record each route's ids name, by route name; a new route must be added here (the walk
    # refuses a route it cannot fill), so no route escapes it.
    routes = {
        "campaign-detail": {"pk": world.campaign.pk},
        "member-list": timemaster,
        "member-detail": {**timemaster, "pk": world.membership["player"].pk},
        "invitation-list": timemaster,
        "invitation-detail": {**timemaster, "pk": invitation.pk},
        "mission-list": timemaster,
        "mission-detail": {**timemaster, "pk": mission.pk},
        "roll-list": timemaster,
        "roll-detail": {**timemaster, "pk": roll.pk},
        "roll-reveal": {**timemaster, "pk": roll.pk},
        "npc-list": timemaster,
        "npc-detail": {**timemaster, "pk": npc.pk},
        "api-check": timemaster,
        "api-campaign-attacks": timemaster,
        "api-check-scores": timemaster,
        "api-character-list": timemaster,
        "api-character-import": timemaster,
        "api-character-export": timemaster,
        "api-campaign-export": timemaster,
        "api-campaign-export-start": timemaster,
        "api-campaign-export-job": {**timemaster, "export_pk": export.pk},
        "api-campaign-export-download": {**timemaster, "export_pk": export.pk},
        "api-sheet-request": timemaster,
        "api-sheet-render": {"render_pk": render.pk},
        "api-sheet-download": {"render_pk": render.pk},
        "api-tempo-roll": {"character_pk": tempo_agent.pk},
        "api-tempo-fate-refresh": {"campaign_pk": tempo.pk},
        "api-tempo-conflicts": {"campaign_pk": tempo.pk},
        "api-tempo-conflict": {"campaign_pk": tempo.pk, "pk": conflict.pk},
        "api-tempo-conflict-events": {"campaign_pk": tempo.pk, "pk": conflict.pk},
        "api-d6-encounter-list": {"campaign_pk": d6.pk},
        "api-d6-participant-detail": {
            "campaign_pk": d6.pk,
            "pk": encounter.pk,
            "participant_pk": participant.pk,
        },
        "api-ttk-runs": {"campaign_pk": ttk.pk},
        "api-fair-dice": timemaster,
        "api-fair-dice-seed": timemaster,
        "api-fair-dice-rotate": timemaster,
        "api-roll-by-hand": timemaster,
        "api-webhooks": timemaster,
        "api-webhook": {
            **timemaster,
            "hook_pk": Webhook.objects.create(campaign=world.campaign, url="https://x.example/").pk,
        },
        # Tokens belong to users, not campaigns: an id nobody holds answers 404 for everyone.
        "api-token-revoke": {"token_id": "0" * 15},
    }
    for name in (
        "api-d6-encounter-detail",
        "api-d6-encounter-start",
        "api-d6-participant-list",
        "api-d6-event-list",
    ):
        routes[name] = {"campaign_pk": d6.pk, "pk": encounter.pk}
    for name in ("events", "abandon", "gm-state", "player-state"):
        routes[f"api-ttk-run-{name}"] = {"pk": run.pk}
    for name, _ in api_routes():
        # The mission and character routes' actions (start, close, tally, ledger, shop ...).
        if name.startswith("mission-") and name not in routes:
            routes[name] = {**timemaster, "pk": mission.pk}
        if name.startswith("api-character-") and name not in routes:
            routes[name] = {**timemaster, "pk": agent.pk}
    # Both routes taking an entry answer only POST: a GET renders their forms (405) without the entry.
    bonus = {"kind": "sp_awarded", "type": "bonus", "session": "s1", "amount": 10}
    entry = character_services.append_entry(agent, bonus, users["gm"]).pk
    routes["api-character-revert"]["entry_pk"] = routes["mission-reverse-tally"]["entry_pk"] = entry
    return {"routes": routes, "foreign": foreign, "campaign": world.campaign.pk}


def api_routes():
    """(name, pattern) of every route under /api/v1/, walked from the URL conf."""
    api_v1 = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/")

    def walk(patterns, prefix):
        for pattern in patterns:
            regex = prefix + pattern.pattern.regex.pattern.lstrip("^").rstrip("$").replace("\\Z", "")
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, regex)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield pattern.name, regex

    return sorted(set(walk(api_v1.url_patterns, "api/v1/")))


def fill(regex: str, kwargs: dict) -> str:
    """The path a route regex matches with these named ids."""
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m.group(1)]), regex)
    path = path.replace("\\.(?P<format>[a-z0-9]+)/?", "")
    return "/" + path.replace("\\", "")


def test_the_browsable_api_shows_no_foreign_name_to_any_persona(world, home, client):
    routes = [(name, regex) for name, regex in api_routes() if "(?P<format>" not in regex]
    unfilled = {name for name, regex in routes if "(?P<" in regex and name not in home["routes"]}
    assert not unfilled, f"routes the walk cannot fill: {unfilled}"
    leaks = []
    for persona in PERSONAS:
        client.force_login(world.users[persona])
        for name, regex in routes:
            path = fill(regex, home["routes"].get(name, {}))
            response = client.get(path, {"format": "api"})
            assert response.status_code < 500, (persona, path)
            page = response.content.decode()
            leaks += [(persona, path, what) for what, text in FOREIGN.items() if text in page]
    assert leaks == [], "\n".join(map(str, leaks))


def schema_filters():
    """(path, parameter) for every query parameter naming a record by id of a GET the OpenAPI schema
    describes (pagination aside)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, item in schema["paths"].items():
        for parameter in item.get("get", {}).get("parameters", []):
            is_id = parameter["schema"].get("type") == "integer"
            if parameter["in"] == "query" and is_id and parameter["name"] not in ("page", "page_size"):
                yield path, parameter


def test_every_described_filter_answers_a_foreign_id_like_a_missing_one(world, home, api):
    filters = list(schema_filters())
    assert filters, "the schema describes no filter: the walk would check nothing"
    for persona in PERSONAS:
        client = api(world.users[persona])
        for path, parameter in filters:
            assert parameter["name"] in home["foreign"], f"no foreign id to try for {parameter['name']}"
            url = re.sub(r"\{(\w+)\}", lambda m: str(home["campaign"]), path)
            foreign = client.get(url, {parameter["name"]: home["foreign"][parameter["name"]]})
            missing = client.get(url, {parameter["name"]: 999_999_999})
            assert (foreign.status_code, foreign.json()) == (missing.status_code, missing.json()), (
                persona,
                path,
                parameter["name"],
            )
