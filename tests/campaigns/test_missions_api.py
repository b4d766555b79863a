"""Mission API: every route for every role, and nothing secret for players before publishing."""

from __future__ import annotations

import json
import re

import pytest

from campaigns.models import Mission, Roll, SignificanceEntry
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, mistake, new_agent, planned, roll_of, started

ROLES = ("gm", "player", "observer", "outsider", "anonymous")
# The routes this module walks for every role (wired into test_api_roles by the integrator).
WALKED_ROUTES = {
    "mission-list",
    "mission-detail",
    "mission-start",
    "mission-tally",
    "mission-reverse-tally",
    "mission-close",
    "mission-publish",
    "mission-after-action",
    "mission-audit",
}

MEMBER_READ = {"gm": 200, "player": 200, "observer": 200, "outsider": 404, "anonymous": 401}
GM_ONLY = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401}


@pytest.fixture
def agents(world):
    return [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]


def _setup(world, agents):
    """A planned, an active (one mistake) and a closed unpublished mission."""
    spare = new_agent(world, "other_player", "Jo Kern")  # the others wait on their missions' results
    plan = planned(world, [spare], title="Planned", start_year=1600, end_year=1600)
    active = started(world, agents[:1], title="Active", start_year=1700, end_year=1700)
    entry = mistake(world, active, "other", 40, description="Secret slip at the palace")
    done = started(world, agents[1:], title="Done", start_year=1300, end_year=1300)
    mistake(world, done, "event_changed", 60, description="Hidden change at the abbey")
    tm_missions.close_mission(gm_membership(world), done, "success", rng=roll_of(987))
    return {"c": world.campaign.pk, "plan": plan.pk, "active": active.pk, "entry": entry.pk, "done": done.pk}


ENDPOINTS = [
    ("mission-list", "get", "/api/v1/campaigns/{c}/missions/", None, MEMBER_READ),
    ("mission-list", "post", "/api/v1/campaigns/{c}/missions/", {"title": "New"}, {**GM_ONLY, "gm": 201}),
    ("mission-detail", "get", "/api/v1/campaigns/{c}/missions/{done}/", None, MEMBER_READ),
    ("mission-detail", "patch", "/api/v1/campaigns/{c}/missions/{plan}/", {"title": "Renamed"}, GM_ONLY),
    ("mission-detail", "delete", "/api/v1/campaigns/{c}/missions/{plan}/", None, {**GM_ONLY, "gm": 204}),
    ("mission-start", "post", "/api/v1/campaigns/{c}/missions/{plan}/start/", None, GM_ONLY),
    ("mission-tally", "get", "/api/v1/campaigns/{c}/missions/{active}/tally/", None, GM_ONLY),
    (
        "mission-tally",
        "post",
        "/api/v1/campaigns/{c}/missions/{active}/tally/",
        {"kind": "equipment_left_behind", "equipment_item": "communicator"},
        {**GM_ONLY, "gm": 201},
    ),
    (
        "mission-reverse-tally",
        "post",
        "/api/v1/campaigns/{c}/missions/{active}/tally/{entry}/reverse/",
        {"reason": "typo"},
        {**GM_ONLY, "gm": 201},
    ),
    (
        "mission-close",
        "post",
        "/api/v1/campaigns/{c}/missions/{active}/close/",
        {"result": "failure"},
        GM_ONLY,
    ),
    ("mission-publish", "post", "/api/v1/campaigns/{c}/missions/{done}/publish/", None, GM_ONLY),
    ("mission-after-action", "get", "/api/v1/campaigns/{c}/missions/{done}/after-action/", None, MEMBER_READ),
    ("mission-audit", "get", "/api/v1/campaigns/{c}/missions/audit/", None, GM_ONLY),
]
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
SECRETS = ("Secret slip", "Hidden change", "987", "significance", "outcome", "verdict", "completed")


def _fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


