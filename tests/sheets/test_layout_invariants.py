"""Layout invariants of every printed sheet (issue 20), read off WeasyPrint's layout tree.

For every sheet kind x {A4, Letter} x {demo data, longest accepted data, empty}: no box leaves the
page's content area, no table is wider than the block holding it, the page count is the declared
one, no text is under 8 pt, and the key values are in the text. Each document is laid out once
(no PDF written); the cases come from tests/sheets/samples.py, shared with the gallery and bench.
"""

from __future__ import annotations

import pytest

from tests import system_kit
from tests.sheets import samples

CASES = samples.cases_by_id()
PAPERS = ("letter", "a4")
#: Sheets of one page that must use their page (reports flow, so they are left out).
FILLED_KINDS = ("character", "blank", "fate_record")


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("case_id", sorted(CASES))
def test_the_sheet_fits_its_pages(case_id, paper):
    case = CASES[case_id]
    report = samples.layout(case_id, paper)
    assert report.overflows == [], report.overflows[:5]
    assert report.wide_tables == []
    assert report.pages == case.declared_pages
    assert report.min_font_pt >= 8
    text = report.text.casefold()
    missing = [value for value in case.values if value.casefold() not in text]
    assert missing == []
    if case.kind in FILLED_KINDS:
        assert min(report.filled) >= 0.85, report.filled  # no empty bottom of the page


def test_every_kind_and_system_is_covered():
    kinds = {(case.kind, case.system) for case in CASES.values()}
    for system in system_kit.installed_keys():
        assert ("character", system) in kinds and ("blank", system) in kinds
    assert ("fate_record", "time_to_kill") in kinds and ("party_bundle", "mixed") in kinds
    assert {("after_action", "timemaster-gm"), ("after_action", "timemaster-player")} <= kinds
    assert {case.variant for case in CASES.values()} == set(samples.VARIANTS)
