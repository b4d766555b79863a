"""Every system's sheet at the longest input its builder accepts, on A4 and Letter (issue 45).

The long samples (tests/sheets/samples.py) read their limits from the builders' forms, serializers
and engines; these tests check that they reach them (a name as long as the builder's form takes,
every D6 attribute the engine takes) and that the sheet then holds its declared pages: one page,
never a spill onto a second. test_layout_invariants.py lays the same samples out for the rest of
its invariants (no box off the page, no text under 8 pt, the page used).
"""

from __future__ import annotations

import inspect

import pytest
from django import forms

from characters import registry
from sheets.templatetags.sheet_layout import fold_leading, share_rows, sheet_name
from tests import system_kit
from tests.sheets import samples

PAPERS = ("a4", "letter")


def longest_name_accepted(system: str) -> int:
    """The longest character name the system's builder takes: the ``name`` field of its wizard's
    forms (read from the form, whatever its number)."""
    module = registry.Wizards()[system]
    limits = [
        value.base_fields["name"].max_length
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, forms.Form)
        and "name" in value.base_fields
        and value.base_fields["name"].max_length
    ]
    assert limits, f"{system}'s wizard has no form with a name field"
    return max(limits)


@pytest.mark.parametrize("system", system_kit.installed_keys())
def test_the_long_sample_names_the_character_as_long_as_the_builder_accepts(system):
    build = samples.build_of(system, "long")
    assert len(build["name"]) == longest_name_accepted(system)


def test_the_long_d6_sample_has_every_attribute_and_skill_the_engine_takes():
    from systems.d6.engine import tables

    build = samples.build_of("d6", "long")
    assert len(build["attributes"]) == tables.MAX_ATTRIBUTES
    assert len(build["skills"]) == tables.MAX_SKILLS
    from systems.d6.wizard import IdentityForm

    for number in ("action_allotment", "character_points", "fate_points", "move"):
        assert build[number] == IdentityForm.base_fields[number].max_value, number


def test_the_long_timemaster_sample_is_wounded_critically_in_armor():
    from systems.timemaster.engine.sheet import sheet_fields

    fields = sheet_fields(samples.build_of("timemaster", "long"))
    assert fields["critically_wounded"] and fields["condition_state"]
    assert fields["wounds_marked"] == fields["wounds"]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("system", system_kit.installed_keys())
def test_the_sheet_holds_its_declared_pages_at_the_longest_input(system, paper):
    case = samples.character_case(system, "long")
    report = samples.layout(case.id, paper)
    assert report.pages == case.declared_pages
    assert report.overflows == [] and report.wide_tables == []
    assert report.min_font_pt >= 8


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("system", system_kit.installed_keys())
def test_the_title_prints_the_name_the_platform_keeps(system, paper):
    """A name past Character.name's length is cut at a word with an ellipsis on the title; the
    title keeps its two or three lines."""
    build = samples.build_of(system, "long")
    report = samples.layout(samples.character_case(system, "long").id, paper)
    [title] = report.rects_mm["sheet-title"]
    squeezed = "".join(report.text.split()).casefold()  # lines broken at a hyphen, Tempo's capitals
    assert "".join(sheet_name(build["name"]).split()).casefold() in squeezed
    assert title[3] <= 15  # mm: three lines of the smallest title size at most


def test_a_name_is_cut_at_a_word_past_the_platform_limit():
    from characters.models import Character

    limit = Character._meta.get_field("name").max_length
    assert sheet_name("Ada  Lovelace") == "Ada Lovelace"
    name = "word " * limit
    cut = sheet_name(name)
    assert len(cut) <= limit and cut.endswith("word…")
    assert sheet_name("x" * (limit + 5)) == "x" * (limit - 1) + "…"  # one long word: cut inside it


def test_share_rows_gives_each_group_the_rows_the_column_has():
    groups = [{"name": f"A{i}", "skills": [{"name": "s"}] * 3} for i in range(5)]
    laid = share_rows(groups, "18,skills")
    assert [len(column) for column in laid["columns"]] == [3, 2] and laid["more"] == 0
    assert {slot["rows"]["blank"] + len(slot["rows"]["shown"]) for slot in laid["columns"][0]} == {5}
    many = share_rows([{"name": f"A{i}", "skills": []} for i in range(40)], "18,skills")
    assert [len(column) for column in many["columns"]] == [9, 8] and many["more"] == 23
    for column in many["columns"]:
        assert sum(1 + slot["rows"]["blank"] for slot in column) <= 18
    assert share_rows([], "18,skills") == {"columns": [[], []], "more": 0}


def test_fold_leading_keeps_a_strip_of_six_columns_whatever_the_allotment():
    from systems.d6.engine.derived import map_strip

    one = fold_leading(map_strip(1), "penalty_dice")
    assert [(c["first"], c["row"]["actions"]) for c in one] == [(None, n) for n in range(1, 7)]
    many = fold_leading(map_strip(30), "penalty_dice")
    assert len(many) == 6
    assert many[0]["first"]["actions"] == 1 and many[0]["row"]["actions"] == 30
    assert [c["row"]["penalty"] for c in many] == ["none", "-1D", "-2D", "-3D", "-4D", "-5D"]
