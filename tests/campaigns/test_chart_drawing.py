"""How the platform draws a system's charts (campaigns.charts), issue 46: an empty chart is a
sentence without axes in a new campaign of every system; axes tick on values that exist; the
palette stays apart in greyscale and every pair of series differs by dash or marker; a printed
picture is lettered in the sheet's serif and its PDF figure's alternative text is its summary."""

from __future__ import annotations

import base64
import io
import itertools
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.utils.html import escape

from campaigns import charts, services
from campaigns.charts import PALETTE, Chart, Series
from sheets.models import SheetRender
from sheets.tasks import run_render
from tests.campaigns.test_campaign_report import campaign_played  # noqa: F401  (a fixture)


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def figures(html: str) -> list[str]:
    return re.findall(r'<figure class="chart.*?</figure>', html, flags=re.S)


@pytest.mark.parametrize("system", ["timemaster", "time_to_kill", "tempo", "d6"])
def test_a_new_campaign_of_every_system_shows_each_chart_as_a_sentence_without_axes(
    client, make_user, system
):
    gm = make_user(f"gm-{system}")
    module = "flashpoints" if system == "tempo" else ""
    campaign = services.create_campaign(gm, name="Fresh", system=system, module=module)
    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.pk}/report/").content.decode()
    found = charts.campaign_charts(campaign, gm, True)
    assert found and all(chart.is_empty for chart in found)
    drawn = figures(html)
    assert len(drawn) == len(found)
    for figure, chart in zip(drawn, found, strict=True):
        assert "<img" not in figure and "<table" not in figure and "<svg" not in figure
        assert f'<p class="chart-empty-text">{escape(chart.empty)}</p>' in figure
        assert len(chart.empty) < 100 and chart.empty.endswith(".")
    assert "Nothing to show" not in html and "Nothing yet" not in html
    for chart in found:
        printed = charts.for_print(chart, "gm")
        assert printed["svg"] == "" and printed["table_rows"] == [] and printed["empty"] == chart.empty


def y_axis_labels(svg: str) -> list[str]:
    axis = re.search(r'<g class="axis y[^"]*">(.*?)</g>\s*</g>', svg, flags=re.S)
    assert axis, "no y axis"
    return re.findall(r"<text[^>]*>([^<]*)</text>", axis.group(1))


def test_an_axis_of_counts_ticks_on_whole_numbers():
    """Values 1..3 made pygal tick at 0.8, 1.6, 2.4 ..."""
    chart = Chart("c", "Counts", "Counts.", "line", ("1", "2", "3"), (Series("A", (1, 2, 3)),), ("No.",), ())
    labels = y_axis_labels(charts.draw(chart))
    assert labels and all(re.fullmatch(r"-?\d+", label) for label in labels), labels
    assert charts.whole_ticks(chart) == [0, 1, 2, 3]


def test_a_stacked_axis_reaches_the_tallest_stack_not_the_tallest_piece():
    """Time to Kill's stones of a run (2 + 3 + 15 = 20) ticked only up to 15."""
    series = (Series("Drawn", (2, 5)), Series("Waits", (3, 1)), Series("Left", (15, 4)))
    chart = Chart("c", "Stones", "Stones.", "stacked_bar", ("1", "2"), series, ("Run",), ())
    assert charts.whole_ticks(chart)[-1] >= 20
    assert "20" in y_axis_labels(charts.draw(chart))


def test_a_pictures_letters_stay_readable_on_a_phone():
    """At 390 px the page shows a picture about 330 px across: the 640-wide drawing's 19-unit
    labels came out at 10 px; the 480-wide drawing's 18-unit labels are 12.4 px there, and shown
    at most 520 px wide on a laptop they stay the size they were (19.5 px)."""
    chart = Chart("c", "Counts", "Counts.", "bar", ("1", "2"), (Series("A", (1, 2)),), ("No.",), ())
    drawn = charts.draw(chart)
    screen = charts.MEDIA["screen"]
    assert f'viewBox="0 0 {screen["width"]} ' in drawn
    assert f"font-size:{screen['label']}px" in drawn.replace(" ", "")
    assert screen["label"] * 330 / screen["width"] >= 12
    assert 19 * 330 / 640 < 12  # the old drawing's letters on a phone
    page = charts.for_page(chart, "gm")
    assert base64.b64decode(page["src"].split(",", 1)[1]).decode() == drawn and page["width"] == 480


def test_a_dashed_line_of_one_point_is_drawn_as_its_dot():
    """A new user's campaign with one closed mission showed the mistakes' dot and no significance
    rating, which the legend and the caption promise: a line of one point draws nothing."""
    chart = Chart(
        "c",
        "Mistakes per mission against significance",
        "One mission.",
        "line",
        ("1",),
        (Series("Mistakes", (50,), style="dots"), Series("Significance rating", (700,), style="line")),
        ("No.",),
        (),
    )
    groups = dict(re.findall(r'<g class="series serie-(\d+)[^"]*">(.*?)</g></g>', charts.draw(chart), re.S))
    assert 'class="dot' in groups["1"], "the significance rating's one point is not drawn"


def test_an_axis_with_its_own_ticks_shows_only_those():
    chart = Chart(
        "c",
        "Standing",
        "Standing.",
        "line",
        ("1", "2"),
        (Series("A", (10, 12)),),
        ("No.",),
        (),
        y_labels=((10, "Agent/0"), (12, "Agent/2")),
    )
    assert sorted(set(y_axis_labels(charts.draw(chart)))) == ["Agent/0", "Agent/2"]


