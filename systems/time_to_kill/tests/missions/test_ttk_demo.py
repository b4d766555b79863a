"""The Time to Kill demo's finished runs: played through the services on scripted results, so they
end the same way every time and no player of the demo is handed a dead ninja (a failed run ends a
ninja, time-to-kill.md §B12; the demo's runs once rolled the campaign's fair dice and killed
bob's Yuki on some seeds)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from campaigns import charts
from campaigns.models import Campaign, Roll
from characters.models import Character
from systems.time_to_kill import demo
from systems.time_to_kill.models import MissionRun

#: What the demo's runs come to: title, ninja, outcome, die rolls (the victory points of a victory).
EXPECTED = [
    ("The Silk Warehouse", "Yuki", "victory"),
    ("The Bridge at Nihonbashi", "Yuki", "victory"),
    ("The Tea House", "Kage", "victory"),
    ("The Shogun's Map", "Yuki", "abandoned"),
]


def _seeded():
    call_command("seed_demo", "--system", "time_to_kill", stdout=StringIO())
    return Campaign.objects.get(name=demo.CAMPAIGN[0], system="time_to_kill")


def _finished(campaign):
    return list(
        MissionRun.objects.filter(campaign=campaign, status=MissionRun.Status.OVER)
        .select_related("ninja")
        .order_by("created_at", "id")
    )


@pytest.mark.django_db
def test_the_demo_has_finished_runs_that_end_the_same_way_and_every_ninja_lives(monkeypatch):
    # the fair dice would say otherwise: every die they give is a 1 (a failed action, a wound)
    monkeypatch.setattr("characters.systems.fair_dice.FairRandom.randint", lambda self, a, b: a)
    campaign = _seeded()
    runs = _finished(campaign)
    assert [(r.title, r.ninja.name, r.outcome) for r in runs] == EXPECTED
    for ninja in Character.objects.filter(campaign=campaign):
        assert ninja.build["status"] == "alive", ninja.name
    # the still-running run is Kage's, and it is the only one
    assert list(
        MissionRun.objects.filter(campaign=campaign, status=MissionRun.Status.RUNNING).values_list(
            "title", flat=True
        )
    ) == ["The Merchant's Ledger"]
    # the finished runs' dice are the script's: every action die a 5
    actions = Roll.objects.filter(campaign=campaign, kind="d6", purpose__contains="action (")
    assert actions.exists() and set(actions.values_list("total", flat=True)) == {5}


@pytest.mark.django_db
def test_the_demo_report_has_victory_points_a_ranking_for_each_player_and_each_runs_time():
    campaign = _seeded()
    gm = campaign.memberships.get(role="gm").user
    victory, ranking, stones = charts.campaign_charts(campaign, gm, True)
    assert [row[3] for row in victory.table_rows] == [
        "Mission accomplished",
        "Mission accomplished",
        "Mission accomplished",
        "Abandoned",
    ]
    assert all(int(row[4]) > 0 for row in victory.table_rows[:3])
    assert ranking.table_headers == ("Run", "alice", "bob")
    assert not stones.is_empty and len(stones.table_rows) == 4
    for chart in (victory, ranking, stones):
        assert all(cell.strip() for row in chart.table_rows for cell in row), chart.table_rows


@pytest.mark.django_db
def test_seeding_twice_changes_nothing():
    campaign = _seeded()
    before = [(r.title, r.outcome, r.state["die_roll_count"]) for r in _finished(campaign)]
    _seeded()
    assert [(r.title, r.outcome, r.state["die_roll_count"]) for r in _finished(campaign)] == before


@pytest.mark.django_db
def test_the_demo_runs_pages_and_report_open_for_the_gm_and_each_player(client):
    from django.contrib.auth import get_user_model

    campaign = _seeded()
    users = get_user_model().objects
    for username in ("gm", "alice", "bob"):
        client.force_login(users.get(username=username))
        assert client.get(f"/campaigns/{campaign.pk}/report/").status_code == 200
        for run in campaign.ttk_runs.all():
            assert client.get(f"/ttk/{run.pk}/").status_code == 200, (username, run.title)
        if username == "gm":
            for run in campaign.ttk_runs.all():
                assert client.get(f"/ttk/{run.pk}/history/").status_code == 200, run.title
