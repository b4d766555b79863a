"""Fillable blank sheets: the blank sheet as printed, with named form fields over its writing places."""

from __future__ import annotations

import ctypes
import functools
import io
import re
import string
from datetime import UTC, datetime
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from fontTools.ttLib import TTFont
from PIL import ImageStat
from pypdf import PdfReader, PdfWriter

from sheets import blanks, rendering
from sheets.models import SheetRender
from sheets.tasks import run_render

SYSTEMS = ("timemaster", "time_to_kill", "tempo", "d6")
WHEN = datetime(2026, 1, 1, tzinfo=UTC)
#: Fields each system's fillable sheet must have: (name, "Tx" text or "Btn" check box).
EXPECTED = {
    "timemaster": [
        ("agent", "Tx"),
        ("player", "Tx"),
        ("rank_grade", "Tx"),
        ("str", "Tx"),
        ("stamina_current", "Tx"),
        ("willpower_current", "Tx"),
        ("date_of_birth", "Tx"),
        ("skill_01_skill", "Tx"),
        ("skill_03_level", "Tx"),
        ("skill_10_check", "Tx"),
        ("paranormal_talent_04_wpr", "Tx"),
        ("times_visited_02_era", "Tx"),
        ("wound_01", "Btn"),
        ("wound_15", "Btn"),
    ],
    "time_to_kill": [
        ("ninja", "Tx"),
        ("base_points", "Tx"),
        ("fatally_wounded", "Btn"),
        ("armed_track_1", "Btn"),
        ("stealth_track_3", "Btn"),
        ("knowledge_disabled", "Btn"),
        ("preparation_stones_3", "Btn"),
        ("wait_stones_6", "Btn"),
        ("victory_conditions", "Tx"),
        ("record_02_outcome", "Tx"),
        ("notes", "Tx"),
    ],
    "tempo": [
        ("agent", "Tx"),
        ("codename", "Tx"),
        ("fate_points", "Tx"),
        ("tally_01", "Btn"),
        ("tally_10", "Btn"),
        ("aspect_origin_text", "Tx"),
        ("aspect_origin_anchor", "Tx"),
        ("tempo_edge", "Btn"),
        ("veto_card_05_text", "Tx"),
    ],
    "d6": [
        ("name", "Tx"),
        ("player", "Tx"),
        ("fate_points", "Tx"),
        ("attribute_perception_code", "Tx"),
        ("skill_dodge_code", "Tx"),
        ("attribute_01_name", "Tx"),
        ("attribute_04_code", "Tx"),
        ("skill_01_name", "Tx"),
        ("skill_28_code", "Tx"),
        ("special_ability_04_note", "Tx"),
        ("equipment_01_name", "Tx"),
    ],
}
#: docs/fillable-fields.md: each system's field names, in order, one a line in a ```text block
#: under the system's heading.
FIELD_NAMES_DOC = Path(__file__).resolve().parents[2] / "docs" / "fillable-fields.md"
#: Names that say nothing of what a field holds: the fallbacks of sheets/fillable.py.
MEANINGLESS = re.compile(r"(^|_)(field|column)(_\d+)?$|^field_|_column_\d+_")


def render(system: str, **options) -> rendering.RenderedPDF:
    return rendering.render_pdf(
        [rendering.SheetPage(blanks.blank_sheet(system), campaign="Paper Play")],
        title="Blank",
        author="Dossier test",
        rendered_at=WHEN,
        **options,
    )


@functools.cache
def fillable_blank(system: str) -> bytes:
    """``system``'s fillable blank sheet, rendered once per process: the five tests below that read
    it (its fields, their names, its drawing, filled by pypdf, its font) read the same bytes."""
    return render(system, archival=False, fillable=True).pdf