def test_the_walk_names_every_mission_route():
    assert {e[0] for e in ENDPOINTS} == WALKED_ROUTES


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[f"{e[1]} {e[2]}" for e in ENDPOINTS])
def test_every_mission_route_answers_each_role_as_it_must(world, agents, api, role, endpoint):
    _, method, path, body, expected = endpoint
    ids = _setup(world, agents)
    client = api(None if role == "anonymous" else world.users[role])
    response = getattr(client, method)(_fill(path, ids), _fill(body, ids), format="json")
    want = expected[role]
    assert response.status_code == want, response.content
    # Timestamps go first: a roll of 987 must not be "found" in the microseconds of created_at.
    text = TIMESTAMP.sub("<time>", response.content.decode())
    if response.status_code >= 400:
        payload = response.json()
        assert payload["status"] == want and payload["errors"], payload
    if role != "gm":
        for secret in SECRETS:
            assert secret not in text.lower() if secret.islower() else secret not in text, (secret, text)


def test_players_get_no_secret_field_before_publishing(world, agents, api):
    ids = _setup(world, agents)
    player = api(world.users["other_player"])
    listing = player.get(f"/api/v1/campaigns/{ids['c']}/missions/").json()["results"]
    done = next(m for m in listing if m["id"] == ids["done"])
    assert done["status"] == "closed" and done["published"] is False
    assert set(done) == {
        "id",
        "title",
        "briefing",
        "status",
        "parallel",
        "place",
        "start_year",
        "end_year",
        "agents",
        "published",
        "created_at",
    }
    record = player.get(f"/api/v1/campaigns/{ids['c']}/missions/{ids['done']}/after-action/").json()
    assert record == {"mission": ids["done"], "published": False}
    rolls = player.get(f"/api/v1/campaigns/{ids['c']}/rolls/").json()["results"]
    assert rolls == []
    roll = Roll.objects.get(mission_id=ids["done"])
    assert player.get(f"/api/v1/campaigns/{ids['c']}/rolls/{roll.pk}/").status_code == 404
    refused = player.post(
        f"/api/v1/campaigns/{ids['c']}/missions/{ids['done']}/close/", {"result": "success"}
    )
    assert "987" not in refused.content.decode() and refused.status_code == 403


def test_after_publishing_the_player_reads_the_award_and_the_shared_tally(world, agents, api):
    ids = _setup(world, agents)
    gm = api(world.users["gm"])
    assert gm.post(f"/api/v1/campaigns/{ids['c']}/missions/{ids['done']}/publish/").status_code == 200
    record = (
        api(world.users["other_player"])
        .get(f"/api/v1/campaigns/{ids['c']}/missions/{ids['done']}/after-action/")
        .json()
    )
    assert record["published"] and record["verdict"] == "history_intact" and record["roll"] == 987
    assert [a["name"] for a in record["awards"]] == ["Ida Brandt"]
    assert record["awards"][0]["regular"] == 640  # significance 700 - 60, one agent
    assert [e["description"] for e in record["tally"]] == ["Hidden change at the abbey"]
    assert "recorded_by" not in record["tally"][0]
    # the player who sent no agent sees the verdict but no award
    other = (
        api(world.users["player"])
        .get(f"/api/v1/campaigns/{ids['c']}/missions/{ids['done']}/after-action/")
        .json()
    )
    assert other["awards"] == []


