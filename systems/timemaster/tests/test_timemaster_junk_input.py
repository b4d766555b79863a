"""TIMEMASTER answers any JSON-shaped input with its refusal (RuleError / RuleViolations naming the
field), never with a TypeError, KeyError or AttributeError from inside the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.timemaster.engine import SYSTEM, advancement, creation
from systems.timemaster.engine import significance as sig
from tests.systems.junk import JUNK_SETTINGS, Case, json_junk, junk, one_field_junk

from .advancement.builds import BASE_BUILD
from .helpers import choices

ENTRY_KEYS = (
    "kind",
    "type",
    "mission",
    "amount",
    "forgone",
    "reason",
    "session",
    "demoted_allowed",
    "purchase",
    "skill",
    "talent",
    "ability",
    "cost",
    "period",
    "start_year",
    "end_year",
    "cultures",
    "rank",
    "choice",
    "regulation",
    "offence",
    "punishment",
    "note",
    "judiciary_override",
    "ranks",
    "grades",
    "parallel",
    "present_year",
    "reverses",
    "id",
)
EVENT_KEYS = (
    "type",
    "significance",
    "year",
    "chart",
    "agent",
    "status",
    "entry",
    "kind",
    "rating",
    "item",
    "description",
    "reverses",
    "reason",
    "id",
    "outcome",
    "low",
    "high",
    "text",
)

CHOICES = choices()
BUILD = creation.new_build(CHOICES, random.Random(0))
ENTRIES = [
    {"id": "1", "kind": "mission_started", "mission": "m1"},
    {"id": "2", "kind": "sp_awarded", "type": "regular", "mission": "m1", "amount": 100, "reason": "earned"},
    {"id": "3", "kind": "grade_advanced", "mission": "m1"},
    {"id": "4", "kind": "adventure_closed", "mission": "m1"},
    {"id": "5", "kind": "sp_spent", "purchase": "new_skill", "skill": "swimming", "cost": 50},
    {"id": "6", "kind": "sp_awarded", "type": "bonus", "session": "s1", "amount": 20},
    {
        "id": "7",
        "kind": "regulation_violation",
        "regulation": 2,
        "offence": 1,
        "mission": "m1",
        "reason": "x",
    },
    {
        "id": "8",
        "kind": "times_visited_added",
        "parallel": "A",
        "start_year": 1900,
        "end_year": 1910,
        "mission": "m1",
        "present_year": 7192,
    },
    {"id": "9", "kind": "free_choice_granted", "rank": None, "reason": "x"},
    {"id": "10", "kind": "demotion", "ranks": 1, "grades": 0, "reason": "x"},
    {"id": "11", "kind": "reversal", "reverses": "2", "reason": "typo"},
    {"id": "12", "kind": "banishment", "reason": "x"},
]


def _mission() -> dict:
    state = sig.new_mission_state("m1", significance=600, mission_year=1580)
    return sig.apply_event(state, {"type": "add_agent", "agent": "a", "status": "eligible"})


MISSION = _mission()
EVENTS = [
    {"type": "set_significance", "significance": 500},
    {"type": "set_mission_year", "year": 1600},
    {"type": "set_chart", "chart": [{"low": 0, "high": 10, "text": "a ripple"}]},
    {"type": "add_agent", "agent": "b", "status": "eligible"},
    {"type": "set_agent_status", "agent": "a", "status": "eligible"},
    {"type": "remove_agent", "agent": "a"},
    {"type": "tally", "entry": {"kind": "npc_death", "rating": 100, "description": "the guard"}},
    {"type": "tally", "entry": {"kind": "equipment_left_behind", "item": "chronoscooter"}},
    {"type": "reverse_tally", "reverses": "1", "reason": "typo"},
    {"type": "close", "outcome": {"mission": "m1", "mistakes_total": 0, "significance": 600}},
    {"type": "publish"},
]
TALLIED = sig.apply_event(MISSION, EVENTS[6])


def entries_with_junk() -> st.SearchStrategy:
    return st.sampled_from(ENTRIES).flatmap(lambda entry: one_field_junk(entry, keys=ENTRY_KEYS))


def events_with_junk() -> st.SearchStrategy:
    return st.sampled_from(EVENTS).flatmap(lambda event: one_field_junk(event, keys=EVENT_KEYS))


def _replay(entries):
    return advancement.replay(BASE_BUILD, entries)


CASES = [
    Case("new_build(junk)", lambda v: SYSTEM.new_build(v, random.Random(0))),
    Case(
        "new_build(choices with junk)",
        lambda v: SYSTEM.new_build(v, random.Random(0)),
        one_field_junk(CHOICES),
    ),
    Case("new_build(settings junk)", lambda v: SYSTEM.new_build(CHOICES, random.Random(0), v)),
    Case("validate(junk)", SYSTEM.validate, answers="violations"),
    Case("validate(build with junk)", SYSTEM.validate, one_field_junk(BUILD), answers="violations"),
    Case(
        "review(build with junk)",
        lambda v: SYSTEM.review(v).errors,
        one_field_junk(BUILD),
        answers="violations",
    ),
    Case("validate_step(junk choices)", lambda v: [SYSTEM.validate_step(s, v) for s in creation.STEPS]),
    Case(
        "validate_step(choices with junk)",
        lambda v: [SYSTEM.validate_step(s, v) for s in creation.STEPS],
        one_field_junk(CHOICES),
    ),
    Case("validate_step(junk step)", lambda v: SYSTEM.validate_step(v, CHOICES)),
    Case("derive(junk)", SYSTEM.derive),
    Case("derive(build with junk)", SYSTEM.derive, one_field_junk(BUILD)),
    Case("apply(build, junk)", lambda v: SYSTEM.apply(BASE_BUILD, v), json_junk(ENTRY_KEYS)),
    Case("apply(build, entry with junk)", lambda v: SYSTEM.apply(BASE_BUILD, v), entries_with_junk()),
    Case("apply(junk, entry)", lambda v: [SYSTEM.apply(v, e) for e in ENTRIES[:6]]),
    Case("replay(build, junk)", _replay, json_junk(ENTRY_KEYS)),
    Case(
        "replay(build, entries with junk)",
        lambda v: _replay([*ENTRIES[:4], v, *ENTRIES[4:]]),
        entries_with_junk(),
    ),
    Case("significance.apply_event(junk)", lambda v: sig.apply_event(TALLIED, v), json_junk(EVENT_KEYS)),
    Case(
        "significance.apply_event(event with junk)", lambda v: sig.apply_event(TALLIED, v), events_with_junk()
    ),
    Case("significance.new_mission_state(junk)", lambda v: sig.new_mission_state("m", v, v)),
]


@pytest.mark.parametrize("case", CASES, ids=repr)
@JUNK_SETTINGS
@given(data=st.data())
def test_every_entry_point_refuses_junk_in_its_own_words(case, data):
    case.check(data.draw(case.strategy))


def test_the_valid_documents_used_here_are_accepted():
    assert SYSTEM.validate(BUILD) == []
    assert advancement.replay(BASE_BUILD, ENTRIES[:6])["success_points"] >= 0
    assert junk is not None


# -- the shapes that used to crash, each refused naming its field ----------------------------------
def _refused_fields(call) -> set[str]:
    with pytest.raises(RuleError) as error:
        call()
    return {violation.field for violation in error.value.violations}


def test_an_entry_kind_given_as_a_list_is_refused_naming_kind():
    assert _refused_fields(lambda: SYSTEM.apply(BASE_BUILD, {"kind": ["sp_awarded"]})) == {"kind"}


def test_a_ledger_that_is_not_a_list_is_refused_naming_the_ledger():
    assert _refused_fields(lambda: advancement.replay(BASE_BUILD, None)) == {"ledger"}


def test_a_tally_kind_or_item_given_as_a_list_is_refused_naming_it():
    entry = {"kind": ["npc_death"], "rating": 100}
    assert _refused_fields(lambda: sig.apply_event(MISSION, {"type": "tally", "entry": entry})) == {"kind"}
    entry = {"kind": "equipment_left_behind", "item": ["stunner"]}
    assert _refused_fields(lambda: sig.apply_event(MISSION, {"type": "tally", "entry": entry})) == {"item"}


def test_derive_refuses_a_build_that_is_not_an_object_or_has_skills_that_are_not():
    assert _refused_fields(lambda: SYSTEM.derive(None)) == {"build"}
    assert _refused_fields(lambda: SYSTEM.derive({**BUILD, "skills": ["pistol"]})) == {"skills"}
