"""D6 in the campaign report: the rounds of each finished encounter, for every member; encounters
still being set up or running are not drawn."""

from __future__ import annotations

from campaigns import charts
from systems.d6.models import Encounter


def test_every_member_sees_the_rounds_of_each_finished_encounter(d6, client):
    Encounter.objects.create(
        campaign=d6.campaign,
        name="Docks",
        method="first_move",
        status=Encounter.Status.OVER,
        state={"round": 5},
    )
    Encounter.objects.create(
        campaign=d6.campaign,
        name="Roof",
        method="first_move",
        status=Encounter.Status.RUNNING,
        state={"round": 2},
    )
    for persona in ("gm", "player", "observer"):
        [chart] = charts.campaign_charts(d6.campaign, d6.users[persona], persona == "gm")
        assert chart.table_rows == (("1", "Docks", "5"),)
        assert chart.series[0].values == (5,)
    client.force_login(d6.users["observer"])
    html = client.get(f"/campaigns/{d6.campaign.pk}/report/").content.decode()
    assert "Rounds of each encounter" in html and "Docks" in html
