"""Between closing and publishing, nothing of a mission's result reaches a player: every page and
API answer about the agents (character page, history, character API, standing, shop) and the dice
log read exactly as they did before the close. Publishing then writes the awards, and the same
pages show them."""

from __future__ import annotations

import json
import re

import pytest

from campaigns import missions
from characters.models import AdvancementEntry
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, mistake, new_agent, roll_of, started

READERS = ("player", "other_player", "observer")
# The CSRF token is masked afresh on every render: the only part of a page allowed to differ,
# besides the page's live-feed cursor: closing a mission is public (its status says so) and tells
# the open pages (issue 44), so the newest event a player may see is a new one; the result is not in it.
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|/live/\?after=)[^"]+')


@pytest.fixture
def agents(world):
    return [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]


def _paths(world, agents) -> list[str]:
    c = world.campaign.pk
    paths = [
        f"/campaigns/{c}/characters/",
        f"/campaigns/{c}/dice/",
        f"/campaigns/{c}/dice/log/",
        f"/api/v1/campaigns/{c}/characters/",
        f"/api/v1/campaigns/{c}/rolls/",
    ]
    for agent in agents:
        paths += [
            f"/characters/{agent.pk}/",
            f"/characters/{agent.pk}/history/",
            f"/characters/{agent.pk}/shop/",
            f"/api/v1/campaigns/{c}/characters/{agent.pk}/",
            f"/api/v1/campaigns/{c}/characters/{agent.pk}/history/",
            f"/api/v1/campaigns/{c}/characters/{agent.pk}/advancement/",
            f"/api/v1/campaigns/{c}/characters/{agent.pk}/shop/",
        ]
    return paths


def _read(client, world, agents) -> dict:
    """What each reader gets from each path: status and body (CSRF tokens and the live cursor
    blanked)."""
    seen = {}
    for role in READERS:
        client.force_login(world.users[role])
        for path in _paths(world, agents):
            response = client.get(path)
            seen[role, path] = (response.status_code, CSRF.sub(r"\1-", response.content.decode()))
    return seen


def test_closing_changes_nothing_a_player_can_read_and_publishing_shows_the_award(world, agents, client):
    mission = started(world, agents)
    mistake(world, mission, "event_changed", 100, description="Clock tower burnt")
    before = _read(client, world, agents)
    assert before["player", f"/characters/{agents[0].pk}/"][0] == 200
    entries_before = AdvancementEntry.objects.count()

    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(777))
    assert closed.outcome["share"] == 300  # (700 - 100) split two ways: there is something to leak
    after_close = _read(client, world, agents)
    changed = [key for key in before if before[key] != after_close[key]]
    assert changed == []
    assert AdvancementEntry.objects.count() == entries_before
    # a correction before publishing reworks the stored outcome only
    entry = closed.tally_entries.get()
    tm_missions.reverse_mistake(closed, entry.pk, world.users["gm"], "not our doing")
    assert _read(client, world, agents) == before
    assert AdvancementEntry.objects.count() == entries_before

    missions.publish_mission(closed, world.users["gm"])
    published = _read(client, world, agents)
    c = world.campaign.pk
    harry = agents[0].pk
    detail = published["player", f"/api/v1/campaigns/{c}/characters/{harry}/"]
    assert detail != before["player", f"/api/v1/campaigns/{c}/characters/{harry}/"]
    standing = client_json(client, world, "player", f"/api/v1/campaigns/{c}/characters/{harry}/advancement/")
    assert standing["success_points"] == 350 and standing["rank_grade"] == "Trainee/1"
    history = client_json(client, world, "player", f"/api/v1/campaigns/{c}/characters/{harry}/history/")
    kinds = [e["kind"] for e in _entries(history)]
    assert kinds[-3:] == ["sp_awarded", "grade_advanced", "adventure_closed"]
    page = published["player", f"/characters/{harry}/"][1]
    assert 'data-testid="success-points">350<' in page
    shop = client_json(client, world, "player", f"/api/v1/campaigns/{c}/characters/{harry}/shop/")
    assert shop["balance"] == 350
    # the check roll was the GM's alone until publishing; now it is on the record, result and all
    assert (
        before["player", f"/api/v1/campaigns/{c}/rolls/"]
        == after_close["player", f"/api/v1/campaigns/{c}/rolls/"]
    )
    (check,) = json.loads(published["player", f"/api/v1/campaigns/{c}/rolls/"][1])["results"]
    assert check["total"] == 777 and check["sealed"] is False


def client_json(client, world, role, path):
    client.force_login(world.users[role])
    response = client.get(path)
    assert response.status_code == 200, response.content
    return response.json()


def _entries(history):
    return history["results"] if isinstance(history, dict) else history