def test_the_gm_runs_a_mission_through_the_api(world, agents, api):
    gm = api(world.users["gm"])
    c = world.campaign.pk
    created = gm.post(
        f"/api/v1/campaigns/{c}/missions/",
        {
            "title": "Prague",
            "parallel": "M-2",
            "place": "Prague",
            "start_year": -44,
            "end_year": -44,
            "significance_rating": 301,
            "agents": [a.pk for a in agents],
            "historical_changes_chart": [{"low": 0, "high": None, "text": "Rome keeps a king"}],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    m = created.json()["id"]
    assert gm.post(f"/api/v1/campaigns/{c}/missions/{m}/start/").status_code == 200
    entry = gm.post(
        f"/api/v1/campaigns/{c}/missions/{m}/tally/", {"kind": "other", "rating": 0}, format="json"
    ).json()
    closed = gm.post(
        f"/api/v1/campaigns/{c}/missions/{m}/close/", {"result": "success"}, format="json"
    ).json()
    assert closed["status"] == "completed" and closed["outcome"]["pool"] == 301
    assert (closed["outcome"]["share"], closed["outcome"]["remainder"]) == (150, 1)
    reversal = gm.post(
        f"/api/v1/campaigns/{c}/missions/{m}/tally/{entry['id']}/reverse/",
        {"reason": "not a mistake"},
        format="json",
    )
    assert reversal.status_code == 201 and reversal.json()["after_close"] is True
    assert not agents[0].entries.filter(kind="sp_awarded").exists()  # not published yet
    published = gm.post(f"/api/v1/campaigns/{c}/missions/{m}/publish/")
    assert published.status_code == 200 and published.json()["published_at"]
    agents[0].refresh_from_db()
    assert agents[0].build["success_points"] == 150
    audit = gm.get(f"/api/v1/campaigns/{c}/missions/audit/?agent={agents[0].pk}").json()
    assert [row["title"] for row in audit] == ["Prague"] and audit[0]["remainder"] == 1


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("missions/", {"title": "x", "significance_rating": 1001}, "significance_rating"),
        ("missions/", {"title": "x", "start_year": 0}, "start_year"),
        ("missions/", {"title": "x", "parallel": "Q-9"}, "parallel"),
        ("missions/", {"title": "x", "agents": [999999]}, "agents"),
        ("missions/", {"title": "x", "historical_changes_chart": "0-9: a"}, "historical_changes_chart"),
        (
            "missions/",
            {"title": "x", "historical_changes_chart": [{"low": 5, "high": 1, "text": "a"}]},
            "historical_changes_chart.1.high",
        ),
        ("missions/{active}/tally/", {"kind": "npc_death", "rating": 501}, "rating"),
        ("missions/{active}/tally/", {"kind": "lost_hat", "rating": 5}, "kind"),
        (
            "missions/{active}/tally/",
            {"kind": "equipment_left_behind", "equipment_item": "hat"},
            "equipment_item",
        ),
        ("missions/{active}/tally/", {"kind": "npc_death", "npc": 99999}, "npc"),
        ("missions/{active}/tally/{entry}/reverse/", {"reason": ""}, "reason"),
        ("missions/{active}/tally/999999/reverse/", {"reason": "x"}, "entry"),
        ("missions/{active}/close/", {"result": "won"}, "result"),
        ("missions/{plan}/close/", {"result": "success"}, "status"),
        ("missions/{active}/publish/", {}, "status"),
        ("missions/{done}/tally/", {"kind": "other", "rating": 1}, "status"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_changes_nothing(world, agents, api, path, body, field):
    ids = _setup(world, agents)
    before = (Mission.objects.count(), SignificanceEntry.objects.count(), Roll.objects.count())
    response = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{ids['c']}/" + path.format(**ids), body, format="json"
    )
    assert response.status_code == 400, response.content
    assert field in [e["field"] for e in response.json()["errors"]], response.json()
    assert (Mission.objects.count(), SignificanceEntry.objects.count(), Roll.objects.count()) == before


def test_oversized_and_odd_json_is_refused_cleanly(world, agents, api):
    ids = _setup(world, agents)
    gm = api(world.users["gm"])
    huge = gm.post(
        f"/api/v1/campaigns/{ids['c']}/missions/",
        {"title": "x", "historical_changes_chart": [{"low": 0, "high": None, "text": "y" * 5000}]},
        format="json",
    )
    assert huge.status_code == 400
    odd = gm.generic(
        "POST",
        f"/api/v1/campaigns/{ids['c']}/missions/{ids['active']}/tally/",
        json.dumps([1, 2]),
        content_type="application/json",
    )
    assert odd.status_code == 400


def test_other_systems_missions_keep_a_title_and_briefing_only(world, api):
    outsider = api(world.users["outsider"])  # the GM of the D6 campaign
    url = f"/api/v1/campaigns/{world.elsewhere.pk}/missions/"
    refused = outsider.post(url, {"title": "Heist", "parallel": "T-0"}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "parallel"
    made = outsider.post(url, {"title": "Heist", "briefing": "Crack the vault."}, format="json")
    assert made.status_code == 201
    start = outsider.post(f"{url}{made.json()['id']}/start/")
    # the platform names no system: the refusal says what this system's missions keep
    assert start.status_code == 400 and "title and briefing only" in start.json()["errors"][0]["message"]
