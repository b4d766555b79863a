"""Properties of whole missions played by picking at random among available_actions."""

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from systems.time_to_kill.engine import mission, player_view
from systems.time_to_kill.engine.tables import ABILITIES, COMBAT, FATE_KEYS, RATINGS

from .helpers import NINJA, build, random_event

MAX_EVENTS = 160

ABILITY_SETS = [
    {},
    {"knowledge": "-", "awareness": "+"},
    {"armed": "+", "ranged": "+", "stealth": "+"},
    {"willpower": "-", "stealth": "+", "athletics": "+"},
]

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "stones": st.integers(1, 8),
        "abilities": st.sampled_from(ABILITY_SETS),
        "persist": st.booleans(),
        "see_count": st.booleans(),
        "roll_order": st.booleans(),
        "escape": st.booleans(),
    }
)


def play(game):
    """Every state of one randomly played mission, from the start."""
    options = {
        "mission_stones": game["stones"],
        "wait_stones_persist": game["persist"],
        "players_see_stone_count": game["see_count"],
        "fate_assignment": "roll_order" if game["roll_order"] else "gm_arranges",
    }
    ninjas = [{"id": NINJA, "build": build(game["abilities"])}]
    state = mission.new_mission(
        ninjas, options, briefing={"escape_required": game["escape"], "gm_notes": "secret"}
    )
    rng = random.Random(game["seed"])
    states = [state]
    while state["status"] == "running" and len(state["events"]) < MAX_EVENTS:
        state = mission.apply_event(state, random_event(state, rng), rng)
        states.append(state)
    return states


def check_stones(state, persist):
    stones = state["stones"]
    bag = state["bag"]
    assert mission.stones_accounted(state) == bag["start_ordinary"]
    drawn = [d for d in state["draws"] if d["stone"] == "ordinary"]
    assert len(drawn) == bag["start_ordinary"] - bag["ordinary"]
    assert stones["bank"] >= 0 and stones["wait"] >= 0 and bag["ordinary"] >= 0
    assert min(stones["out"].values()) >= 0
    assert persist or stones["wait"] <= 1
    assert stones["bank"] <= sum(
        1 for d in state["draws"] if d["when"] == "preparation" and d["stone"] == "ordinary"
    )


def check_ending(state, escape):
    rolls = sum(1 for e in state["events"] if "roll" in e.get("results", {}))
    assert state["die_roll_count"] == rolls
    if state["status"] == "running":
        assert state["outcome"] is None
        assert state["bag"]["ordinary"] > 0
        assert not state["ninja"]["fatally_wounded"]
        return
    action = (state["current"] or {}).get("action") or {}
    if state["outcome"] == "out_of_time":
        assert state["bag"]["ordinary"] == 0
        assert state["draws"][-1]["stone"] == "ordinary"
    elif state["outcome"] == "fatally_wounded":
        assert state["ninja"]["fatally_wounded"]
        assert action["result"] == "failure"
        assert ABILITIES[action["ability"]]["group"] == COMBAT
        assert action["downgrade"] == {"from": "-", "to": "fatal"}
    else:
        assert state["outcome"] == "victory"
        assert state["objective_achieved"]
        assert state["victory_points"] == state["die_roll_count"]
        if escape:
            assert state["events"][-1]["type"] == "declare_escape"
        else:
            assert action["objective"] and action["result"] == "success"
    assert state["stones"]["bank"] == state["stones"]["wait"] == 0


@settings(max_examples=60, deadline=None)
@given(games)
def test_any_legal_mission_keeps_the_stones_and_ends_only_by_the_rules(game):
    states = play(game)
    for state in states:
        check_stones(state, game["persist"])
        check_ending(state, game["escape"])
    final = states[-1]
    assert mission.replay(states[0], json.loads(json.dumps(final["events"]))) == final


def scrambled(state, rng):
    """The same game as the player knows it, with every secret changed: unrevealed Fates, the raw dice,
    shift and downshift details, GM notes and log, stored events and history, and the stone count
    unless the campaign shows it."""
    twin = copy.deepcopy(state)
    current = twin["current"]
    if current:
        if current["dice"]:
            current["dice"] = [rng.choice(RATINGS) for _ in current["dice"]]
        for entry in (current["fates"] or {}).values():
            entry["rolled"] = rng.choice(RATINGS)
            entry["shifts"] = rng.randint(0, 3)
            entry["downshifts"] = rng.randint(0, 3)
            if not entry["revealed"]:
                entry["value"] = rng.choice(RATINGS)
        for shift in current["shifts"]:
            shift["before"], shift["after"] = rng.choice(RATINGS), rng.choice(RATINGS)
        current["downshifts"] = [rng.choice(FATE_KEYS) for _ in current["downshifts"]]
    twin["briefing"]["gm_notes"] = f"other notes {rng.random()}"
    for line in twin["log"]:
        line["gm"] = "scrambled"
    twin["events"] = []
    twin["history"] = []
    if not twin["settings"]["players_see_stone_count"]:
        extra = rng.randint(1, 50)
        twin["bag"]["ordinary"] += extra
        twin["bag"]["start_ordinary"] += extra
        twin["settings"]["mission_stones"] += extra
    return twin


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_the_player_view_never_depends_on_a_secret(game, scramble_seed):
    rng = random.Random(scramble_seed)
    for state in play(game):
        view = player_view(state, NINJA)
        assert player_view(scrambled(state, rng), NINJA) == view
        fates = (state["current"] or {}).get("fates") or {}
        for shown in view["fates"]:
            if not fates.get(shown["fate"], {}).get("revealed"):
                assert set(shown) == {"fate", "label", "revealed"}
