"""The play sessions' and notes' API (issue 50), walked as every persona, and what each reader gets."""

from __future__ import annotations

import random

import pytest

from campaigns.chronicle import notes, play_sessions
from campaigns.models import Note, NoteVisibility
from campaigns.table import rolling

pytestmark = pytest.mark.django_db

ROLES = ("gm", "player", "observer", "outsider", "anonymous")
WALKED_ROUTES = {
    "api-play-session-list",
    "api-play-session-detail",
    "api-play-session-end",
    "api-play-session-record",
    "api-note-list",
    "api-note-detail",
}
MEMBER_READ = {"gm": 200, "player": 200, "observer": 200, "outsider": 404, "anonymous": 401}
GM_ONLY = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401}
AUTHOR_ONLY = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401}


def _setup(world):
    session = play_sessions.start(world.membership["gm"], title="Arrival")
    shared = notes.save_note(
        Note(campaign=world.campaign, play_session=session, author=world.users["gm"], body="All of us")
    )
    secret = notes.save_note(
        Note(
            campaign=world.campaign,
            play_session=session,
            author=world.users["gm"],
            body="Only me",
            visibility=NoteVisibility.GM,
        )
    )
    return {"c": world.campaign.pk, "n": session.number, "shared": shared.pk, "secret": secret.pk}


ENDPOINTS = [
    ("api-play-session-list", "get", "/api/v1/campaigns/{c}/play_sessions/", None, MEMBER_READ),
    ("api-play-session-detail", "get", "/api/v1/campaigns/{c}/play_sessions/{n}/", None, MEMBER_READ),
    (
        "api-play-session-detail",
        "patch",
        "/api/v1/campaigns/{c}/play_sessions/{n}/",
        {"title": "Renamed", "attendees": ["player"]},
        GM_ONLY,
    ),
    ("api-play-session-record", "get", "/api/v1/campaigns/{c}/play_sessions/{n}/record/", None, MEMBER_READ),
    ("api-play-session-end", "get", "/api/v1/campaigns/{c}/play_sessions/{n}/end/", None, GM_ONLY),
    (
        "api-play-session-end",
        "post",
        "/api/v1/campaigns/{c}/play_sessions/{n}/end/",
        {"choices": []},
        GM_ONLY,
    ),
    # a session is under way: a second one is refused to the GM (400), to others as ever
    (
        "api-play-session-list",
        "post",
        "/api/v1/campaigns/{c}/play_sessions/",
        {"title": "Too soon"},
        {**GM_ONLY, "gm": 400},
    ),
    ("api-note-list", "get", "/api/v1/campaigns/{c}/notes/", None, MEMBER_READ),
    (
        "api-note-list",
        "post",
        "/api/v1/campaigns/{c}/notes/",
        {"play_session": 1, "body": "Mine", "visibility": "shared"},
        {"gm": 201, "player": 201, "observer": 403, "outsider": 404, "anonymous": 401},
    ),
    ("api-note-detail", "get", "/api/v1/campaigns/{c}/notes/{shared}/", None, MEMBER_READ),
    (
        "api-note-detail",
        "get",
        "/api/v1/campaigns/{c}/notes/{secret}/",
        None,
        {"gm": 200, "player": 404, "observer": 404, "outsider": 404, "anonymous": 401},
    ),
    ("api-note-detail", "patch", "/api/v1/campaigns/{c}/notes/{shared}/", {"body": "Edited"}, AUTHOR_ONLY),
    (
        "api-note-detail",
        "delete",
        "/api/v1/campaigns/{c}/notes/{secret}/",
        None,
        {"gm": 204, "player": 404, "observer": 404, "outsider": 404, "anonymous": 401},
    ),
]


def _fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[f"{e[1]} {e[2]}" for e in ENDPOINTS])
def test_every_endpoint_answers_each_role_as_it_must(world, api, role, endpoint):
    _, method, path, body, expected = endpoint
    ids = _setup(world)
    client = api(None if role == "anonymous" else world.users[role])
    response = getattr(client, method)(_fill(path, ids), _fill(body, ids), format="json")
    assert response.status_code == expected[role], response.content
    if response.status_code >= 400:
        payload = response.json()
        assert payload["status"] == expected[role] and payload["errors"], payload


