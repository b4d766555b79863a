import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.timemaster.engine import advancement
from systems.timemaster.engine import regulations as regs

from .builds import at, make_build


def ledger(*entries):
    return [{"id": number, **entry} for number, entry in enumerate(entries, start=1)]


def reversal(entry_id, target, reason="entered by mistake"):
    return {"id": entry_id, "kind": "reversal", "reverses": target, "reason": reason}


MISSION = [
    {"kind": "mission_started", "mission": "m1"},
    {"kind": "sp_awarded", "type": "regular", "mission": "m1", "amount": 120, "reason": "earned"},
    {"kind": "grade_advanced", "mission": "m1"},
    {"kind": "adventure_closed", "mission": "m1"},
    {"kind": "sp_spent", "purchase": "new_skill", "skill": "sword", "cost": 50},
]


def test_replay_folds_entries_in_order():
    build = advancement.replay(make_build(), ledger(*MISSION))
    assert build["success_points"] == 70 and build["grade"] == 1 and "sword" in build["skills"]


def test_a_reversed_entry_is_skipped():
    entries = ledger(*MISSION) + [reversal(6, 5)]
    build = advancement.replay(make_build(), entries)
    assert build["success_points"] == 120 and "sword" not in build["skills"]


def test_a_reversal_that_makes_a_later_entry_illegal_is_refused_naming_that_entry():
    entries = ledger(*MISSION) + [reversal(6, 2, "wrong mission")]
    with pytest.raises(RuleError) as error:
        advancement.replay(make_build(), entries)
    first = error.value.violations[0]
    assert first.field == "ledger.3"
    assert "Entry 3 (grade_advanced)" in first.message


def test_reversing_an_earlier_violation_shifts_the_offence_count_and_is_refused():
    build = at(make_build(), "Agent", 5)
    first = regs.violation_entry(build, 4)
    second = regs.violation_entry(advancement.apply_entry(build, first), 5)
    entries = ledger(first, second) + [reversal(3, 1)]
    with pytest.raises(RuleError) as error:
        advancement.replay(build, entries)
    assert error.value.violations[0].field == "ledger.2"
    assert "now offence 1" in str(error.value)
    assert advancement.replay(build, [*ledger(first, second), reversal(3, 2), reversal(4, 1)]) == build


def test_malformed_reversals_are_refused():
    entries = ledger(*MISSION)
    with pytest.raises(RuleError, match="no earlier entry"):
        advancement.replay(make_build(), [*entries, reversal(6, 99)])
    with pytest.raises(RuleError, match="already reversed"):
        advancement.replay(make_build(), [*entries, reversal(6, 5), reversal(7, 5)])
    with pytest.raises(RuleError, match="cannot be reversed"):
        advancement.replay(make_build(), [*entries, reversal(6, 5), reversal(7, 6)])
    with pytest.raises(RuleError, match="needs a reason"):
        advancement.replay(make_build(), [*entries, reversal(6, 5, reason=" ")])
    with pytest.raises(RuleError, match="share the id"):
        advancement.replay(make_build(), [*entries, {**entries[0]}])
    with pytest.raises(RuleError, match="needs an id"):
        advancement.replay(make_build(), [MISSION[0]])


def test_check_reversal_returns_the_build_after_the_reversal():
    entries = ledger(*MISSION)
    assert "sword" not in advancement.check_reversal(make_build(), entries, reversal(6, 5))["skills"]


