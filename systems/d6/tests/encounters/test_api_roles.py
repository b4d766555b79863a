"""Every D6 encounter API route, walked as every persona, plus what each role may see and what bad
input does (a clear 4xx, and nothing changes)."""

from __future__ import annotations

import json
import random

import pytest

from systems.d6 import services
from systems.d6.models import Encounter, EncounterEvent, Participant

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")
MEMBER_READ = {
    "gm": 200,
    "player": 200,
    "other_player": 200,
    "observer": 200,
    "outsider": 404,
    "anonymous": 401,
}


def gm_only(ok):
    return {"gm": ok, "player": 403, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 401}


def _ids(d6):
    """A setup encounter (with an NPC) and a running one (Ada, Bo and the thugs)."""
    gm = d6.users["gm"]
    setup = services.create_encounter(d6.campaign, gm, name="Alley", method="every_round")
    npc = services.add_npc(setup, {"name": "Guard", "attributes": {"Perception": "2D", "Reflexes": "2D"}})
    running = services.create_encounter(d6.campaign, gm, name="Dockside", method="once_per_scene")
    services.add_character(running, d6.ada.pk)
    services.add_character(running, d6.bo.pk)
    services.add_npc(
        running,
        {
            "kind": "group",
            "name": "Thugs",
            "members": ["Thug 1", "Thug 2"],
            "attributes": {"Perception": "2D+1", "Reflexes": "3D"},
            "skills": {"brawling": {"attribute": "Reflexes", "code": "4D+2"}},
        },
    )
    services.start_encounter(running)
    return {"c": d6.campaign.pk, "setup": setup.pk, "npc": npc.pk, "running": running.pk}


ENC = "/api/v1/campaigns/{c}/d6-encounters/"
# (route name, method, path, body, {role: status})
ENDPOINTS = [
    ("api-d6-encounter-list", "get", ENC, None, MEMBER_READ),
    ("api-d6-encounter-list", "post", ENC, {"name": "Rooftops", "method": "first_move"}, gm_only(201)),
    ("api-d6-encounter-detail", "get", ENC + "{running}/", None, MEMBER_READ),
    ("api-d6-encounter-detail", "get", ENC + "{setup}/", None, MEMBER_READ),
    ("api-d6-encounter-detail", "patch", ENC + "{setup}/", {"method": "first_move"}, gm_only(200)),
    ("api-d6-encounter-start", "post", ENC + "{setup}/start/", None, gm_only(200)),
    ("api-d6-participant-list", "get", ENC + "{running}/participants/", None, MEMBER_READ),
    (
        "api-d6-participant-list",
        "post",
        ENC + "{setup}/participants/",
        {"name": "Dog", "attributes": {"Perception": "3D", "Reflexes": "4D"}},
        gm_only(201),
    ),
    ("api-d6-participant-detail", "get", ENC + "{setup}/participants/{npc}/", None, MEMBER_READ),
    ("api-d6-participant-detail", "delete", ENC + "{setup}/participants/{npc}/", None, gm_only(204)),
    ("api-d6-event-list", "get", ENC + "{running}/events/", None, MEMBER_READ),
    ("api-d6-event-list", "post", ENC + "{running}/events/", {"type": "begin_round"}, gm_only(201)),
]
WALKED_ROUTES = {e[0] for e in ENDPOINTS}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    "name, method, path, body, expected", ENDPOINTS, ids=[f"{e[1]} {e[2]}" for e in ENDPOINTS]
)
def test_every_route_for_every_role(d6, api, role, name, method, path, body, expected):
    ids = _ids(d6)
    client = api(None if role == "anonymous" else d6.users[role])
    before = (Encounter.objects.count(), Participant.objects.count(), EncounterEvent.objects.count())
    response = getattr(client, method)(path.format(**ids), body, format="json")
    want = expected[role]
    assert response.status_code == want, (role, response.content)
    if want >= 400:
        payload = response.json()
        assert payload["status"] == want and payload["errors"], payload
        after = (Encounter.objects.count(), Participant.objects.count(), EncounterEvent.objects.count())
        assert after == before
        assert Encounter.objects.get(pk=ids["setup"]).status == "setup"


