"""Time to Kill in the campaign report: victory points per run and the player's ranking after it
(time-to-kill.md §A4, §B13), and each run's time, the stones drawn from the bag (§B1, §B5-§B6);
the same for every player, nothing from the Fates, the stones left in the bag for the GM alone
unless the campaign shows players the count (ruling 6)."""

from __future__ import annotations

import re

import pytest

from campaigns import charts

from .helpers import VICTORY_MOVES, VICTORY_SCRIPT
from .test_ttk_services import play


def test_a_won_run_scores_its_die_rolls_and_sets_the_ranking(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    play(start(), move, VICTORY_MOVES)
    victory, ranking, _ = charts.campaign_charts(ttk.campaign, ttk.users["gm"], True)
    assert victory.series[0].values == (1,)
    assert victory.table_rows == (("1", "The Bell Tower", "Kage (player)", "Mission accomplished", "1"),)
    # each table holds exactly what its chart draws
    assert ranking.table_headers == ("Run", "player") and ranking.table_rows == (("1", "1"),)
    assert ranking.series[0].name == "player" and ranking.series[0].values == (1.0,)


def test_every_member_reads_the_same_report_and_no_secret_reaches_it(ttk, start, move, script, client):
    from .conftest import SECRET_NOTES

    script(**VICTORY_SCRIPT)
    play(start(), move, VICTORY_MOVES)
    pages = {}
    for persona in ("gm", "player", "other_player", "observer"):
        client.force_login(ttk.users[persona])
        response = client.get(f"/campaigns/{ttk.campaign.pk}/report/")
        assert response.status_code == 200
        html = response.content.decode()
        assert SECRET_NOTES not in html
        pages[persona] = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    assert "Victory points per run" in pages["player"]
    client.force_login(ttk.users["outsider"])
    assert client.get(f"/campaigns/{ttk.campaign.pk}/report/").status_code == 404


def test_a_campaign_without_finished_runs_draws_no_chart_and_says_what_will_appear(ttk):
    victory, ranking, stones = charts.campaign_charts(ttk.campaign, ttk.users["player"], False)
    assert victory.table_rows == () and ranking.series == () and stones.table_rows == ()
    assert victory.is_empty and ranking.is_empty and stones.is_empty
    assert charts.for_page(stones, "player") == {"chart": stones, "empty": True, "rows": []}
    assert charts.for_page(victory, "player") == {"chart": victory, "empty": True, "rows": []}
    assert "once it is over" in victory.empty
    with pytest.raises(ValueError):
        charts.svg(victory, "player")


def _drawn(chart):
    """The chart's table rebuilt from its series: a row per run, a cell per series."""
    return tuple(
        (label, *("" if s.values[i] is None else f"{s.values[i]:g}" for s in chart.series))
        for i, label in enumerate(chart.x_labels)
    )


def test_each_run_draws_its_time_the_stones_out_of_the_bag_and_the_gm_alone_sees_those_left(
    ttk, start, move, script
):
    script(**VICTORY_SCRIPT)  # one ordinary stone in preparation, the target on the wait
    run = play(start(stones=3), move, VICTORY_MOVES)
    gm = charts.campaign_charts(ttk.campaign, ttk.users["gm"], True)[2]
    assert gm.key == "campaign-stones" and gm.kind == "stacked_bar"
    assert [(s.name, s.values) for s in gm.series] == [
        ("Drawn in preparation", (1,)),
        ("Left in the bag", (2,)),
    ]
    # the table is the drawing: its columns are the series, its cells their values
    assert gm.table_headers == ("Run", "Drawn in preparation", "Left in the bag")
    assert gm.table_rows == _drawn(gm) == (("1", "1", "2"),)
    # every ordinary stone is accounted for: drawn + left = the bag at the start
    assert sum(v for s in gm.series for v in s.values) == run.state["bag"]["start_ordinary"] == 3
    for persona in ("player", "other_player", "observer"):
        seen = charts.campaign_charts(ttk.campaign, ttk.users[persona], False)[2]
        assert [s.name for s in seen.series] == ["Drawn in preparation"]
        assert seen.table_headers == ("Run", "Drawn in preparation") and seen.table_rows == (("1", "1"),)
        assert "Left in the bag" not in charts.svg(seen, "player") and "still in it" not in seen.summary


def test_a_player_sees_the_stones_left_where_the_campaign_shows_the_count(ttk, start, move, script):
    ttk.campaign.settings = {**(ttk.campaign.settings or {}), "players_see_stone_count": True}
    ttk.campaign.save(update_fields=["settings"])
    ttk.membership["gm"].campaign.refresh_from_db()  # the GM's membership starts the run
    script(**VICTORY_SCRIPT)
    play(start(stones=4), move, VICTORY_MOVES)
    seen = charts.campaign_charts(ttk.campaign, ttk.users["other_player"], False)[2]
    assert [(s.name, s.values) for s in seen.series] == [
        ("Drawn in preparation", (1,)),
        ("Left in the bag", (3,)),
    ]
    assert seen.table_rows == _drawn(seen) == (("1", "1", "3"),)


def test_the_gms_history_names_a_moves_choices_in_words(ttk, start, move, script, client):
    """The demo's finished runs showed "rushed: False; objective: True" on the GM's history (the
    every-page walk: no Python values on a page)."""
    script(**VICTORY_SCRIPT)
    moves = [
        (side, kind, {**params, "rushed": False} if kind in ("wait", "act") else params)
        for side, kind, params in VICTORY_MOVES
    ]
    run = play(start(), move, moves)
    client.force_login(ttk.users["gm"])
    html = client.get(f"/ttk/{run.pk}/history/").content.decode()
    assert "rushed: no" in html and "objective: yes" in html
    assert not re.search(r"\b(True|False)\b", html)