def test_the_walk_names_every_route_here():
    from tests.campaigns.test_api_roles import api_v1_patterns

    names = {p.name for p in api_v1_patterns() if getattr(p, "name", None)}
    assert {name for name in names if name.startswith(("api-play-session", "api-note"))} == WALKED_ROUTES
    assert {e[0] for e in ENDPOINTS} == WALKED_ROUTES


def test_the_record_and_the_notes_are_what_each_reader_may_see(world, api):
    ids = _setup(world)
    gm, player = world.membership["gm"], world.membership["player"]
    rolling.record_roll(player, kind="d6", purpose="Open", rng=random.Random(1))
    rolling.record_roll(gm, kind="percent", secret=True, purpose="Ambush", rng=random.Random(2))
    rolling.record_roll(gm, kind="d1000", secret=True, announced=False, rng=random.Random(3))
    c = ids["c"]
    record = api(world.users["player"]).get(f"/api/v1/campaigns/{c}/play_sessions/1/record/").json()
    assert [r["purpose"] for r in record["rolls"]] == ["Open", ""]
    assert record["rolls"][1]["sealed"] is True and record["rolls"][1]["total"] is None
    gm_record = api(world.users["gm"]).get(f"/api/v1/campaigns/{c}/play_sessions/1/record/").json()
    assert len(gm_record["rolls"]) == 3
    listing = api(world.users["player"]).get(f"/api/v1/campaigns/{c}/notes/?play_session=1").json()
    assert [n["id"] for n in listing] == [ids["shared"]]
    assert listing[0]["html"] == "<p>All of us</p>\n" and listing[0]["play_session"] == 1
    # a player may mark a note private, never GM-only
    refused = api(world.users["player"]).post(
        f"/api/v1/campaigns/{c}/notes/", {"play_session": 1, "body": "x", "visibility": "gm"}, format="json"
    )
    assert refused.status_code == 400
    ended = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{c}/play_sessions/1/end/", {"choices": ["reveal_seed"]}, format="json"
    )
    assert ended.status_code == 200 and ended.json()["play_session"]["is_open"] is False
    assert any("revealed" in sentence for sentence in ended.json()["done"])
    started = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{c}/play_sessions/",
        {"title": "Second", "attendees": ["player", "gm"]},
        format="json",
    )
    assert started.status_code == 201, started.content
    assert started.json()["number"] == 2 and started.json()["attendees"] == ["gm", "player"]


def test_the_gm_sets_where_the_group_plays_through_the_api_and_a_wrong_value_changes_nothing(world, api):
    url = f"/api/v1/campaigns/{world.campaign.pk}/"
    gm = api(world.users["gm"])
    shown = gm.get(url).json()
    assert (shown["paper"], shown["time_zone"], shown["sessions_start_on_roll"]) == ("letter", "UTC", False)
    refused = gm.patch(url, {"time_zone": "Mars/Olympus_Mons", "paper": "a4"}, format="json")
    assert refused.status_code == 400 and "time_zone" in refused.content.decode()
    world.campaign.refresh_from_db()
    assert (world.campaign.paper, world.campaign.time_zone) == ("letter", "UTC")
    done = gm.patch(
        url, {"time_zone": "Asia/Tokyo", "sessions_start_on_roll": True, "paper": "a4"}, format="json"
    )
    assert done.status_code == 200
    assert (done.json()["time_zone"], done.json()["sessions_start_on_roll"], done.json()["paper"]) == (
        "Asia/Tokyo",
        True,
        "a4",
    )
    for role in ("player", "observer", "outsider"):
        answer = api(world.users[role]).patch(url, {"time_zone": "UTC"}, format="json")
        assert answer.status_code in (403, 404), role
    world.campaign.refresh_from_db()
    assert world.campaign.time_zone == "Asia/Tokyo"