def test_the_walk_covers_every_route_of_the_app():
    from systems.d6 import api_urls

    assert {p.name for p in api_urls.urlpatterns} == WALKED_ROUTES


# -- secrecy --------------------------------------------------------------------------------------
def _play_a_little(d6, ids):
    encounter = Encounter.objects.get(pk=ids["running"])
    gm = d6.membership["gm"]
    services.record_event(encounter, gm, {"type": "begin_round"}, random.Random(1))
    services.record_event(encounter, gm, {"type": "roll_initiative"}, random.Random(2))
    first = encounter.state["order"][0]
    services.record_event(encounter, gm, {"type": "declare", "participant": first, "actions": 2})
    return encounter


@pytest.mark.parametrize("role", ("player", "other_player", "observer"))
def test_players_and_observers_never_get_npc_statistics(d6, api, role):
    ids = _ids(d6)
    _play_a_little(d6, ids)
    client = api(d6.users[role])
    texts = []
    for path in (
        "{running}/",
        "{running}/participants/",
        "{running}/events/",
        "{setup}/",
        "{setup}/participants/{npc}/",
    ):
        response = client.get((ENC + path).format(**ids))
        assert response.status_code == 200
        texts.append(response.content.decode())
    text = "\n".join(texts)
    for secret in ("2D+1", "4D+2", "Thug 1", "Thug 2", '"stats"', '"members"', '"payload"'):
        assert secret not in text, secret
    view = client.get((ENC + "{running}/").format(**ids)).json()["view"]
    thugs = next(row for row in view["order"] if row["id"] == "group-1")
    assert thugs["initiative_total"] is None and "declared" not in thugs
    gm_parts = api(d6.users["gm"]).get((ENC + "{running}/participants/").format(**ids)).content.decode()
    assert "2D+1" in gm_parts and "Thug 1" in gm_parts


def test_a_player_sees_declarations_of_their_own_characters_only(d6, api):
    ids = _ids(d6)
    encounter = _play_a_little(d6, ids)
    first = encounter.state["order"][0]
    view = api(d6.users["player"]).get((ENC + "{running}/").format(**ids)).json()["view"]
    rows = {row["id"]: row for row in view["order"]}
    ada = f"character-{d6.ada.pk}"
    assert "declared" in rows[ada] and rows[ada]["mine"]
    assert all("declared" not in row for pid, row in rows.items() if pid != ada)
    if first == ada:
        assert rows[ada]["declared"] == 2 and rows[ada]["penalty"] == "-1D"
    assert [row["id"] for row in view["order"]] == encounter.state["order"]


# -- who may act --------------------------------------------------------------------------------------
def _turn_of(d6, ids, who):
    """Play until ``who`` ("character-N") is the one acting in round 1."""
    encounter = Encounter.objects.get(pk=ids["running"])
    gm = d6.membership["gm"]
    services.record_event(encounter, gm, {"type": "begin_round"}, random.Random(1))
    order = [who] + [pid for pid in encounter.state["setup_order"] if pid != who]
    services.record_event(encounter, gm, {"type": "order_without_rolls"})
    services.record_event(encounter, gm, {"type": "set_order", "order": order, "reason": "test"})
    return encounter


def test_a_player_declares_and_acts_for_their_own_character(d6, api):
    ids = _ids(d6)
    ada = f"character-{d6.ada.pk}"
    _turn_of(d6, ids, ada)
    client = api(d6.users["player"])
    url = (ENC + "{running}/events/").format(**ids)
    response = client.post(url, {"type": "declare", "participant": ada, "actions": 3}, format="json")
    assert response.status_code == 201, response.content
    row = next(r for r in response.json()["view"]["order"] if r["id"] == ada)
    assert row["declared"] == 3 and row["penalty"] == "-2D"
    response = client.post(url, {"type": "wait", "participant": ada}, format="json")
    assert response.status_code == 201, response.content


