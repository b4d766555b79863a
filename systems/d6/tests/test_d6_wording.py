"""The encounter's log lines and refusals put names in the possessive the English way: a group
named "Dock thugs" gets a bare apostrophe, not "Dock thugs's" (issue 44, finding 7)."""

from __future__ import annotations

import random

import pytest

from characters.systems.base import RuleError
from systems.d6.engine import encounter as enc

from .helpers import npc, play, start


def _thugs_punch(name):
    state = start([npc("thugs", kind="group", members=["Red", "Blue"], name=name)])
    state = play(state, {"type": "declare", "participant": "thugs", "actions": 1})
    return enc.apply_event(
        state,
        {"type": "act", "participant": "thugs", "action": "punch", "trait": "brawling"},
        random.Random(2),
    )


def test_a_name_ending_in_s_takes_a_bare_apostrophe_in_the_result_line():
    state = _thugs_punch("Dock thugs")
    state = play(state, {"type": "announce", "result": "a miss"})
    assert state["log"][-1]["summary"] == "Result for Dock thugs' Punch: a miss"
    assert "thugs's" not in " ".join(line["summary"] for line in state["log"])


def test_a_name_not_ending_in_s_takes_apostrophe_s():
    state = _thugs_punch("Dock thug")
    state = play(state, {"type": "announce", "result": "a hit"})
    assert state["log"][-1]["summary"] == "Result for Dock thug's Punch: a hit"


def test_the_refusal_to_act_before_the_result_uses_the_same_possessive():
    state = _thugs_punch("Dock thugs")
    with pytest.raises(RuleError) as caught:
        enc.apply_event(state, {"type": "done", "participant": "thugs"})
    assert "the result of Dock thugs' roll first" in caught.value.violations[0].message
