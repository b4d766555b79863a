"""Time to Kill in the campaign report: victory points per run and the player's ranking after it
(time-to-kill.md §A4, §B13), the same for every member, nothing from the Fates or the bag."""

from __future__ import annotations

import re

import pytest

from campaigns import charts

from .helpers import VICTORY_MOVES, VICTORY_SCRIPT
from .test_ttk_services import play


def test_a_won_run_scores_its_die_rolls_and_sets_the_ranking(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    play(start(), move, VICTORY_MOVES)
    victory, ranking = charts.campaign_charts(ttk.campaign, ttk.users["gm"], True)
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
    victory, ranking = charts.campaign_charts(ttk.campaign, ttk.users["player"], False)
    assert victory.table_rows == () and ranking.series == ()
    assert victory.is_empty and ranking.is_empty
    assert charts.for_page(victory, "player") == {"chart": victory, "empty": True, "rows": []}
    assert "once it is over" in victory.empty
    with pytest.raises(ValueError):
        charts.svg(victory, "player")