@pytest.mark.parametrize(
    "role, event, expected",
    [
        ("other_player", {"type": "declare", "participant": "ADA", "actions": 1}, 403),
        ("player", {"type": "declare", "participant": "group-1", "actions": 1}, 403),
        ("player", {"type": "roll_initiative"}, 403),
        ("player", {"type": "end_scene"}, 403),
        ("observer", {"type": "declare", "participant": "ADA", "actions": 1}, 403),
        ("outsider", {"type": "declare", "participant": "ADA", "actions": 1}, 404),
    ],
)
def test_nobody_acts_for_someone_elses_character(d6, api, role, event, expected):
    ids = _ids(d6)
    ada = f"character-{d6.ada.pk}"
    encounter = _turn_of(d6, ids, ada)
    count = encounter.event_count
    event = {k: (ada if v == "ADA" else v) for k, v in event.items()}
    response = api(d6.users[role]).post((ENC + "{running}/events/").format(**ids), event, format="json")
    assert response.status_code == expected, response.content
    encounter.refresh_from_db()
    assert encounter.event_count == count


# -- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "teleport"}, "type"),
        ({"type": "declare", "participant": "nobody", "actions": 1}, "participant"),
        ({"type": "declare", "participant": "ADA", "actions": "two"}, "actions"),
        ({"type": "declare", "participant": "ADA", "actions": -1}, "actions"),
        ({"type": "begin_round"}, "phase"),
        ({"type": "act", "participant": "ADA", "action": "punch", "trait": "brawling"}, "participant"),
        ([1, 2, 3], "type"),
        ("just text", "type"),
    ],
)
def test_bad_events_are_refused_naming_the_field_and_change_nothing(d6, api, body, field):
    ids = _ids(d6)
    ada = f"character-{d6.ada.pk}"
    encounter = _turn_of(d6, ids, ada)
    state, count = json.dumps(encounter.state, sort_keys=True), encounter.event_count
    if isinstance(body, dict):
        body = {k: (ada if v == "ADA" else v) for k, v in body.items()}
    response = api(d6.users["gm"]).post((ENC + "{running}/events/").format(**ids), body, format="json")
    assert response.status_code == 400, response.content
    payload = response.json()
    assert field in {e["field"] for e in payload["errors"]}, payload
    encounter.refresh_from_db()
    assert encounter.event_count == count and json.dumps(encounter.state, sort_keys=True) == state


@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "Dog", "attributes": {"Perception": "3Q", "Reflexes": "2D"}}, "attributes.Perception"),
        ({"name": "Dog", "attributes": {"Perception": "3D+3", "Reflexes": "2D"}}, "attributes.Perception"),
        ({"name": "Dog", "attributes": {"Reflexes": "2D"}}, "attributes.Perception"),
        ({"name": "Dogs", "kind": "group", "attributes": {"Perception": "3D", "Reflexes": "2D"}}, "members"),
        ({"name": "Dog", "kind": "dragon"}, "kind"),
        ({"attributes": {"Perception": "3D"}}, "name"),
        ({"character": 999999}, "character"),
        ({"character": "x"}, "character"),
    ],
)
def test_bad_participants_are_refused_naming_the_field(d6, api, body, field):
    ids = _ids(d6)
    before = Participant.objects.count()
    response = api(d6.users["gm"]).post((ENC + "{setup}/participants/").format(**ids), body, format="json")
    assert response.status_code == 400, response.content
    assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    assert Participant.objects.count() == before


def test_a_character_of_another_campaign_a_draft_or_a_retired_one_cannot_join(d6, api):
    from characters import services as character_services
    from systems.d6.tests.encounters.conftest import character_choices, make_character

    ids = _ids(d6)
    stranger = make_character(d6.elsewhere, d6.users["outsider"], character_choices("Stranger"))
    draft = character_services.create_draft(d6.campaign, d6.users["player"], choices={"name": "Half done"})
    retired = make_character(d6.campaign, d6.users["player"], character_choices("Old Hand"))
    retired.status = "retired"
    retired.save()
    url = (ENC + "{setup}/participants/").format(**ids)
    for character in (stranger, draft, retired):
        response = api(d6.users["gm"]).post(url, {"character": character.pk}, format="json")
        assert response.status_code == 400, response.content
    assert not Participant.objects.filter(character__in=[stranger, draft, retired]).exists()


