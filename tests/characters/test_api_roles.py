"""Every characters API endpoint, walked as every persona, with the status each must get."""

from __future__ import annotations

import pytest

from characters import services
from characters.models import AdvancementEntry, Character

from .conftest import agent_choices

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")
BASE = "/api/v1/campaigns/{c}/characters/"


def _setup(world, make_agent, award):
    agent = make_agent("player")
    first = award(agent, session=1)
    award(agent, session=2)
    draft = services.create_draft(world.campaign, world.users["player"], choices=agent_choices())
    other_draft = services.create_draft(
        world.campaign, world.users["other_player"], choices=agent_choices(name="Other")
    )
    return {
        "c": world.campaign.pk,
        "agent": agent.pk,
        "draft": draft.pk,
        "other_draft": other_draft.pk,
        "entry": first.pk,
    }


MEMBER_READ = {"default": 200, "outsider": 404, "anonymous": 401}
OWNER_DRAFT = {
    "gm": 200,
    "player": 200,
    "other_player": 404,
    "observer": 404,
    "outsider": 404,
    "anonymous": 401,
}
GM_ONLY = {"gm": 201, "player": 403, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 401}
ENDPOINTS = [
    ("api-character-list", "get", BASE, None, MEMBER_READ),
    (
        "api-character-list",
        "post",
        BASE,
        {"choices": {"name": "New agent"}},
        {"default": 201, "observer": 403, "outsider": 404, "anonymous": 401},
    ),
    ("api-character-detail", "get", BASE + "{agent}/", None, MEMBER_READ),
    ("api-character-detail", "get", BASE + "{draft}/", None, OWNER_DRAFT),
    ("api-character-detail", "patch", BASE + "{draft}/", {"choices": {"name": "Renamed"}}, OWNER_DRAFT),
    (
        "api-character-detail",
        "patch",
        BASE + "{agent}/",
        {"choices": {"name": "Renamed"}},
        # the GM may edit, but a finalized build changes only through the ledger
        {"gm": 400, "player": 403, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 401},
    ),
    (
        "api-character-finalize",
        "post",
        BASE + "{draft}/finalize/",
        None,
        # the player's draft waits for the GM's confirmations; the GM finalizing gives them
        {**OWNER_DRAFT, "player": 400},
    ),
    ("api-character-history", "get", BASE + "{agent}/history/", None, MEMBER_READ),
    ("api-character-history", "get", BASE + "{draft}/history/", None, OWNER_DRAFT),
    (
        "api-character-revert",
        "post",
        BASE + "{agent}/entries/{entry}/revert/",
        {"reason": "wrong session"},
        GM_ONLY,
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
def test_every_character_endpoint_answers_each_role_as_it_must(world, api, make_agent, award, role, endpoint):
    _, method, path, body, expected = endpoint
    ids = _setup(world, make_agent, award)
    client = api(None if role == "anonymous" else world.users[role])
    response = getattr(client, method)(_fill(path, ids), _fill(body, ids), format="json")
    want = expected.get(role, expected.get("default"))
    assert response.status_code == want, response.content
    if response.status_code >= 400:
        payload = response.json()
        assert payload["status"] == want and payload["errors"], payload


def test_the_walk_covers_every_characters_route():
    from characters import api_urls
    from tests.characters.test_advancement_api import WALKED_ROUTES as ADVANCEMENT_ROUTES  # walked there

    names = {p.name for p in api_urls.urlpatterns}
    assert names - ({e[0] for e in ENDPOINTS} | ADVANCEMENT_ROUTES) == set()


@pytest.mark.parametrize(
    "role, sees",
    [
        ("gm", {"Harry Adams", "Draft of player", "Draft of other"}),
        ("player", {"Harry Adams", "Draft of player"}),
        ("other_player", {"Harry Adams", "Draft of other"}),
        ("observer", {"Harry Adams"}),
    ],
)
def test_list_shows_drafts_only_to_their_owner_and_the_gm(world, api, make_agent, role, sees):
    make_agent("player")
    services.create_draft(world.campaign, world.users["player"], choices={"name": "Draft of player"})
    services.create_draft(world.campaign, world.users["other_player"], choices={"name": "Draft of other"})
    response = api(world.users[role]).get(BASE.format(c=world.campaign.pk))
    assert response.status_code == 200
    assert {row["name"] for row in response.json()["results"]} == sees


def test_outsider_sees_no_character_of_another_campaign_even_by_id(world, api, make_agent):
    agent = make_agent("player")
    response = api(world.users["outsider"]).get(
        f"/api/v1/campaigns/{world.elsewhere.pk}/characters/{agent.pk}/"
    )
    assert response.status_code == 404


def test_player_builds_an_agent_by_api_and_the_gm_finalizes_it(world, api):
    player, gm = api(world.users["player"]), api(world.users["gm"])
    base = BASE.format(c=world.campaign.pk)
    created = player.post(base, {"choices": {"name": "Ada Stone"}}, format="json")
    assert created.status_code == 201
    pk = created.json()["id"]
    assert created.json()["status"] == "draft"
    assert any(p["field"] == "background" for p in created.json()["problems"])
    patched = player.patch(f"{base}{pk}/", {"choices": agent_choices(name="Ada Stone")}, format="json")
    assert patched.status_code == 200 and patched.json()["problems"] == []
    waiting = player.post(f"{base}{pk}/finalize/")
    assert waiting.status_code == 400
    assert {e["field"] for e in waiting.json()["errors"]} == {"skills", "background.profession"}
    done = gm.post(f"{base}{pk}/finalize/")
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["status"] == "active" and body["revision"] == 1 and body["name"] == "Ada Stone"
    assert body["derived"]["unskilled_melee"] > 0
    assert set(body["build"]["cm_approvals"]) == {"skills", "background.profession"}
    assert Character.objects.get(pk=pk).owner == world.users["player"]


def test_history_lists_entries_and_marks_reverted_ones(world, api, make_agent, award):
    agent = make_agent("player")
    first = award(agent, session=1)
    award(agent, session=2)
    base = BASE.format(c=world.campaign.pk)
    revert = api(world.users["gm"]).post(
        f"{base}{agent.pk}/entries/{first.pk}/revert/", {"reason": "awarded twice"}, format="json"
    )
    assert revert.status_code == 201
    assert revert.json()["reverses"] == first.pk
    rows = api(world.users["player"]).get(f"{base}{agent.pk}/history/").json()["results"]
    assert [r["kind"] for r in rows] == ["sp_awarded", "sp_awarded", "reversal"]
    assert [r["reversed"] for r in rows] == [True, False, False]
    assert rows[2]["reason"] == "awarded twice" and rows[2]["recorded_by"] == "gm"
    detail = api(world.users["player"]).get(f"{base}{agent.pk}/").json()
    assert detail["build"]["success_points"] == 10 and detail["revision"] == 4
    assert AdvancementEntry.objects.filter(character=agent).count() == 3
