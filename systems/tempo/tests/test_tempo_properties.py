"""Further checks of the issue's "Done when" list against the engine: bands and help through a
whole roll, every tempo transition through the state machine, and properties over random rolls
(tempo-flashpoints.md §B2, §B4, §B5, §B7, §B8, §D4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.tempo.engine import SYSTEM
from systems.tempo.engine.conflict import apply_event, new_conflict
from systems.tempo.engine.roll import roll, roll_for_agent

from .helpers import Scripted, agent

BOUNDARIES = [
    (4, "unmitigated_failure"),
    (5, "failure"),
    (9, "failure"),
    (10, "qualified_success"),
    (14, "qualified_success"),
    (15, "unqualified_success"),
    (19, "unqualified_success"),
    (20, "dramatic_success"),
]


@pytest.mark.parametrize(("total", "band"), BOUNDARIES)
def test_a_whole_roll_lands_in_the_band_of_its_total(total, band):
    result = roll(Scripted([1, 1, 1]), {"rating": total - 3})
    assert result.total == total
    assert result.band == band


@pytest.mark.parametrize(
    ("helper_kept", "helper_total", "handed", "faces", "kept"),
    [
        ([5, 1, 3], 9, 1, [2, 2, 2], (2, 2, 2)),  # 5-9: the lowest die, here no better than ours
        ([5, 1, 3], 10, 3, [1, 2, 2], (3, 2, 2)),  # 10-14: the middle die
        ([5, 1, 3], 15, 5, [1, 2, 2], (5, 2, 2)),  # 15+: the highest die
    ],
)
def test_each_helping_band_hands_its_die_into_the_pool(helper_kept, helper_total, handed, faces, kept):
    result = roll(
        Scripted(faces), {"help": [{"helper": "Leanne", "kept": helper_kept, "total": helper_total}]}
    )
    assert result.help_dice == (handed,)
    assert result.kept == kept
    assert len(result.faces) == 3  # a help die is already rolled: no fresh die for it


# -- every transition of the §B8 table through the state machine --------------------------------
def _state(holder, level):
    state = new_conflict(
        [{"key": "a", "name": "Finn"}, {"key": "b", "name": "Goon", "controlled_by": "gm"}],
        module="flashpoints",
    )
    state["tempo"] = {"holder": holder, "level": level}
    return state


MARGINS = {"tie": 0, "1-5": 3, "6-8": 7, "9+": 10}
HOLDER_WINS = {
    "edge": {"tie": "edge", "1-5": "edge", "6-8": "advantage", "9+": "decisive"},
    "advantage": {"tie": "advantage", "1-5": "advantage", "6-8": "decisive", "9+": "decisive"},
    "decisive": {"tie": "decisive", "1-5": "decisive", "6-8": "decisive", "9+": "decisive"},
}
FROM_EVEN = {"1-5": "edge", "6-8": "advantage", "9+": "decisive"}


@pytest.mark.parametrize("level", list(HOLDER_WINS))
@pytest.mark.parametrize("bucket", list(MARGINS))
def test_the_holder_wins_or_ties_per_the_table(level, bucket):
    after = apply_event(
        _state("a", level),
        {"type": "roll", "results": {"a": {"total": 10 + MARGINS[bucket]}, "b": {"total": 10}}},
    )
    assert after["tempo"] == {"holder": "a", "level": HOLDER_WINS[level][bucket]}


@pytest.mark.parametrize("level", list(HOLDER_WINS))
@pytest.mark.parametrize("bucket", list(FROM_EVEN))
def test_the_opponent_beats_the_holder_per_the_table(level, bucket):
    after = apply_event(
        _state("a", level),
        {"type": "roll", "results": {"a": {"total": 10}, "b": {"total": 10 + MARGINS[bucket]}}},
    )
    assert after["tempo"] == {"holder": "b", "level": FROM_EVEN[bucket]}


@pytest.mark.parametrize("bucket", list(MARGINS))
def test_from_even_per_the_table(bucket):
    after = apply_event(
        _state(None, "even"),
        {"type": "roll", "results": {"a": {"total": 10 + MARGINS[bucket]}, "b": {"total": 10}}},
    )
    expected = (
        {"holder": None, "level": "even"} if bucket == "tie" else {"holder": "a", "level": FROM_EVEN[bucket]}
    )
    assert after["tempo"] == expected


# -- properties ------------------------------------------------------------------------------------
HELPER = st.fixed_dictionaries(
    {"kept": st.lists(st.integers(1, 6), min_size=3, max_size=3), "total": st.integers(-5, 30)}
)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    bonus=st.integers(0, 6),
    penalty=st.integers(0, 6),
    rating=st.integers(0, 8),
    helpers=st.lists(HELPER, max_size=3),
    hurry=st.sampled_from([None, "guarantee", "qualifier"]),
    opponent_aspects=st.integers(0, 3),
    bonuses=st.lists(st.integers(1, 3), max_size=3),
    penalties=st.lists(st.integers(1, 3), max_size=3),
    descriptive=st.lists(st.sampled_from(["good plan", "good tools", "inside man"]), max_size=3),
)
def test_with_any_mix_of_dice_three_are_kept_and_the_total_stays_in_range(
    seed, bonus, penalty, rating, helpers, hurry, opponent_aspects, bonuses, penalties, descriptive
):
    request = {
        "rating": rating,
        "bonus_dice": bonus,
        "penalty_dice": penalty,
        "help": helpers,
        "bonuses": bonuses,
        "penalties": penalties,
        "descriptive": descriptive,
        "aspects": [{"aspect": f"ENEMY {i}", "source": "opponent"} for i in range(opponent_aspects)],
    }
    if hurry:
        request["hurry"] = {"mode": hurry, "text": "fast"}
    result = roll(random.Random(seed), request, module="flashpoints")
    modifier = rating + result.numeric_modifier
    assert len(result.kept) == 3
    assert 3 + modifier <= result.total <= 18 + modifier
    pool = sorted(result.faces + result.help_dice)
    assert sorted(result.kept + result.dropped) == pool
    assert result.bonus_dice == 0 or result.penalty_dice == 0
    if descriptive:
        assert result.numeric_modifier <= max([*bonuses, 1]) + 1  # descriptive bonuses count once


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    extra=st.integers(0, 3),
    lost=st.integers(0, 2),
    bonus=st.integers(0, 3),
    penalty=st.integers(0, 3),
)
def test_extra_and_lost_dice_change_how_many_are_kept(seed, extra, lost, bonus, penalty):
    result = roll(
        random.Random(seed),
        {"extra_dice": extra, "lost_dice": lost, "bonus_dice": bonus, "penalty_dice": penalty},
    )
    keep = 3 + extra - lost
    assert result.keep_count == keep == len(result.kept)
    assert keep <= result.total <= 6 * keep


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    balance=st.integers(0, 3),
    own=st.sampled_from([None, "invoke", "trouble"]),
    troubles=st.lists(st.sampled_from(["origin", "service", "flashpoint_1"]), unique=True, max_size=3),
    opponent_aspects=st.integers(0, 3),
)
def test_an_agents_roll_never_drives_the_balance_below_zero(seed, balance, own, troubles, opponent_aspects):
    build = agent(fate_points=balance)
    aspects = [{"aspect": slot, "use": "trouble"} for slot in troubles]
    if own:
        aspects.append({"aspect": "primary", "use": own})
    aspects += [{"aspect": f"ENEMY {i}", "source": "opponent"} for i in range(opponent_aspects)]
    cost = opponent_aspects + (own == "invoke")
    try:
        result, entries = roll_for_agent(build, "soldier", {"aspects": aspects}, random.Random(seed))
    except RuleError as error:
        assert cost > balance
        assert [v.field for v in error.violations] == ["fate_points"]
        return
    assert cost <= balance
    for entry in entries:
        build = SYSTEM.apply(build, entry)
    assert build["fate_points"] == balance - result.fate_spent + result.fate_gained >= 0
    assert result.fate_spent == cost
    assert result.fate_gained == len(troubles) + (own == "trouble")