def test_a_started_encounter_keeps_its_setup(d6, api):
    ids = _ids(d6)
    gm = api(d6.users["gm"])
    base = (ENC + "{running}/").format(**ids)
    assert gm.patch(base, {"method": "first_move"}, format="json").status_code == 400
    assert gm.post(base + "start/", format="json").status_code == 400
    response = gm.post(
        base + "participants/",
        {"name": "Late", "attributes": {"Perception": "2D", "Reflexes": "2D"}},
        format="json",
    )
    assert response.status_code == 400
    participant = Participant.objects.filter(encounter_id=ids["running"]).first()
    assert gm.delete(base + f"participants/{participant.pk}/").status_code == 400
    assert Encounter.objects.get(pk=ids["running"]).method == "once_per_scene"


def test_an_encounter_needs_participants_and_events_wait_for_the_start(d6, api):
    gm = api(d6.users["gm"])
    created = gm.post(ENC.format(c=d6.campaign.pk), {"name": "Empty"}, format="json").json()
    base = ENC.format(c=d6.campaign.pk) + f"{created['id']}/"
    assert created["method"] == "once_per_scene"  # the campaign's default (Method 2)
    response = gm.post(base + "start/", format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "participants"
    response = gm.post(base + "events/", {"type": "begin_round"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "status"


@pytest.mark.parametrize("body", [{"name": ""}, {"name": "x", "method": "method4"}, {"name": "x" * 500}, {}])
def test_bad_encounters_are_refused(d6, api, body):
    response = api(d6.users["gm"]).post(ENC.format(c=d6.campaign.pk), body, format="json")
    assert response.status_code == 400, response.content
    assert not Encounter.objects.exists()


def test_encounters_are_for_d6_campaigns_only(world, api):
    """A campaign of another system is 404 on every D6 route (tests/test_wrong_system_routes.py)."""
    response = api(world.users["gm"]).post(ENC.format(c=world.campaign.pk), {"name": "Nope"}, format="json")
    assert response.status_code == 404
    assert not Encounter.objects.exists()


def test_the_list_costs_the_same_queries_for_many_encounters(d6, api, django_assert_max_num_queries):
    for number in range(3):
        services.create_encounter(d6.campaign, d6.users["gm"], name=f"E{number}")
    client = api(d6.users["player"])
    url = ENC.format(c=d6.campaign.pk)
    with django_assert_max_num_queries(8) as few:
        client.get(url)
    for number in range(20):
        services.create_encounter(d6.campaign, d6.users["gm"], name=f"F{number}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "order_without_rolls", "first": [{}]},
        {"type": "order_without_rolls", "situational": [["x"]]},
        {"type": "roll_initiative", "rolls": {"character-1": "zzz"}},
        {"type": "set_order", "order": [{}, []]},
        {"type": "declare", "participant": {"a": 1}, "actions": 1},
        {"type": "act", "participant": ["x"], "action": {}, "trait": []},
        {"type": "roll", "participant": "group-1", "roll_kind": "damage", "code": 3},
        {"type": "begin_round", "all_movement_costs_action": "yes"},
        {"type": None},
        {"type": ["begin_round"]},
    ],
)
def test_malformed_events_are_a_400_never_a_500(d6, api, body):
    ids = _ids(d6)
    encounter = Encounter.objects.get(pk=ids["running"])
    gm = d6.membership["gm"]
    services.record_event(encounter, gm, {"type": "begin_round"})
    count = encounter.event_count
    url = (ENC + "{running}/events/").format(**ids)
    response = api(d6.users["gm"]).post(url, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    encounter.refresh_from_db()
    assert encounter.event_count == count


def test_a_form_encoded_event_is_read_as_plain_fields(d6, api):
    ids = _ids(d6)
    response = api(d6.users["gm"]).post((ENC + "{running}/events/").format(**ids), {"type": "begin_round"})
    assert response.status_code == 201, response.content
    assert EncounterEvent.objects.get().payload == {"type": "begin_round"}
