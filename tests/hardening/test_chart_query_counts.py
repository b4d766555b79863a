"""The pages with charts run as many queries for many closed missions as for few (no N+1): the
campaign report (GM and player), the campaign audit and a mission's audit and after-action record.
bench/charts.py times the same pages on a campaign of 50 missions."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import missions
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, mistake, new_agent, roll_of, started

FEW, MANY = 2, 6


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def play(world, agents, upto: int) -> None:
    """Close and publish missions (three mistakes each, one hidden) until there are ``upto``."""
    while world.campaign.missions.count() < upto:
        n = world.campaign.missions.count()
        year = 1200 + 5 * n
        mission = started(world, agents, title=f"Mission {n}", start_year=year, end_year=year)
        mistake(world, mission, "event_changed", 40 + n, description="seen")
        mistake(world, mission, "npc_death", 30, description="seen too")
        mistake(world, mission, "other", 20, description="hidden", shown_to_players=False)
        closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(300 + n))
        missions.publish_mission(closed, world.users["gm"])


def count(client, url: str) -> int:
    assert client.get(url).status_code == 200  # warm-up
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


PAGES = [
    ("gm", "/campaigns/{c}/report/"),
    ("player", "/campaigns/{c}/report/"),
    ("gm", "/campaigns/{c}/missions/audit/"),
    ("gm", "/campaigns/{c}/missions/{m}/audit/"),
    ("player", "/campaigns/{c}/missions/{m}/report/"),
]


@pytest.mark.parametrize("persona,url", PAGES, ids=[f"{p}-{u}" for p, u in PAGES])
def test_chart_pages_make_the_same_number_of_queries_for_more_missions(world, client, persona, url):
    agents = [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]
    client.force_login(world.users[persona])
    play(world, agents, FEW)
    first = world.campaign.missions.order_by("id").first()
    path = url.format(c=world.campaign.pk, m=first.pk)
    few = count(client, path)
    play(world, agents, MANY)
    many = count(client, path)
    assert few == many, f"{path} as {persona}: {few} queries with {FEW} missions, {many} with {MANY}"