def lightness(grey: float) -> float:
    """CIE L* of a grey level 0-255 (sRGB)."""
    value = grey / 255
    linear = value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    f = linear ** (1 / 3) if linear > 0.008856 else 7.787 * linear + 16 / 116
    return 116 * f - 16


def test_the_first_four_series_stay_20_apart_in_lightness_on_the_rasterised_greyscale_picture():
    """A stacked bar of four series drawn, printed by WeasyPrint, rasterised and turned grey: the
    four fills are found in it, each pair at least 20 apart in CIE L*."""
    import pypdfium2
    from PIL import Image
    from weasyprint import HTML

    series = tuple(Series(f"S{i}", (10, 10)) for i in range(4))
    chart = Chart("g", "Grey", "Grey.", "stacked_bar", ("a", "b"), series, ("No.",), ())
    pdf = HTML(string=f"<html><body style='margin:0'>{charts.draw(chart)}</body></html>").write_pdf()
    page = pypdfium2.PdfDocument(pdf)[0]
    image: Image.Image = page.render(scale=2).to_pil().convert("L")
    counts = image.histogram()
    found = []
    for colour in PALETTE[:4]:
        red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        expected = round((red * 299 + green * 587 + blue * 114) / 1000)
        near = max(range(max(0, expected - 2), min(255, expected + 2) + 1), key=lambda g: counts[g])
        assert counts[near] > 500, f"{colour}'s grey {expected} is not a filled area of the picture"
        found.append(lightness(near))
    for a, b in itertools.combinations(found, 2):
        assert abs(a - b) >= 20, found


def test_every_pair_of_line_series_differs_by_dash_or_marker_and_marks_by_shape():
    values = (1, 2, 3)
    chart = Chart(
        "l",
        "Lines",
        "Lines.",
        "line",
        ("1", "2", "3"),
        (*(Series(f"Agent {i}", values) for i in range(9)), Series("Marks", values, style="dots")),
        ("No.",),
        (),
    )
    svg = charts.draw(chart)
    looks = []
    for index in range(len(chart.series)):
        body = "".join(
            re.findall(
                rf'<g class="series serie-{index} [^"]*">(.*?)(?=<g class="series |<g class="titles|</svg>)',
                svg,
                flags=re.S,
            )
        )
        dash = re.search(rf"\.series\.serie-{index}\{{[^}}]*stroke-dasharray:([^;}}]*)", svg)
        polygon = re.search(r'<polygon[^>]* points="([^"]*)"', body)
        shape = (
            f"polygon:{len(polygon.group(1).split())}" if polygon else "circle" if "<circle" in body else ""
        )
        looks.append((dash.group(1) if dash else "", shape))
    assert len(set(looks[:-1])) == 8  # eight looks in turn; the ninth repeats the first
    assert looks[-1][1] != "circle" or looks[-1] != looks[0]
    assert looks[1][1].startswith("polygon")  # a square, not another circle


def test_a_printed_chart_uses_the_sheets_serif_and_its_figure_is_described_by_its_summary(
    world,
    api,
    campaign_played,  # noqa: F811
):
    import pikepdf

    response = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "campaign_report"}, format="json"
    )
    assert run_render(response.json()["id"]) == "done"
    render = SheetRender.objects.get(pk=response.json()["id"])
    summaries = {
        c.summary for c in charts.campaign_charts(world.campaign, world.users["gm"], True) if not c.is_empty
    }
    pdf = pikepdf.open(io.BytesIO(Path(render.file.path).read_bytes()))
    alts = []
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/S") == pikepdf.Name("/Figure") and "/Alt" in obj:
            alts.append(str(obj["/Alt"]))
    assert "Pygal" not in alts
    assert summaries <= set(alts), (summaries, alts)
    fonts = {
        str(obj.get("/BaseFont"))
        for obj in pdf.objects
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name("/Font")
    }
    assert not any("DejaVu" in font for font in fonts), fonts
    svg = charts.svg(
        next(c for c in charts.campaign_charts(world.campaign, world.users["gm"], True)), "gm", "print"
    )
    assert "Sheet Libertine" in svg and "font-size:10.5px" in svg.replace(" ", "")


def test_the_missions_charts_table_holds_each_drawn_dot_and_line_on_its_row(world, campaign_played):  # noqa: F811
    """Every value a series draws is in the table, on the row of its mission, under that series'
    name or in the column the series is named by (the verdict's dots: the verdict and mistakes)."""
    missions_chart, _points, _standing = charts.campaign_charts(world.campaign, world.users["gm"], True)
    headers = missions_chart.table_headers
    for series in missions_chart.series:
        for index, value in enumerate(series.values):
            if value is None:
                continue
            row = dict(zip(headers, missions_chart.table_rows[index], strict=True))
            if series.name == "Significance rating":
                assert row["Significance"] == str(value)
            else:
                assert (row["Verdict"], row["Mistakes"]) == (series.name, str(value))
    drawn = sum(
        1 for s in missions_chart.series if s.name != "Significance rating" for v in s.values if v is not None
    )
    assert drawn == len(missions_chart.table_rows)  # one dot per row, no row without its dot
