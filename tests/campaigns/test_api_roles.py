"""Every API endpoint, walked as every persona, with the status each must get."""

from __future__ import annotations

import random

import pytest
from django.urls import get_resolver

from campaigns import services
from campaigns.models import Invitation, Membership, Role, Roll
from campaigns.table import rolling
from tests import system_kit

ROLES = ("gm", "player", "observer", "outsider", "anonymous")


def _setup(world):
    campaign = world.campaign
    gm = world.membership["gm"]
    mission = campaign.missions.create(title="Op")
    open_roll = rolling.record_roll(gm, kind="d6", rng=random.Random(1))
    secret_roll = rolling.record_roll(gm, kind="d1000", secret=True, rng=random.Random(2))
    hidden_roll = rolling.record_roll(gm, kind="d1000", secret=True, announced=False, rng=random.Random(3))
    invitation = services.create_invitation(campaign, world.users["gm"])
    spare = Membership.objects.create(
        campaign=campaign,
        user=type(world.users["gm"]).objects.create_user("spare", password="x-long-password"),
        role=Role.PLAYER,
    )
    return {
        "c": campaign.pk,
        "mission": mission.pk,
        "open_roll": open_roll.pk,
        "secret_roll": secret_roll.pk,
        "hidden_roll": hidden_roll.pk,
        "invitation": invitation.pk,
        "code": invitation.code,
        "spare": spare.pk,
        "player_member": world.membership["player"].pk,
    }


