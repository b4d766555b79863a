"""The issue's "done when" list, checked end to end through the engine: die-code arithmetic and
comparison, each initiative method, every tie-break step inside a rolled scene, the optional
bonus changing an order, and the multi-action penalty with and without a bigger allotment
(d6-game-time.md §A1, §B2-§B4, §B8, §D1-§D5)."""

from __future__ import annotations

import pytest

from systems.d6.engine import encounter as enc
from systems.d6.engine.derived import map_dice, map_strip
from systems.d6.engine.dicecode import DieCode, format_code, parse, total

from .helpers import ScriptedDice, build, npc, play


def hero(pid="ana", **overrides):
    return enc.participant_from_build(pid, build(pid.title(), **overrides))


# -- die codes ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("3D", "2D", "5D"),
        ("3D+1", "1D+1", "4D+2"),
        ("3D+2", "1D+2", "5D+1"),  # 4 pips carry one die
        ("2D+2", "0D+1", "3D"),
        ("1D+1", "1D+2", "3D"),
        ("0D", "4D+1", "4D+1"),
    ],
)
def test_adding_codes_carries_every_three_pips_into_a_die(a, b, expected):
    assert format_code(parse(a) + parse(b)) == expected
    assert format_code(parse(b) + parse(a)) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("5D+1", "1D+2", "3D+2"),  # borrows a die for the pips
        ("4D", "1D+1", "2D+2"),
        ("3D+2", "3D+2", "0D"),
        ("2D", "3D", "0D"),  # never below zero
    ],
)
def test_taking_a_code_away_borrows_pips_and_stops_at_zero(a, b, expected):
    assert format_code(parse(a) - parse(b)) == expected


def test_a_sum_of_many_codes():
    assert total([parse("2D+1"), parse("1D+1"), parse("0D+2"), parse("3D")]) == parse("7D+1")
    assert total([]) == DieCode(0)


@pytest.mark.parametrize(
    ("low", "high"),
    [("3D+2", "4D"), ("3D", "3D+1"), ("1D+2", "2D"), ("2D+2", "3D+1"), ("0D+1", "1D")],
)
def test_a_code_with_more_pips_in_total_is_higher(low, high):
    assert parse(low) < parse(high)
    assert parse(high) > parse(low)
    assert parse(low).total_pips < parse(high).total_pips


def test_codes_worth_the_same_pips_are_equal():
    assert DieCode(1, 5) == parse("2D+2")
    assert DieCode(0, 9) == parse("3D")
    assert not parse("3D") < DieCode(2, 3)


# -- each initiative method, in a scene of three ---------------------------------------------------
def _three():
    return [hero(), hero("bo"), npc("thug", perception="2D")]


def _round_order(state):
    return list(state["order"])


def test_method_one_orders_without_rolls_and_keeps_the_order_every_round():
    state = play(enc.new_encounter(_three(), method="first_move"), {"type": "begin_round"})
    with pytest.raises(Exception, match="order_without_rolls"):
        enc.apply_event(state, {"type": "roll_initiative"})
    state = play(state, {"type": "order_without_rolls", "first": ["thug"]})
    first_round = _round_order(state)
    assert first_round[0] == "thug"
    assert state["order_notes"][0]["decided_by"] == "first_move"
    assert state["initiative"]["totals"] == {}
    for pid in first_round:
        state = play(state, {"type": "declare", "participant": pid, "actions": 0})
    state = play(state, {"type": "begin_round"})
    assert state["phase"] == "turns" and _round_order(state) == first_round


def test_method_two_rolls_once_and_the_next_round_reuses_the_order():
    state = play(enc.new_encounter(_three(), method="once_per_scene"), {"type": "begin_round"})
    dice = {
        "ana": {"dice": [1, 1], "wild": [2]},
        "bo": {"dice": [5, 5], "wild": [5]},
        "thug": {"dice": [3], "wild": [3]},
    }
    state = play(state, {"type": "roll_initiative", "rolls": dice})
    assert _round_order(state) == ["bo", "thug", "ana"]
    assert state["initiative"]["totals"] == {"ana": 4, "bo": 15, "thug": 6}
    for pid in ["bo", "thug", "ana"]:
        state = play(state, {"type": "declare", "participant": pid, "actions": 0})
    state = play(state, {"type": "begin_round"})
    assert state["phase"] == "turns" and _round_order(state) == ["bo", "thug", "ana"]
    assert state["initiative"]["round"] == 1  # the roll of round 1 still stands


