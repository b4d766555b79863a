"""Initiative: the Perception roll, Character Points, the optional bonus and the six-factor
tie-break chain (d6-game-time.md §B2-§B4, §D2, §D3, §E5, §E6)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.d6.engine.dicecode import DieCode, parse
from systems.d6.engine.initiative import (
    Contender,
    check_points,
    deciding_factor,
    full_ties,
    initiative_bonus,
    roll_initiative,
    score_initiative,
    settle_order,
)

from .helpers import ScriptedDice

BASE = {
    "goes_first": False,
    "Perception": "3D",
    "search": "3D",
    "Reflexes": "3D",
    "dodge": "3D",
    "situational": False,
}
BETTER = {
    "goes_first": True,
    "Perception": "3D+1",
    "search": "3D+1",
    "Reflexes": "3D+1",
    "dodge": "3D+1",
    "situational": True,
}
FACTORS = ["goes_first", "Perception", "search", "Reflexes", "dodge", "situational"]


@pytest.mark.parametrize("number", range(1, 7))
def test_each_step_of_the_chain_decides_when_all_before_it_tie(number):
    key = FACTORS[number - 1]
    better = {**BASE, key: BETTER[key]}
    worse = {**BASE}
    # the later factors favour the other one: they must not matter once this factor separates
    for later in FACTORS[number:]:
        worse[later] = BETTER[later]
    settled = settle_order(
        [Contender("b", worse, 10), Contender("a", better, 10, setup_index=1)], rolled=True
    )
    assert settled.order == ["a", "b"]
    note = settled.notes[0]
    assert (note["decided_by"], note["factor_number"], note["tie_break"]) == (key, number, True)
    assert note["before"] == "a" and note["after"] == "b"
    assert deciding_factor(better, worse) == key


def test_the_higher_total_goes_first_and_needs_no_tie_break():
    settled = settle_order([Contender("a", BETTER, 8), Contender("b", BASE, 11)], rolled=True)
    assert settled.order == ["b", "a"]
    assert settled.notes[0]["decided_by"] == "total" and settled.notes[0]["tie_break"] is False
    assert settled.notes[0]["values"] == [11, 8]


def test_codes_compare_in_pips():
    four = {**BASE, "Perception": "4D"}
    three_two = {**BASE, "Perception": "3D+2"}
    settled = settle_order([Contender("x", three_two), Contender("y", four)], rolled=False)
    assert settled.order == ["y", "x"]
    assert settled.notes[0]["values"] == ["4D", "3D+2"]


def test_a_full_tie_is_settled_by_a_recorded_draw_or_left_to_the_gm():
    open_tie = settle_order([Contender("a", BASE, 9), Contender("b", BASE, 9)], rolled=True)
    assert open_tie.unresolved == [["a", "b"]]
    assert open_tie.notes[0]["decided_by"] == "unresolved"
    drawn = settle_order([Contender("a", BASE, 9, draw=5), Contender("b", BASE, 9, draw=70)], rolled=True)
    assert drawn.order == ["b", "a"] and drawn.unresolved == []
    assert drawn.notes[0]["decided_by"] == "draw"


def test_full_ties_lists_only_those_who_need_a_draw():
    listed = [
        Contender("a", BASE, 9),
        Contender("b", BASE, 9),
        Contender("c", BETTER, 9),
        Contender("d", BASE, 4),
    ]
    assert full_ties(listed, rolled=True) == ["a", "b"]


def test_method_one_puts_the_first_movers_ahead():
    settled = settle_order([Contender("hero", BETTER), Contender("ambusher", BASE, first=True)], rolled=False)
    assert settled.order == ["ambusher", "hero"]
    assert settled.notes[0]["decided_by"] == "first_move"


def test_character_points_add_wild_dice_to_initiative():
    result = roll_initiative(DieCode(2, 1), ScriptedDice([3, 4, 6, 2, 5]), character_points=2, bonus=1)
    assert result.dice == (3,) and result.wild == (4,) and result.extra_wild == ((6, 2), (5,))
    assert result.total == 3 + 4 + 8 + 5 + 1 + 1
    again = score_initiative(result.as_dict(), DieCode(2, 1), 2, 1)
    assert again.total == result.total


def test_fate_points_never_boost_initiative():
    with pytest.raises(RuleError, match="Fate Points cannot be spent on initiative"):
        check_points(0, 1, 5, "ana")


def test_only_banked_character_points_can_be_spent():
    assert check_points(2, None, 2, "ana") == 2
    with pytest.raises(RuleError, match="Only 1 Character Point left"):
        check_points(2, 0, 1, "ana")
    with pytest.raises(RuleError):
        check_points(-1, 0, 5, "ana")


@pytest.mark.parametrize(
    ("search", "base", "reflexes", "ranks", "expected"),
    [
        ("3D", "3D", "3D", 0, 0),
        ("5D", "3D", "3D", 0, 1),  # exactly 2D over
        ("4D+2", "3D", "3D", 0, 0),  # 1D+2 over: not a full 2D
        ("7D", "3D", "3D", 0, 2),
        ("3D", "3D", "4D", 0, 1),
        ("3D", "3D", "3D+2", 0, 0),
        ("3D", "3D", "8D", 0, 2),
        ("3D", "3D", "3D", 6, 1),
        ("3D", "3D", "3D", 11, 1),
        ("5D+1", "3D", "4D+2", 12, 4),
    ],
)
def test_the_optional_initiative_bonus(search, base, reflexes, ranks, expected):
    assert initiative_bonus(parse(search), parse(base), parse(reflexes), ranks)["total"] == expected


profiles = st.fixed_dictionaries(
    {
        "goes_first": st.booleans(),
        "Perception": st.sampled_from(["2D", "2D+1", "3D"]),
        "search": st.sampled_from(["2D", "3D"]),
        "Reflexes": st.sampled_from(["2D", "3D+2"]),
        "dodge": st.sampled_from(["3D", "4D"]),
        "situational": st.booleans(),
    }
)


@settings(max_examples=150)
@given(
    st.lists(st.tuples(profiles, st.one_of(st.none(), st.integers(2, 20))), min_size=1, max_size=8),
    st.booleans(),
)
def test_the_order_is_a_permutation_and_never_breaks_the_chain(entries, rolled):
    contenders = [
        Contender(f"p{i}", profile, total if rolled else None, setup_index=i)
        for i, (profile, total) in enumerate(entries)
    ]
    settled = settle_order(contenders, rolled)
    assert sorted(settled.order) == sorted(c.id for c in contenders)
    by_id = {c.id: c for c in contenders}
    for note in settled.notes:
        a, b = by_id[note["before"]], by_id[note["after"]]
        if note["decided_by"] == "total":
            assert (a.total or 0) > (b.total or 0)
        elif note["decided_by"] != "unresolved":
            assert deciding_factor(a.profile, b.profile) == note["decided_by"]


@settings(max_examples=50)
@given(st.integers(1, 8), st.integers(0, 2**32))
def test_a_seeded_initiative_roll_is_reproducible(dice, seed):
    code = DieCode(dice, 1)
    first = roll_initiative(code, random.Random(seed), character_points=1)
    second = roll_initiative(code, random.Random(seed), character_points=1)
    assert first == second