def form_fields(data: bytes) -> dict[str, pikepdf.Dictionary]:
    pdf = pikepdf.open(io.BytesIO(data))
    return {str(field.T): field for field in pdf.Root.AcroForm.Fields}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_fillable_blank_sheet_has_named_fields_for_what_a_player_writes_and_ticks(system):
    data = fillable_blank(system)
    pdf = pikepdf.open(io.BytesIO(data))
    fields = pdf.Root.AcroForm.Fields
    names = [str(field.T) for field in fields]
    assert len(names) == len(set(names))  # each name once
    by_name = {str(field.T): field for field in fields}
    for name, field_type in EXPECTED[system]:
        assert name in by_name, (name, sorted(by_name))
        assert pikepdf.Name("/" + field_type) == by_name[name].FT, name
        assert str(by_name[name].TU)  # what a screen reader says for it
    left, bottom, right, top = (float(v) for v in pdf.pages[0].MediaBox)
    for field in fields:  # every widget on the page, none empty
        x1, y1, x2, y2 = (float(v) for v in field.Rect)
        assert left <= min(x1, x2) < max(x1, x2) <= right and bottom <= min(y1, y2) < max(y1, y2) <= top
        assert field.P.objgen == pdf.pages[0].obj.objgen


def documented_names() -> dict[str, list[str]]:
    pattern = r"^## [^\n]*\(`(\w+)`\)\n.*?```text\n(.*?)```"
    found = re.findall(pattern, FIELD_NAMES_DOC.read_text(), re.M | re.S)
    return {system: block.split() for system, block in found}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_field_is_named_by_what_it_holds_as_docs_list_them(system):
    """Issue 45: a player's tool shows the names; docs/fillable-fields.md lists them per system."""
    names = list(form_fields(fillable_blank(system)))
    assert names == documented_names()[system]
    assert [name for name in names if MEANINGLESS.search(name)] == []
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*[a-z0-9]", name) for name in names), names


def test_the_field_names_doc_covers_every_system_and_the_meaningless_pattern_catches_the_old_names():
    assert set(documented_names()) == set(SYSTEMS)
    old = ["field", "field_2", "attributes_and_skill_01_column_1", "veto_card_01_column_1", "x_column_2_2"]
    assert all(MEANINGLESS.search(name) for name in old)
    assert not any(
        MEANINGLESS.search(name) for name in ("skill_01_name", "attribute_01_code", "armed_track_1")
    )


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_fillable_sheet_draws_exactly_the_blank_sheet_and_is_not_pdf_a(system):
    archival, fillable = render(system).pdf, fillable_blank(system)
    plain, form = pikepdf.open(io.BytesIO(archival)), pikepdf.open(io.BytesIO(fillable))
    # The same drawing, wrapped in q/Q so what a filler appends is drawn in the PDF's own space.
    assert form.pages[0].Contents.read_bytes() == b"q\n" + plain.pages[0].Contents.read_bytes() + b"\nQ"
    assert "/AcroForm" not in plain.Root
    assert "/OutputIntents" in plain.Root and "/OutputIntents" not in form.Root
    with form.open_metadata() as meta:
        assert "pdfaid:part" not in meta
    assert "/StructTreeRoot" in form.Root  # still tagged


#: Pixels per PDF point when a filled sheet is rasterised.
SCALE = 3


def _page_text(page) -> tuple[object, str]:
    textpage = page.get_textpage()
    return textpage, textpage.get_text_range()


