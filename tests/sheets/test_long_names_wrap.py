"""The TIMEMASTER sheet prints a long skill name (a Historical Specialty with its culture and
period) and a Reputation past one line whole, on two lines where the table has room, instead of
cutting them, and the sheet still fits its page (issue 30, finding 10)."""

from __future__ import annotations

import random

import pytest

from characters.systems import get_system
from sheets.rendering import SheetPage, layout_report
from sheets.templatetags.sheet_layout import pad_rows
from systems.timemaster.demo import choices as _timemaster


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_historical_specialty_is_printed_whole_and_the_sheet_fits(paper):
    system = get_system("timemaster")
    build = system.new_build(_timemaster("Harriet Adams", "alice"), random.Random(3))
    sheet = system.sheet(build)
    long_names = [s["name"] for s in sheet.fields["skills"] if len(s["name"]) > 46]
    assert long_names, "the demo agent has a long Historical Specialty name"
    report = layout_report([SheetPage(sheet, campaign="Demo", character="Harriet Adams", revision=1)], paper)
    assert report.overflows == [] and report.pages == 1
    text = " ".join(report.text.split())
    for name in long_names:
        assert name in text, name
    assert "dogged, never forgets a face" in text  # the Reputation line too: 28 characters, two lines


def test_long_names_take_two_rows_only_while_rows_are_spare():
    items = [{"name": "x" * 60}, {"name": "short"}, {"name": "y" * 60}]
    rows = pad_rows(items, "4,46")
    assert [line["two"] for line in rows["lines"]] == [True, False, False]  # one spare row only
    assert rows["blank"] == 0
    assert pad_rows(items, "10,46")["blank"] == 5
    assert pad_rows(items, 10)["blank"] == 7  # without a width nothing wraps
