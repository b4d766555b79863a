"""Which mistake mattered: hand-worked missions (timemaster-play.md §2.4: history changed when the
roll is at or below the mistakes total; the pool is significance minus the total, split equally,
rounded down, ruling 2) worked out again without lines, and the smallest set that saves history."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.timemaster.engine import counterfactual, significance


def closed(
    significance_rating: int,
    ratings: list[int],
    roll: int | None,
    statuses: tuple[str, ...] = ("eligible",),
    reversed_lines: tuple[int, ...] = (),
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A mission closed by the real engine: lines numbered 1.. in order, then reversals."""
    state = significance.new_mission_state("m1", significance=significance_rating)
    for number, status in enumerate(statuses, start=1):
        state = significance.apply_event(
            state, {"type": "add_agent", "agent": f"a{number}", "status": status}
        )
    for rating in ratings:
        state = significance.apply_event(
            state, {"type": "tally", "entry": {"kind": "event_changed", "rating": rating}}
        )
    for line in reversed_lines:
        state = significance.apply_event(
            state, {"type": "reverse_tally", "reverses": str(line), "reason": "entered twice"}
        )
    outcome = significance.resolve_mission(state, roll is not None, roll)
    return outcome, state["tally"]


def by_line(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["line"]: row for row in rows}


# -- a roll equal to the total: history changed by the narrowest margin --------------------------
def test_a_roll_equal_to_the_total_changes_history_and_any_rated_line_alone_would_have_saved_it():
    # 100 + 50 + 30 = 180 and the roll is 180: 180 <= 180, history changed (difference 0).
    outcome, tally = closed(500, [100, 50, 30], 180, ("eligible", "eligible"))
    assert outcome["verdict"] == "history_changed"
    rows = by_line(counterfactual.without_each_line(outcome, tally))
    # Without line 1: 80 < 180, intact; pool 500 - 80 = 420, 210 each.
    assert rows["1"]["verdict"] == "history_intact"
    assert (rows["1"]["mistakes_total"], rows["1"]["pool"], rows["1"]["share"]) == (80, 420, 210)
    assert (rows["2"]["pool"], rows["2"]["share"]) == (370, 185)
    assert (rows["3"]["pool"], rows["3"]["share"]) == (350, 175)
    assert all(row["changes_verdict"] and row["changes_awards"] for row in rows.values())
    assert [a["regular"] for a in rows["3"]["awards"]] == [175, 175]


def test_at_a_tie_the_rescue_is_the_single_least_significant_line():
    outcome, tally = closed(500, [100, 50, 30], 180, ("eligible", "eligible"))
    rescue = counterfactual.smallest_rescue(outcome, tally)
    assert rescue is not None
    assert rescue["lines"] == ["3"]
    assert rescue["removed_significance"] == 30
    assert (rescue["verdict"], rescue["mistakes_total"], rescue["pool"], rescue["share"]) == (
        "history_intact",
        150,
        350,
        175,
    )


def test_a_line_rated_zero_changes_nothing_even_at_a_tie():
    outcome, tally = closed(400, [0, 90], 90, ("eligible",))
    rows = by_line(counterfactual.without_each_line(outcome, tally))
    assert rows["1"]["verdict"] == "history_changed"
    assert not rows["1"]["changes_verdict"] and not rows["1"]["changes_awards"]
    assert rows["2"]["changes_verdict"]
    assert counterfactual.smallest_rescue(outcome, tally)["lines"] == ["2"]


def test_one_above_the_total_keeps_history_and_a_line_only_changes_the_award():
    outcome, tally = closed(500, [100, 50, 30], 181, ("eligible", "eligible"))
    assert outcome["verdict"] == "history_intact"
    assert (outcome["pool"], outcome["share"]) == (320, 160)
    rows = by_line(counterfactual.without_each_line(outcome, tally))
    assert not any(row["changes_verdict"] for row in rows.values())
    assert rows["3"]["changes_awards"] and (rows["3"]["pool"], rows["3"]["share"]) == (350, 175)
    rescue = counterfactual.smallest_rescue(outcome, tally)
    assert rescue["lines"] == [] and rescue["removed_significance"] == 0
    assert rescue["pool"] == 320


def test_the_difference_is_the_total_minus_the_roll_and_the_points_to_the_other_verdict_follow():
    assert counterfactual.difference(180, 180) == 0  # changed at the threshold
    assert counterfactual.difference(370, 200) == 170  # the number looked up on the chart
    assert counterfactual.difference(180, 181) == -1
    assert counterfactual.difference(10, None) is None
    assert counterfactual.to_other_verdict(180, 180) == 1  # take away 1 and 180 > 179
    assert counterfactual.to_other_verdict(180, 181) == 1  # add 1 and 181 <= 181
    assert counterfactual.to_other_verdict(370, 200) == 171
    assert counterfactual.to_other_verdict(0, 1) == 1
    assert counterfactual.to_other_verdict(10, None) is None


# -- no mistakes ------------------------------------------------------------------------------
def test_a_mission_without_mistakes_has_no_lines_to_remove_and_nothing_to_rescue():
    # With 0 mistakes no roll (1-1000) is at or below the total: the check cannot fail (§6.2).
    outcome, tally = closed(300, [], 1, ("eligible", "demoted", "eligible"))
    assert outcome["verdict"] == "history_intact"
    assert counterfactual.without_each_line(outcome, tally) == []
    rescue = counterfactual.smallest_rescue(outcome, tally)
    assert rescue["lines"] == []
    # 300 split three ways; the demoted agent's share is forgone, not passed on (rulings 2-3).
    assert [(a["regular"], a["forgone"]) for a in rescue["awards"]] == [(100, 0), (0, 100), (100, 0)]