def test_method_three_rolls_again_and_the_order_can_change():
    state = play(enc.new_encounter(_three(), method="every_round"), {"type": "begin_round"})
    round_one = {
        "ana": {"dice": [6, 6], "wild": [5]},
        "bo": {"dice": [1, 1], "wild": [1]},
        "thug": {"dice": [2], "wild": [2]},
    }
    state = play(state, {"type": "roll_initiative", "rolls": round_one})
    assert _round_order(state) == ["ana", "thug", "bo"]
    for pid in ["ana", "thug", "bo"]:
        state = play(state, {"type": "declare", "participant": pid, "actions": 0})
    state = play(state, {"type": "begin_round"})
    assert state["phase"] == "initiative" and state["order"] == []
    round_two = {
        "ana": {"dice": [1, 1], "wild": [1]},
        "bo": {"dice": [6, 6], "wild": [5]},
        "thug": {"dice": [4], "wild": [4]},
    }
    state = play(state, {"type": "roll_initiative", "rolls": round_two})
    assert _round_order(state) == ["bo", "thug", "ana"]
    assert state["initiative"]["round"] == 2


# -- every step of the tie-break chain, inside a rolled scene --------------------------------------
TIED_ROLL = {"dice": [3, 3], "wild": [3]}  # 9 on 3D for both


@pytest.mark.parametrize(
    ("number", "factor", "bo_overrides", "situational"),
    [
        (1, "goes_first", {"goes_first": True}, []),
        (2, "Perception", {"attributes": {"Perception": "3D+1", "Reflexes": "3D", "Strength": "3D"}}, []),
        (
            3,
            "search",
            {
                "skills": {
                    "search": {"attribute": "Perception", "code": "3D+2"},
                    "dodge": {"attribute": "Reflexes", "code": "3D"},
                }
            },
            [],
        ),
        (4, "Reflexes", {"attributes": {"Perception": "3D", "Reflexes": "3D+1", "Strength": "3D"}}, []),
        (
            5,
            "dodge",
            {
                "skills": {
                    "search": {"attribute": "Perception", "code": "3D"},
                    "dodge": {"attribute": "Reflexes", "code": "4D"},
                }
            },
            [],
        ),
        (6, "situational", {}, ["bo"]),
    ],
)
def test_tied_rolls_go_down_the_chain_one_step_at_a_time(number, factor, bo_overrides, situational):
    bo = hero("bo", **bo_overrides)
    state = play(enc.new_encounter([hero(), bo]), {"type": "begin_round"})
    # a 3D+1 Perception adds its pip to the roll: one less on the dice keeps the totals tied
    bo_roll = {"dice": [3, 2], "wild": [3]} if factor == "Perception" else TIED_ROLL
    rolls = {"ana": TIED_ROLL, "bo": bo_roll}
    state = play(state, {"type": "roll_initiative", "rolls": rolls, "situational": situational})
    assert state["initiative"]["totals"] == {"ana": 9, "bo": 9}
    assert state["order"] == ["bo", "ana"]
    note = state["order_notes"][0]
    assert (note["decided_by"], note["factor_number"], note["tie_break"]) == (factor, number, True)


def test_a_higher_roll_beats_every_tie_break_factor():
    strong = hero(
        "bo",
        goes_first=True,
        attributes={"Perception": "5D", "Reflexes": "5D", "Strength": "3D"},
    )
    state = play(enc.new_encounter([hero(), strong]), {"type": "begin_round"})
    rolls = {"ana": {"dice": [3, 3], "wild": [4]}, "bo": {"dice": [1, 1, 1, 1], "wild": [1]}}
    state = play(state, {"type": "roll_initiative", "rolls": rolls, "situational": ["bo"]})
    assert state["order"] == ["ana", "bo"]
    assert state["order_notes"][0]["decided_by"] == "total"


