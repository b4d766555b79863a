"""The defects of issue 20, each read off the laid-out sheet (WeasyPrint's layout tree) or its text.

Every test here failed on the sheets before Sheets 2.0 (run once against the old templates).
"""

from __future__ import annotations

import pytest

from sheets import rendering
from sheets.models import SheetKind
from tests.sheets import samples

PAPERS = ("letter", "a4")


def report(case: samples.Case, paper: str) -> rendering.LayoutReport:
    """The case's layout, shared with the invariant tests (laid out once per run)."""
    return samples.layout(case.id, paper)


def overlaps(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


# -- Fate Record Sheet ---------------------------------------------------------------------------
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("variant", ["empty", "long"])
def test_the_fate_record_sheet_stays_inside_the_page_and_its_title_clears_the_gm_badge(variant, paper):
    result = report(samples.fate_record_case(variant), paper)
    assert result.overflows == [] and result.wide_tables == []
    [title], [badge] = result.rects_mm["sheet-title"], result.rects_mm["gm-badge"]
    assert not overlaps(title, badge)


# -- TIMEMASTER ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def timemaster_reports():
    return {
        (variant, paper): report(samples.character_case("timemaster", variant), paper)
        for variant in ("demo", "long")
        for paper in PAPERS
    }


def test_the_timemaster_check_column_reads_as_words_not_keys():
    from systems.timemaster.engine import SYSTEM
    from systems.timemaster.tests.helpers import make_build

    build = make_build()
    build["skills"]["equestrian"] = {"level": "specialist", "source": "advancement"}  # learned later
    checks = {row["check"] for row in SYSTEM.sheet(build).fields["skills"]}
    assert "general or specific" in checks
    assert not any("_" in check for check in checks)


def test_timemaster_recovery_is_per_round_of_rest(timemaster_reports):
    text = timemaster_reports[("demo", "letter")].text
    assert "per round of rest" in text  # timemaster-play.md §17
    assert "per day" not in text


def test_timemaster_times_visited_lists_era_place_span_and_parallel(timemaster_reports):
    text = timemaster_reports[("demo", "a4")].text
    for value in ("Era", "Place", "Span", "Parallel", "19th century A.D.", "Gettysburg", "1863 A.D.", "T-0"):
        assert value in text, value
    assert "Mission" not in text.split("Times visited", 1)[1]  # no database ids


@pytest.mark.parametrize("paper", PAPERS)
def test_the_fifteen_timemaster_wound_boxes_sit_on_one_line(timemaster_reports, paper):
    boxes = timemaster_reports[("demo", paper)].rects_mm["wound"]
    assert len(boxes) == 15
    assert len({round(y, 1) for _, y, _, _ in boxes}) == 1


@pytest.mark.parametrize("variant", ["demo", "long"])
@pytest.mark.parametrize("paper", PAPERS)
def test_the_timemaster_sheet_leaves_no_empty_bottom_fifth(timemaster_reports, variant, paper):
    assert timemaster_reports[(variant, paper)].filled[0] >= 0.9


# -- Time to Kill --------------------------------------------------------------------------------
def test_the_time_to_kill_sheet_has_a_fatally_wounded_box_and_no_run_ids():
    result = report(samples.character_case("time_to_kill", "demo"), "letter")
    assert "Fatally wounded" in result.text
    assert result.rects_mm["tick"], "tick boxes to mark"
    assert "900" not in result.text and "901" not in result.text  # the mission runs' database ids


# -- Flashpoints ---------------------------------------------------------------------------------
def test_a_long_flashpoints_name_keeps_the_sheet_on_one_letter_page():
    result = report(samples.character_case("tempo", "long"), "letter")
    assert result.pages == 1 and result.overflows == []


@pytest.mark.parametrize("variant", ["demo", "empty"])
def test_flashpoints_prints_tempo_spends_veto_fate_tally_and_campaign_aspect(variant):
    result = report(samples.character_case("tempo", variant), "a4")
    text = result.text.casefold()  # headings are set in capitals
    assert "spend tempo" in text and "leaves" in text  # the spend table
    assert "put a new aspect on the scene" in text
    assert "veto" in text
    assert "trust no one" in text  # Flashpoints' campaign aspect
    tally = [rect for rect in result.rects_mm["tick"]]
    assert len(tally) >= 10  # a fate point tally to tick


def test_the_blank_flashpoints_sheet_prints_the_spend_table_and_campaign_aspect():
    text = report(samples.blank_case("tempo"), "letter").text.casefold()
    assert "spend tempo" in text and "trust no one" in text and "veto" in text


# -- D6 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("variant", ["demo", "long"])
def test_the_d6_sheet_is_one_page_with_no_text_under_8_pt(variant, paper):
    result = report(samples.character_case("d6", variant), paper)
    assert result.pages == 1 and result.overflows == []
    assert result.min_font_pt >= 8


def test_d6_moves_are_in_one_unit():
    from systems.d6.engine import SYSTEM
    from systems.d6.tests.helpers import build

    quick = SYSTEM.sheet(build("Ana", move=10)).fields["quick_reference"]
    assert quick["free_move_easy"] == "5 m" and quick["free_move_hard"] == "1 m"
    assert quick["move"] == "10 m"


# -- Blank sheets: room to write -----------------------------------------------------------------
@pytest.mark.parametrize("system", sorted(samples.BUILD_OF))
def test_blank_sheets_have_rows_and_boxes_a_pencil_can_use(system):
    result = report(samples.blank_case(system), "letter")
    rows = result.heights("write-row")
    assert len(rows) >= 8 and min(rows) >= 6
    ticks = result.rects_mm["tick"]
    assert all(w >= 4 and h >= 4 for _, _, w, h in ticks)
    assert result.min_font_pt >= 8


def test_blank_timemaster_ability_boxes_hold_a_two_digit_number():
    boxes = report(samples.blank_case("timemaster"), "a4").rects_mm["score-box"]
    assert len(boxes) >= 8 and all(w >= 14 and h >= 10 for _, _, w, h in boxes)


# -- Download names ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "subject", "system", "revision", "expected"),
    [
        (SheetKind.CHARACTER, "Harry Adams", "timemaster", 7, "harry-adams-timemaster-sheet-r7.pdf"),
        (SheetKind.CHARACTER, "<b>Zoë</b> O'Hara", "time_to_kill", 2, "zoe-ohara-time-to-kill-sheet-r2.pdf"),
        (SheetKind.CHARACTER, '<img src="x">', "d6", 1, "d6-sheet-r1.pdf"),
        (SheetKind.BLANK, "Blank TIMEMASTER sheet", "timemaster", 0, "timemaster-blank-sheet-r0.pdf"),
        (
            "fate_record",
            "The Bell Tower Fate Record",
            "time_to_kill",
            12,
            "the-bell-tower-time-to-kill-fate-record-r12.pdf",
        ),
        (SheetKind.PARTY_BUNDLE, "Night Work party", "tempo", 4, "night-work-tempo-party-sheets-r4.pdf"),
    ],
)
def test_download_names_are_character_system_sheet_revision_slugs(kind, subject, system, revision, expected):
    from sheets.models import download_name

    assert download_name(kind, subject, system, revision) == expected


def test_the_a4_and_the_letter_print_of_one_revision_have_two_names():
    """A new user's A4 and Letter downloads were both harriet-adams-timemaster-sheet-r8.pdf: the
    second overwrote the first in the Downloads folder."""
    from sheets.models import download_name

    a4 = download_name(SheetKind.CHARACTER, "Harriet Adams", "timemaster", 8, "a4")
    letter = download_name(SheetKind.CHARACTER, "Harriet Adams", "timemaster", 8, "letter")
    assert (a4, letter) == (
        "harriet-adams-timemaster-sheet-r8-a4.pdf",
        "harriet-adams-timemaster-sheet-r8-letter.pdf",
    )
