"""Rolling, rerolling, assigning and typing in the eight Ability numbers (§2 steps 4-5, §10 rules 1-3)."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.timemaster.engine import abilities

from .helpers import ROLL


class FixedFaces(random.Random):
    """A d10 that shows the given faces in order (0 reads 10)."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


@given(st.integers(0, 2**32))
@settings(max_examples=50)
def test_rolled_numbers_are_even_and_between_26_and_80(seed):
    record = abilities.roll_abilities(random.Random(seed))
    assert len(record["values"]) == 8
    for value, faces in zip(record["values"], record["dice"], strict=True):
        assert 26 <= value <= 80 and value % 2 == 0
        assert value == sum(faces) * 2 + 20
    assert abilities.check_roll_record(record) == []


def test_a_zero_face_reads_ten_so_three_zeros_make_eighty():
    record = abilities.roll_abilities(FixedFaces([0] * 3 + [1] * 21))
    assert record["values"][0] == 80
    assert record["values"][1] == 26


def hopeless_record():
    # three numbers of 40 or less (26, 40, 38) and five above
    values = [26, 40, 38, 72, 64, 60, 56, 52]
    dice = [[1, 1, 1], [4, 3, 3], [3, 3, 3], [10, 10, 6], [10, 10, 2], [10, 5, 5], [6, 6, 6], [6, 5, 5]]
    return {"values": values, "dice": dice, "rerolls_used": 0, "history": []}


def test_three_numbers_of_forty_or_less_make_a_hopeless_set():
    assert abilities.is_hopeless(hopeless_record()["values"])
    assert not abilities.is_hopeless(ROLL["values"])  # only one (40)


def test_a_hopeless_set_rerolls_only_its_low_numbers():
    before = hopeless_record()
    after = abilities.reroll_hopeless(before, FixedFaces([9] * 9))
    assert after["values"] == [74, 74, 74, 72, 64, 60, 56, 52]
    assert after["rerolls_used"] == 1 and after["history"] == [before["values"]]
    assert abilities.check_roll_record(after) == []


def test_reroll_is_refused_when_fewer_than_three_numbers_are_low():
    with pytest.raises(RuleError) as error:
        abilities.reroll_hopeless(copy.deepcopy(ROLL), random.Random(1))
    assert "at least 3" in str(error.value)


def test_reroll_is_refused_past_the_campaigns_allowance():
    once = abilities.reroll_hopeless(hopeless_record(), FixedFaces([1] * 9))  # still hopeless
    assert abilities.is_hopeless(once["values"])
    with pytest.raises(RuleError):
        abilities.reroll_hopeless(once, random.Random(1), allowed_rounds=1)
    twice = abilities.reroll_hopeless(once, FixedFaces([9] * 9), allowed_rounds=2)
    assert twice["rerolls_used"] == 2


def test_reroll_is_refused_when_the_campaign_turns_it_off():
    with pytest.raises(RuleError):
        abilities.reroll_hopeless(hopeless_record(), random.Random(1), allowed_rounds=0)


def test_a_forged_reroll_of_a_set_that_was_not_hopeless_is_caught():
    forged = copy.deepcopy(ROLL)
    forged["history"] = [list(ROLL["values"])]
    forged["rerolls_used"] = 1
    forged["values"][7] = 80
    forged["dice"][7] = [10, 10, 10]
    problems = abilities.check_roll_record(forged)
    assert any("was not allowed" in p.message for p in problems)


def test_a_reroll_that_changed_a_high_number_is_caught():
    before = hopeless_record()
    after = abilities.reroll_hopeless(before, FixedFaces([9] * 9))
    after["values"][3], after["dice"][3] = 80, [10, 10, 10]
    problems = abilities.check_roll_record(after)
    assert any("only low numbers" in p.message for p in problems)


def test_numbers_that_do_not_match_their_dice_are_caught():
    record = copy.deepcopy(ROLL)
    record["values"][0] = 70
    assert any(p.field == "ability_roll.dice.0" for p in abilities.check_roll_record(record))


def test_the_assignment_must_use_each_rolled_number_once():
    good = dict(zip(("STR", "DEX", "AGL", "PER", "WPR", "PCN", "LUCK", "STA"), ROLL["values"], strict=True))
    assert abilities.check_assignment(ROLL["values"], good) == []
    twice = dict(good, STA=72)
    [problem] = abilities.check_assignment(ROLL["values"], twice)
    assert "rolled but not used: 40" in problem.message
    missing = {k: v for k, v in good.items() if k != "LUCK"}
    assert [p.field for p in abilities.check_assignment(ROLL["values"], missing)] == ["abilities.LUCK"]


@pytest.mark.parametrize(("value", "fragment"), [(27, "odd"), (24, "below"), (82, "above"), ("50", "whole")])
def test_typed_in_numbers_must_look_rolled(value, fragment):
    numbers = {"STR": value, "DEX": 50, "AGL": 50, "PER": 50, "WPR": 50, "PCN": 50, "LUCK": 50, "STA": 50}
    [problem] = abilities.check_manual(numbers)
    assert problem.field == "abilities.STR" and fragment in problem.message


def test_assign_in_order_gives_the_highest_number_to_the_first_named_ability():
    order = ["STA", "STR", "DEX", "AGL", "PER", "WPR", "PCN", "LUCK"]
    assigned = abilities.assign_in_order(ROLL["values"], order)
    assert assigned["STA"] == 72 and assigned["LUCK"] == 40
    with pytest.raises(RuleError):
        abilities.assign_in_order(ROLL["values"], order[:-1])
