"""Every Tempo API route, walked as every persona, plus bad input and secrecy."""

from __future__ import annotations

import random

import pytest

from campaigns.models import Roll
from characters.models import AdvancementEntry, Character
from systems.tempo import services
from systems.tempo.models import Conflict, ConflictEvent

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")
WALKED_ROUTES = {
    "api-tempo-roll",
    "api-tempo-fate-refresh",
    "api-tempo-conflicts",
    "api-tempo-conflict",
    "api-tempo-conflict-events",
}


@pytest.fixture
def ids(world, tempo, agent):
    gm = world.tempo_membership["gm"]
    conflict = services.create_conflict(
        gm,
        {
            "title": "Rooftop chase",
            "sides": [
                {"name": "Kestrel", "characters": [agent.pk]},
                {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm"},
            ],
        },
    )
    return {"c": tempo.pk, "agent": agent.pk, "conflict": conflict.pk}


MEMBERS_INVOLVED = {
    "gm": 200,
    "player": 200,
    "other_player": 403,
    "observer": 403,
    "outsider": 404,
    "anonymous": 401,
}
ENDPOINTS = [
    (
        "api-tempo-roll",
        "post",
        "/api/v1/characters/{agent}/tempo-rolls/",
        {"role": "soldier"},
        {**MEMBERS_INVOLVED, "gm": 201, "player": 201},
    ),
    (
        "api-tempo-fate-refresh",
        "post",
        "/api/v1/campaigns/{c}/tempo/fate-refresh/",
        None,
        {**MEMBERS_INVOLVED, "gm": 200, "player": 403},
    ),
    (
        "api-tempo-conflicts",
        "get",
        "/api/v1/campaigns/{c}/conflicts/",
        None,
        {**MEMBERS_INVOLVED, "other_player": 200},
    ),
    (
        "api-tempo-conflicts",
        "post",
        "/api/v1/campaigns/{c}/conflicts/",
        {
            "title": "Bar fight",
            "sides": [{"name": "Cell", "characters": ["{agent}"]}, {"name": "Thugs", "npcs": ["Hans"]}],
        },
        {**MEMBERS_INVOLVED, "gm": 201, "player": 403, "other_player": 403},
    ),
    ("api-tempo-conflict", "get", "/api/v1/campaigns/{c}/conflicts/{conflict}/", None, MEMBERS_INVOLVED),
    (
        "api-tempo-conflict-events",
        "get",
        "/api/v1/campaigns/{c}/conflicts/{conflict}/events/",
        None,
        MEMBERS_INVOLVED,
    ),
    (
        "api-tempo-conflict-events",
        "post",
        "/api/v1/campaigns/{c}/conflicts/{conflict}/events/",
        {"type": "roll", "sides": {"a": {"character": "{agent}", "role": "soldier"}, "b": {"rating": 4}}},
        {**MEMBERS_INVOLVED, "gm": 201, "player": 403},
    ),
    (
        "api-tempo-conflict-events",
        "post",
        "/api/v1/campaigns/{c}/conflicts/{conflict}/events/",
        {"type": "concede", "side": "a", "terms": "we slip away"},
        {**MEMBERS_INVOLVED, "gm": 201, "player": 201},
    ),
]


def _fill(value, ids):
    if isinstance(value, str):
        filled = value.format(**ids)
        return int(filled) if value.startswith("{") and filled.isdigit() else filled
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[f"{e[1]} {e[2]} {i}" for i, e in enumerate(ENDPOINTS)])
def test_every_endpoint_answers_each_role_as_it_must(world, api, ids, role, endpoint):
    _, method, path, body, expected = endpoint
    client = api(None if role == "anonymous" else world.users[role])

    def counts():
        return tuple(m.objects.count() for m in (Roll, ConflictEvent, Conflict, AdvancementEntry))

    before = counts()
    response = getattr(client, method)(_fill(path, ids), _fill(body, ids), format="json")
    assert response.status_code == expected[role], response.content
    if response.status_code >= 400:
        payload = response.json()
        assert payload["status"] == expected[role] and payload["errors"], payload
        assert counts() == before


def test_the_walk_covers_every_tempo_route():
    from tests.campaigns.test_api_roles import api_v1_patterns

    names = {
        p.name
        for group in api_v1_patterns()
        for p in getattr(group, "url_patterns", [])
        if getattr(p, "name", "") and p.name.startswith("api-tempo")
    }
    assert names == WALKED_ROUTES
    assert {e[0] for e in ENDPOINTS} == WALKED_ROUTES


