import json

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import advancement
from systems.timemaster.engine import regulations as regs

from .builds import at, finish_mission, make_build, run


def award(mission, amount, reason="earned", forgone=0):
    return {
        "kind": "sp_awarded",
        "type": "regular",
        "mission": mission,
        "amount": amount,
        "forgone": forgone,
        "reason": reason,
    }


def bonus(session, amount, **extra):
    return {"kind": "sp_awarded", "type": "bonus", "session": session, "amount": amount, **extra}


# -- regular awards and grades -----------------------------------------------------------------
def test_a_successful_mission_banks_points_and_advances_one_grade():
    build = finish_mission(make_build(), "m1", 120)
    assert build["success_points"] == 120
    assert (build["rank"], build["grade"]) == ("Trainee", 1)
    assert build["state"]["shop_open"] is True


def test_apply_entry_never_changes_its_input():
    build = make_build()
    snapshot = json.dumps(build, sort_keys=True)
    finish_mission(build, "m1")
    assert json.dumps(build, sort_keys=True) == snapshot


def test_the_tenth_grade_step_is_a_promotion_with_a_free_pick():
    build = finish_mission(at(make_build(), "Trainee", 9), "m1")
    assert (build["rank"], build["grade"]) == ("Probationer", 0)
    assert build["state"]["pending_free_choices"] == [{"rank": "Probationer", "reason": "promotion"}]
    assert advancement.advancement_summary(build)["rank_grade"] == "Probationer/0"


def test_protector_nine_becomes_timemaster_zero_then_climbs_to_ten():
    build = finish_mission(at(make_build(), "Protector", 9), "m1")
    assert (build["rank"], build["grade"]) == ("Timemaster", 0)
    build = at(build, "Timemaster", 9)
    build = finish_mission(build, "m2")
    assert (build["rank"], build["grade"]) == ("Timemaster", 10)
    assert advancement.agent_status(build) == "timemaster_10"


def test_timemaster_ten_earns_nothing_and_gains_no_grade():
    build = at(make_build(), "Timemaster", 10)
    build = run(build, {"kind": "mission_started", "mission": "m1"})
    with pytest.raises(RuleError, match="Timemaster/10"):
        advancement.apply_entry(build, award("m1", 50))
    with pytest.raises(RuleError, match="Timemaster/10"):
        advancement.apply_entry(build, bonus("s1", 10))
    build = advancement.apply_entry(build, award("m1", 0, reason="timemaster_10", forgone=50))
    assert build["success_points"] == 0 and build["state"]["sp_forgone"] == 50
    with pytest.raises(RuleError):
        advancement.apply_entry(build, {"kind": "grade_advanced", "mission": "m1"})
    with pytest.raises(RuleError, match="top"):
        regs.next_position((9, 10))


def test_a_mission_awards_and_advances_only_once():
    build = finish_mission(make_build(), "m1")
    with pytest.raises(RuleError, match="already"):
        advancement.apply_entry(build, award("m1", 10))
    with pytest.raises(RuleError, match="already"):
        advancement.apply_entry(build, {"kind": "grade_advanced", "mission": "m1"})


def test_no_grade_without_regular_points_for_that_mission():
    build = run(make_build(), award("m1", 0, reason="history_changed"))
    with pytest.raises(RuleError, match="no regular"):
        advancement.apply_entry(build, {"kind": "grade_advanced", "mission": "m1"})


def test_zero_point_reasons_cannot_carry_points():
    with pytest.raises(RuleError):
        advancement.apply_entry(make_build(), award("m1", 30, reason="mission_failed"))
    with pytest.raises(RuleError):
        advancement.apply_entry(make_build(), award("m1", 0, reason="earned"))


def test_free_pick_is_granted_only_the_first_time_a_rank_is_reached():
    build = finish_mission(at(make_build(), "Trainee", 9), "m1")
    build = run(build, {"kind": "regulation_violation", "regulation": 3, "punishment": "demote_grade"})
    assert (build["rank"], build["grade"]) == ("Trainee", 9)
    build = run(
        build,
        {"kind": "mission_started", "mission": "m2"},
        award("m2", 0, reason="demoted", forgone=80),
        {"kind": "grade_advanced", "mission": "m2"},
    )
    assert (build["rank"], build["grade"]) == ("Probationer", 0)
    assert len(build["state"]["pending_free_choices"]) == 1


# -- bonus points ------------------------------------------------------------------------------
@pytest.mark.parametrize("amount", [10, 20, 30, 40, 50])
def test_bonus_points_in_multiples_of_ten_up_to_fifty(amount):
    assert advancement.apply_entry(make_build(), bonus("s1", amount))["success_points"] == amount


@pytest.mark.parametrize("amount", [0, 5, 15, 60, -10, "10", True])
def test_bonus_points_outside_the_rules_are_refused(amount):
    with pytest.raises(RuleError):
        advancement.apply_entry(make_build(), bonus("s1", amount))