# -- the optional bonus ------------------------------------------------------------------------------------
def test_the_optional_bonus_can_change_who_goes_first():
    # Ana has 8D of Reflexes (+2) and search 2D above Perception (+1); Bo rolls 2 more.
    sharp = hero(
        attributes={"Perception": "3D", "Reflexes": "8D", "Strength": "3D"},
        skills={
            "search": {"attribute": "Perception", "code": "5D"},
            "dodge": {"attribute": "Reflexes", "code": "8D"},
        },
    )
    rolls = {"ana": {"dice": [2, 2], "wild": [2]}, "bo": {"dice": [3, 3], "wild": [2]}}
    without = play(
        enc.new_encounter([sharp, hero("bo")]),
        {"type": "begin_round"},
        {"type": "roll_initiative", "rolls": rolls},
    )
    with_bonus = play(
        enc.new_encounter([sharp, hero("bo")], settings={"optional_initiative_bonus": True}),
        {"type": "begin_round"},
        {"type": "roll_initiative", "rolls": rolls},
    )
    assert without["order"] == ["bo", "ana"] and without["initiative"]["totals"] == {"ana": 6, "bo": 8}
    assert with_bonus["order"] == ["ana", "bo"] and with_bonus["initiative"]["totals"] == {"ana": 9, "bo": 8}
    assert with_bonus["initiative"]["rolls"]["ana"]["bonus"] == 3


# -- the multi-action penalty ------------------------------------------------------------------------------
@pytest.mark.parametrize(("declared", "dice"), [(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_the_penalty_table_for_an_allotment_of_one(declared, dice):
    assert map_dice(declared, 1) == dice
    row = map_strip(1)[declared - 1]
    assert (row["actions"], row["penalty_dice"]) == (declared, dice)


@pytest.mark.parametrize(
    ("allotment", "declared", "dice"), [(2, 1, 0), (2, 2, 0), (2, 3, 1), (3, 5, 2), (8, 8, 0), (8, 9, 1)]
)
def test_a_bigger_allotment_moves_the_penalty_back(allotment, declared, dice):
    assert map_dice(declared, allotment) == dice
    assert map_strip(allotment)[declared - 1]["penalty_dice"] == dice


def test_nine_actions_on_an_allotment_of_eight_are_each_rolled_one_die_down():
    state = play(
        enc.new_encounter([hero(action_allotment=8)]),
        {"type": "begin_round"},
        {"type": "order_without_rolls"},
        {"type": "declare", "participant": "ana", "actions": 9},
    )
    for number in range(1, 10):
        state = enc.apply_event(
            state,
            {"type": "act", "participant": "ana", "action": "punch", "trait": "brawling"},
            ScriptedDice([2, 2, 2]),
        )
        record = state["log"][-1]
        assert (record["action_number"], record["penalty_dice"], record["effective"]) == (number, 1, "3D")
        assert record["roll"]["total"] == 6
        state = play(state, {"type": "announce"})
    assert enc.remaining_actions(state["participants"]["ana"]) == 0
    with pytest.raises(Exception, match="no declared actions left"):
        enc.apply_event(state, {"type": "wait", "participant": "ana"})
    state = play(state, {"type": "done", "participant": "ana"})
    assert state["phase"] == "between_rounds" and state["log"][-1]["lost"] == {}


def test_the_same_actions_without_a_bigger_allotment_cost_eight_dice():
    state = play(
        enc.new_encounter([hero()]),
        {"type": "begin_round"},
        {"type": "order_without_rolls"},
        {"type": "declare", "participant": "ana", "actions": 9},
    )
    assert enc.penalty_for(state, "ana", "skill")["penalty"] == "-8D"
    assert enc.effective_code(state, "ana", "brawling")["usable"] is False
    with pytest.raises(Exception, match="a trait at zero cannot be used"):
        enc.apply_event(state, {"type": "act", "participant": "ana", "action": "punch", "trait": "brawling"})
    assert enc.penalty_for(state, "ana", "initiative")["penalty_dice"] == 0
    assert enc.penalty_for(state, "ana", "damage")["penalty_dice"] == 0