def test_a_roll_through_the_api_spends_the_fate_point(world, api, agent):
    client = api(world.users["player"])
    url = f"/api/v1/characters/{agent.pk}/tempo-rolls/"
    response = client.post(url, {"role": "thief", "aspects": [{"aspect": "SHARP EYES"}]}, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["fate_points"] == 1 and len(data["roll"]["kept"]) == 3
    assert data["roll"]["detail"]["band"] and data["ledger_entries"][0]["kind"] == "fate_point_spent"


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "role"),
        ({"role": "pilot"}, "role"),
        ({"role": "thief", "bonus_dice": "lots"}, "bonus_dice"),
        ({"role": "thief", "bonus_dice": 10**12}, "bonus_dice"),
        ({"role": "thief", "bonuses": [0]}, "bonuses.0"),
        ({"role": "thief", "bonuses": [1, 10**15]}, "bonuses.1"),
        ({"role": "thief", "penalties": [-(10**15)]}, "penalties.0"),
        ({"role": "thief", "aspects": "all"}, "aspects"),
        ({"role": "thief", "aspects": [{"aspect": "NOT MINE"}]}, "aspects.0.aspect"),
        ({"role": "thief", "aspects": [{"aspect": "primary"}, {"aspect": "origin"}]}, "aspects"),
        ({"role": "thief", "help": [{"kept": [7], "total": 3}]}, "help.0"),
        ({"role": "thief", "hurry": {"mode": "fast"}}, "hurry.mode"),
        ({"role": "thief", "instead_of": "observer"}, "instead_of"),
        ({"role": "thief", "lost_dice": 3}, "lost_dice"),
        ({"role": "thief", "colour": "red"}, "colour"),
        ({"role": ["thief"]}, "role"),
    ],
)
def test_bad_roll_requests_are_400_naming_the_field_and_change_nothing(world, api, agent, body, field):
    response = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/tempo-rolls/", body, format="json"
    )
    assert response.status_code == 400, response.content
    assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    assert not Roll.objects.exists()
    assert Character.objects.get(pk=agent.pk).revision == 1


