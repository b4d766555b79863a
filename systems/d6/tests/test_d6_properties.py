"""Properties of whole scenes: any sequence of legal events keeps the encounter consistent, the
order is always a permutation of the participants, and the stored events replay to the same state
(d6-game-time.md §B13, §D3, §D4)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from systems.d6.engine import encounter as enc
from systems.d6.engine import visibility as views
from systems.d6.engine.tables import INITIATIVE_METHODS

from .helpers import build, npc


def cast():
    return [
        enc.participant_from_build("ana", build("Ana", character_points=3)),
        enc.participant_from_build("bo", build("Bo", action_allotment=2)),
        npc("thug", perception="2D+2"),
        npc("wolves", kind="group", members=["Grey", "Black"], name="Wolves"),
    ]


def legal_events(state) -> list[dict]:
    """A menu of events the rules allow right now."""
    if state["phase"] == "between_rounds":
        return [{"type": "begin_round"}]
    if state["phase"] == "initiative":
        options = [{"type": "order_without_rolls"}, {"type": "order_without_rolls", "first": ["thug"]}]
        if INITIATIVE_METHODS[state["method"]]["rolls"]:
            options += [
                {"type": "roll_initiative"},
                {"type": "roll_initiative", "character_points": {"ana": 1}},
            ]
        left = (
            state["participants"]["ana"]["character_points"]
            - state["participants"]["ana"]["character_points_spent"]
        )
        return [o for o in options if not (o.get("character_points") and left < 1)]
    people = state["participants"]
    options: list[dict] = []
    if state["windows"]:
        owner = state["windows"][-1]["participant"]
        acting = [e["participant"] for e in state["active"]]
        if owner not in acting or acting[-1] == owner:
            options.append({"type": "announce", "result": "done"})
        for pid, p in people.items():
            if (
                p["round"]["waiting"]
                and not p["incapacitated"]
                and enc.remaining_actions(p)
                and pid not in acting
            ) and any(w["participant"] != pid for w in state["windows"]):
                options.append({"type": "interrupt", "participant": pid})
    top = enc.acting_now(state)
    if top is not None:
        p = people[top]
        own_open = any(w["participant"] == top for w in state["windows"])
        if p["round"]["declared"] is None:
            options += [{"type": "declare", "participant": top, "actions": n} for n in range(4)]
        elif not own_open:
            options.append({"type": "done", "participant": top})
            if enc.remaining_actions(p):
                options += [
                    {"type": "wait", "participant": top},
                    {"type": "act", "participant": top, "action": "punch", "trait": "brawling"},
                    {"type": "act", "participant": top, "action": "move"},
                ]
    for pid, p in people.items():
        if not p["incapacitated"]:
            options.append({"type": "incapacitate", "participant": pid})
        elif p["kind"] != "group":
            options.append({"type": "recover", "participant": pid})
    return options


def check_invariants(state, everyone):
    if state["order"]:
        assert sorted(state["order"]) == sorted(state["participants"])
    assert sorted(state["setup_order"]) == sorted(state["participants"])
    assert set(everyone) <= set(state["participants"])
    for p in state["participants"].values():
        rnd = p["round"]
        if rnd["declared"] is not None:
            assert 0 <= rnd["used"] + rnd["lost"] <= rnd["declared"]
        assert p["character_points_spent"] <= p["character_points"]
    acting = [e["participant"] for e in state["active"]]
    assert len(acting) == len(set(acting))
    assert not any(state["participants"][pid]["incapacitated"] for pid in acting)
    if state["phase"] != "turns":
        assert not state["active"] and not state["windows"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(INITIATIVE_METHODS)), st.integers(0, 2**32), st.data())
def test_any_legal_scene_stays_consistent_and_replays_exactly(method, seed, data):
    initial = enc.new_encounter(cast(), method=method)
    everyone = list(initial["participants"])
    rng = random.Random(seed)
    state = initial
    for _ in range(data.draw(st.integers(5, 60))):
        options = legal_events(state)
        event = data.draw(st.sampled_from(options))
        state = enc.apply_event(state, event, rng)
        check_invariants(state, everyone)
    assert json.loads(json.dumps(state)) == state
    assert enc.replay(initial, state["events"]) == state
    views.tracker(state)
    views.public_view(state)