def _darkness(image, rect, height) -> float:
    """Mean ink (0 white .. 255 black) of ``image`` inside ``rect`` (PDF points, y up), its edge
    (the drawn box's border) left out."""
    x1, y1, x2, y2 = rect
    inset = min(x2 - x1, y2 - y1) * 0.2
    box = (
        round((x1 + inset) * SCALE),
        round((height - y2 + inset) * SCALE),
        round((x2 - inset) * SCALE),
        round((height - y1 - inset) * SCALE),
    )
    return 255 - ImageStat.Stat(image.convert("L").crop(box)).mean[0]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_blank_filled_and_flattened_by_pypdf_shows_every_value_upright_in_its_box(system):
    """What a player's tool does (issue 45): fill every field with pypdf, flatten, drop the widgets,
    rasterise. Each text value (letters the sheet itself never prints among them, so they are not
    in the sheet font's subset) is found by pdfium upright inside its field's box; each check box
    is inked inside its box."""
    blank = fillable_blank(system)
    blank_pdf = pdfium.PdfDocument(blank)
    _, blank_text = _page_text(blank_pdf[0])
    foreign = [c for c in string.ascii_letters if c not in blank_text]
    assert foreign, blank_text  # a letter outside the sheet's own text, to type
    reader = PdfReader(io.BytesIO(blank))
    fields = {str(f["/T"]): f for f in reader.pages[0]["/Annots"]}
    values, boxes = {}, {}
    for index, (name, field) in enumerate(fields.items()):
        boxes[name] = x1, _, x2, _ = tuple(float(v) for v in field["/Rect"])
        if field["/FT"] == "/Tx":
            # As much as the box holds (a glyph ~6 pt wide), a foreign letter first.
            values[name] = f"{foreign[index % len(foreign)]}Qj{index:03d}"[: max(2, int((x2 - x1) // 6))]
        else:
            values[name] = "/on"
    writer = PdfWriter(clone_from=reader)
    writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False, flatten=True)
    writer.remove_annotations(subtypes="/Widget")  # only the flattened drawing is left
    out = io.BytesIO()
    writer.write(out)

    filled = pdfium.PdfDocument(out.getvalue())
    page = filled[0]
    height = page.get_height()
    textpage, text = _page_text(page)

    def upright_inside(start: int, length: int, box) -> bool:
        x1, y1, x2, y2 = box
        matrix = pdfium_c.FS_MATRIX()
        for index in range(start, start + length):
            left, bottom, right, top = textpage.get_charbox(index)
            if not (x1 - 0.5 <= left < right <= x2 + 0.5 and y1 - 0.5 <= bottom < top <= y2 + 0.5):
                return False
            assert pdfium_c.FPDFText_GetMatrix(textpage.raw, index, ctypes.byref(matrix))
            if not (matrix.a > 0 and matrix.d > 0 and matrix.b == matrix.c == 0):
                return False
        return True

    for name, value in values.items():
        if value == "/on":
            continue
        found = [i for i in range(len(text)) if text.startswith(value, i)]
        assert any(upright_inside(i, len(value), boxes[name]) for i in found), (name, value, found)
    ticked = [name for name, value in values.items() if value == "/on"]
    if ticked:
        before = blank_pdf[0].render(scale=SCALE, may_draw_forms=False, draw_annots=False).to_pil()
        after = page.render(scale=SCALE).to_pil()
        for name in ticked:
            assert _darkness(after, boxes[name], height) > _darkness(before, boxes[name], height) + 40, name


#: What a player may type into a field: ASCII and the letters of the languages the sheets' players
#: write in. The sheet's own text uses far fewer (the sheet font's subset holds only those).
TYPABLE = (
    string.ascii_letters + string.digits + string.punctuation + " ÀÂÄÇÉÈÊËÎÏÑÔÖŒÙÛÜßàâäçéèêëîïñôöœùûüÿ€£"
)


def _widths(cid_font) -> dict[int, float]:
    """The /W array of a CIDFont as {CID: width}: ``c [w1 w2 ...]`` and ``c_first c_last w`` runs."""
    entries, widths, index = list(cid_font.W), {}, 0
    while index < len(entries):
        first = int(entries[index])
        if isinstance(entries[index + 1], pikepdf.Array):
            for offset, width in enumerate(entries[index + 1]):
                widths[first + offset] = float(width)
            index += 2
        else:
            for cid in range(first, int(entries[index + 1]) + 1):
                widths[cid] = float(entries[index + 2])
            index += 3
    return widths


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_fields_font_holds_every_glyph_a_player_may_type_with_its_width(system):
    """Issue 45: a field's /DA font is the whole sheet font, not the subset the sheet's text needs:
    every typable character has a glyph in the embedded program, a width in /W (CID = glyph id,
    Identity) and a ToUnicode entry (pypdf encodes a value through it)."""
    pdf = pikepdf.open(io.BytesIO(fillable_blank(system)))
    resources = pdf.Root.AcroForm.DR.Font
    used = {
        re.search(r"/(\S+) [\d.]+ Tf", str(field.DA)).group(1)
        for field in pdf.Root.AcroForm.Fields
        if "/DA" in field
    }
    assert used
    for name in used:
        font = resources["/" + name]
        assert font.Subtype == "/Type0" and font.Encoding == "/Identity-H"
        cid_font = font.DescendantFonts[0]
        descriptor = cid_font.FontDescriptor
        program = (descriptor.get("/FontFile3") or descriptor.get("/FontFile2")).read_bytes()
        cmap = TTFont(io.BytesIO(program)).getBestCmap()
        glyph_order = TTFont(io.BytesIO(program)).getGlyphOrder()
        missing = [c for c in TYPABLE if ord(c) not in cmap]
        assert missing == [], (name, missing)
        widths = _widths(cid_font)
        gids = {c: glyph_order.index(cmap[ord(c)]) for c in TYPABLE}
        assert all(widths.get(gid, 0) > 0 or c == " " for c, gid in gids.items())
        to_unicode = font.ToUnicode.read_bytes()
        for c, gid in gids.items():
            assert f"<{gid:04x}> <{ord(c):04x}>".encode() in to_unicode, (name, c)


def test_a_fillable_render_cannot_be_archival():
    with pytest.raises(ValueError, match="not PDF/A"):
        render("tempo", fillable=True)


def request_url(campaign):
    return f"/api/v1/campaigns/{campaign.pk}/sheets/"


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 202), ("player", 202), ("other_player", 202), ("observer", 202), ("outsider", 404)],
)
def test_any_member_may_request_a_fillable_blank_sheet(world, api, persona, expected):
    response = api(world.users[persona]).post(
        request_url(world.campaign), {"kind": "blank", "fillable": True}, format="json"
    )
    assert response.status_code == expected, response.content


