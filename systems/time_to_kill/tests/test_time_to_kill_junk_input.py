"""Time to Kill answers any JSON-shaped input with its refusal (RuleError / RuleViolations naming
the field), never with a TypeError, KeyError or AttributeError from inside the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.time_to_kill.engine import SYSTEM, ledger, mission
from systems.time_to_kill.engine import visibility as views
from systems.time_to_kill.engine.tables import EVENT_TYPES
from tests.systems.junk import JUNK_SETTINGS, Case, json_junk, one_field_junk

from .helpers import MIXED, NINJA, build, random_event

EVENT_KEYS = (
    "type",
    "by",
    "ability",
    "fates",
    "fate",
    "results",
    "dice",
    "drawn",
    "roll",
    "text",
    "justification",
    "downshifts",
    "revealed",
    "shifts",
    "value",
    "build",
    "id",
    "status",
)
ENTRY_KEYS = (
    "kind",
    "outcome",
    "die_rolls",
    "mission",
    "turns",
    "name",
    "abilities",
    "use_ranking",
    "reverses",
    "reason",
    "id",
)

CHOICES = {"name": "Kage", "abilities": dict(MIXED)}
BUILD = build(MIXED, name="Kage")
ENTRIES = [
    {"id": "1", "kind": "mission_result", "outcome": "victory", "die_rolls": 3, "mission": "m1", "turns": 4},
    {"id": "2", "kind": "rename", "name": "Kage II"},
    {"id": "3", "kind": "rebuild", "abilities": {"stealth": "+"}, "use_ranking": False},
    {"id": "4", "kind": "reversal", "reverses": "2", "reason": "typo"},
]
SURVIVOR = {"survivor_rebuild": True}


def _played() -> tuple[dict, list[dict], list[tuple[dict, dict]]]:
    """One seeded mission: its start, its stored events, and (state, next legal event) pairs."""
    start = mission.new_mission([{"id": NINJA, "build": BUILD}], {"mission_stones": 4})
    rng = random.Random(7)
    state, pairs = start, []
    while state["status"] == "running" and len(state["events"]) < 60:
        event = random_event(state, rng)
        pairs.append((state, event))
        state = mission.apply_event(state, event, rng)
    return start, state["events"], pairs


START, EVENTS, PAIRS = _played()
STATES = [state for state, _ in PAIRS]


def event_junk() -> st.SearchStrategy:
    fields = st.dictionaries(st.sampled_from(EVENT_KEYS), json_junk(EVENT_KEYS), max_size=4)
    return st.tuples(st.sampled_from(EVENT_TYPES), fields).map(lambda pair: {**pair[1], "type": pair[0]})


def on_a_state(events: st.SearchStrategy) -> st.SearchStrategy:
    return st.tuples(st.sampled_from(STATES), events)


def a_legal_event_with_junk() -> st.SearchStrategy:
    return st.sampled_from(PAIRS).flatmap(
        lambda pair: st.tuples(st.just(pair[0]), one_field_junk(pair[1], keys=EVENT_KEYS))
    )


def _apply(pair):
    state, event = pair
    return mission.apply_event(state, event, random.Random(1))


def _replay_with(pair):
    index, event = pair
    return mission.replay(START, [*EVENTS[:index], event])


CASES = [
    Case("new_build(junk)", SYSTEM.new_build),
    Case("new_build(choices with junk)", SYSTEM.new_build, one_field_junk(CHOICES)),
    Case("validate(junk)", SYSTEM.validate, answers="violations"),
    Case("validate(build with junk)", SYSTEM.validate, one_field_junk(BUILD), answers="violations"),
    Case("derive(junk)", SYSTEM.derive),
    Case("derive(build with junk)", SYSTEM.derive, one_field_junk(BUILD)),
    Case("apply(build, junk)", lambda v: SYSTEM.apply(BUILD, v, SURVIVOR), json_junk(ENTRY_KEYS)),
    Case(
        "apply(build, entry with junk)",
        lambda v: SYSTEM.apply(BUILD, v, SURVIVOR),
        st.sampled_from(ENTRIES[:3]).flatmap(lambda e: one_field_junk(e, keys=ENTRY_KEYS)),
    ),
    Case("apply(junk, entry)", lambda v: [SYSTEM.apply(v, e, SURVIVOR) for e in ENTRIES[:3]]),
    Case("apply(build, entry, junk settings)", lambda v: SYSTEM.apply(BUILD, ENTRIES[2], v)),
    Case("replay(build, junk)", lambda v: SYSTEM.replay(BUILD, v, SURVIVOR), json_junk(ENTRY_KEYS)),
    Case(
        "replay(build, entries with junk)",
        lambda v: SYSTEM.replay(BUILD, [*ENTRIES, v], SURVIVOR),
        st.sampled_from(ENTRIES).flatmap(lambda e: one_field_junk(e, keys=ENTRY_KEYS)),
    ),
    Case("new_mission(junk ninjas)", lambda v: mission.new_mission(v)),
    Case(
        "new_mission(junk settings, briefing)",
        lambda v: mission.new_mission([{"id": NINJA, "build": BUILD}], v, None, v),
    ),
    Case(
        "new_mission(ninja with junk)",
        lambda v: mission.new_mission([v]),
        one_field_junk({"id": NINJA, "build": BUILD}),
    ),
    Case("apply_event(state, junk)", _apply, on_a_state(json_junk(EVENT_KEYS))),
    Case("apply_event(state, event of a kind with junk fields)", _apply, on_a_state(event_junk())),
    Case("apply_event(state, legal event with junk)", _apply, a_legal_event_with_junk()),
    Case(
        "replay(start, events ending in junk)",
        _replay_with,
        st.tuples(st.integers(0, len(EVENTS)), event_junk() | json_junk(EVENT_KEYS)),
    ),
    Case("replay(start, junk)", lambda v: mission.replay(START, v)),
    Case(
        "available_actions(state, junk)",
        lambda v: mission.available_actions(v[0], v[1]),
        on_a_state(json_junk()),
    ),
    Case("player_view(state, junk)", lambda v: views.player_view(v[0], v[1]), on_a_state(json_junk())),
    Case("mission_result_entry(state, junk)", lambda v: mission.mission_result_entry(STATES[-1], v)),
    Case("ledger.apply_entry(build, junk, junk settings)", lambda v: ledger.apply_entry(BUILD, v, v)),
]


@pytest.mark.parametrize("case", CASES, ids=repr)
@JUNK_SETTINGS
@given(data=st.data())
def test_every_entry_point_refuses_junk_in_its_own_words(case, data):
    case.check(data.draw(case.strategy))


def test_the_valid_documents_used_here_are_accepted():
    assert SYSTEM.validate(BUILD) == []
    assert len(EVENTS) > 5
    assert mission.replay(START, EVENTS) == mission.replay(START, EVENTS)


# -- the shapes that used to crash, each refused naming its field ----------------------------------
def _refused_fields(call) -> set[str]:
    with pytest.raises(RuleError) as error:
        call()
    return {violation.field for violation in error.value.violations}


def test_an_event_type_given_as_a_list_is_refused_naming_type():
    assert _refused_fields(lambda: mission.apply_event(START, {"type": ["end_preparation"]})) == {"type"}


def test_a_mission_outcome_given_as_a_list_is_refused_naming_outcome():
    entry = {"kind": "mission_result", "outcome": ["victory"], "die_rolls": 2}
    assert _refused_fields(lambda: SYSTEM.apply(BUILD, entry)) == {"outcome"}


def test_derive_refuses_a_build_that_validate_refuses_with_the_same_fields():
    broken = {**BUILD, "abilities": "all"}
    assert _refused_fields(lambda: SYSTEM.derive(broken)) == {v.field for v in SYSTEM.validate(broken)}
