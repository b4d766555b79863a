"""Die codes: parsing, formatting, comparison, arithmetic and the Wild Die (d6-game-time.md §A1)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.d6.engine.dicecode import DieCode, DieRoll, format_code, parse, roll_code, roll_from_dict

from .helpers import ScriptedDice

codes = st.builds(DieCode, st.integers(0, 99), st.integers(0, 2))


def test_codes_parse_and_format_in_the_usual_spelling():
    assert parse("3D") == DieCode(3, 0)
    assert parse("4D+1") == DieCode(4, 1)
    assert parse(" 3d + 2 ") == DieCode(3, 2)
    assert format_code(DieCode(3, 2)) == "3D+2"
    assert str(DieCode(5)) == "5D"


def test_three_pips_make_one_die():
    assert DieCode(2, 3) == DieCode(3, 0)
    assert DieCode(0, 7) == DieCode(2, 1)
    assert DieCode(3, 2) + DieCode(0, 1) == DieCode(4, 0)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("3Q", "'3Q' is not a die code: write it like 3D or 3D+2."),
        ("D+1", "is not a die code"),
        ("3.5D", "is not a die code"),
        ("2D+3", "3 pips make 1D: write it as 3D"),
        ("2D+4", "write it as 3D+1"),
        ("3D+0", "write it as 3D"),
        ("3D-1", "still written as a positive code"),
        ("100D", "more than 99 dice"),
        (3, "is not a die code"),
    ],
)
def test_bad_codes_are_refused_naming_the_field(text, words):
    with pytest.raises(RuleError) as error:
        parse(text, "attributes.Perception")
    violation = error.value.violations[0]
    assert violation.field == "attributes.Perception"
    assert words in violation.message


def test_codes_order_by_total_pips():
    assert DieCode(3, 2) < DieCode(4, 0) < DieCode(4, 1)
    assert max([parse("2D+2"), parse("3D"), parse("2D+1")]) == parse("3D")
    assert sorted([parse("4D"), parse("1D+2"), parse("3D+1")]) == [parse("1D+2"), parse("3D+1"), parse("4D")]


def test_subtraction_never_goes_below_zero_dice():
    assert DieCode(4, 1) - DieCode(3) == DieCode(1, 1)
    assert DieCode(1, 2) - DieCode(2) == DieCode(0)
    assert DieCode(2, 1).without_dice(2) == DieCode(0, 1)
    assert not DieCode(0, 1).usable


def test_codes_do_not_mix_with_plain_numbers():
    with pytest.raises(TypeError):
        DieCode(3) + 1  # noqa: B018
    with pytest.raises(ValueError):
        DieCode(-1)


def test_the_wild_die_rerolls_and_adds_on_a_six():
    result = DieCode(3, 1).roll(ScriptedDice([4, 2, 6, 6, 3]))
    assert result.dice == (4, 2)
    assert result.wild == (6, 6, 3)
    assert result.total == 4 + 2 + 15 + 1


def test_plain_wild_dice_never_reroll():
    result = roll_code(DieCode(2), ScriptedDice([6, 6]), wild_die="plain")
    assert result.dice == (6, 6) and result.wild == () and result.total == 12


def test_a_one_on_the_wild_die_is_flagged_but_keeps_the_total_by_default():
    result = DieCode(3).roll(ScriptedDice([5, 4, 1]))
    assert result.wild_one_rolled and result.total == 10 and result.removed == ()


def test_the_remove_highest_option_takes_off_the_one_and_the_best_die():
    result = roll_code(DieCode(3), ScriptedDice([5, 4, 1]), wild_one="remove_highest")
    assert result.removed == (1, 5)
    assert result.total == 4


def test_extra_wild_dice_and_a_bonus_add_to_the_total():
    result = DieCode(2).roll(ScriptedDice([3, 2, 6, 1]), extra_wild_dice=1, bonus=2)
    assert result.extra_wild == ((6, 1),)
    assert result.total == 3 + 2 + 7 + 2


def test_a_code_at_zero_cannot_be_rolled():
    with pytest.raises(RuleError, match="zero cannot be used"):
        DieCode(0, 2).roll(random.Random(1))


def test_dice_rolled_at_the_table_are_checked_and_rescored():
    roll = roll_from_dict({"dice": [3, 4], "wild": [6, 2], "total": 99}, DieCode(3, 2))
    assert roll.total == 3 + 4 + 8 + 2
    with pytest.raises(RuleError, match="rolls 2 ordinary dice"):
        roll_from_dict({"dice": [3], "wild": [2]}, DieCode(3))
    with pytest.raises(RuleError, match="only after a 6"):
        roll_from_dict({"dice": [3, 3], "wild": [5, 2]}, DieCode(3))
    with pytest.raises(RuleError, match="rolled again after each 6"):
        roll_from_dict({"dice": [3, 3], "wild": [6]}, DieCode(3))
    with pytest.raises(RuleError, match="from 1 to 6"):
        roll_from_dict({"dice": [3, 7], "wild": [2]}, DieCode(3))
    with pytest.raises(RuleError, match="one set of faces for each"):
        roll_from_dict({"dice": [3, 3], "wild": [2]}, DieCode(3), extra_wild_dice=1)


@settings(max_examples=200)
@given(codes)
def test_parse_of_format_gives_back_the_code(code):
    assert parse(format_code(code)) == code


@settings(max_examples=200)
@given(codes, codes)
def test_adding_then_subtracting_gives_back_the_code(a, b):
    assert (a + b) - b == a
    assert (a + b) >= a


@settings(max_examples=200)
@given(codes, codes)
def test_ordering_agrees_with_total_pips(a, b):
    assert (a < b) == (a.total_pips < b.total_pips)
    assert (a == b) == (a.total_pips == b.total_pips)


@settings(max_examples=100)
@given(st.builds(DieCode, st.integers(1, 12), st.integers(0, 2)), st.integers(0, 2**32), st.integers(0, 3))
def test_a_roll_stored_as_dice_scores_the_same_when_replayed(code, seed, extra):
    rolled = code.roll(random.Random(seed), extra_wild_dice=extra)
    again = roll_from_dict(rolled.as_dict(), code, extra_wild_dice=extra)
    assert isinstance(again, DieRoll)
    assert again.total == rolled.total
    assert rolled.total >= code.dice + code.pips + extra
