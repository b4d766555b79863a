"""The TIMEMASTER advancement API walked as every persona, bad input, and what each answer holds."""

from __future__ import annotations

import pytest

from characters import services

from .conftest import agent_choices
from .test_advancement_services import after_adventure, promote_to_next_rank

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")
BASE = "/api/v1/campaigns/{c}/characters/{agent}/"

#: The API routes whose every persona this module walks (read by the route-coverage test in
#: tests/campaigns/test_api_roles.py and tests/characters/test_api_roles.py).
WALKED_ROUTES = {
    "api-character-advancement",
    "api-character-shop",
    "api-character-free-pick",
    "api-character-violations",
    "api-character-bonus",
}

READ = {"default": 200, "outsider": 404, "anonymous": 401}
SPEND = {"gm": 201, "player": 201, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 401}
GM_ONLY = {"gm": 201, "player": 403, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 401}
ENDPOINTS = [
    ("api-character-advancement", "get", "advancement/", None, READ),
    ("api-character-shop", "get", "shop/", None, READ),
    ("api-character-shop", "post", "shop/", {"purchase": "ability_point", "ability": "LUCK"}, SPEND),
    ("api-character-free-pick", "get", "free-pick/", None, READ),
    ("api-character-free-pick", "post", "free-pick/", {"choice": "skill", "skill": "sword"}, SPEND),
    ("api-character-violations", "post", "violations/", {"regulation": 4}, GM_ONLY),
    ("api-character-bonus", "post", "bonus/", {"amount": 10, "session": "s1"}, GM_ONLY),
]


@pytest.fixture
def ready(world, make_agent):
    """An agent after ten missions: a new rank with its free pick, and the shop open."""
    agent = make_agent("player")
    promote_to_next_rank(agent, world.users["gm"])
    return agent


def _url(world, agent, tail):
    return BASE.format(c=world.campaign.pk, agent=agent.pk) + tail


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[f"{e[1]} {e[2]}" for e in ENDPOINTS])
def test_every_advancement_endpoint_answers_each_role_as_it_must(world, api, ready, role, endpoint):
    _, method, tail, body, expected = endpoint
    client = api(None if role == "anonymous" else world.users[role])
    before = ready.revision
    response = getattr(client, method)(_url(world, ready, tail), body, format="json")
    want = expected.get(role, expected.get("default"))
    assert response.status_code == want, response.content
    ready.refresh_from_db()
    if response.status_code >= 400:
        payload = response.json()
        assert payload["status"] == want and payload["errors"], payload
        assert ready.revision == before
    elif method == "post":
        assert ready.revision == before + 1 == response.json()["revision"]


def test_the_walk_covers_every_advancement_route():
    from systems.timemaster import api_advancement

    assert {p.name for p in api_advancement.urlpatterns} == WALKED_ROUTES == {e[0] for e in ENDPOINTS}


def test_buying_answers_the_entry_and_the_new_balance(world, api, make_agent):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=300)
    client = api(world.users["player"])
    offer = client.get(_url(world, agent, "shop/")).json()
    assert offer["open"] and offer["balance"] == 300 and offer["can_spend"]
    line = next(r for r in offer["raises"] if r["skill"] == "pistol")
    assert line == {**line, "purchase": "specialist_to_expert", "cost": 100, "allowed": True}
    bought = client.post(
        _url(world, agent, "shop/"),
        {"purchase": "specialist_to_expert", "skill": "pistol", "revision": offer["revision"]},
        format="json",
    )
    assert bought.status_code == 201, bought.content
    body = bought.json()
    assert body["success_points"] == 200 and body["entry"]["kind"] == "sp_spent"
    assert body["entry"]["payload"]["cost"] == 100 and body["standing"]["sp_spent"] == 100
    again = client.get(_url(world, agent, "shop/")).json()
    pistol = next(r for r in again["raises"] if r["skill"] == "pistol")
    assert pistol["from"] == "expert" and not pistol["allowed"]
    assert "already went up a level" in pistol["reason"]


def test_a_stale_revision_is_409_and_buys_nothing(world, api, make_agent):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=300)
    client = api(world.users["player"])
    body = {"purchase": "ability_point", "ability": "LUCK", "revision": agent.revision}
    assert client.post(_url(world, agent, "shop/"), body, format="json").status_code == 201
    again = client.post(_url(world, agent, "shop/"), body, format="json")
    assert again.status_code == 409
    assert again.json()["errors"][0]["field"] == "revision"
    agent.refresh_from_db()
    assert agent.build["success_points"] == 250


