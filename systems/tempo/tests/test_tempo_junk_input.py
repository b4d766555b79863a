"""Tempo answers any JSON-shaped input with its refusal (RuleError / RuleViolations naming the
field), never with a TypeError, KeyError or AttributeError from inside the engine."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.tempo.engine import SYSTEM, conflict, fate
from systems.tempo.engine import roll as tempo_roll
from systems.tempo.engine.conflict import EVENT_TYPES
from tests.systems.junk import JUNK_SETTINGS, Case, json_junk, one_field_junk

from .helpers import agent, choices

REQUEST_KEYS = (
    "rating",
    "role",
    "bonuses",
    "penalties",
    "descriptive",
    "bonus_dice",
    "penalty_dice",
    "extra_dice",
    "lost_dice",
    "hurry",
    "mode",
    "text",
    "aspects",
    "aspect",
    "source",
    "use",
    "reason",
    "benefit",
    "help",
    "helper",
    "module",
    "total",
    "kept",
)
EVENT_KEYS = (
    "type",
    "side",
    "results",
    "total",
    "tier",
    "benefit",
    "aspect",
    "note",
    "goal",
    "terms",
    "reason",
    "values",
    "max_level",
    "ends_conflict",
)
ENTRY_KEYS = ("kind", "reason", "count", "aspect", "note", "roll", "amount", "reverses", "id")

CHOICES = choices()
BUILD = agent(fate_points=3)
ENTRIES = [
    {"id": "1", "kind": "fate_point_gained", "reason": "gm_complication", "count": 1},
    {
        "id": "2",
        "kind": "fate_point_spent",
        "reason": "bonus_die_from_aspect",
        "count": 1,
        "aspect": "SHARP EYES",
    },
    {"id": "3", "kind": "fate_refresh", "amount": 3},
    {"id": "4", "kind": "veto_card", "note": "not that"},
    {"id": "5", "kind": "reversal", "reverses": "1", "reason": "typo"},
]
REQUESTS = [
    {"rating": 4, "bonus_dice": 1, "penalties": [2], "descriptive": ["plan"]},
    {"hurry": {"mode": "guarantee", "text": "quiet"}},
    {"aspects": [{"aspect": "SHARP EYES", "source": "own", "use": "invoke"}]},
    {
        "aspects": [
            {"aspect": "origin", "source": "own", "use": "free", "reason": "benefit", "benefit": "great_mind"}
        ]
    },
    {"aspects": [{"aspect": "DOCKSIDE KID", "source": "own", "use": "trouble"}]},
    {"help": {"total": 12, "kept": [4, 4, 4]}},
]
ROLES = ("observer", "scholar", "diplomat", "thief")


def _conflicts() -> list[dict]:
    sides = [
        {"key": "a", "name": "Finn", "controlled_by": "player"},
        {"key": "b", "name": "Stasi goon", "controlled_by": "gm", "superiority": [3]},
    ]
    even = conflict.new_conflict(sides, module="flashpoints")
    ahead = conflict.apply_event(even, {"type": "roll", "results": {"a": {"total": 15}, "b": {"total": 3}}})
    offered = conflict.apply_event(ahead, {"type": "concede", "side": "b", "terms": "he flees"})
    return [even, ahead, offered]


STATES = _conflicts()
EVENTS = [
    {"type": "roll", "results": {"a": {"total": 9}, "b": {"total": 7}}},
    {"type": "spend", "side": "a", "tier": "edge", "benefit": "minor_benefit", "note": "x"},
    {"type": "spend", "side": "a", "benefit": "opponent_aspect", "aspect": "BROKEN WRIST"},
    {"type": "spend", "side": "a", "benefit": "win_conflict", "goal": "grab the film"},
    {"type": "concede", "side": "b", "terms": "retreat"},
    {"type": "accept_concession"},
    {"type": "refuse_concession", "side": "a"},
    {"type": "veto_concession", "reason": "that is not conceding"},
    {"type": "set_superiority", "side": "b", "values": [2]},
    {"type": "set_cap", "side": "b", "max_level": "edge"},
    {"type": "end", "reason": "they part"},
]


def event_junk() -> st.SearchStrategy:
    fields = st.dictionaries(st.sampled_from(EVENT_KEYS), json_junk(EVENT_KEYS), max_size=4)
    return st.tuples(st.sampled_from(EVENT_TYPES), fields).map(lambda pair: {**pair[1], "type": pair[0]})


def _apply(pair):
    return conflict.apply_event(*pair)


def _roll_for_agent(pair):
    role, request = pair
    return tempo_roll.roll_for_agent(BUILD, role, request, random.Random(3))


def _with_a_junk_aspect_use(value):
    request = copy.deepcopy(REQUESTS[3])
    request["aspects"].append(value)
    return request


requests_with_junk = st.sampled_from(REQUESTS).flatmap(
    lambda r: one_field_junk(r, depth=4, keys=REQUEST_KEYS)
)
events_with_junk = st.sampled_from(EVENTS).flatmap(lambda e: one_field_junk(e, keys=EVENT_KEYS))
sides_with_junk = one_field_junk(
    [{"key": "a", "name": "Finn"}, {"key": "b", "controlled_by": "gm"}]
    and {"sides": [{"key": "a", "name": "Finn"}, {"key": "b", "controlled_by": "gm", "superiority": [1]}]}
)

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
    Case(
        "validate_partial(choices with junk)",
        SYSTEM.validate_partial,
        one_field_junk(CHOICES),
        answers="violations",
    ),
    Case("derive(junk)", SYSTEM.derive),
    Case("derive(build with junk)", SYSTEM.derive, one_field_junk(BUILD)),
    Case("apply(build, junk)", lambda v: SYSTEM.apply(BUILD, v), json_junk(ENTRY_KEYS)),
    Case(
        "apply(build, entry with junk)",
        lambda v: SYSTEM.apply(BUILD, v),
        st.sampled_from(ENTRIES[:4]).flatmap(lambda e: one_field_junk(e, keys=ENTRY_KEYS)),
    ),
    Case("apply(junk, entry)", lambda v: [SYSTEM.apply(v, e) for e in ENTRIES[:4]]),
    Case("replay(build, junk)", lambda v: SYSTEM.replay(BUILD, v), json_junk(ENTRY_KEYS)),
    Case(
        "replay(build, entries with junk)",
        lambda v: SYSTEM.replay(BUILD, [*ENTRIES, v]),
        st.sampled_from(ENTRIES).flatmap(lambda e: one_field_junk(e, keys=ENTRY_KEYS)),
    ),
    Case("fate.refresh_entry(build, junk settings)", lambda v: fate.refresh_entry(BUILD, v)),
    Case("fate.entries_for_roll(junk)", fate.entries_for_roll),
    Case(
        "roll(rng, junk)",
        lambda v: tempo_roll.roll(random.Random(1), v, None, "flashpoints"),
        json_junk(REQUEST_KEYS),
    ),
    Case(
        "roll(rng, request with junk)",
        lambda v: tempo_roll.roll(random.Random(1), v, None, "flashpoints"),
        requests_with_junk,
    ),
    Case(
        "roll(rng, request, junk settings, junk module)",
        lambda v: tempo_roll.roll(random.Random(1), REQUESTS[0], v, v),
    ),
    Case(
        "roll_for_agent(build, role, junk)",
        _roll_for_agent,
        st.tuples(st.sampled_from(ROLES), json_junk(REQUEST_KEYS)),
    ),
    Case(
        "roll_for_agent(build, role, request with junk)",
        _roll_for_agent,
        st.tuples(
            st.sampled_from(ROLES),
            requests_with_junk | st.builds(_with_a_junk_aspect_use, json_junk(REQUEST_KEYS)),
        ),
    ),
    Case("roll_for_agent(build, junk role, request)", lambda v: _roll_for_agent((v, REQUESTS[2]))),
    Case(
        "roll_for_agent(build, role, request, instead_of junk)",
        lambda v: tempo_roll.roll_for_agent(BUILD, "diplomat", {}, random.Random(1), None, v),
    ),
    Case("new_conflict(junk)", lambda v: conflict.new_conflict(v, v, None, v if isinstance(v, list) else ())),
    Case(
        "new_conflict(sides with junk)",
        lambda v: (
            conflict.new_conflict(v["sides"])
            if isinstance(v, dict) and "sides" in v
            else conflict.new_conflict(v)
        ),
        sides_with_junk,
    ),
    Case(
        "conflict.apply_event(state, junk)", _apply, st.tuples(st.sampled_from(STATES), json_junk(EVENT_KEYS))
    ),
    Case(
        "conflict.apply_event(state, an event of a kind with junk fields)",
        _apply,
        st.tuples(st.sampled_from(STATES), event_junk()),
    ),
    Case(
        "conflict.apply_event(state, event with junk)",
        _apply,
        st.tuples(st.sampled_from(STATES), events_with_junk),
    ),
    Case("conflict.replay(state, junk)", lambda v: conflict.replay(STATES[0], v)),
    Case("conflict.public_view(state, junk)", lambda v: conflict.public_view(STATES[1], v)),
]


@pytest.mark.parametrize("case", CASES, ids=repr)
@JUNK_SETTINGS
@given(data=st.data())
def test_every_entry_point_refuses_junk_in_its_own_words(case, data):
    case.check(data.draw(case.strategy))


def test_the_valid_documents_used_here_are_accepted():
    assert SYSTEM.validate(BUILD) == []
    assert SYSTEM.replay(BUILD, ENTRIES)["fate_points"] >= 0
    for request in REQUESTS[:5]:
        tempo_roll.roll_for_agent(BUILD, "scholar", request, random.Random(3))


# -- the shapes that used to crash, each refused naming its field ----------------------------------
def _refused_fields(call) -> set[str]:
    with pytest.raises(RuleError) as error:
        call()
    return {violation.field for violation in error.value.violations}


def test_a_hurry_mode_given_as_a_list_is_refused_naming_hurry_mode():
    request = {"hurry": {"mode": ["guarantee"], "text": "quiet"}}
    assert "hurry.mode" in _refused_fields(lambda: tempo_roll.roll(random.Random(1), request))


def test_an_aspect_use_given_as_a_list_is_refused_naming_that_use():
    request = {"aspects": [{"aspect": "SHARP EYES", "source": "scene", "use": ["invoke"]}]}
    assert "aspects.0.use" in _refused_fields(lambda: tempo_roll.roll(random.Random(1), request))


def test_a_free_aspect_benefit_given_as_a_list_is_refused_naming_that_benefit():
    use = {"aspect": "origin", "source": "own", "use": "free", "reason": "benefit", "benefit": ["great_mind"]}
    fields = _refused_fields(
        lambda: tempo_roll.roll_for_agent(BUILD, "scholar", {"aspects": [use]}, random.Random(1))
    )
    assert "aspects.0.benefit" in fields


def test_aspects_given_as_the_word_all_are_refused_not_read_letter_by_letter():
    fields = _refused_fields(
        lambda: tempo_roll.roll_for_agent(BUILD, "observer", {"aspects": "all"}, random.Random(1))
    )
    assert fields == {"aspects"}


def test_a_conflict_side_given_as_a_list_is_refused_naming_side():
    event = {"type": "concede", "side": ["b"], "terms": "retreat"}
    assert _refused_fields(lambda: conflict.apply_event(STATES[1], event)) == {"side"}