def test_a_fate_point_spend_at_zero_is_refused(world, api, tempo, make_tempo_agent):
    tempo.settings = {**tempo.settings, "starting_fate_points": 0}
    tempo.save()
    broke = make_tempo_agent()
    response = api(world.users["player"]).post(
        f"/api/v1/characters/{broke.pk}/tempo-rolls/",
        {"role": "thief", "aspects": [{"aspect": "primary"}]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "fate_points"
    assert not Roll.objects.exists() and not AdvancementEntry.objects.filter(character=broke).exists()


def test_a_draft_or_another_systems_character_does_not_roll_here(world, api, tempo):
    from characters import services as character_services

    draft = character_services.create_draft(tempo, world.users["player"], choices={"name": "Half done"})
    response = api(world.users["player"]).post(
        f"/api/v1/characters/{draft.pk}/tempo-rolls/", {"role": "thief"}, format="json"
    )
    assert response.status_code == 400


@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "dance"}, "type"),
        ({}, "type"),
        ({"type": "roll"}, "sides"),
        ({"type": "roll", "sides": {"a": {"rating": 1}}}, "sides"),
        (
            {"type": "roll", "sides": {"a": {"character": 999999, "role": "thief"}, "b": {}}},
            "sides.a.character",
        ),
        ({"type": "roll", "sides": {"a": {"rating": "high"}, "b": {}}}, "sides.a.rating"),
        ({"type": "spend", "side": "a", "benefit": "minor_benefit"}, "side"),
        ({"type": "concede", "side": "c", "terms": "x"}, "side"),
        ({"type": "concede", "side": "a"}, "terms"),
        ({"type": "accept_concession"}, "concession"),
        ({"type": "set_superiority", "side": "a", "values": [9]}, "values"),
        ({"type": "set_cap", "side": "a", "max_level": "even"}, "max_level"),
        ({"type": "end"}, "reason"),
    ],
)
def test_bad_events_are_400_naming_the_field_and_change_nothing(world, api, ids, body, field):
    url = f"/api/v1/campaigns/{ids['c']}/conflicts/{ids['conflict']}/events/"
    before = Conflict.objects.get(pk=ids["conflict"]).state
    response = api(world.users["gm"]).post(url, body, format="json")
    assert response.status_code == 400, response.content
    assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    assert Conflict.objects.get(pk=ids["conflict"]).state == before
    assert not ConflictEvent.objects.exists() and not Roll.objects.exists()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"title": "x", "sides": []}, "sides"),
        ({"title": "x", "sides": [{"name": "A"}, {"name": "B"}]}, "sides.0"),
        ({"title": "x", "sides": [{"characters": ["one"]}, {"npcs": ["B"]}]}, "sides.0.characters"),
        ({"title": "x", "sides": [{"characters": [999999]}, {"npcs": ["B"]}]}, "sides.0.characters"),
        (
            {"title": "x", "sides": [{"npcs": ["A"], "superiority": 7}, {"npcs": ["B"]}]},
            "sides.0.superiority",
        ),
        ({"sides": [{"npcs": ["A"]}, {"npcs": ["B"]}]}, "title"),
    ],
)
def test_bad_conflicts_are_400_and_nothing_is_made(world, api, tempo, body, field):
    response = api(world.users["gm"]).post(f"/api/v1/campaigns/{tempo.pk}/conflicts/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    assert not Conflict.objects.exists()


def test_a_character_of_another_campaign_cannot_join_a_conflict(world, api, tempo):
    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    other = character_services.finalize(
        character_services.create_draft(world.campaign, world.users["player"], choices=agent_choices()),
        is_gm=True,
    )
    body = {"title": "x", "sides": [{"characters": [other.pk]}, {"npcs": ["B"]}]}
    response = api(world.users["gm"]).post(f"/api/v1/campaigns/{tempo.pk}/conflicts/", body, format="json")
    assert response.status_code == 400


def test_conflicts_belong_to_tempo_campaigns(world, api):
    assert api(world.users["gm"]).get(f"/api/v1/campaigns/{world.campaign.pk}/conflicts/").status_code == 404


def test_players_never_see_the_gm_sides_rolls(world, api, ids):
    url = f"/api/v1/campaigns/{ids['c']}/conflicts/{ids['conflict']}/events/"
    gm = api(world.users["gm"])
    body = {
        "type": "roll",
        "sides": {"a": {"character": ids["agent"], "role": "soldier"}, "b": {"rating": 4}},
    }
    assert gm.post(url, body, format="json").status_code == 201
    gm_view = gm.get(url).json()["results"][0]["record"]
    assert isinstance(gm_view["totals"]["b"], int) and "kept" in gm_view["results"]["b"]
    player_event = api(world.users["player"]).get(url).json()["results"][0]
    player_view = player_event["record"]
    assert player_view["totals"]["b"] is None and player_view["results"]["b"] == {"hidden": True}
    assert player_view["margin"] is None and "wins by" not in player_event["summary"]
    assert isinstance(player_view["totals"]["a"], int)
    detail = (
        api(world.users["player"]).get(f"/api/v1/campaigns/{ids['c']}/conflicts/{ids['conflict']}/").json()
    )
    assert detail["state"]["log"][0]["results"]["b"] == {"hidden": True}
    secret = Roll.objects.get(secret=True)
    listing = api(world.users["player"]).get(f"/api/v1/campaigns/{ids['c']}/rolls/").json()["results"]
    (sealed,) = [r for r in listing if r["id"] == secret.pk]  # listed as made, never its dice
    assert sealed["sealed"] and sealed["total"] is None and sealed["faces"] == [] and sealed["detail"] == {}


def test_the_stored_state_is_the_events_replayed(world, ids):
    from systems.tempo.engine import conflict as engine_conflict

    gm = world.tempo_membership["gm"]
    conflict = Conflict.objects.get(pk=ids["conflict"])
    rng = random.Random(5)
    for _ in range(4):
        services.add_event(
            gm, conflict, {"type": "roll", "sides": {"a": {"rating": 8}, "b": {"rating": 0}}}, rng
        )
    conflict.refresh_from_db()
    events = [e.payload for e in conflict.events.all()]
    assert engine_conflict.replay(conflict.initial_state, events) == conflict.state
    assert [e.seq for e in conflict.events.all()] == [1, 2, 3, 4]


def test_conflict_events_are_append_only(world, ids):
    gm = world.tempo_membership["gm"]
    conflict = Conflict.objects.get(pk=ids["conflict"])
    event = services.add_event(gm, conflict, {"type": "concede", "side": "b", "terms": "they flee"})
    event.summary = "changed"
    with pytest.raises(ValueError):
        event.save()
    with pytest.raises(ValueError):
        event.delete()


def test_the_conflict_list_costs_the_same_queries_for_more_conflicts(
    world, api, ids, django_assert_max_num_queries
):
    gm = world.tempo_membership["gm"]
    client = api(world.users["gm"])
    url = f"/api/v1/campaigns/{ids['c']}/conflicts/"
    client.get(url)
    for n in range(5):
        services.create_conflict(gm, {"title": f"C{n}", "sides": [{"npcs": ["A"]}, {"npcs": ["B"]}]})
    with django_assert_max_num_queries(8):
        assert len(client.get(url).json()["results"]) == 6


ODD_VALUES = [None, 7, -1, 10**30, 1.5, True, "", "x" * 500, [], ["a"], {}, {"a": 1}]
EVENT_KEYS = [
    "side",
    "tier",
    "benefit",
    "aspect",
    "terms",
    "reason",
    "values",
    "max_level",
    "goal",
    "note",
    "ends_conflict",
    "sides",
]


@pytest.mark.parametrize(
    "event_type",
    ["roll", "spend", "concede", "refuse_concession", "set_superiority", "set_cap", "veto_concession", "end"],
)
def test_odd_json_in_any_event_field_is_a_4xx_never_a_500(world, api, ids, event_type):
    url = f"/api/v1/campaigns/{ids['c']}/conflicts/{ids['conflict']}/events/"
    for persona in ("gm", "player"):
        client = api(world.users[persona])
        for key in EVENT_KEYS:
            for value in ODD_VALUES:
                response = client.post(url, {"type": event_type, key: value}, format="json")
                assert response.status_code < 500, (persona, key, value, response.content)
                if response.status_code >= 400:
                    assert response.json()["errors"]
    for value in ODD_VALUES:
        response = api(world.users["gm"]).post(url, {"type": value}, format="json")
        assert 400 <= response.status_code < 500
    assert api(world.users["gm"]).post(url, ["roll"], format="json").status_code == 400


def test_odd_json_in_a_roll_request_is_a_4xx_never_a_500(world, api, agent):
    url = f"/api/v1/characters/{agent.pk}/tempo-rolls/"
    client = api(world.users["player"])
    keys = [
        "role",
        "instead_of",
        "purpose",
        "aspects",
        "bonuses",
        "penalties",
        "descriptive",
        "bonus_dice",
        "penalty_dice",
        "extra_dice",
        "lost_dice",
        "help",
        "hurry",
    ]
    for key in keys:
        for value in [*ODD_VALUES, [{"aspect": []}], [{"kept": "x", "total": {}}], {"mode": [], "text": 5}]:
            body = {"role": "thief", key: value}
            response = client.post(url, body, format="json")
            assert response.status_code < 500, (key, value, response.content)
    assert not Roll.objects.filter(total__isnull=True).exists()


def test_the_gm_sides_set_up_aspects_stay_secret_from_players(world, api, tempo, agent, client):
    gm = world.tempo_membership["gm"]
    conflict = services.create_conflict(
        gm,
        {
            "title": "Safe house",
            "sides": [
                {"name": "Kestrel", "characters": [agent.pk]},
                {
                    "name": "Stasi",
                    "npcs": ["Brandt"],
                    "controlled_by": "gm",
                    "aspects": ["SECRETLY A DOUBLE AGENT"],
                },
            ],
        },
    )
    url = f"/api/v1/campaigns/{tempo.pk}/conflicts/{conflict.pk}/"
    assert "SECRETLY A DOUBLE AGENT" in api(world.users["gm"]).get(url).content.decode()
    assert "SECRETLY A DOUBLE AGENT" not in api(world.users["player"]).get(url).content.decode()
    client.force_login(world.users["player"])
    assert "SECRETLY A DOUBLE AGENT" not in client.get(f"/conflicts/{conflict.pk}/").content.decode()
    client.force_login(world.users["gm"])
    assert "SECRETLY A DOUBLE AGENT" in client.get(f"/conflicts/{conflict.pk}/").content.decode()


def test_the_tracker_page_costs_the_same_queries_for_more_events(
    world, ids, client, django_assert_max_num_queries
):
    gm = world.tempo_membership["gm"]
    conflict = Conflict.objects.get(pk=ids["conflict"])
    client.force_login(world.users["gm"])
    services.add_event(gm, conflict, {"type": "roll", "sides": {"a": {"rating": 1}, "b": {"rating": 1}}})
    client.get(f"/conflicts/{conflict.pk}/")
    for _ in range(6):
        services.add_event(gm, conflict, {"type": "roll", "sides": {"a": {"rating": 1}, "b": {"rating": 1}}})
    with django_assert_max_num_queries(12):
        assert client.get(f"/conflicts/{conflict.pk}/").status_code == 200


def test_the_agent_page_costs_the_same_queries_for_more_rolls(
    world, agent, client, django_assert_max_num_queries
):
    player = world.tempo_membership["player"]
    client.force_login(world.users["player"])
    services.roll_for_character(player, agent, "thief", {})
    client.get(f"/characters/{agent.pk}/")
    for _ in range(8):
        services.roll_for_character(player, agent, "thief", {})
    with django_assert_max_num_queries(12):
        assert client.get(f"/characters/{agent.pk}/").status_code == 200
