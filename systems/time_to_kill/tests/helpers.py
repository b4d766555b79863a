"""Shared builders for the Time to Kill engine tests: ninjas, missions, and scripted turns whose
draws and dice are given as recorded results (so every outcome is chosen by the test)."""

from __future__ import annotations

import random
from typing import Any

from systems.time_to_kill.engine import SYSTEM, mission
from systems.time_to_kill.engine.tables import FATE_KEYS, STEPS, VALUE_RATING

NINJA = "ninja-1"

# Knowledge -, Stealth 0, Awareness + : one ability at each rating (the trade pays for the raise).
MIXED = {"knowledge": "-", "awareness": "+"}


def build(abilities: dict[str, str] | None = None, **choices: Any) -> dict:
    return SYSTEM.new_build({"abilities": abilities or {}, **choices}, random.Random(0))


def start(
    abilities: dict[str, str] | None = None,
    stones: int = 5,
    briefing: dict | None = None,
    **settings: Any,
) -> dict:
    ninjas = [{"id": NINJA, "build": build(abilities)}]
    return mission.new_mission(ninjas, {"mission_stones": stones, **settings}, briefing=briefing)


def event(kind: str, results: dict | None = None, by: str | None = None, **params: Any) -> dict:
    """An event by whoever moves at that kind's step (GM or the ninja), with forced results."""
    ev = {"type": kind, "by": by, **params}
    if results is not None:
        ev["results"] = results
    return ev


def do(state: dict, kind: str, results: dict | None = None, by: str | None = None, **params: Any) -> dict:
    """Apply an event as the party whose move it is (unless ``by`` says otherwise)."""
    who = by if by is not None else mission.whose_move(state)
    return mission.apply_event(state, event(kind, results, who, **params))


def symbols(dice: tuple[int, ...]) -> list[str]:
    return [VALUE_RATING[d] for d in dice]


def to_action(
    state: dict,
    fates: dict[str, str] | None = None,
    reveals: tuple[str, ...] = (),
    shifts: tuple[str, ...] = (),
) -> dict:
    """From Preparation or Step 1 to Step 4: roll, place (``fates`` or all 0), downshifts owed land on
    Opposition, reveal and shift as asked, narrate."""
    if state["step"] == "preparation":
        state = do(state, "end_preparation")
    placement = {key: "0" for key in FATE_KEYS} | (fates or {})
    faces = [{"-": -1, "0": 0, "+": 1}[placement[key]] for key in FATE_KEYS]
    state = do(state, "roll_fates", {"dice": faces})
    if state["step"] == "fate_assign":
        state = do(state, "assign_fates", fates=placement)
    while state["step"] == "rush_downshift":
        state = do(state, "rush_downshift", fate="opposition")
    for fate in reveals:
        state = do(state, "reveal_fate", fate=fate)
    if state["step"] == "reveal":
        state = do(state, "finish_reveals")
    for fate in shifts:
        state = do(state, "shift_fate", fate=fate, justification="a grappling hook")
    if state["step"] == "shift":
        state = do(state, "finish_shifts")
    state = do(state, "narrate", text="Rain on the roof tiles.")
    assert state["step"] == "action", STEPS[state["step"]]
    return state


def act(state: dict, ability: str, fates: list[str], roll: int | None = None, **params: Any) -> dict:
    """Step 4 act, then the GM names ``fates``; ``roll`` is the d6 when the table needs one."""
    state = do(state, "act", ability=ability, **params)
    if state["status"] != "running":
        return state
    return do(state, "choose_fates", None if roll is None else {"roll": roll}, fates=fates)


def prepared(state: dict, count: int) -> dict:
    for _ in range(count):
        state = do(state, "prepare_draw", {"drawn": "ordinary"})
    return state


def random_event(state: dict, rng: random.Random) -> dict:
    """Pick a legal next event at random from available_actions (what a UI would offer)."""
    who = mission.whose_move(state)
    action = rng.choice(mission.available_actions(state, who))
    ev: dict[str, Any] = {"type": action["type"], "by": who}
    for name, option in action["options"].items():
        if "choices" in option:
            ev[name] = rng.choice(option["choices"])
        elif "subset_of" in option:
            ev[name] = rng.sample(option["subset_of"], rng.randint(option["min"], len(option["subset_of"])))
        elif "permutation_of" in option:
            values = list(option["permutation_of"])
            rng.shuffle(values)
            ev[name] = dict(zip(option["keys"], values, strict=True))
        elif option.get("text") and rng.random() < 0.3:
            ev[name] = "Smoke and a quick step."
    return ev
