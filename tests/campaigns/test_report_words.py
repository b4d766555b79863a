"""Each system names its own play on the campaign report (issue 46, finding 7): the words a GM or a
player reads on a Tempo or D6 report page, full or empty, and in its printed copy never say
"mission" or "agent" (TIMEMASTER's words); Time to Kill's never say "agent"."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from campaigns import charts

WORDS = {
    "tempo": r"\b(missions?|agents?)\b",
    "d6": r"\b(missions?|agents?)\b",
    "time_to_kill": r"\bagents?\b",
}


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r'\s(src|srcset)="[^"]*"', " ", html)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.fixture
def campaigns_of_each_system(db, make_user):
    from tests.e2e.test_charts import other_systems

    users = {"gm": make_user("gm"), "player": make_user("player")}
    return users, other_systems(SimpleNamespace(users=users))


def test_tempo_and_d6_reports_name_their_own_play_for_every_reader(campaigns_of_each_system, client):
    users, made = campaigns_of_each_system
    seen = 0
    for system, full, empty in made:
        for campaign in (full, empty):
            for persona in ("gm", "player"):
                client.force_login(users[persona])
                response = client.get(f"/campaigns/{campaign.pk}/report/")
                assert response.status_code == 200
                text = visible_text(response.content.decode())
                found = re.findall(WORDS[system], text, flags=re.I)
                assert found == [], (system, campaign.name, persona, found)
                seen += 1
                # the printed copy's words: each chart's title, summary, sentence, headers, notes
                for chart in charts.campaign_charts(campaign, users[persona], persona == "gm"):
                    printed = charts.for_print(chart, persona)
                    words = " ".join(
                        [printed["title"], printed["summary"], printed["empty"], *printed["table_headers"]]
                        + printed["notes"]
                    )
                    assert re.findall(WORDS[system], words, flags=re.I) == [], (system, chart.key)
    assert seen == 12
