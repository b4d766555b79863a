"""The Action Table: columns, rows, checks and the book's worked examples (timemaster-play.md §2-§5)."""

from __future__ import annotations

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import action_table


@pytest.mark.parametrize(
    ("score", "column"),
    [
        (-5, 1),
        (0, 1),
        (1, 1),
        (15, 1),
        (16, 2),
        (30, 2),
        (31, 3),
        (45, 3),
        (46, 4),
        (60, 4),
        (61, 5),
        (75, 5),
        (76, 6),
        (90, 6),
        (91, 7),
        (105, 7),
        (106, 8),
        (120, 8),
        (121, 9),
        (135, 9),
        (136, 10),
        (400, 10),
    ],
)
def test_column_of_any_score(score, column):
    assert action_table.column_for_score(score) == column


@pytest.mark.parametrize(
    ("margin", "row"),
    [(0, 0), (1, 1), (4, 1), (5, 2), (9, 2), (10, 3), (29, 3), (30, 4), (49, 4), (50, 5), (69, 5), (70, 6)]
    + [(89, 6), (90, 7), (94, 7), (95, 8), (99, 8), (100, 9), (180, 9)],
)
def test_margin_rows(margin, row):
    assert action_table.row_for_margin(margin) == row


def test_bobs_rock_worked_example():
    # DEX 72, roll 52: margin 20; defense column 5 gives M, a Medium Wound on the Armed key.
    result = action_table.specific_check(72, 52, 5, key="armed")
    assert result.success
    assert result.margin == 20
    assert result.row == "10-29"
    assert result.column == 5
    assert result.code == "M"
    assert result.letter == "M"
    assert result.name == "Medium Wound"
    assert "2d10x2" in result.meaning


def test_harrys_dexterity_check_worked_example():
    # DEX 56, roll 50: margin 6, column 2 -> MK; on the Ability key the K is ignored.
    result = action_table.specific_check(56, 50, 2)
    assert (result.margin, result.code, result.letter, result.knockdown) == (6, "MK", "M", True)
    assert result.name == "Moderate success"
    assert "ignore" in result.knockdown_meaning.lower()


def test_harrys_agility_check_with_zero_margin_worked_example():
    result = action_table.specific_check(64, 64, 2)
    assert (result.success, result.margin, result.code) == (True, 0, "L")


def test_a_failed_specific_check_has_no_letter():
    result = action_table.specific_check(40, 41, 3)
    assert not result.success
    assert result.code is None and result.margin is None


def test_general_check_succeeds_at_or_below_the_score():
    assert action_table.general_check(50, 50).success
    assert not action_table.general_check(50, 51).success
    assert action_table.general_check(50, 100).as_dict()["success"] is False


def test_margins_of_a_hundred_or_more_use_the_last_row():
    result = action_table.specific_check(140, 5, 10)
    assert (result.row, result.code) == ("100+", "H")


@pytest.mark.parametrize("roll", [0, 101, "50", True])
def test_impossible_rolls_are_refused(roll):
    with pytest.raises(RuleError) as error:
        action_table.general_check(50, roll)
    assert error.value.violations[0].field == "roll"


@pytest.mark.parametrize("column", [0, 11, None])
def test_impossible_defense_columns_are_refused(column):
    with pytest.raises(RuleError):
        action_table.specific_check(50, 10, column)


def test_unknown_results_key_is_refused():
    with pytest.raises(RuleError):
        action_table.specific_check(50, 10, 3, key="tarot")


def test_unarmed_and_direct_action_keys_read_the_same_letter_differently():
    armed = action_table.specific_check(90, 10, 3, key="armed")
    unarmed = action_table.specific_check(90, 10, 3, key="unarmed")
    talk = action_table.specific_check(90, 10, 3, key="direct_action")
    assert armed.code == unarmed.code == talk.code == "CK"
    assert armed.name == "Crippling Wound" and unarmed.name == "Crushing Damage" and talk.name == "Charmed"


def test_whole_table_is_plain_data():
    table = action_table.action_table()
    assert len(table["columns"]) == 10 and len(table["rows"]) == 10
    assert table["rows"][3]["results"][4] == "M"