# (name, method, path, body, {role: status}); missing roles default to the "default" entry.
MEMBER_READ = {"gm": 200, "player": 200, "observer": 200, "outsider": 404, "anonymous": 401}
GM_ONLY_WRITE = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401}
ENDPOINTS = [
    ("api-me", "get", "/api/v1/me/", None, {"default": 200, "anonymous": 401}),
    ("api-systems", "get", "/api/v1/systems/", None, {"default": 200, "anonymous": 401}),
    ("campaign-list", "get", "/api/v1/campaigns/", None, {"default": 200, "anonymous": 401}),
    (
        "campaign-list",
        "post",
        "/api/v1/campaigns/",
        {"name": "New", "system": system_kit.installed_keys()[-1]},
        {"default": 201, "anonymous": 401},
    ),
    ("campaign-detail", "get", "/api/v1/campaigns/{c}/", None, MEMBER_READ),
    ("campaign-detail", "patch", "/api/v1/campaigns/{c}/", {"name": "Renamed"}, GM_ONLY_WRITE),
    ("member-list", "get", "/api/v1/campaigns/{c}/members/", None, MEMBER_READ),
    (
        "member-detail",
        "patch",
        "/api/v1/campaigns/{c}/members/{player_member}/",
        {"role": "player"},
        GM_ONLY_WRITE,
    ),
    (
        "member-detail",
        "delete",
        "/api/v1/campaigns/{c}/members/{spare}/",
        None,
        {**GM_ONLY_WRITE, "gm": 204},
    ),
    ("invitation-list", "get", "/api/v1/campaigns/{c}/invitations/", None, GM_ONLY_WRITE),
    (
        "invitation-list",
        "post",
        "/api/v1/campaigns/{c}/invitations/",
        {"days": 3},
        {**GM_ONLY_WRITE, "gm": 201},
    ),
    ("invitation-detail", "delete", "/api/v1/campaigns/{c}/invitations/{invitation}/", None, GM_ONLY_WRITE),
    (
        "api-accept-invitation",
        "post",
        "/api/v1/invitations/accept/",
        {"code": "{code}"},
        {"default": 200, "anonymous": 401},
    ),
    ("mission-list", "get", "/api/v1/campaigns/{c}/missions/", None, MEMBER_READ),
    (
        "mission-list",
        "post",
        "/api/v1/campaigns/{c}/missions/",
        {"title": "Next"},
        {**GM_ONLY_WRITE, "gm": 201},
    ),
    ("roll-list", "get", "/api/v1/campaigns/{c}/rolls/", None, MEMBER_READ),
    (
        "roll-list",
        "post",
        "/api/v1/campaigns/{c}/rolls/",
        {"kind": "d10", "count": 2},
        {"gm": 201, "player": 201, "observer": 403, "outsider": 404, "anonymous": 401},
    ),
    (
        "roll-list",
        "post",
        "/api/v1/campaigns/{c}/rolls/",
        {"kind": "d1000", "secret": True},
        {"gm": 201, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401},
    ),
    ("roll-detail", "get", "/api/v1/campaigns/{c}/rolls/{open_roll}/", None, MEMBER_READ),
    # An announced secret roll: every member sees that it was made (sealed, without its result).
    ("roll-detail", "get", "/api/v1/campaigns/{c}/rolls/{secret_roll}/", None, MEMBER_READ),
    (
        "roll-detail",
        "get",
        "/api/v1/campaigns/{c}/rolls/{hidden_roll}/",
        None,
        {"gm": 200, "player": 404, "observer": 404, "outsider": 404, "anonymous": 401},
    ),
    (
        "roll-reveal",
        "post",
        "/api/v1/campaigns/{c}/rolls/{hidden_roll}/reveal/",
        None,
        {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401},
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
    want = expected.get(role, expected.get("default"))
    assert response.status_code == want, response.content
    if response.status_code >= 400:
        payload = response.json()
        assert payload["status"] == want and payload["errors"], payload


WALKS_ELSEWHERE = (
    "tests.sheets.test_api_roles",
    "tests.campaigns.test_missions_api",
    "tests.campaigns.test_checks",
    "tests.characters.test_advancement_api",
    "tests.characters.test_condition_api",
    "tests.archive.test_api_roles",
    "tests.campaigns.test_tokens",
    "tests.campaigns.test_fair_dice_api",
    "tests.characters.test_sheet_rolls",
    "tests.campaigns.test_webhooks",
    "tests.campaigns.test_play_sessions_api",
    "tests.campaigns.test_search",
)


def api_v1_patterns():
    """The patterns under /api/v1/ (found by their prefix: the URL conf lists other routes too)."""
    return next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/").url_patterns


def _api_walks(key: str) -> tuple[str, ...]:
    return tuple(getattr(system_kit.extras(key), "API_ROLE_WALKS", ()))


def test_the_walk_covers_every_api_route():
    names = {p.name for p in api_v1_patterns() if getattr(p, "name", None)} | {
        p.name for group in api_v1_patterns() for p in getattr(group, "url_patterns", [])
    }
    from importlib import import_module

    from tests.campaigns.test_npcs import ENDPOINTS as NPC_ENDPOINTS  # walked there
    from tests.characters.test_api_roles import ENDPOINTS as CHARACTER_ENDPOINTS  # walked there

    walked = {e[0] for e in ENDPOINTS + CHARACTER_ENDPOINTS + NPC_ENDPOINTS} | {"api-token"}
    # Each of these walks its routes for every role itself: the platform's, and each installed
    # system's (its testkit.py's API_ROLE_WALKS).
    system_walks = [walk for key in system_kit.installed_keys() for walk in _api_walks(key)]
    for module in (*WALKS_ELSEWHERE, *system_walks):
        walked |= import_module(module).WALKED_ROUTES
    assert names - walked == set(), f"endpoints nobody tested: {names - walked}"


def test_a_player_sees_a_secret_roll_only_as_made_and_never_its_result(world, api, client):
    ids = _setup(world)
    secret = Roll.objects.get(pk=ids["secret_roll"])
    for role in ("player", "other_player", "observer"):
        user = world.users[role]
        listing = api(user).get(f"/api/v1/campaigns/{ids['c']}/rolls/").json()["results"]
        assert ids["hidden_roll"] not in [r["id"] for r in listing]
        (sealed,) = [r for r in listing if r["id"] == secret.pk]
        assert sealed["sealed"] is True and sealed["total"] is None
        assert (
            sealed["faces"] == sealed["kept"] == [] and sealed["detail"] == {} and sealed["modifier"] is None
        )
        client.force_login(user)
        for page in (f"/campaigns/{ids['c']}/dice/", f"/campaigns/{ids['c']}/dice/log/"):
            html = client.get(page).content.decode()
            assert "made a secret roll" in html and "the game master has the result" in html
            line = html.split("made a secret roll", 1)[1].split("</li>", 1)[0]
            # no faces and no "→ total" at all (names and titles in the line may hold digits)
            assert "→" not in line and 'class="faces"' not in line
    gm_listing = api(world.users["gm"]).get(f"/api/v1/campaigns/{ids['c']}/rolls/").json()["results"]
    by_id = {r["id"]: r for r in gm_listing}
    assert by_id[secret.pk]["total"] == secret.total and by_id[ids["hidden_roll"]]["sealed"] is True


def test_token_authentication_works(world, client):
    response = client.post("/api/v1/auth/token/", {"username": "player", "password": "a-long-test-password"})
    assert response.status_code == 200
    from rest_framework.test import APIClient

    token_client = APIClient()
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert token_client.get("/api/v1/me/").json()["username"] == "player"
    bad = client.post("/api/v1/auth/token/", {"username": "player", "password": "wrong"})
    assert bad.status_code == 400 and bad.json()["errors"]


def test_invitation_for_a_revoked_code_is_refused(world, api):
    invitation = services.create_invitation(world.campaign, world.users["gm"])
    services.revoke_invitation(invitation)
    response = api(world.users["outsider"]).post(
        "/api/v1/invitations/accept/", {"code": invitation.code}, format="json"
    )
    assert response.status_code == 400
    assert "revoked" in response.json()["errors"][0]["message"]
    assert not Membership.objects.filter(campaign=world.campaign, user=world.users["outsider"]).exists()
    assert Invitation.objects.get(pk=invitation.pk).uses == 0
