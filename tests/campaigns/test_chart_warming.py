"""The report's pictures are drawn when play changes them, not on the next view (issue 46, finding
9; campaigns/chart_warming.py): closing a mission schedules one job for its campaign, debounced;
the job draws each member's report as that member reads it, so the next view draws nothing, and a
player's cache holds only what that player's own report shows."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache

from campaigns import chart_warming, charts, missions
from tests.campaigns.test_mission_charts_web import pictures, tied_mission
from tests.campaigns.test_missions import new_agent

PAGE = "/campaigns/{}/report/"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def agents(world):
    return [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]


@pytest.fixture
def scheduled(monkeypatch):
    jobs: list[tuple[tuple, float]] = []
    monkeypatch.setattr(
        chart_warming.warm_charts, "apply_async", lambda args, countdown: jobs.append((args, countdown))
    )
    return jobs


def test_closing_a_mission_schedules_one_drawing_job_for_its_campaign(
    world,
    agents,
    scheduled,
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        mission = tied_mission(world, agents)
    assert scheduled == [((world.campaign.pk,), settings.CHARTS_WARM_DEBOUNCE_SECONDS)]
    # publishing within the window: the job on its way reads the campaign as it is when it runs
    with django_capture_on_commit_callbacks(execute=True):
        missions.publish_mission(mission, world.users["gm"])
    assert len(scheduled) == 1
    cache.delete(f"charts-warm:{world.campaign.pk}")  # the window is over
    with django_capture_on_commit_callbacks(execute=True):
        mission.save()
    assert len(scheduled) == 2


def test_an_open_mission_schedules_nothing(world, agents, scheduled, django_capture_on_commit_callbacks):
    from tests.campaigns.test_missions import started

    with django_capture_on_commit_callbacks(execute=True):
        started(world, agents)
    assert scheduled == []


def test_after_the_job_every_members_report_is_served_without_drawing(world, agents, client, monkeypatch):
    mission = tied_mission(world, agents, hidden=True)
    missions.publish_mission(mission, world.users["gm"])
    assert chart_warming.warm(world.campaign.pk) > 0
    assert chart_warming.warm(world.campaign.pk) == 0  # all there: nothing drawn twice

    def refuse(*args, **kwargs):
        raise AssertionError("drawn on a page view")

    monkeypatch.setattr(charts, "draw", refuse)
    for persona in ("gm", "player", "other_player", "observer"):
        client.force_login(world.users[persona])
        response = client.get(PAGE.format(world.campaign.pk))
        assert response.status_code == 200, persona
    # the GM's pictures are not a player's: a player's page shows their own drawing
    client.force_login(world.users["gm"])
    gm_pictures = set(pictures(client.get(PAGE.format(world.campaign.pk)).content.decode()))
    client.force_login(world.users["player"])
    player_pictures = set(pictures(client.get(PAGE.format(world.campaign.pk)).content.decode()))
    assert player_pictures and not gm_pictures & player_pictures


def test_a_players_cached_pictures_are_those_of_their_own_report(world, agents):
    mission = tied_mission(world, agents, hidden=True)
    missions.publish_mission(mission, world.users["gm"])
    chart_warming.warm(world.campaign.pk)
    for persona in ("player", "other_player"):
        own = charts.campaign_charts(world.campaign, world.users[persona], False)
        for chart in own:
            if not chart.is_empty:
                assert charts.is_cached(chart, "player")
    # nothing of the GM's data was drawn for players
    for chart in charts.campaign_charts(world.campaign, world.users["gm"], True):
        assert cache.get(charts.cache_key(chart, "player")) is None
