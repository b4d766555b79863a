"""The D6 engine answers any JSON-shaped input with its refusal (RuleError / RuleViolations naming
the field), never with a TypeError, KeyError or AttributeError from inside the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.d6.engine import SYSTEM, dicecode, ledger
from systems.d6.engine import encounter as enc
from systems.d6.engine import visibility as views
from systems.d6.engine.encounter import EVENT_TYPES
from tests.systems.junk import JUNK_SETTINGS, Case, json_junk, one_field_junk

from .helpers import build, npc

ENTRY_KEYS = (
    "kind",
    "count",
    "reason",
    "on",
    "trait",
    "to",
    "cost",
    "skill",
    "attribute",
    "code",
    "name",
    "ranks",
    "affects",
    "goes_first",
    "reverses",
    "id",
)
EVENT_KEYS = (
    "type",
    "participant",
    "actions",
    "action",
    "trait",
    "attribute",
    "penalty",
    "character_points",
    "dice",
    "item",
    "ability",
    "from",
    "note",
    "result",
    "roll_kind",
    "code",
    "member",
    "members",
    "id",
    "name",
    "order",
    "reason",
    "first",
    "situational",
    "tie_draws",
    "rolls",
    "fate_points",
    "wild",
    "extra_wild",
    "all_movement_costs_action",
)

CHOICES = {
    "name": "Ana",
    "attributes": {"Perception": "3D", "Reflexes": "3D+1", "Strength": "3D"},
    "skills": {
        "search": {"attribute": "Perception", "code": "3D+2"},
        "brawling": {"attribute": "Strength", "code": "4D"},
    },
    "special_abilities": [{"name": "Skill Bonus", "ranks": 1, "affects": ["search"]}],
    "character_points": 2,
}
BUILD = SYSTEM.new_build(CHOICES, random.Random(0))
ENTRIES = [
    {"id": "1", "kind": "character_points_gained", "count": 3, "reason": "a good scene"},
    {"id": "2", "kind": "character_points_spent", "count": 1, "reason": "a push", "on": "roll"},
    {"id": "3", "kind": "fate_points_gained", "count": 1, "reason": "heroics"},
    {"id": "4", "kind": "trait_raised", "trait": "brawling", "to": "4D+1", "cost": 1},
    {"id": "5", "kind": "skill_added", "skill": "climbing", "attribute": "Strength", "cost": 0},
    {
        "id": "6",
        "kind": "special_ability_gained",
        "name": "Fast",
        "ranks": 1,
        "affects": ["Reflexes"],
        "goes_first": True,
        "cost": 0,
    },
    {"id": "7", "kind": "action_allotment_changed", "to": 2, "reason": "haste"},
    {"id": "8", "kind": "reversal", "reverses": "3", "reason": "typo"},
]


def _participants() -> list[dict]:
    wolves = npc("wolves", kind="group", perception="2D+1", members=["Grey", "Black", "White"], name="Wolves")
    return [enc.participant_from_build("ana", build("Ana")), npc("thug", perception="2D"), wolves]


SCRIPT = [
    {"type": "begin_round"},
    {"type": "roll_initiative", "situational": ["thug"]},
    {"type": "declare", "participant": "@now", "actions": 2},
    {"type": "act", "participant": "@now", "action": "punch", "trait": "brawling", "note": "a jab"},
    {"type": "announce", "result": "hit"},
    {"type": "roll", "participant": "@now", "roll_kind": "damage", "code": "3D"},
    {"type": "wait", "participant": "@now"},
    {"type": "declare", "participant": "@now", "actions": 1},
    {"type": "act", "participant": "@now", "action": "punch", "trait": "Strength"},
    {"type": "incapacitate", "participant": "thug", "reason": "knocked out"},
    {"type": "recover", "participant": "thug"},
    {"type": "movement_rule", "all_movement_costs_action": True},
    {"type": "announce", "result": "miss"},
    {"type": "done", "participant": "@now"},
    {"type": "declare", "participant": "@now", "actions": 3},
    {
        "type": "split_group",
        "participant": "wolves",
        "members": ["Grey"],
        "id": "circlers",
        "name": "Circlers",
    },
    {"type": "end_scene", "reason": "the thugs flee"},
]


def _played() -> tuple[dict, list[tuple[dict, dict]]]:
    """A seeded encounter (every-round initiative): its start and (state, next event) pairs.
    Events of the script that the engine refuses at that point are skipped."""
    start = enc.new_encounter(_participants(), method="every_round")
    rng = random.Random(5)
    state, pairs = start, []
    for template in SCRIPT:
        event = {k: (enc.acting_now(state) if v == "@now" else v) for k, v in template.items()}
        pairs.append((state, event))
        try:
            state = enc.apply_event(state, event, rng)
        except RuleError:  # the script only needs to reach varied states
            continue
    pairs.append((state, {"type": "begin_round"}))
    return start, pairs


START, PAIRS = _played()
STATES = [state for state, _ in PAIRS]
EVENTS = [event for event in STATES[-1]["events"]]


def event_junk() -> st.SearchStrategy:
    fields = st.dictionaries(st.sampled_from(EVENT_KEYS), json_junk(EVENT_KEYS), max_size=4)
    return st.tuples(st.sampled_from(EVENT_TYPES), fields).map(lambda pair: {**pair[1], "type": pair[0]})


def _apply(pair):
    state, event = pair
    return enc.apply_event(state, event, random.Random(1))


def _replay_with(pair):
    index, event = pair
    return enc.replay(START, [*EVENTS[:index], event])


entries_with_junk = st.sampled_from(ENTRIES).flatmap(lambda e: one_field_junk(e, keys=ENTRY_KEYS))
participant = _participants()[0]

CASES = [
    Case("new_build(junk)", lambda v: SYSTEM.new_build(v, random.Random(0))),
    Case(
        "new_build(choices with junk)",
        lambda v: SYSTEM.new_build(v, random.Random(0)),
        one_field_junk(CHOICES),
    ),
    Case("new_build(junk settings)", lambda v: SYSTEM.new_build(CHOICES, random.Random(0), v)),
    Case("validate(junk)", SYSTEM.validate, answers="violations"),
    Case("validate(build with junk)", SYSTEM.validate, one_field_junk(BUILD), answers="violations"),
    Case("derive(junk)", SYSTEM.derive),
    Case("derive(build with junk)", SYSTEM.derive, one_field_junk(BUILD)),
    Case("derive(build, junk settings)", lambda v: SYSTEM.derive(BUILD, v)),
    Case("apply(build, junk)", lambda v: SYSTEM.apply(BUILD, v), json_junk(ENTRY_KEYS)),
    Case("apply(build, entry with junk)", lambda v: SYSTEM.apply(BUILD, v), entries_with_junk),
    Case("apply(junk, entry)", lambda v: [SYSTEM.apply(v, e) for e in ENTRIES[:7]]),
    Case("replay(build, junk)", lambda v: SYSTEM.replay(BUILD, v), json_junk(ENTRY_KEYS)),
    Case(
        "replay(build, entries with junk)", lambda v: ledger.replay(BUILD, [*ENTRIES, v]), entries_with_junk
    ),
    Case("dicecode.parse(junk)", dicecode.parse),
    Case("new_encounter(junk)", lambda v: enc.new_encounter(v, v, v, v)),
    Case(
        "new_encounter(participant with junk)", lambda v: enc.new_encounter([v]), one_field_junk(participant)
    ),
    Case("participant_from_build(junk, junk)", lambda v: enc.participant_from_build(v, v, v)),
    Case(
        "participant_from_build(id, build with junk)",
        lambda v: enc.participant_from_build("ana", v),
        one_field_junk(BUILD),
    ),
    Case(
        "encounter.apply_event(state, junk)",
        _apply,
        st.tuples(st.sampled_from(STATES), json_junk(EVENT_KEYS)),
    ),
    Case(
        "encounter.apply_event(state, an event of a kind with junk fields)",
        _apply,
        st.tuples(st.sampled_from(STATES), event_junk()),
    ),
    Case(
        "encounter.apply_event(state, event with junk)",
        _apply,
        st.sampled_from(PAIRS).flatmap(
            lambda p: st.tuples(st.just(p[0]), one_field_junk(p[1], keys=EVENT_KEYS))
        ),
    ),
    Case(
        "encounter.replay(start, events ending in junk)",
        _replay_with,
        st.tuples(st.integers(0, len(EVENTS)), event_junk() | json_junk(EVENT_KEYS)),
    ),
    Case("encounter.replay(start, junk)", lambda v: enc.replay(START, v)),
    Case("encounter.penalty_for(state, junk, junk)", lambda v: enc.penalty_for(STATES[4], v, v)),
    Case("encounter.effective_code(state, junk...)", lambda v: enc.effective_code(STATES[4], "ana", v, v, v)),
    Case("views.movement_cost(junk)", lambda v: views.movement_cost(v, v, v, v)),
]


@pytest.mark.parametrize("case", CASES, ids=repr)
@JUNK_SETTINGS
@given(data=st.data())
def test_every_entry_point_refuses_junk_in_its_own_words(case, data):
    case.check(data.draw(case.strategy))


def test_the_valid_documents_used_here_are_accepted():
    assert SYSTEM.validate(BUILD) == []
    ledger.replay(BUILD, ENTRIES)
    assert len(EVENTS) >= 8
    assert enc.replay(START, EVENTS)["events"] == EVENTS


# -- the shapes that used to crash, each answered naming its field ---------------------------------
def test_skills_given_as_a_list_of_lists_are_reported_not_crashed_on():
    fields = {v.field for v in SYSTEM.validate({**BUILD, "skills": [["search", "3D"]]})}
    assert "skills" in fields


def test_attributes_given_as_a_list_of_objects_are_refused_at_creation():
    with pytest.raises(RuleError) as error:
        SYSTEM.new_build({**CHOICES, "attributes": [{"Perception": "3D"}]}, random.Random(0))
    assert "attributes" in {v.field for v in error.value.violations}


def test_an_ability_affecting_an_unhashable_trait_is_reported_on_that_ability():
    abilities = [{"name": "Skill Bonus", "ranks": 1, "affects": [["search"]]}]
    fields = {v.field for v in SYSTEM.validate({**BUILD, "special_abilities": abilities})}
    assert any(field.startswith("special_abilities.0") for field in fields)


def test_an_event_type_given_as_a_list_is_refused_naming_type():
    with pytest.raises(RuleError) as error:
        enc.apply_event(START, {"type": ["begin_round"]})
    assert [v.field for v in error.value.violations] == ["type"]