def test_bonus_points_are_capped_at_fifty_per_character_per_session():
    build = run(make_build(), bonus("s1", 30), bonus("s1", 20))
    with pytest.raises(RuleError, match="At most 50"):
        advancement.apply_entry(build, bonus("s1", 10))
    build = advancement.apply_entry(build, bonus("s2", 50))
    assert build["success_points"] == 100
    assert build["state"]["bonus_sessions"] == [["s1", 50], ["s2", 50]]


def test_the_build_remembers_a_bounded_number_of_sessions_however_many_were_played():
    """The cap needs the totals of the sessions an award may still name; the build keeps the
    latest BONUS_SESSIONS_KEPT of them, so it does not grow by a key per game session (issue 22)."""
    kept = advancement.BONUS_SESSIONS_KEPT
    build = run(make_build(), *(bonus(f"s{i}", 30) for i in range(kept * 5)))
    assert build["success_points"] == 30 * kept * 5
    sessions = build["state"]["bonus_sessions"]
    assert sessions == [[f"s{i}", 30] for i in range(kept * 4, kept * 5)]
    later = run(build, bonus("later", 30))
    assert (
        len(later["state"]["bonus_sessions"]) == kept
        and later["state"]["bonus_sessions"][0][0] != f"s{kept * 4}"
    )
    # a session still remembered keeps its cap, and an award to it moves it last
    latest = f"s{kept * 5 - 1}"
    with pytest.raises(RuleError, match="At most 50"):
        advancement.apply_entry(build, bonus(latest, 30))
    again = advancement.apply_entry(build, bonus(f"s{kept * 4}", 20))
    assert again["state"]["bonus_sessions"][-1] == [f"s{kept * 4}", 50]
    assert len(again["state"]["bonus_sessions"]) == kept


def test_a_build_stored_with_the_per_session_map_is_read_and_trimmed_on_the_next_award():
    build = make_build()
    build["state"] = {"bonus_by_session": {"s1": 50, "s2": 20}}
    with pytest.raises(RuleError, match="At most 50"):
        advancement.apply_entry(build, bonus("s1", 10))
    after = advancement.apply_entry(build, bonus("s2", 30))
    assert "bonus_by_session" not in after["state"]
    assert after["state"]["bonus_sessions"] == [["s1", 50], ["s2", 50]]


def test_bonus_sessions_of_a_ledger_are_what_the_replay_keeps():
    awards = [(f"s{i}", 10) for i in range(25)] + [(f"s{i}", 10) for i in range(20, 25)] + [("s0", 10)]
    totals, kept = advancement.bonus_sessions_of(awards)
    assert totals == {**{f"s{i}": 10 for i in range(20)}, **{f"s{i}": 20 for i in range(20, 25)}, "s0": 20}
    build = run(make_build(), *(bonus(session, amount) for session, amount in awards))
    assert build["state"]["bonus_sessions"] == kept
    # s0 had fallen out of the 20 remembered sessions: its late award counts from 0 again
    assert kept[-1] == ["s0", 10] and ["s20", 20] in kept and len(kept) == advancement.BONUS_SESSIONS_KEPT


def test_bonus_points_come_even_when_the_mission_earned_no_regular_points():
    build = run(make_build(), award("m1", 0, reason="mission_failed"), bonus("s1", 40))
    assert build["success_points"] == 40


def test_bonus_points_need_a_session():
    with pytest.raises(RuleError, match="session"):
        advancement.apply_entry(make_build(), {"kind": "sp_awarded", "type": "bonus", "amount": 10})


def test_bonus_sp_entry_follows_the_campaign_setting_for_demoted_agents():
    build = run(at(make_build(), "Agent", 3), {"kind": "demotion", "ranks": 1, "reason": "judiciary"})
    with pytest.raises(RuleError, match="demotion"):
        advancement.bonus_sp_entry(build, 20, "s1")
    entry = advancement.bonus_sp_entry(build, 20, "s1", {"bonus_sp_for_demoted_agents": True})
    assert advancement.apply_entry(build, entry)["success_points"] == 20


# -- summary -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rank, unaged",
    [("Trainee", False), ("Veteran", False), ("Lifer", True), ("Protector", True), ("Timemaster", True)],
)
def test_lifer_rank_and_above_come_back_unaged(rank, unaged):
    assert advancement.advancement_summary(at(make_build(), rank, 0))["unaged"] is unaged


def test_grades_outside_ruling_one_are_refused():
    with pytest.raises(RuleError, match="Grade 10"):
        advancement.apply_entry(at(make_build(), "Agent", 10), bonus("s", 10))
    with pytest.raises(RuleError, match="rank"):
        advancement.apply_entry(at(make_build(), "Captain", 1), bonus("s", 10))


def test_unknown_entry_kinds_and_bare_reversals_are_refused():
    with pytest.raises(RuleError, match="Unknown"):
        advancement.apply_entry(make_build(), {"kind": "levitate"})
    with pytest.raises(RuleError, match="replaying"):
        advancement.apply_entry(make_build(), {"kind": "reversal", "reverses": 1, "reason": "x"})
