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
from campaigns.chronicle import notes, play_sessions
from campaigns.models import NPC, Membership, Note, Role, Webhook
from campaigns.table import rolling
from characters import services as character_services
from tests import system_kit

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")
# Names that exist only in the foreign campaigns: none of them may appear on a page of anyone else.
# Each installed system adds a character of its own (and whatever its testkit's foreign_records makes).
FOREIGN = {
    "campaign": "Quixotic Foreign Campaign",
    "user": "zebulon_foreigner",
    "character": "Xanthippe Foreignagent",
    "mission": "Operation Ultraforeign",
    "npc": "Vorpal Foreignnpc",
    "play_session": "Session of Quillon Foreignness",
    "note": "Note of Quarrelsome Foreignness",
}


def _members(campaign, users):
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)
    return {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}


def _seed_foreign(make_user, home_system):
    """A stranger's campaigns, one per installed system, holding every kind of named record; the
    names made, by what they name, and the ids the API's filters are tried with."""
    stranger = make_user(FOREIGN["user"])
    names = dict(FOREIGN)
    campaign = system_kit.make_campaign(stranger, home_system, name=FOREIGN["campaign"])
    agent = system_kit.make_character(campaign, stranger, name=FOREIGN["character"])
    mission = campaign.missions.create(title=FOREIGN["mission"])
    NPC.objects.create(campaign=campaign, system=home_system, name=FOREIGN["npc"], revealed=True)
    # two play sessions (issue 50), the second with a shared note: number 2 is held by this
    # campaign only (a session's number is its campaign's: the filter is tried with it)
    stranger_gm = campaign.memberships.get(user=stranger)
    play_sessions.end(stranger_gm, play_sessions.start(stranger_gm))
    foreign_session = play_sessions.start(stranger_gm, title=FOREIGN["play_session"])
    notes.save_note(
        Note(campaign=campaign, play_session=foreign_session, author=stranger, body=FOREIGN["note"])
    )
    for key in system_kit.installed_keys():
        where = campaign
        if key != home_system:
            where = system_kit.make_campaign(stranger, key, name=f"Qx {key}")
            names[f"{key}_character"] = f"Ysolde Foreign{key.replace('_', '')}"
            system_kit.make_character(where, stranger, name=names[f"{key}_character"])
        seed = getattr(system_kit.extras(key), "foreign_records", None)
        if seed is not None:  # the system's own named records (its play records)
            names.update(seed(where, stranger))
    return names, {"character": agent.pk, "agent": agent.pk, "mission": mission.pk, "play_session": 2}


@pytest.fixture
def home(world, make_user):
    """One campaign per system where every persona has its role, each holding the records the API
    routes name (each system's testkit.api_route_ids names its own routes'), plus the foreign
    campaigns."""
    from sheets import services as sheet_services

    users = world.users
    gm = world.membership["gm"]
    agent = system_kit.make_character(world.campaign, users["player"], name="Harry Adams")
    mission = world.campaign.missions.create(title="Op Home")
    npc = NPC.objects.create(
        campaign=world.campaign, system=world.campaign.system, name="Home NPC", revealed=True
    )
    roll = rolling.record_roll(gm, kind="d6", rng=random.Random(1))
    invitation = campaign_services.create_invitation(world.campaign, users["gm"])
    render, _ = sheet_services.request_render(
        users["player"], "character", world.campaign, world.membership["player"], agent
    )

    from archive.models import CampaignExport

    export = CampaignExport.objects.create(campaign=world.campaign, requested_by=users["gm"])
    names, foreign = _seed_foreign(make_user, world.campaign.system)
    own = {"campaign_pk": world.campaign.pk, "character_pk": agent.pk}
    home_session = play_sessions.start(gm, title="Home session")
    home_note = notes.save_note(
        Note(campaign=world.campaign, play_session=home_session, author=users["gm"], body="Home note")
    )
    # Which record each route's ids name, by route name; a new route must be added here or in its
    # system's testkit (the walk refuses a route it cannot fill), so no route escapes it.
    routes = {
        "campaign-detail": {"pk": world.campaign.pk},
        "member-list": own,
        "member-detail": {**own, "pk": world.membership["player"].pk},
        "invitation-list": own,
        "invitation-detail": {**own, "pk": invitation.pk},
        "mission-list": own,
        "mission-detail": {**own, "pk": mission.pk},
        "roll-list": own,
        "roll-detail": {**own, "pk": roll.pk},
        "roll-reveal": {**own, "pk": roll.pk},
        "npc-list": own,
        "npc-detail": {**own, "pk": npc.pk},
        "api-character-list": own,
        "api-character-import": own,
        "api-character-export": own,
        "api-campaign-export": own,
        "api-campaign-export-start": own,
        "api-campaign-export-job": {**own, "export_pk": export.pk},
        "api-campaign-export-download": {**own, "export_pk": export.pk},
        "api-sheet-request": own,
        "api-sheet-render": {"render_pk": render.pk},
        "api-sheet-download": {"render_pk": render.pk},
        "api-fair-dice": own,
        "api-fair-dice-seed": own,
        "api-fair-dice-rotate": own,
        "api-roll-by-hand": own,
        "api-webhooks": own,
        "api-webhook": {
            **own,
            "hook_pk": Webhook.objects.create(campaign=world.campaign, url="https://x.example/").pk,
        },
        # Tokens belong to users, not campaigns: an id nobody holds answers 404 for everyone.
        "api-token-revoke": {"token_id": "0" * 15},
        # play sessions by their number in the campaign, notes by their id (issue 50)
        "api-play-session-list": own,
        "api-play-session-detail": {**own, "number": home_session.number},
        "api-play-session-end": {**own, "number": home_session.number},
        "api-play-session-record": {**own, "number": home_session.number},
        "api-note-list": own,
        "api-note-detail": {**own, "pk": home_note.pk},
        "api-search": own,
    }
    for key in system_kit.installed_keys():
        route_ids = getattr(system_kit.extras(key), "api_route_ids", None)
        if route_ids is None:
            continue
        if key == world.campaign.system:
            campaign, members, character = world.campaign, world.membership, agent
        else:
            campaign = system_kit.make_campaign(users["gm"], key)
            members = _members(campaign, users)
            character = system_kit.make_character(campaign, users["player"], name="Kim")
        routes.update(route_ids(campaign, members, character))
    for name, _ in api_routes():
        # The mission and character routes' actions (start, close, tally, ledger, shop ...).
        if name.startswith("mission-") and name not in routes:
            routes[name] = {**own, "pk": mission.pk}
        if name.startswith("api-character-") and name not in routes:
            routes[name] = {**own, "pk": agent.pk}
    # Both routes taking an entry answer only POST: a GET renders their forms (405) without the entry.
    bonus = {"kind": "sp_awarded", "type": "bonus", "session": "s1", "amount": 10}
    entry = character_services.append_entry(agent, bonus, users["gm"]).pk
    routes["api-character-revert"]["entry_pk"] = routes["mission-reverse-tally"]["entry_pk"] = entry
    return {"routes": routes, "foreign": foreign, "names": names, "campaign": world.campaign.pk}


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
            leaks += [(persona, path, what) for what, text in home["names"].items() if text in page]
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
