import pytest

from systems.time_to_kill.engine.mission import action_cell, combine_fates, roll_succeeds
from systems.time_to_kill.engine.tables import ACTION_TABLE, RATING_VALUE, action_table_rows

from .helpers import MIXED, act, start, to_action

# Knowledge is -, Stealth 0, Awareness + in the MIXED ninja.
ABILITY_AT = {"-": "knowledge", "0": "stealth", "+": "awareness"}

# (Fate, ability) -> the highest failing face, or "fail"/"win" for automatic results (time-to-kill.md §B7)
BOOK = {
    ("-", "-"): "fail",
    ("-", "0"): 5,
    ("-", "+"): 3,
    ("0", "-"): 5,
    ("0", "0"): 3,
    ("0", "+"): 1,
    ("+", "-"): 3,
    ("+", "0"): 1,
    ("+", "+"): "win",
}


def test_the_table_has_exactly_the_nine_cells_of_the_book():
    assert set(ACTION_TABLE) == set(BOOK)
    assert len(action_table_rows()) == 9


@pytest.mark.parametrize("cell", list(BOOK))
def test_each_cell_of_the_action_table(cell):
    expected = BOOK[cell]
    found = action_cell(*cell)
    if expected == "fail":
        assert found == {"automatic": "failure", "fail_on": None}
        assert not any(roll_succeeds(*cell, roll) for roll in range(1, 7))
    elif expected == "win":
        assert found == {"automatic": "success", "fail_on": None}
        assert all(roll_succeeds(*cell, roll) for roll in range(1, 7))
    else:
        assert found == {"automatic": None, "fail_on": expected}
        assert [roll_succeeds(*cell, roll) for roll in range(1, 7)] == [r > expected for r in range(1, 7)]


@pytest.mark.parametrize("cell", list(BOOK))
def test_the_table_depends_only_on_the_sum_of_fate_and_ability(cell):
    fate, ability = cell
    total = RATING_VALUE[fate] + RATING_VALUE[ability]
    by_sum = {-2: "fail", -1: 5, 0: 3, 1: 1, 2: "win"}
    assert BOOK[cell] == by_sum[total]


@pytest.mark.parametrize("cell", list(BOOK))
def test_each_cell_played_in_a_mission(cell):
    fate, rating = cell
    expected = BOOK[cell]
    ability = ABILITY_AT[rating]
    state = to_action(start(MIXED), fates={"terrain": fate})
    if expected in ("fail", "win"):
        done = act(state, ability, ["terrain"])
        assert done["current"]["action"]["rolls"] == []
        assert done["die_roll_count"] == 0
        assert done["current"]["action"]["result"] == ("success" if expected == "win" else "failure")
        return
    failed = act(state, ability, ["terrain"], roll=expected)
    passed = act(state, ability, ["terrain"], roll=expected + 1)
    assert failed["current"]["action"]["result"] == "failure"
    assert passed["current"]["action"]["result"] == "success"
    assert failed["die_roll_count"] == passed["die_roll_count"] == 1


@pytest.mark.parametrize(
    "values, combined",
    [
        (["+", "-"], "0"),
        (["+", "+"], "+"),
        (["+", "0", "0"], "+"),
        (["-", "-", "+"], "-"),
        (["-", "-", "-", "-"], "-"),
        (["0"], "0"),
    ],
)
def test_combined_fates_are_the_sign_of_their_sum(values, combined):
    assert combine_fates(values) == combined


def test_a_combined_fate_in_play_reveals_every_fate_used():
    state = to_action(start(MIXED), fates={"opposition": "+", "terrain": "-", "circumstance": "+"})
    done = act(state, "stealth", ["opposition", "terrain"], roll=3)
    action = done["current"]["action"]
    assert action["combined"] == "0"
    assert action["fail_on"] == 3
    assert action["result"] == "failure"
    fates = done["current"]["fates"]
    assert fates["opposition"]["revealed"] and fates["terrain"]["revealed"]
    assert fates["opposition"]["revealed_by"] == "act"
    assert not fates["circumstance"]["revealed"]