# -- only several lines together change the verdict -----------------------------------------------
def test_when_no_line_alone_would_have_saved_history_the_rescue_names_several():
    # 120 + 110 + 100 + 40 = 370, roll 200: changed (difference 170). Without any one line the
    # total is still 250 or more, at or above 200. Kept lines must total 199 or less: at most two
    # (40 + 100 + 110 = 250 is too much), and the two with the largest total are 120 + 40 = 160.
    outcome, tally = closed(800, [120, 110, 100, 40], 200)
    rows = counterfactual.without_each_line(outcome, tally)
    assert [row["mistakes_total"] for row in rows] == [250, 260, 270, 330]
    assert not any(row["changes_verdict"] for row in rows)
    assert not any(row["changes_awards"] for row in rows)
    rescue = counterfactual.smallest_rescue(outcome, tally)
    assert rescue["lines"] == ["2", "3"]
    assert rescue["removed_significance"] == 210
    assert (rescue["mistakes_total"], rescue["verdict"], rescue["pool"]) == (160, "history_intact", 640)
    assert rescue["awards"][0]["regular"] == 640


def test_among_equally_small_rescues_the_later_lines_are_named():
    # Two lines of 60, roll 100: 120 >= 100, changed; removing either one leaves 60 < 100.
    outcome, tally = closed(200, [60, 60], 100)
    assert counterfactual.smallest_rescue(outcome, tally)["lines"] == ["2"]


def test_a_thousand_or_more_always_changes_history_and_the_rescue_still_exists():
    outcome, tally = closed(1000, [1000, 1000, 5], 1000)
    assert outcome["verdict"] == "history_changed"
    rescue = counterfactual.smallest_rescue(outcome, tally)
    assert rescue["lines"] == ["1", "2"]
    assert rescue["verdict"] == "history_intact" and rescue["pool"] == 995


# -- what does not count, and what was not checked ---------------------------------------------
def test_reversed_lines_and_reversals_are_not_lines_to_remove():
    outcome, tally = closed(500, [100, 50, 30], 120, reversed_lines=(1,))
    assert outcome["mistakes_total"] == 80
    rows = counterfactual.without_each_line(outcome, tally)
    assert [row["line"] for row in rows] == ["2", "3"]


def test_a_mission_not_completed_as_briefed_has_no_check_to_work_out_again():
    outcome, tally = closed(500, [100, 50], None)
    assert outcome["verdict"] == "mission_failed"
    rows = counterfactual.without_each_line(outcome, tally)
    assert all(row["verdict"] == "mission_failed" and row["difference"] is None for row in rows)
    assert not any(row["changes_verdict"] or row["changes_awards"] for row in rows)
    assert counterfactual.smallest_rescue(outcome, tally) is None


def test_the_remainder_and_the_timemaster_10_share_follow_the_split():
    outcome, tally = closed(100, [10], 900, ("eligible", "timemaster_10", "eligible"))
    row = counterfactual.without_each_line(outcome, tally)[0]
    # 100 three ways: 33 each, 1 not awarded; the Timemaster/10's share is forgone.
    assert (row["pool"], row["share"], row["remainder"]) == (100, 33, 1)
    assert [(a["regular"], a["forgone"]) for a in row["awards"]] == [(33, 0), (0, 33), (33, 0)]


def test_a_tally_that_is_not_the_outcomes_is_refused():
    outcome, tally = closed(500, [100, 50], 120)
    with pytest.raises(RuleError) as error:
        counterfactual.without_each_line(outcome, tally[:1])
    assert error.value.violations[0].field == "tally"
    with pytest.raises(RuleError):
        counterfactual.smallest_rescue({"nothing": 1}, tally)


def test_nothing_given_is_changed():
    outcome, tally = closed(500, [100, 50, 30], 180, ("eligible", "eligible"))
    before = (repr(outcome), repr(tally))
    counterfactual.without_each_line(outcome, tally)
    counterfactual.smallest_rescue(outcome, tally)
    assert (repr(outcome), repr(tally)) == before


# -- the rescue is the smallest there is -----------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(
    ratings=st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=7),
    roll=st.integers(min_value=1, max_value=1000),
)
def test_the_rescue_keeps_history_and_no_fewer_lines_would(ratings, roll):
    outcome, tally = closed(1000, ratings, roll)
    rescue = counterfactual.smallest_rescue(outcome, tally)
    assert rescue is not None and rescue["verdict"] == "history_intact"
    removed = {int(line) - 1 for line in rescue["lines"]}
    assert sum(r for i, r in enumerate(ratings) if i not in removed) < roll
    smaller = [
        combo
        for size in range(len(removed))
        for combo in itertools.combinations(range(len(ratings)), size)
        if sum(r for i, r in enumerate(ratings) if i not in combo) < roll
    ]
    assert smaller == []
    # and no set of the same size removes less significance
    same = [
        sum(ratings[i] for i in combo)
        for combo in itertools.combinations(range(len(ratings)), len(removed))
        if sum(r for i, r in enumerate(ratings) if i not in combo) < roll
    ]
    assert rescue["removed_significance"] == min(same)
