"""Properties over random legal missions: every event outside the step, or from the wrong side, is
refused with a message and changes nothing; and the stones add up the way the issue states them
(drawn + left = the start, and what was drawn is either in hand or spent)."""

import copy
import random

import pytest
from hypothesis import given, settings

from characters.systems.base import RuleError
from systems.time_to_kill.engine import mission
from systems.time_to_kill.engine.tables import EVENT_TYPES, GM

from .helpers import NINJA
from .test_ttk_properties import games, play


def refusal(state, event):
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        mission.apply_event(state, event, random.Random(0))
    assert state == before
    [violation] = error.value.violations
    assert violation.message
    return violation


@settings(max_examples=30, deadline=None)
@given(games)
def test_events_out_of_step_or_from_the_wrong_side_are_refused_and_change_nothing(game):
    for state in play(game)[:40]:
        if state["status"] != "running":
            assert refusal(state, {"type": "end_turn", "by": GM}).field == "status"
            continue
        allowed = mission.open_events(state)
        mover = mission.whose_move(state)
        other = NINJA if mover == GM else GM
        for kind in EVENT_TYPES:
            if kind not in allowed:
                assert refusal(state, {"type": kind, "by": mover}).field == "type"
        for kind in allowed:
            assert refusal(state, {"type": kind, "by": other}).field == "by"


@settings(max_examples=40, deadline=None)
@given(games)
def test_stones_drawn_plus_left_make_the_start_and_every_drawn_stone_is_held_or_spent(game):
    for state in play(game):
        start = state["bag"]["start_ordinary"]
        drawn = sum(1 for d in state["draws"] if d["stone"] == "ordinary")
        left = state["bag"]["ordinary"]
        in_hand = state["stones"]["bank"] + state["stones"]["wait"]
        spent = sum(state["stones"]["out"].values())
        assert drawn + left == start
        assert in_hand + spent == drawn
