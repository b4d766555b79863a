"""Fair dice endpoints and pages (issue 32), walked as every persona; what each gets."""

from __future__ import annotations

import pytest

from campaigns.models import ClientSeed, Roll, RollSeed
from campaigns.table import fairness, rolling
from characters.systems import fair_dice

ROLES = ("gm", "player", "observer", "outsider", "anonymous")
MEMBER_READ = {"gm": 200, "player": 200, "observer": 200, "outsider": 404, "anonymous": 401}
PLAYER_ONLY = {"gm": 403, "player": 200, "observer": 403, "outsider": 404, "anonymous": 401}
GM_ONLY = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401}

ENDPOINTS = [
    ("api-fair-dice", "get", "/api/v1/campaigns/{c}/fair-dice/", None, MEMBER_READ),
    (
        "api-fair-dice-seed",
        "get",
        "/api/v1/campaigns/{c}/fair-dice/my-seed/",
        None,
        {**MEMBER_READ, "observer": 403},
    ),
    ("api-fair-dice-seed", "put", "/api/v1/campaigns/{c}/fair-dice/my-seed/", {"seed": "socks"}, PLAYER_ONLY),
    ("api-fair-dice-rotate", "post", "/api/v1/campaigns/{c}/fair-dice/rotate/", None, GM_ONLY),
    (
        "api-roll-by-hand",
        "post",
        "/api/v1/campaigns/{c}/rolls-by-hand/",
        {"kind": "d6", "count": 2, "faces": [3, 5]},
        {**MEMBER_READ, "gm": 201, "player": 201, "observer": 403},
    ),
]
WALKED_ROUTES = {e[0] for e in ENDPOINTS}  # tests/campaigns/test_api_roles.py checks every route is walked


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[f"{e[1]} {e[2]}" for e in ENDPOINTS])
def test_every_fair_dice_endpoint_answers_each_role_as_it_must(world, api, role, endpoint):
    _, method, path, body, expected = endpoint
    client = api(None if role == "anonymous" else world.users[role])
    response = getattr(client, method)(path.format(c=world.campaign.pk), body, format="json")
    assert response.status_code == expected[role], response.content
    if response.status_code >= 400:
        assert response.json()["errors"], "a refusal says why"