def test_the_fillable_blank_is_its_own_render_with_the_form_and_the_plain_one_stays_archival(world, api):
    client = api(world.users["player"])
    plain = client.post(request_url(world.campaign), {"kind": "blank"}, format="json").json()
    form = client.post(request_url(world.campaign), {"kind": "blank", "fillable": True}, format="json").json()
    assert plain["id"] != form["id"]
    assert run_render(plain["id"]) == run_render(form["id"]) == "done"
    plain_pdf = Path(SheetRender.objects.get(pk=plain["id"]).file.path).read_bytes()
    form_pdf = Path(SheetRender.objects.get(pk=form["id"]).file.path).read_bytes()
    assert "stamina_current" in form_fields(form_pdf)
    assert "/AcroForm" not in pikepdf.open(io.BytesIO(plain_pdf)).Root
    assert "/OutputIntents" in pikepdf.open(io.BytesIO(plain_pdf)).Root
    again = client.post(request_url(world.campaign), {"kind": "blank", "fillable": True}, format="json")
    assert again.status_code == 200 and again.json()["id"] == form["id"]  # done: reused


@pytest.mark.parametrize(
    "body", [{"kind": "party_bundle", "fillable": True}, {"kind": "blank", "fillable": "maybe"}]
)
def test_fillable_is_refused_for_other_kinds_and_non_booleans_without_storing_anything(world, api, body):
    response = api(world.users["gm"]).post(request_url(world.campaign), body, format="json")
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"fillable"}
    assert not SheetRender.objects.exists()


def test_the_sheets_page_offers_the_fillable_option_and_says_it_is_not_pdf_a(world, client):
    client.force_login(world.users["observer"])
    page = client.get(f"/campaigns/{world.campaign.pk}/sheets/")
    assert b'data-testid="blank-fillable"' in page.content
    assert b"not an archival PDF/A file" in page.content
    response = client.post(f"/campaigns/{world.campaign.pk}/sheets/", {"kind": "blank", "fillable": "1"})
    assert response.status_code == 302
    render = SheetRender.objects.get()
    assert render.snapshot["fillable"] is True
    client.post(f"/campaigns/{world.campaign.pk}/sheets/", {"kind": "blank"})
    assert SheetRender.objects.filter(snapshot__fillable=True).count() == 1
    assert SheetRender.objects.count() == 2
