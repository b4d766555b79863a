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
        chart, _fate = charts.campaign_charts(d6.campaign, d6.users[persona], persona == "gm")
        assert chart.table_rows == (("1", "Docks", "5"),)
        assert chart.series[0].values == (5,)
    client.force_login(d6.users["observer"])
    html = client.get(f"/campaigns/{d6.campaign.pk}/report/").content.decode()
    assert "Rounds of each encounter" in html and "Docks" in html


def test_fate_points_are_drawn_per_character_and_a_player_sees_their_own(d6, client):
    """Issue 46, finding 7: D6's players track Fate Points; the report drew none."""
    from characters import services as character_services

    character_services.append_entry(
        d6.ada, {"kind": "fate_points_gained", "count": 2, "reason": "heroics"}, d6.users["gm"]
    )
    character_services.append_entry(
        d6.ada, {"kind": "fate_points_spent", "count": 1, "reason": "the big jump"}, d6.users["gm"]
    )
    _rounds, fate = charts.campaign_charts(d6.campaign, d6.users["gm"], True)
    assert fate.table_rows == (("Ada", "2", "1", "1"), ("Bo", "0", "0", "0"))
    _rounds, own = charts.campaign_charts(d6.campaign, d6.users["player"], False)
    assert own.table_rows == (("Ada", "2", "1", "1"),)
    client.force_login(d6.users["player"])
    html = client.get(f"/campaigns/{d6.campaign.pk}/report/").content.decode()
    assert "Fate points per character" in html and ">Bo<" not in html
    intro = html.split("<main", 1)[1].split("<form", 1)[0]
    assert "encounter" in intro and "mission" not in intro.lower() and "agent" not in intro.lower()


def test_the_printed_report_draws_in_the_d6_sheets_slab_and_describes_each_figure_by_its_summary(d6):
    """Issue 46, finding 8: printed charts were DejaVu at screen size, their /Alt "Pygal"."""
    import io
    from pathlib import Path

    import pikepdf

    from sheets import services
    from sheets.models import SheetRender
    from sheets.tasks import run_render

    Encounter.objects.create(
        campaign=d6.campaign,
        name="Docks",
        method="first_move",
        status=Encounter.Status.OVER,
        state={"round": 5},
    )
    gm = d6.users["gm"]
    render, _ = services.request_render(gm, "campaign_report", d6.campaign, d6.membership["gm"])
    assert run_render(render.pk) == "done"
    pdf = pikepdf.open(io.BytesIO(Path(SheetRender.objects.get(pk=render.pk).file.path).read_bytes()))
    fonts = {
        str(obj.get("/BaseFont"))
        for obj in pdf.objects
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name("/Font")
    }
    assert fonts and all("Sheet-Slab" in font for font in fonts), fonts  # the sheet's only face
    assert not any("DejaVu" in font for font in fonts), fonts
    alts = {
        str(obj["/Alt"])
        for obj in pdf.objects
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/S") == pikepdf.Name("/Figure") and "/Alt" in obj
    }
    drawn = [c for c in charts.campaign_charts(d6.campaign, gm, True) if not c.is_empty]
    assert drawn and {c.summary for c in drawn} <= alts and "Pygal" not in alts
    assert "Sheet Slab" in charts.for_print(drawn[0], "gm", charts.print_font("d6"))["svg"]
