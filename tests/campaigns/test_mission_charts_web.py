"""Which mistake mattered, on the GM's audit page, and the mission chart on the after-action record:
what the GM sees, what a player sees (published verdict, shown lines by kind, nothing computed from
hidden lines, the significance rating or the roll), and that the pictures are cached per audience."""

from __future__ import annotations

import base64
import re

import pytest
from django.core.cache import cache

from campaigns import charts, missions
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, mistake, new_agent, roll_of, started


@pytest.fixture
def agents(world):
    return [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def tied_mission(world, agents, hidden=False):
    """Mistakes 100 + 50 + 30 = 180 against a roll of 180: history changed at the threshold."""
    mission = started(world, agents, significance_rating=500)
    mistake(world, mission, "event_changed", 100, description="Clock tower burnt")
    mistake(world, mission, "npc_death", 50, description="Coachman")
    mistake(world, mission, "other", 30, description="Newspaper kept", shown_to_players=not hidden)
    return tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(180))


def pictures(html: str) -> list[str]:
    return [
        base64.b64decode(src).decode()
        for src in re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    ]


def words(svg: str) -> str:
    """The text a picture shows (its labels, legend and title), not its coordinates."""
    return " ".join(re.findall(r"<(?:text|title|desc)[^>]*>([^<]*)<", svg))


def audit_url(world, mission):
    return f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/audit/"


def report_url(world, mission):
    return f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/report/"


def test_the_gm_audit_names_each_line_that_alone_changes_the_verdict_and_the_fewest_to_remove(
    world, agents, client
):
    mission = tied_mission(world, agents)
    client.force_login(world.users["gm"])
    html = client.get(audit_url(world, mission)).content.decode()
    assert "Which mistake mattered" in html
    assert "The same roll, the same rules, without one line" in html
    # every line of a tie changes the verdict alone; the least significant one is the rescue
    assert html.count('class="pivotal"') == 3
    # the rescue names the line by the tally's number on the same page (1..n), not its database id
    assert "would have kept history intact: <strong>#3</strong>" in html
    assert "(30 points of mistakes; the total would have been 150, the pool 350)" in html
    # the chart and its table: the kinds, the roll, the significance and the difference
    [svg] = pictures(html)
    assert "Significance roll" in svg and "Significance rating" in svg and "<script" not in svg
    assert '<td data-label="What">Difference (mistakes − roll)</td><td data-label="Points">0</td>' in html
    assert '<td data-label="What">Significance rating</td><td data-label="Points">500</td>' in html


def test_every_line_number_a_gm_reads_on_the_audit_is_the_tallys_own_number(world, agents, client):
    """Lines of another mission first, so database ids and the tally's numbers differ; a reversed
    line keeps its number and the lines after it keep theirs."""
    other = started(world, agents, significance_rating=500, start_year=1700, end_year=1700)
    for rating in (5, 6, 7):
        mistake(world, other, "other", rating)
    other = tm_missions.close_mission(gm_membership(world), other, "failure")
    missions.publish_mission(other, world.users["gm"])
    mission = started(world, agents, significance_rating=500)
    mistake(world, mission, "event_changed", 100, description="Clock tower burnt")
    wrong = mistake(world, mission, "other", 40, description="Entered by mistake")
    mistake(world, mission, "npc_death", 50, description="Coachman")
    mistake(world, mission, "other", 30, description="Newspaper kept")
    tm_missions.reverse_mistake(mission, wrong.pk, world.users["gm"], "never happened")
    mission.refresh_from_db()
    mission = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(180))
    assert min(e.pk for e in mission.tally_entries.all()) > 3  # ids are not the numbers 1..n
    client.force_login(world.users["gm"])
    html = client.get(audit_url(world, mission)).content.decode()
    which = html.split('id="which-mattered"', 1)[1].split("<h2>Tally</h2>", 1)[0]
    # the counting lines are the tally's 1, 3 and 4 (2 is reversed, 5 is the reversal)
    assert re.findall(r'<td data-label="#">(\d+)</td>', which) == ["1", "3", "4"]
    assert "would have kept history intact: <strong>#4</strong>" in which
    ids = {str(e.pk) for e in mission.tally_entries.all()} - {"1", "3", "4"}
    assert not any(f"#{pk}<" in which or f'"#">{pk}<' in which for pk in ids)