@pytest.mark.parametrize(
    "tail, body, field",
    [
        ("shop/", {}, "purchase"),
        ("shop/", {"purchase": "everything"}, "purchase"),
        ("shop/", {"purchase": "new_skill"}, "skill"),
        ("shop/", {"purchase": "new_skill", "skill": ["sword"]}, "skill"),
        ("shop/", {"purchase": "new_skill", "skill": "lightsaber"}, "skill"),
        ("shop/", {"purchase": "ability_point", "ability": "STR", "revision": "soon"}, "revision"),
        ("shop/", {"purchase": "ability_point", "ability": "STR", "revision": 10**30}, "revision"),
        ("free-pick/", {"choice": "talent", "talent": "shock"}, "talent"),
        ("shop/", {"purchase": "new_skill", "skill": "historical_specialty"}, "period"),
        (
            "shop/",
            {"purchase": "new_skill", "skill": "historical_specialty", "period": {"start_year": "x"}},
            "period.start_year",
        ),
        ("free-pick/", {"choice": "both"}, "choice"),
        ("free-pick/", {"choice": "talent"}, "talent"),
        ("violations/", {"regulation": 9}, "regulation"),
        ("violations/", {"regulation": 4, "punishment": "flogging"}, "punishment"),
        ("violations/", {"regulation": 4, "mission": 999999}, "mission"),
        ("violations/", {"regulation": 1, "punishment": "none"}, "punishment"),
        ("bonus/", {"amount": 15, "session": "s1"}, "amount"),
        ("bonus/", {"amount": 60, "session": "s1"}, "amount"),
        ("bonus/", {"amount": 10}, "session"),
        ("bonus/", {"amount": 10, "session": "x" * 61}, "session"),
    ],
)
def test_bad_input_is_400_naming_the_field_and_changes_nothing(world, api, ready, tail, body, field):
    before = ready.revision
    response = api(world.users["gm"]).post(_url(world, ready, tail), body, format="json")
    assert response.status_code == 400, response.content
    assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    ready.refresh_from_db()
    assert ready.revision == before


def test_a_body_that_is_not_json_is_a_clear_400(world, api, ready):
    response = api(world.users["gm"]).post(
        _url(world, ready, "shop/"), "{not json", content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["errors"]


def test_free_pick_shows_options_and_takes_one(world, api, ready):
    client = api(world.users["player"])
    options = client.get(_url(world, ready, "free-pick/")).json()
    assert options["pending"] == [{"rank": "Probationer", "reason": "promotion"}]
    assert any(o["talent"] == "time_shift" and o["allowed"] for o in options["talents"])
    taken = client.post(
        _url(world, ready, "free-pick/"), {"choice": "talent", "talent": "time_shift"}, format="json"
    )
    assert taken.status_code == 201
    assert taken.json()["standing"]["pending_free_choices"] == []


def test_the_standing_shows_rank_status_and_ladder(world, api, ready):
    data = api(world.users["observer"]).get(_url(world, ready, "advancement/")).json()
    assert data["rank_grade"] == "Probationer/0" and data["status"] == "eligible"
    assert data["success_points"] == 100 and data["unaged"] is False and data["can_spend"] is False
    assert data["next_punishment"]["options"] == [
        {"punishment": "demote_grade", "label": "Demoted one grade"}
    ]


def test_violations_follow_the_ladder_and_the_third_needs_a_choice(world, api, ready):
    gm = api(world.users["gm"])
    url = _url(world, ready, "violations/")
    mission = world.campaign.missions.create(title="Troy")
    first = gm.post(url, {"regulation": 4, "mission": mission.pk, "note": "left a stunner"}, format="json")
    assert first.status_code == 201 and first.json()["standing"]["rank_grade"] == "Trainee/9"
    assert first.json()["entry"]["mission"] == mission.pk
    second = gm.post(url, {"regulation": 5}, format="json").json()  # below Trainee: Trainee/0 (ruling 9)
    assert second["standing"]["rank_grade"] == "Trainee/0"
    assert second["entry"]["payload"]["standing_before"] == {"rank": "Trainee", "grade": 9}
    third = gm.post(url, {"regulation": 1}, format="json")
    assert third.status_code == 400 and "choose" in third.json()["errors"][0]["message"]
    banished = gm.post(url, {"regulation": 1, "punishment": "banishment"}, format="json")
    assert banished.json()["standing"]["status"] == "banished"
    assert gm.post(url, {"regulation": 2}, format="json").status_code == 400


def test_a_draft_or_another_system_has_no_advancement(world, api, make_agent):
    draft = services.create_draft(world.campaign, world.users["player"], choices=agent_choices())
    for tail in ("advancement/", "shop/", "free-pick/"):
        assert api(world.users["gm"]).get(_url(world, draft, tail)).status_code == 404


def test_a_character_of_another_campaign_is_404(world, api, make_agent):
    agent = make_agent("player")
    url = f"/api/v1/campaigns/{world.elsewhere.pk}/characters/{agent.pk}/shop/"
    assert api(world.users["outsider"]).get(url).status_code == 404
    assert api(world.users["gm"]).get(url).status_code == 404
    huge = f"/api/v1/campaigns/{world.campaign.pk}/characters/{'9' * 19}/shop/"
    assert api(world.users["gm"]).get(huge).status_code == 404


def test_the_shop_costs_a_fixed_number_of_queries(world, api, make_agent, django_assert_max_num_queries):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=300)
    client = api(world.users["player"])
    with django_assert_max_num_queries(6):
        assert client.get(_url(world, agent, "shop/")).status_code == 200