# -- property: any legal ledger, reversed entry by entry from the end, walks back to creation ----
def _candidates(build, step):
    """Entries that might be legal now; the caller keeps the ones apply_entry accepts."""
    state = advancement.state_of(build)
    mission = state["current_mission"]
    # occasional GM actions, so that missions and the shop get most of the steps
    out = [{"kind": "sp_awarded", "type": "bonus", "session": f"s{step % 3}", "amount": 10 * (1 + step % 5)}]
    if step % 6 == 1:
        out.append({"kind": "free_choice_granted", "reason": "judiciary award"})
    if step % 6 == 3:
        out.append({"kind": "demotion", "ranks": step % 2, "grades": 1, "reason": "review"})
    if mission is not None:
        out.append(
            {
                "kind": "times_visited_added",
                "parallel": ("T-0", "M-4")[step % 2],
                "start_year": 1000 + 37 * step,
                "end_year": 1010 + 37 * step,
                "mission": mission,
            }
        )
    if mission is None:
        out.append({"kind": "mission_started", "mission": f"m{step}"})
    else:
        status = advancement.agent_status(build)
        share = 40 + 10 * (step % 7)
        reason = {"eligible": "earned", "demoted": "demoted", "timemaster_10": "timemaster_10"}.get(status)
        if reason:
            amount, forgone = (share, 0) if reason == "earned" else (0, share)
            out.append(
                {
                    "kind": "sp_awarded",
                    "type": "regular",
                    "mission": mission,
                    "amount": amount,
                    "forgone": forgone,
                    "reason": reason,
                }
            )
        out.append(
            {
                "kind": "sp_awarded",
                "type": "regular",
                "mission": mission,
                "amount": 0,
                "reason": "mission_failed",
            }
        )
        if mission in state["missions_awarded"] or step % 4 == 0:
            out.append({"kind": "adventure_closed", "mission": mission})
    for waiting in set(state["qualifying_missions"]) - set(state["missions_advanced"]):
        out.append({"kind": "grade_advanced", "mission": waiting})
    for skill in ("sword", "stealth", "computers", "pilot", "historical_specialty_2"):
        for purchase in ("new_skill", "specialist_to_expert", "expert_to_master"):
            out.append({"kind": "sp_spent", "purchase": purchase, "skill": skill})
    out.append(
        {
            "kind": "sp_spent",
            "purchase": "new_skill",
            "skill": "historical_specialty",
            "period": {"start_year": 1500, "end_year": 1550},
            "cultures": ["Spain"],
        }
    )
    out.append({"kind": "sp_spent", "purchase": "ability_point", "ability": ("AGL", "LUCK", "STR")[step % 3]})
    out.append(
        {"kind": "sp_spent", "purchase": "new_talent", "talent": ("time_shift", "ignore_pain")[step % 2]}
    )
    out.append({"kind": "free_choice_taken", "choice": "skill", "skill": "disguise"})
    out.append({"kind": "free_choice_taken", "choice": "talent", "talent": "adaptation"})
    try:
        if step % 5 != 2:
            return out
        punishment = regs.ladder_step(state["offences"] + 1)[-1 if step % 2 else 0]
        if punishment != "banishment" or step % 5 == 0:
            out.append(regs.violation_entry(build, 1 + step % 8, punishment))
    except RuleError:
        pass
    return out


def _legal(build, entry):
    try:
        return advancement.apply_entry(build, entry)
    except RuleError:
        return None


def _validator():
    try:
        from systems.timemaster.engine import creation
    except ImportError:  # the creation engine is written separately
        return None
    return creation.validate


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_replaying_a_legal_ledger_then_reversing_it_all_gives_back_the_creation_build(data):
    start_rank = data.draw(st.sampled_from([("Trainee", 0), ("Trainee", 8), ("Agent", 9), ("Timemaster", 9)]))
    creation = at(make_build(), *start_rank)
    creation["success_points"] = data.draw(st.sampled_from([0, 60, 400]))
    validate = _validator()
    build, entries, prefixes = creation, [], [creation]
    for step in range(data.draw(st.integers(1, 20))):
        options = [
            (entry, after)
            for entry in _candidates(build, step)
            if (after := _legal(build, entry)) is not None
        ]
        if not options:
            break
        kind = data.draw(st.sampled_from(sorted({e["kind"] for e, _ in options})))  # kinds evenly
        entry, build = data.draw(st.sampled_from([option for option in options if option[0]["kind"] == kind]))
        entries.append({"id": len(entries) + 1, **entry})
        prefixes.append(build)
        if validate is not None:
            assert validate(build, stage="play") == [], entry
    assert build["success_points"] >= 0
    assert advancement.replay(creation, entries) == build
    assert advancement.replay(json.loads(json.dumps(creation)), json.loads(json.dumps(entries))) == build

    ledger_so_far = copy.deepcopy(entries)
    next_id = len(entries) + 1
    for undone in range(len(entries), 0, -1):
        ledger_so_far.append(reversal(next_id, undone))
        next_id += 1
        assert advancement.replay(creation, ledger_so_far) == prefixes[undone - 1]
    assert advancement.replay(creation, ledger_so_far) == creation