def test_the_record_box_the_chart_and_the_campaign_table_show_one_difference_by_one_name(
    world, agents, client
):
    """Mistakes 199 against a roll of 180: the record box said "Difference 19" and the chart
    "Margin 20". One number (mistakes - roll) under one word wherever the GM reads it."""
    mission = started(world, agents, significance_rating=500)
    mistake(world, mission, "event_changed", 150)
    mistake(world, mission, "npc_death", 49)
    mission = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(180))
    client.force_login(world.users["gm"])
    audit = client.get(audit_url(world, mission)).content.decode()
    report = client.get(f"/campaigns/{world.campaign.pk}/report/").content.decode()
    for html in (audit, report):
        assert "Margin" not in html and "margin" not in html
    assert re.search(r"<dt>Difference and chart line</dt><dd>19:", audit)
    assert '<td data-label="What">Difference (mistakes − roll)</td><td data-label="Points">19</td>' in audit
    assert "difference 19; 20 fewer points of mistakes would have kept history" in audit
    assert '<td data-label="Difference">19</td>' in report


def test_a_mission_that_failed_has_no_check_to_work_out_again_on_the_audit(world, agents, client):
    mission = started(world, agents, significance_rating=500)
    mistake(world, mission, "event_changed", 100)
    mission = tm_missions.close_mission(gm_membership(world), mission, "failure")
    client.force_login(world.users["gm"])
    html = client.get(audit_url(world, mission)).content.decode()
    assert "no significance check was made" in html
    assert "would have kept history intact" not in html


def test_players_get_no_audit_and_no_picture_before_publishing(world, agents, client):
    mission = tied_mission(world, agents)
    for role in ("player", "other_player", "observer"):
        client.force_login(world.users[role])
        assert client.get(audit_url(world, mission)).status_code == 403
        html = client.get(report_url(world, mission)).content.decode()
        assert pictures(html) == []
        assert "Mistakes shown to players" not in html


def test_a_player_sees_the_published_verdict_and_the_shown_lines_by_kind_only(world, agents, client):
    mission = tied_mission(world, agents, hidden=True)
    missions.publish_mission(mission, world.users["gm"])
    client.force_login(world.users["player"])
    html = client.get(report_url(world, mission)).content.decode()
    [svg] = pictures(html)
    assert "Mistakes shown to players" in html
    assert '<td data-label="What">Total of the lines shown</td><td data-label="Points">150</td>' in html
    shown = words(svg)
    assert "Event changed" in shown and "NPC death" in shown
    for secret in ("Significance rating", "Significance roll", "Difference", "Other mistake"):
        assert secret not in shown, secret
    assert "180" not in shown.split() and "500" not in shown.split()
    assert "Difference" not in html and "would have kept history" not in html
    assert "History changed" in html


def test_what_a_player_is_shown_does_not_depend_on_a_hidden_line(world, agents, client):
    """Two worlds that differ only in a hidden line's rating give the player the same picture."""
    seen = []
    for hidden_rating in (30, 31):
        year = 1770 + hidden_rating  # another trip each time (no loop trap)
        mission = started(world, agents, significance_rating=500, start_year=year, end_year=year)
        mistake(world, mission, "event_changed", 100, description="Clock tower burnt")
        mistake(world, mission, "npc_death", 50, description="Coachman")
        mistake(world, mission, "other", hidden_rating, description="Hidden", shown_to_players=False)
        mission = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(900))
        missions.publish_mission(mission, world.users["gm"])
        [chart] = charts.mission_charts(mission, world.users["player"], False)
        seen.append(charts.svg(chart, "player"))
    assert seen[0] == seen[1]


def test_a_picture_is_cached_per_audience_and_redrawn_when_the_data_changes(world, agents):
    mission = tied_mission(world, agents)
    [gm_chart] = charts.mission_charts(mission, world.users["gm"], True)
    drawn = charts.svg(gm_chart, "gm")
    assert cache.get(f"chart:gm:{gm_chart.digest()}") == drawn
    assert cache.get(f"chart:player:{gm_chart.digest()}") is None
    tm_missions.reverse_mistake(
        mission, mission.tally_entries.first().pk, world.users["gm"], "never happened"
    )
    mission.refresh_from_db()
    [after] = charts.mission_charts(mission, world.users["gm"], True)
    assert after.digest() != gm_chart.digest()
    assert charts.svg(after, "gm") != drawn
    with pytest.raises(ValueError):
        charts.svg(after, "someone")
