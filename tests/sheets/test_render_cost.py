"""What keeps a sheet's render cheap (issue 20's render-time goals), each checked where it can
silently regress: the trimmed user-agent stylesheet, no style="" in print templates, templates that
expat reads, empty writing rows drawn as one block with images made for exactly its rows, and
tick tracks and tallies drawn as one image each."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from pathlib import Path

import pytest
import weasyprint
from django.template import Context, Template

from sheets import marks, rendering
from tests.sheets import samples

PRINT_TEMPLATES = sorted(
    [*Path("systems").glob("*/templates/sheets/*.html")]
    + [Path("templates/sheets") / name for name in ("document.html", "minimal.html")]
)
WEASYPRINT_UA = (Path(weasyprint.__file__).parent / "css" / "html5_ua.css").read_text(encoding="utf-8")


def test_the_sheet_user_agent_stylesheet_drops_the_rules_that_match_every_element():
    trimmed = rendering.sheet_ua_css_text()
    for pseudo in ("marker", "footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback"):
        assert re.search(rf"^::{pseudo} \{{", WEASYPRINT_UA, re.M), f"WeasyPrint no longer has ::{pseudo}"
        assert f"::{pseudo}" not in trimmed
    assert "fieldset { border: groove 2px" in WEASYPRINT_UA and "groove" not in trimmed
    # Everything else is kept: the page margin boxes, headings, tables.
    assert "@bottom-left" in trimmed and "h1 { bookmark-level: 1 }" in trimmed and "display: table" in trimmed


def test_sheets_render_through_the_trimmed_user_agent_stylesheet():
    html = rendering.SheetHTML(string="<p>x</p>")
    assert html._ua_stylesheets() == [rendering._Shared.user_agent()]
    # The hook is WeasyPrint's own: a renamed hook would leave the full sheet in place unnoticed.
    assert hasattr(weasyprint.HTML, "_ua_stylesheets")


@pytest.mark.parametrize("path", PRINT_TEMPLATES, ids=lambda path: path.name)
def test_print_templates_use_no_list_form_or_footnote_the_trimmed_sheet_left_out(path):
    assert not re.search(r"<(ul|ol|li|input|select|textarea|button)\b", path.read_text())
    assert "float: footnote" not in Path(rendering.STYLESHEET).read_text()


@pytest.mark.parametrize("path", PRINT_TEMPLATES, ids=lambda path: path.name)
def test_print_templates_carry_no_style_attribute(path):
    # A style="" gives its element and everything inside it a computed style of its own: WeasyPrint
    # then computes it again instead of sharing it (a cell with one cost three times one without).
    assert " style=" not in path.read_text()


@pytest.mark.parametrize("path", PRINT_TEMPLATES, ids=lambda path: path.name)
def test_print_templates_are_polyglot_markup_that_expat_reads(path):
    # sheets/rendering.parse_sheet_source reads them as XML; a void element left open or a named
    # entity would send the document to WeasyPrint's slower HTML parser without a word.
    text = path.read_text()
    assert not re.search(r"<(area|br|col|embed|hr|img|input|link|meta|source|track|wbr)\b[^>]*(?<!/)>", text)
    assert set(re.findall(r"&([a-zA-Z]+);", text)) <= {"amp", "lt", "gt", "quot", "apos"}


def test_pad_rows_counts_the_empty_rows_and_blank_rows_draws_them_as_one_block():
    template = Template(
        "{% load sheet_layout %}{% with rows=items|pad_rows:5 %}{{ rows.shown|length }} "
        "{% blank_rows rows.blank 3 'a4-only' tick_column=2 cells='x,y' %}{% endwith %}"
    )
    html = template.render(Context({"items": ["a", "b"]}))
    assert html == (
        '2 <tr class="write-rows r3 a4-only" data-rows="3">'
        '<td class="x"></td><td class="tick-column"></td><td></td></tr>'
    )
    full = Template(
        "{% load sheet_layout %}{% with rows=items|pad_rows:2 %}{{ rows.shown|length }} {{ rows.blank }} "
        "{{ rows.more }}{% endwith %}"
    )
    assert full.render(Context({"items": list("abc")})) == "1 0 2"  # the last row says "and 2 more"
    circles = Template("{% load sheet_layout %}{% blank_rows 2 2 tick_column=1 tick_shape='circle' %}")
    assert '<td class="tick-column circle"></td>' in circles.render(Context())
    none = Template("{% load sheet_layout %}{% blank_rows 0 4 %}")
    assert none.render(Context()) == ""


def test_a_block_of_more_rows_than_the_images_are_made_for_is_refused():
    with pytest.raises(ValueError, match="at most 24"):
        Template("{% load sheet_layout %}{% blank_rows 25 4 %}").render(Context())


def test_the_images_of_a_block_are_drawn_for_exactly_its_rows():
    svg = marks.rows_svg(3)
    assert 'height="18mm"' in svg and 'preserveAspectRatio="none"' in svg
    assert re.findall(r'y="([0-9.]+)"', svg) == ["5.859", "11.859"]  # under rows 1 and 2; row 3: the cell
    circles = marks.ticks_svg("circle", 3)
    assert [float(y) for y in re.findall(r'cy="([0-9.]+)"', circles)] == [3.0, 9.0, 15.0]  # each row's middle
    boxes = marks.ticks_svg("box", 2)
    assert re.findall(r'y="([0-9.]+)"', boxes) == ["0.941", "6.941"]


def test_a_track_image_centres_each_circle_in_its_share_of_the_width_and_dots_the_ticked_one():
    svg = marks.track_svg("oxo")
    assert 'width="100%"' in svg and "viewBox" not in svg  # stretched to the cell, circles unscaled
    rings = re.findall(r'<circle cx="([0-9.]+)%" cy="2.2mm" r="([0-9.]+)mm" fill="none"', svg)
    assert rings == [("16.667", "2.059"), ("50.000", "2.059"), ("83.333", "2.059")]
    assert re.findall(r'<circle cx="([0-9.]+)%" cy="2.2mm" r="1.15mm" fill="#111"', svg) == ["50.000"]
    assert marks.track_svg("x").count('fill="#111"') == 1
    for bad in ("", "oxa", "ooooo"):
        with pytest.raises(ValueError, match="a track is"):
            marks.track_svg(bad)
    assert len(marks.track_patterns()) == 2 + 4 + 8 + 16


def _images(page, name: str) -> list[str]:
    """The background image of each element of class ``name`` of a laid-out sheet, in document order."""
    document = rendering._layout(
        [page],
        title="Images",
        author="Dossier",
        paper="letter",
        rendered_at=None,
        fetcher=rendering.SheetAssetFetcher(),
    )
    images, seen = [], set()
    for box in document.pages[0]._page_box.descendants():
        element = box.element
        classes = element.get("class", "").split() if element is not None else []
        if name in classes and id(element) not in seen and box.background is not None:
            seen.add(id(element))
            images.append(box.background.layers[0].image._base_url.rsplit("/", 1)[-1])
    return images


def test_a_time_to_kill_ability_track_is_one_cell_and_one_image_with_the_current_rating_dotted():
    page = samples.character_case("time_to_kill", "demo").pages[0]
    assert _images(page, "track-cell") == ["track-circle-ooo.svg"] * 9  # no mission: nothing to mark
    groups = copy.deepcopy(page.sheet.fields["ability_groups"])
    for group in groups:
        for ability in group["abilities"]:
            for step in ability["track"]:  # in a mission: the current rating (+, 0 or -) is marked
                step["marked"] = step["rating"] == ("+" if ability["key"] == "armed" else "0")
    fields = {**page.sheet.fields, "ability_groups": groups}
    marked = rendering.SheetPage(
        dataclasses.replace(page.sheet, fields=fields), page.campaign, page.character, 7
    )
    assert _images(marked, "track-cell") == ["track-circle-xoo.svg"] + ["track-circle-oxo.svg"] * 8


def test_a_tally_image_is_its_boxes_side_by_side_with_the_first_ones_crossed():
    svg = marks.tally_svg(10, 3)
    assert 'width="50.3mm" height="4.4mm"' in svg and marks.tally_width_mm(10) == 50.3
    assert [float(x) for x in re.findall(r'<rect x="([0-9.]+)"', svg)] == [
        pytest.approx(0.141 + n * 5.1) for n in range(10)
    ]
    assert svg.count("<path") == 3
    assert marks.tally_svg(1, 0).count("<path") == 0
    for count, ticked in ((0, 0), (11, 0), (10, 11), (3, -1)):
        with pytest.raises(ValueError, match="a tally is"):
            marks.tally_svg(count, ticked)


@pytest.mark.parametrize(
    ("case", "image"), [("demo", "tally-10-2.svg"), ("long", "tally-10-10.svg"), ("empty", "tally-10-0.svg")]
)
def test_the_flashpoints_fate_point_tally_is_one_image_of_ten_boxes_with_the_points_held_crossed(case, image):
    # demo: 2 fate points; long: 12 (the tally has ten boxes, all crossed); empty: 0.
    assert _images(samples.character_case("tempo", case).pages[0], "tally") == [image]
    report = rendering.layout_report(samples.character_case("tempo", case).pages, "letter")
    rows: dict[float, list] = {}
    for rect in report.rects_mm["tick"]:  # the report counts the tally's ten boxes as ten ticks
        rows.setdefault(rect[1], []).append(rect)
    tally = max(rows.values(), key=len)
    assert len(tally) == 10
    assert all(rect[2] == rect[3] == pytest.approx(marks.TICK_MM, abs=0.02) for rect in tally)
    assert [round(b[0] - a[0], 2) for a, b in itertools.pairwise(tally)] == [5.1] * 9


@pytest.mark.parametrize(
    ("name", "served"),
    [
        ("generated/rows-1.svg", True),
        ("generated/rows-24.svg", True),
        ("generated/ticks-box-21.svg", True),
        ("generated/ticks-circle-4.svg", True),
        ("generated/track-circle-o.svg", True),
        ("generated/track-circle-oxoo.svg", True),
        ("generated/track-circle-ooooo.svg", False),
        ("generated/track-circle-oxa.svg", False),
        ("generated/track-box-oo.svg", False),
        ("generated/tally-10-3.svg", True),
        ("generated/tally-1-0.svg", True),
        ("generated/tally-10-11.svg", False),
        ("generated/tally-11-0.svg", False),
        ("generated/tally-0-0.svg", False),
        ("generated/rows-0.svg", False),
        ("generated/rows-25.svg", False),
        ("generated/ticks-star-3.svg", False),
        ("generated/rows-3.svg/../../models.py", False),
        ("generated/../generated/rows-3.svg", False),
    ],
)
def test_the_fetcher_draws_only_the_block_images(name, served):
    fetcher = rendering.SheetAssetFetcher()
    url = rendering.ASSETS_DIR.as_uri() + "/" + name
    if served:
        assert fetcher.fetch(url).read().startswith(b"<svg")
    else:
        with pytest.raises(rendering.RefusedURL):
            fetcher.fetch(url)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_empty_turn_rows_are_one_block_of_6_mm_rows_with_a_tick_each(paper):
    report = rendering.layout_report(samples.fate_record_case("demo").pages, paper)
    rows = report.heights("write-row")
    blank_rows = [height for height in rows if abs(height - 6) < 0.05]
    # 21 turn rows, of which the demo run has played one, and on A4 only 3 more; 2 lines of GM notes.
    assert len(blank_rows) == (23 if paper == "a4" else 20) + 2
    assert min(rows) >= 6 - 0.05