WEB_ROUTES = [
    ("get", "/campaigns/{c}/dice/fair/", {}, {"gm": 200, "player": 200, "observer": 200}),
    (
        "post",
        "/campaigns/{c}/dice/fair/seed/",
        {"seed": "socks"},
        {"gm": 403, "player": 302, "observer": 403},
    ),
    ("post", "/campaigns/{c}/dice/fair/rotate/", {}, {"gm": 302, "player": 403, "observer": 403}),
    (
        "post",
        "/campaigns/{c}/dice/by-hand/",
        {"kind": "d10", "count": 1, "modifier": 0, "faces": "10"},
        {"gm": 302, "player": 302, "observer": 403},
    ),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("route", WEB_ROUTES, ids=[f"{r[0]} {r[1]}" for r in WEB_ROUTES])
def test_every_fair_dice_page_answers_each_role_as_it_must(world, client, role, route):
    method, path, body, expected = route
    if role != "anonymous":
        client.force_login(world.users[role])
    response = getattr(client, method)(path.format(c=world.campaign.pk), body)
    if role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == expected.get(role, 404)


def test_a_player_sets_their_seed_and_the_next_roll_takes_it(world, api):
    client = api(world.users["player"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/fair-dice/my-seed/"
    assert len(client.get(url).json()["seed"]) == 16  # a random one until they choose
    assert client.put(url, {"seed": "  my lucky socks "}, format="json").json() == {"seed": "my lucky socks"}
    roll = rolling.record_roll(world.membership["gm"], kind="d6")
    assert "my lucky socks" in roll.proof.client_seeds


@pytest.mark.parametrize("seed", ["", "x" * 65, "tab\there"])
def test_a_bad_seed_is_refused_and_changes_nothing(world, api, seed):
    client = api(world.users["player"])
    response = client.put(
        f"/api/v1/campaigns/{world.campaign.pk}/fair-dice/my-seed/", {"seed": seed}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "seed"
    assert not ClientSeed.objects.filter(seed=seed).exists()


def test_the_gm_rotates_and_gets_the_revealed_seed(world, api):
    before = fairness.current_seed(world.campaign)
    body = api(world.users["gm"]).post(f"/api/v1/campaigns/{world.campaign.pk}/fair-dice/rotate/").json()
    assert body["rotated"]["server_seed"] == before.server_seed and body["current"]["server_seed"] is None
    assert body["current"]["number"] == 2
    assert body["rotated"]["secret_key"] == before.secret_key  # no secret roll under it: nothing to keep
    assert RollSeed.objects.filter(campaign=world.campaign).count() == 2


def test_a_roll_by_hand_is_totalled_marked_and_not_verifiable(world, api):
    url = f"/api/v1/campaigns/{world.campaign.pk}/rolls-by-hand/"
    body = api(world.users["player"]).post(
        url, {"kind": "3d6_bonus", "count": 1, "modifier": 2, "faces": [6, 1, 4, 5]}, format="json"
    )
    assert body.status_code == 201, body.content
    assert body.json()["total"] == 6 + 4 + 5 + 2 and body.json()["kept"] == [6, 5, 4]
    roll = Roll.objects.get()
    assert roll.proof.by_hand
    doc = fairness.proof_document(world.campaign, world.users["observer"], world.membership["observer"])
    assert fairness.verify_document(doc) == [
        {"id": roll.pk, "verdict": "by hand", "reason": fair_dice.WHY_BY_HAND}
    ]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kind": "d6", "count": 2, "faces": [3]}, "faces"),
        ({"kind": "d6", "count": 1, "faces": [3, 4]}, "faces"),
        ({"kind": "d6", "count": 1, "faces": [7]}, "faces"),
        ({"kind": "percent", "count": 1, "faces": [10, 0]}, "faces"),
        ({"kind": "fudge", "count": 1, "faces": [2]}, "faces"),
        ({"kind": "d20", "count": 1, "faces": [2]}, "kind"),
        ({"kind": "d6", "count": 1, "faces": [2], "mission": 999}, "mission"),
        ({"kind": "d6", "count": 1, "faces": [2], "secret": True}, None),
    ],
)
def test_a_bad_roll_by_hand_is_refused_and_logs_nothing(world, api, body, field):
    response = api(world.users["player"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/rolls-by-hand/", body, format="json"
    )
    assert response.status_code in (400, 403), response.content
    if field:
        assert response.json()["errors"][0]["field"].startswith(field)
    assert not Roll.objects.exists()


def test_the_log_marks_a_roll_entered_by_hand(world, client):
    rolling.enter_roll_by_hand(world.membership["player"], kind="d10", faces=[10, 3], count=2)
    client.force_login(world.users["observer"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert "entered by hand, not verifiable" in page and "10 3" in page


def test_the_dice_page_shows_the_commitment_before_any_roll(world, client):
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    seed = RollSeed.objects.get(campaign=world.campaign)
    assert seed.commitment in page and seed.server_seed not in page and not Roll.objects.exists()


def test_the_fair_page_never_shows_an_unrevealed_seed(world, client):
    gm = world.membership["gm"]
    rolling.record_roll(gm, kind="d6", secret=True)
    seed = fairness.current_seed(world.campaign)
    for role in ("gm", "player", "observer"):
        client.force_login(world.users[role])
        page = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/").content.decode()
        assert seed.commitment in page and seed.server_seed not in page and seed.secret_key not in page


def test_the_proof_document_and_the_page_take_one_seed_at_a_time(world, api, client):
    gm = world.membership["gm"]
    first = rolling.record_roll(gm, kind="d6")
    fairness.rotate(gm)
    second = rolling.record_roll(gm, kind="d6")
    url = f"/api/v1/campaigns/{world.campaign.pk}/fair-dice/"
    one = api(world.users["player"]).get(url, {"seed": 1}).json()
    assert [r["id"] for r in one["rolls"]] == [first.pk] and [s["number"] for s in one["seeds"]] == [1]
    two = api(world.users["player"]).get(url, {"seed": 2}).json()
    assert [r["id"] for r in two["rolls"]] == [second.pk]
    assert api(world.users["player"]).get(url, {"seed": "x"}).status_code == 400
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/").content.decode()
    assert "Check the rolls of seed 1" in page and str(first.pk) in page and str(second.pk) not in page
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/?seed=2").content.decode()
    assert "Check the rolls of seed 2" in page and str(second.pk) in page
