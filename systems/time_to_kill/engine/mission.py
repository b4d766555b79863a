"""A Time to Kill mission as a pure state machine (time-to-kill.md §B1-§B14, §D3-§D13, §E).

``new_mission(ninjas, settings=None, rng=None, briefing=None)`` makes the starting state;
``apply_event(state, event, rng=None)`` returns a NEW state or raises RuleError naming what is wrong.
The engine makes every draw and die roll itself from ``rng`` and records them in the stored event's
``results`` (``state["events"]``); ``replay(initial_state, events)`` re-applies recorded events without
any rng and gives the same state. ``available_actions(state, who)`` lists the legal next events.
States and events are JSON-able dicts; their shapes are in README.md.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, cast

from characters.systems.base import RuleError, RuleViolation, refuse, replay_events
from characters.systems.dice import d6, fudge
from characters.systems.wording import possessive

from . import creation
from .campaign_settings import resolved
from .tables import (
    ABILITIES,
    ABILITY_KEYS,
    ACTION_TABLE,
    COMBAT,
    DEFAULT_LABEL,
    ESCAPE_STEPS,
    EVENT_TYPES,
    FATE_DICE,
    FATE_KEYS,
    FATES,
    GM,
    MAX_LONG_TEXT,
    OUT_REASONS,
    OUTCOMES,
    RATING_VALUE,
    RATINGS,
    STEP_DOWN,
    STEP_EVENTS,
    STEP_UP,
    STEPS,
    VALUE_RATING,
)

STATE_VERSION = 1
RULE_BAG = "time-to-kill.md §B1, §D3, §D4"
RULE_PREP = "time-to-kill.md §B5"
RULE_FATE = "time-to-kill.md §B2, §D5"
RULE_REVEAL = "time-to-kill.md §B6 Step 1, §D6, §E7"
RULE_SHIFT = "time-to-kill.md §B4, §D7, §E10"
RULE_ACT = "time-to-kill.md §B6 Step 4, §D9"
RULE_REROLL = "time-to-kill.md §B3, §D8, §E9"
RULE_TARGET = "time-to-kill.md §B11, §D11, §E12-§E14"
RULE_RUSH = "time-to-kill.md §B10, §E16"
RULE_TIME = "time-to-kill.md §B12, §D12, §E17"
RULE_STEP = "time-to-kill.md §B6, §D10"
RULE_ESCAPE = "time-to-kill.md §B11, §E15"


# -- pure pieces -------------------------------------------------------------------------------
def combine_fates(values: Iterable[str]) -> str:
    """Several Fates on one action merge into one: the sign of their sum (§B8, §E11)."""
    total = sum(RATING_VALUE[v] for v in values)
    return VALUE_RATING[max(-1, min(1, total))]


def action_cell(fate: str, ability: str) -> dict[str, Any]:
    """The Action Table cell for a Fate and an ability rating (§B7)."""
    return dict(ACTION_TABLE[(fate, ability)])


def roll_succeeds(fate: str, ability: str, roll: int) -> bool:
    """Whether a d6 roll beats the cell; automatic cells ignore the roll (§B7)."""
    cell = ACTION_TABLE[(fate, ability)]
    if cell["automatic"] is not None:
        return cell["automatic"] == "success"
    return roll > cast(int, cell["fail_on"])


def whose_move(state: dict[str, Any]) -> str | None:
    """ "gm", the ninja's id, or None once the mission is over."""
    actor = STEPS[state["step"]]["actor"]
    if not actor:
        return None
    return GM if actor == GM else state["ninja"]["id"]


def stones_accounted(state: dict[str, Any]) -> int:
    """In the bag + held + out of the game: always the ordinary stones the mission started with."""
    stones = state["stones"]
    return cast(int, state["bag"]["ordinary"] + stones["bank"] + stones["wait"] + sum(stones["out"].values()))


# -- dice and draws: made by the engine, recorded in the event ---------------------------------
class _Dice:
    """Hands out random results: fresh from ``rng`` live, or the recorded ones when replaying."""

    def __init__(self, given: dict[str, Any] | None, rng: random.Random | None):
        self.given = given
        self.rng = rng
        self.recorded: dict[str, Any] = {}

    def take(self, key: str, make: Callable[[random.Random], Any], check: Callable[[Any], str | None]) -> Any:
        if self.given is not None:
            if key not in self.given:
                raise refuse("results", f"The recorded event has no {key!r} result to replay.", RULE_BAG)
            value = self.given[key]
            problem = check(value)
            if problem:
                raise refuse(f"results.{key}", problem, RULE_BAG)
        else:
            if self.rng is None:
                raise refuse("rng", "This event needs a draw or a die roll: pass a random source.", RULE_BAG)
            value = make(self.rng)
        self.recorded[key] = value
        return value

    def finish(self) -> None:
        if self.given is not None:
            unused = sorted(set(self.given) - set(self.recorded))
            if unused:
                raise refuse(
                    "results", f"The recorded results {unused} were not needed by this event.", RULE_BAG
                )


def _check_d6(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        return "A d6 roll is a whole number from 1 to 6."
    return None


def _check_fudge(value: Any) -> str | None:
    ok = isinstance(value, list) and len(value) == FATE_DICE
    if not ok or not all(not isinstance(f, bool) and f in (-1, 0, 1) for f in value):
        return f"The Fate roll is {FATE_DICE} Fudge faces, each -1, 0 or 1."
    return None


def _draw(state: dict[str, Any], dice: _Dice, when: str) -> str:
    """One stone, uniformly from what is in the bag (§B1, §D4). The target stone leaves the bag."""
    bag = state["bag"]
    target_inside = bag["target"] == "bag"
    total = bag["ordinary"] + (1 if target_inside else 0)
    if total == 0:
        raise refuse("bag", "The bag is empty: there is no stone to draw.", RULE_BAG)

    def make(rng: random.Random) -> str:
        return "target" if target_inside and rng.randrange(total) == bag["ordinary"] else "ordinary"

    def check(value: Any) -> str | None:
        if value == "target" and not target_inside:
            return "The target stone is not in the bag, so it cannot be drawn."
        if value == "ordinary" and bag["ordinary"] == 0:
            return "No ordinary stone is left in the bag."
        if value not in ("ordinary", "target"):
            return "A drawn stone is 'ordinary' or 'target'."
        return None

    stone = dice.take("drawn", make, check)
    if stone == "target":
        bag["target"] = "in_sight"
    else:
        bag["ordinary"] -= 1
    state["draws"].append({"turn": state["turn"], "when": when, "stone": stone})
    return cast(str, stone)


# -- state helpers -----------------------------------------------------------------------------
def _log(state: dict[str, Any], public: str, gm: str | None = None) -> None:
    state["log"].append({"turn": state["turn"], "step": state["step"], "public": public, "gm": gm or public})


def _label(state: dict[str, Any], start: bool = True) -> str:
    """The ninja's name, or "the ninja" (capitalised at the start of a sentence)."""
    label = state["ninja"]["name"] or DEFAULT_LABEL
    return label[:1].upper() + label[1:] if start else label


def _finish(state: dict[str, Any], outcome: str) -> None:
    """The mission ends; held stones are discarded (§B12, §B13, §D12)."""
    stones = state["stones"]
    stones["out"]["cleared"] += stones["bank"] + stones["wait"]
    stones["bank"] = stones["wait"] = 0
    state["status"] = "over"
    state["outcome"] = outcome
    state["step"] = "over"
    state["victory_points"] = state["die_roll_count"] if outcome == "victory" else 0
    if outcome == "victory":
        _log(state, f"Victory. {state['die_roll_count']} die rolls this mission: that many points.")
    elif outcome == "out_of_time":
        _log(state, "The last stone has left the bag: out of time. The mission has failed.")
    else:
        _log(state, f"{_label(state)} is fatally wounded. The mission has failed.")


def _out_of_time(state: dict[str, Any]) -> bool:
    """Whenever the last ordinary stone leaves the bag, by any route, the mission fails (§B12, §E17)."""
    if state["bag"]["ordinary"] == 0 and state["status"] == "running":
        _finish(state, "out_of_time")
        return True
    return False


def _start_turn(state: dict[str, Any]) -> None:
    """Step 1 of a new turn; rushes of the last turn become downshifts owed now (§B6, §B10)."""
    state["turn"] += 1
    state["step"] = "fate_roll"
    state["current"] = {
        "turn": state["turn"],
        "dice": None,
        "fates": None,
        "downshifts_due": state["pending_downshifts"],
        "downshifts": [],
        "reveals": [],
        "shifts": [],
        "narration": "",
        "rushed": False,
        "action": None,
        "end_of_turn": None,
    }
    state["pending_downshifts"] = 0


def _unrevealed(state: dict[str, Any]) -> list[str]:
    fates = state["current"]["fates"] or {}
    return [key for key in FATE_KEYS if key in fates and not fates[key]["revealed"]]


def _skip_idle_stone_steps(state: dict[str, Any]) -> None:
    """Steps 1 and 2 pass by themselves when there is no stone to spend or no hidden Fate left."""
    idle = state["stones"]["bank"] == 0 or not _unrevealed(state)
    if state["step"] == "reveal" and idle:
        state["step"] = "shift"
    if state["step"] == "shift" and idle:
        state["step"] = "narration"


def _lapse_wait_stones(state: dict[str, Any], count: int | None = None) -> None:
    """Unused wait stones are lost (all of them by default, ``count`` of them otherwise) (§B3, §E9)."""
    stones = state["stones"]
    lost = stones["wait"] if count is None else min(count, stones["wait"])
    if lost:
        stones["wait"] -= lost
        stones["out"]["wait_lost"] += lost
        _log(state, f"{lost} unused wait stone{'s' if lost > 1 else ''} lost.")


def _after_step4_without_reroll(state: dict[str, Any]) -> None:
    """By default a wait stone only serves the next action; it lapses when not spent on it (§B3)."""
    if not state["settings"]["wait_stones_persist"]:
        _lapse_wait_stones(state)


def _return_target_with_penalty(state: dict[str, Any]) -> None:
    """Target in sight but not taken (or missed): one more stone out, then the target goes back (§B11, §E14).
    The target is out of the bag, so the extra stone is always ordinary."""
    state["bag"]["ordinary"] -= 1
    state["stones"]["out"]["penalty"] += 1
    state["draws"].append({"turn": state["turn"], "when": "penalty", "stone": "ordinary"})
    state["bag"]["target"] = "bag"
    _log(state, "The target slips away: one more stone leaves the bag and the target stone goes back in.")
    _out_of_time(state)


def _text(event: dict[str, Any], key: str, what: str) -> str:
    value = event.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value) > MAX_LONG_TEXT:
        raise refuse(key, f"The {what} must be text of at most {MAX_LONG_TEXT} characters.")
    return value.strip()


def _flag(event: dict[str, Any], key: str, what: str) -> bool:
    value = event.get(key, False)
    if not isinstance(value, bool):
        raise refuse(key, f"Say true or false for {what}.")
    return value


def _fate(event: dict[str, Any], key: str = "fate") -> str:
    fate = event.get(key)
    if not isinstance(fate, str) or fate not in FATES:
        raise refuse(
            key, f"There is no Fate called {fate!r}; the Fates are {', '.join(FATE_KEYS)}.", RULE_FATE
        )
    return fate


# -- setup -------------------------------------------------------------------------------------
def _ninja_from(ninjas: Any) -> dict[str, Any]:
    """One ninja per mission (§E21). ninjas: [{"id": str, "build": build}]."""
    if not isinstance(ninjas, list) or len(ninjas) != 1:
        raise refuse(
            "ninjas",
            "A mission is run for exactly one ninja; run a separate mission for each.",
            "time-to-kill.md §E21",
        )
    entry = ninjas[0]
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"].strip():
        raise refuse("ninjas.0.id", "Each ninja needs an id (text).")
    if entry["id"] == GM:
        raise refuse("ninjas.0.id", f"{GM!r} is reserved for the GM.")
    build: Any = entry.get("build")  # a ninja's build once creation.validate finds no problem
    problems = creation.validate(build)
    if problems:
        raise RuleError([RuleViolation(f"ninjas.0.build.{p.field}", p.message, p.rule) for p in problems])
    if build["status"] == "dead":
        raise refuse("ninjas.0.build", "A dead ninja cannot go on a mission.", "time-to-kill.md §B12")
    return {
        "id": entry["id"],
        "name": build["name"],
        "creation": dict(build["abilities"]),
        "current": dict(build["abilities"]),
        "disabled": [],
        "fatally_wounded": False,
    }


def _briefing(briefing: Any) -> dict[str, Any]:
    """The brief, the victory conditions told to the player, escape required or not, GM notes (§B1, §D3)."""
    briefing = {} if briefing is None else briefing
    if not isinstance(briefing, dict):
        raise refuse("briefing", "The briefing must be an object.")
    unknown = sorted(set(briefing) - {"brief", "victory_conditions", "escape_required", "gm_notes"})
    if unknown:
        raise refuse("briefing", f"Unknown briefing fields: {', '.join(map(str, unknown))}.")
    return {
        "brief": _text(briefing, "brief", "brief"),
        "victory_conditions": _text(briefing, "victory_conditions", "victory conditions"),
        "escape_required": _flag(briefing, "escape_required", "whether escape is required"),
        "gm_notes": _text(briefing, "gm_notes", "GM notes"),
    }


def new_mission(
    ninjas: list[dict[str, Any]],
    settings: dict[str, Any] | None = None,
    rng: random.Random | None = None,
    briefing: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The starting state: N ordinary stones plus the target stone in the bag, Preparation open (§B1, §B5).

    ``settings`` are the campaign settings with the mission's own ``mission_stones`` on top (ruling 6).
    ``rng`` is accepted for symmetry and unused: setting up draws nothing.
    """
    del rng
    options = resolved(settings)
    ninja = _ninja_from(ninjas)
    stones = options["mission_stones"]
    state = {
        "version": STATE_VERSION,
        "system": "time_to_kill",
        "settings": options,
        "briefing": _briefing(briefing),
        "ninja": ninja,
        "bag": {"start_ordinary": stones, "ordinary": stones, "target": "bag"},
        "stones": {"bank": 0, "wait": 0, "out": {reason: 0 for reason in OUT_REASONS}},
        "status": "running",
        "outcome": None,
        "objective_achieved": False,
        "victory_points": 0,
        "turn": 0,
        "step": "preparation",
        "current": None,
        "pending_downshifts": 0,
        "die_roll_count": 0,
        "history": [],
        "draws": [],
        "log": [],
        "events": [],
    }
    _log(state, f"The mission begins: {stones} stones and the target stone go into the bag.")
    return state


# -- event handlers: each mutates the (copied) state and returns the event's parameters --------
def _prepare_draw(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """One preparation stone; the target stone goes back and starts the mission at once (§B5, §B11)."""
    stone = _draw(state, dice, "preparation")
    if stone == "target":
        state["bag"]["target"] = "bag"
        _log(state, "The target stone came out during preparation: it goes back and turn 1 starts now.")
        _start_turn(state)
    else:
        state["stones"]["bank"] += 1
        _log(state, f"A preparation stone is set aside ({state['stones']['bank']} held).")
        _out_of_time(state)
    return {}


def _end_preparation(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    _log(state, f"Preparation ends with {state['stones']['bank']} stones held.")
    _start_turn(state)
    return {}


def _place_fates(state: dict[str, Any], placement: dict[str, str]) -> None:
    current = state["current"]
    current["fates"] = {
        key: {
            "rolled": placement[key],
            "value": placement[key],
            "revealed": False,
            "revealed_by": None,
            "shifts": 0,
            "downshifts": 0,
        }
        for key in FATE_KEYS
    }
    state["step"] = "rush_downshift" if current["downshifts_due"] else "reveal"
    _skip_idle_stone_steps(state)


def _roll_fates(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """The GM's four Fudge dice, behind the screen (§B2)."""
    faces = dice.take("dice", lambda rng: list(fudge(rng, FATE_DICE).faces), _check_fudge)
    symbols = [VALUE_RATING[face] for face in faces]
    state["current"]["dice"] = symbols
    _log(state, "The GM rolls the Fate dice.", f"Fate dice: {' '.join(symbols)}.")
    if state["settings"]["fate_assignment"] == "roll_order":
        _place_fates(state, dict(zip(FATE_KEYS, symbols, strict=True)))
    else:
        state["step"] = "fate_assign"
    return {}


def _assign_fates(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """The GM places the four dice, one per Fate; the placement is then locked (§B2, §D5, §E3)."""
    placement = event.get("fates")
    if not isinstance(placement, dict) or set(placement) != set(FATE_KEYS):
        raise refuse("fates", f"Place one die on each Fate: {', '.join(FATE_KEYS)}.", RULE_FATE)
    if any(value not in RATINGS for value in placement.values()):
        raise refuse("fates", "Each Fate gets -, 0 or +.", RULE_FATE)
    rolled = state["current"]["dice"]
    if sorted(placement.values()) != sorted(rolled):
        raise refuse(
            "fates",
            f"The placement must use exactly the dice rolled ({' '.join(rolled)}), one per Fate.",
            RULE_FATE,
        )
    placement = {key: placement[key] for key in FATE_KEYS}
    _place_fates(state, placement)
    _log(
        state,
        "The GM places the Fate dice.",
        "Placed: " + ", ".join(f"{k} {v}" for k, v in placement.items()),
    )
    return {"fates": placement}


def _rush_downshift(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """Last turn's rush costs one Fate a step toward -, the GM's pick, - stays - (§B10, §E16)."""
    fate = _fate(event)
    current = state["current"]
    entry = current["fates"][fate]
    before = entry["value"]
    entry["value"] = STEP_DOWN[before]
    entry["downshifts"] += 1
    current["downshifts"].append(fate)
    current["downshifts_due"] -= 1
    _log(
        state,
        "The GM lowers one Fate for the rushed turn.",
        f"Rush downshift: {fate} {before} -> {entry['value']}.",
    )
    if not current["downshifts_due"]:
        state["step"] = "reveal"
        _skip_idle_stone_steps(state)
    return {"fate": fate}


def _spend_bank_stone(state: dict[str, Any], reason: str, rule: str) -> None:
    stones = state["stones"]
    if stones["bank"] < 1:
        raise refuse("stones", "No preparation stones are left to spend.", rule)
    stones["bank"] -= 1
    stones["out"][reason] += 1


def _reveal_fate(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """One preparation stone shows one Fate (§B6 Step 1, §E7, §E8)."""
    fate = _fate(event)
    entry = state["current"]["fates"][fate]
    if entry["revealed"]:
        raise refuse("fate", f"{FATES[fate]['label']} is already revealed.", RULE_REVEAL)
    _spend_bank_stone(state, "reveal", RULE_REVEAL)
    entry["revealed"] = True
    entry["revealed_by"] = "stone"
    state["current"]["reveals"].append(fate)
    _log(state, f"A stone reveals {FATES[fate]['label']}: {entry['value']}.")
    _skip_idle_stone_steps(state)
    return {"fate": fate}


def _finish_reveals(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    state["step"] = "shift"
    _skip_idle_stone_steps(state)
    return {}


def _shift_fate(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """One preparation stone raises a hidden Fate one step; + stays + and the stone is gone (§B4, §E10)."""
    fate = _fate(event)
    justification = _text(event, "justification", "justification")
    entry = state["current"]["fates"][fate]
    if entry["revealed"]:
        raise refuse(
            "fate", f"{FATES[fate]['label']} has been revealed; only hidden Fates can be shifted.", RULE_SHIFT
        )
    _spend_bank_stone(state, "shift", RULE_SHIFT)
    before = entry["value"]
    entry["value"] = STEP_UP[before]
    entry["shifts"] += 1
    state["current"]["shifts"].append(
        {"fate": fate, "justification": justification, "before": before, "after": entry["value"]}
    )
    wasted = " (already +, the stone is spent for nothing)" if before == "+" else ""
    _log(
        state,
        f"A stone shifts {FATES[fate]['label']} up." + (f" {justification}" if justification else ""),
        f"Shift: {fate} {before} -> {entry['value']}{wasted}.",
    )
    _skip_idle_stone_steps(state)
    return {"fate": fate, "justification": justification}


def _finish_shifts(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    state["step"] = "narration"
    return {}


def _narrate(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """Step 3: the GM describes the scene, no numbers (§B6 Step 3)."""
    text = _text(event, "text", "narration")
    state["current"]["narration"] = text
    state["step"] = "action"
    if text:
        _log(state, text)
    return {"text": text}


def _wait(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """Wait: a stone from the bag becomes a wait stone; the target stone forces an act now (§B6 Step 4)."""
    rushed = _flag(event, "rushed", "a rushed wait")
    current = state["current"]
    current["rushed"] = rushed
    current["action"] = {"kind": "wait", "rushed": rushed, "drawn": None}
    _after_step4_without_reroll(state)
    if state["bag"]["target"] == "in_sight":
        _return_target_with_penalty(state)  # declining the target (§E14): penalty first, then the wait draw
        if state["status"] != "running":
            return {"rushed": rushed}
    stone = _draw(state, dice, "wait")
    current["action"]["drawn"] = stone
    if stone == "target":
        state["step"] = "must_act"
        _log(
            state, f"{_label(state)} waits, and the target stone comes out: the target is in sight. Act now."
        )
        return {"rushed": rushed}
    state["stones"]["wait"] += 1
    _log(state, f"{_label(state)} waits and gains a wait stone.")
    if not _out_of_time(state):
        state["step"] = "end_turn"
    return {"rushed": rushed}


def _act(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """Act: one usable ability, maybe the objective, maybe rushed; then the GM names Fates (§B6 Step 4)."""
    ability = event.get("ability")
    if not isinstance(ability, str) or ability not in ABILITIES:
        raise refuse(
            "ability", f"There is no ability {ability!r}; choose one of {', '.join(ABILITY_KEYS)}.", RULE_ACT
        )
    ninja = state["ninja"]
    if ability in ninja["disabled"]:
        raise refuse(
            "ability",
            f"{ABILITIES[ability]['name']} is lost for the rest of this mission and cannot be used.",
            RULE_ACT,
        )
    objective = _flag(event, "objective", "attempting the objective")
    target_in_sight = state["bag"]["target"] == "in_sight"
    if objective and not target_in_sight:
        raise refuse(
            "objective", "The target is not in sight: the objective cannot be attempted now.", RULE_TARGET
        )
    rushed = _flag(event, "rushed", "a rushed action")
    description = _text(event, "description", "description")
    current = state["current"]
    after_wait = state["step"] == "must_act"
    current["rushed"] = current["rushed"] or rushed
    current["action"] = {
        "kind": "act",
        "ability": ability,
        "objective": objective,
        "rushed": rushed,
        "after_wait": after_wait,
        "description": description,
        "fates": [],
        "combined": None,
        "rating": ninja["current"][ability],
        "automatic": None,
        "fail_on": None,
        "rolls": [],
        "result": None,
        "downgrade": None,
    }
    params = {"ability": ability, "objective": objective, "rushed": rushed, "description": description}
    verb = "goes for the target" if objective else "acts"
    _log(
        state,
        f"{_label(state)} {verb} with {ABILITIES[ability]['name']}."
        + (f" {description}" if description else ""),
    )
    if target_in_sight and not objective:
        _return_target_with_penalty(state)
        if state["status"] != "running":
            return params
    state["step"] = "choose_fates"
    return params


def _choose_fates(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """The GM names the Fate(s) the action faces; they are revealed, combined and read on the table
    against the ability (§B6 Step 4, §B7, §B8, §D9, §D13)."""
    names = event.get("fates")
    if isinstance(names, str):
        names = [names]
    if (
        not isinstance(names, list)
        or not names
        or not all(isinstance(name, str) for name in names)
        or len(set(names)) != len(names)
    ):
        raise refuse("fates", "Name one or more different Fates for this action.", RULE_ACT)
    for name in names:
        _fate({"fates": name}, "fates")
    names = [key for key in FATE_KEYS if key in names]
    current = state["current"]
    action = current["action"]
    for name in names:
        entry = current["fates"][name]
        if not entry["revealed"]:
            entry["revealed"] = True
            entry["revealed_by"] = "act"
    combined = combine_fates(current["fates"][name]["value"] for name in names)
    rating = state["ninja"]["current"][action["ability"]]
    cell = action_cell(combined, rating)
    action.update(
        fates=names, combined=combined, rating=rating, automatic=cell["automatic"], fail_on=cell["fail_on"]
    )
    shown = ", ".join(f"{FATES[n]['label']} {current['fates'][n]['value']}" for n in names)
    if cell["automatic"] is not None:
        _log(state, f"Fate {shown}: combined {combined} against {rating}, automatic {cell['automatic']}.")
        if state["settings"]["wait_stones_persist"]:
            _lapse_wait_stones(state, 1)  # an automatic result still costs a held wait stone (§B6 Step 4)
        else:
            _lapse_wait_stones(state)
        _resolve(state, cell["automatic"] == "success")
        return {"fates": names}
    roll = dice.take("roll", lambda rng: d6(rng).total, _check_d6)
    state["die_roll_count"] += 1
    action["rolls"].append(roll)
    success = roll > cell["fail_on"]
    _log(state, f"Fate {shown}: combined {combined} against {rating}; the die shows {roll}.")
    if not success and state["stones"]["wait"] > 0:
        state["step"] = "reroll"
        return {"fates": names}
    _after_step4_without_reroll(state)
    _resolve(state, success)
    return {"fates": names}


def _reroll(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """The wait stone buys a second roll that replaces the first (§B3, §D8); it counts as a roll (§D13)."""
    stones = state["stones"]
    stones["wait"] -= 1
    stones["out"]["reroll"] += 1
    roll = dice.take("roll", lambda rng: d6(rng).total, _check_d6)
    state["die_roll_count"] += 1
    action = state["current"]["action"]
    action["rolls"].append(roll)
    _log(state, f"The wait stone buys a re-roll: {roll}.")
    _after_step4_without_reroll(state)
    _resolve(state, roll > action["fail_on"])
    return {}


def _keep_roll(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    _after_step4_without_reroll(state)
    _resolve(state, False)
    return {}


def _downgrade(state: dict[str, Any], ability: str) -> bool:
    """Step 5: a failure lowers the ability; below - a Combat ability is a fatal wound and a Non-Combat
    one is lost for the mission (§B9, §E18, §E19). Returns True on a fatal wound."""
    ninja = state["ninja"]
    action = state["current"]["action"]
    before = ninja["current"][ability]
    name = ABILITIES[ability]["name"]
    if before != "-":
        ninja["current"][ability] = STEP_DOWN[before]
        action["downgrade"] = {"from": before, "to": ninja["current"][ability]}
        _log(state, f"{name} drops from {before} to {ninja['current'][ability]}.")
        return False
    if ABILITIES[ability]["group"] == COMBAT:
        ninja["fatally_wounded"] = True
        action["downgrade"] = {"from": "-", "to": "fatal"}
        return True
    ninja["disabled"].append(ability)
    action["downgrade"] = {"from": "-", "to": "lost"}
    _log(state, f"{name} was already at -: it is lost for the rest of the mission.")
    return False


def _resolve(state: dict[str, Any], success: bool) -> None:
    """Settle the act: Step 5 on failure, the objective on success (§B6 Step 5, §B9, §B11)."""
    action = state["current"]["action"]
    action["result"] = "success" if success else "failure"
    if success:
        _log(state, "Success.")
        if action["objective"]:
            state["objective_achieved"] = True
            state["bag"]["target"] = "out"
            if not state["briefing"]["escape_required"]:
                _finish(state, "victory")
                return
            _log(state, "The objective is done; now the ninja must get away.")
        state["step"] = "end_turn"
        return
    _log(state, "Failure.")
    if _downgrade(state, action["ability"]):
        _finish(state, "fatally_wounded")
        return
    if action["objective"]:
        _return_target_with_penalty(state)
        if state["status"] != "running":
            return
    state["step"] = "end_turn"


def _end_turn(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """Step 6: one stone out of the game unless the turn was rushed (§B6 Step 6, §B10, §B11)."""
    current = state["current"]
    if current["rushed"]:
        state["pending_downshifts"] += 1
        current["end_of_turn"] = "skipped"
        _log(state, "A rushed turn: no stone leaves the bag, but a Fate will be lowered next turn.")
    else:
        stone = _draw(state, dice, "end_of_turn")
        current["end_of_turn"] = stone
        if stone == "target":
            _log(state, "The end-of-turn stone is the target stone: the target is in sight next turn.")
        else:
            state["stones"]["out"]["end_of_turn"] += 1
            _log(state, "A stone leaves the bag.")
            if _out_of_time(state):
                return {}
    state["history"].append(copy.deepcopy(current))
    _start_turn(state)
    return {}


def _declare_escape(state: dict[str, Any], event: dict[str, Any], dice: _Dice) -> dict[str, Any]:
    """With escape in the victory conditions, the GM rules when the ninja is clear (§B11, §E15)."""
    _log(state, f"The GM rules that {_label(state, start=False)} has escaped.")
    _finish(state, "victory")
    return {}


HANDLERS: dict[str, Callable[[dict[str, Any], dict[str, Any], _Dice], dict[str, Any]]] = {
    "prepare_draw": _prepare_draw,
    "end_preparation": _end_preparation,
    "roll_fates": _roll_fates,
    "assign_fates": _assign_fates,
    "rush_downshift": _rush_downshift,
    "reveal_fate": _reveal_fate,
    "finish_reveals": _finish_reveals,
    "shift_fate": _shift_fate,
    "finish_shifts": _finish_shifts,
    "narrate": _narrate,
    "wait": _wait,
    "act": _act,
    "choose_fates": _choose_fates,
    "reroll": _reroll,
    "keep_roll": _keep_roll,
    "end_turn": _end_turn,
    "declare_escape": _declare_escape,
}
assert set(HANDLERS) == set(EVENT_TYPES)


# -- applying events ---------------------------------------------------------------------------
def open_events(state: dict[str, Any]) -> tuple[str, ...]:
    """The event types the current step accepts (§D10)."""
    events = STEP_EVENTS[state["step"]]
    if state["objective_achieved"] and state["status"] == "running" and state["step"] in ESCAPE_STEPS:
        events = (*events, "declare_escape")
    return events


def apply_event(
    state: dict[str, Any], event: dict[str, Any], rng: random.Random | None = None
) -> dict[str, Any]:
    """A NEW state with ``event`` applied, or RuleError naming what is wrong.

    event: {"type": str, "by": "gm" | the ninja's id, ...parameters}. Live, pass ``rng`` and no
    ``results``: the engine draws and rolls. Replaying, pass no rng and the recorded ``results``.
    """
    if not isinstance(event, dict):
        raise refuse("event", "An event must be an object with a type.")
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in HANDLERS:
        raise refuse("type", f"Unknown event {kind!r}; events are {', '.join(EVENT_TYPES)}.")
    if state.get("status") != "running":
        raise refuse("status", "The mission is over; no further events are accepted.", RULE_TIME)
    given = event.get("results")
    if given is not None and not isinstance(given, dict):
        raise refuse("results", "Recorded results must be an object.")
    if rng is not None and given:
        raise refuse(
            "results", "Draws and dice are made by the engine; a new event must not bring results.", RULE_BAG
        )
    allowed = open_events(state)
    step = STEPS[state["step"]]
    if kind not in allowed:
        raise refuse(
            "type",
            f"{kind!r} is not possible now: the mission is at {step['step']} ({step['label']}); "
            f"open now: {', '.join(allowed)}.",
            RULE_STEP,
        )
    mover = whose_move(state)
    if event.get("by") != mover:
        who = "the GM" if mover == GM else "the ninja's player"
        raise refuse("by", f"It is {possessive(who)} move ({step['label']}).", RULE_STEP)
    new = copy.deepcopy(state)
    dice = _Dice(given if rng is None else None, rng)
    params = HANDLERS[kind](new, event, dice)
    dice.finish()
    recorded = {"type": kind, "by": mover, **params}
    if dice.recorded:
        recorded["results"] = dice.recorded
    new["events"].append(recorded)
    return new


def _event_refused(index: int, event: Any, error: RuleError) -> NoReturn:
    """A mission's replay names each of the event's violations under the event."""
    raise RuleError(
        [RuleViolation(f"events.{index}.{v.field}", v.message, v.rule) for v in error.violations]
    ) from None


def replay(initial_state: dict[str, Any], events: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Fold recorded events (with their results) over the starting state; no dice are rolled."""
    return replay_events(initial_state, events, apply_event, _event_refused)


def mission_result_entry(state: dict[str, Any], mission: Any = None) -> dict[str, Any]:
    """The ledger entry a finished mission gives the ninja (ledger.py, §B13)."""
    if state["status"] != "over":
        raise refuse("status", "The mission is not over yet.", RULE_TIME)
    assert state["outcome"] in OUTCOMES
    return {
        "kind": "mission_result",
        "outcome": state["outcome"],
        "die_rolls": state["die_roll_count"],
        "turns": state["turn"],
        "mission": mission,
    }


# -- what can be done next (for buttons) -------------------------------------------------------
def _options(state: dict[str, Any], kind: str) -> dict[str, Any]:
    """Parameter choices of one open event. Option kinds: {"choices": [...]} pick one;
    {"subset_of": [...], "min": 1} pick some; {"permutation_of": [...], "keys": [...]} place each value
    on one key; {"text": true, "optional": true} free text."""
    current = state["current"]
    text = {"text": True, "optional": True, "max_length": MAX_LONG_TEXT}
    if kind == "assign_fates":
        return {"fates": {"permutation_of": list(current["dice"]), "keys": list(FATE_KEYS)}}
    if kind == "rush_downshift":
        return {"fate": {"choices": list(FATE_KEYS)}}
    if kind == "reveal_fate":
        return {"fate": {"choices": _unrevealed(state)}}
    if kind == "shift_fate":
        return {"fate": {"choices": _unrevealed(state)}, "justification": text}
    if kind == "narrate":
        return {"text": text}
    if kind == "wait":
        return {"rushed": {"choices": [False, True]}}
    if kind == "act":
        usable = [key for key in ABILITY_KEYS if key not in state["ninja"]["disabled"]]
        in_sight = state["bag"]["target"] == "in_sight"
        return {
            "ability": {"choices": usable},
            "objective": {"choices": [False, True] if in_sight else [False]},
            "rushed": {"choices": [False, True]},
            "description": text,
        }
    if kind == "choose_fates":
        return {"fates": {"subset_of": list(FATE_KEYS), "min": 1}}
    return {}


EVENT_LABELS: dict[str, str] = {
    "prepare_draw": "Draw a preparation stone",
    "end_preparation": "Start the mission",
    "roll_fates": "Roll the Fate dice",
    "assign_fates": "Place the dice on the Fates",
    "rush_downshift": "Lower a Fate (rushed turn)",
    "reveal_fate": "Spend a stone to reveal a Fate",
    "finish_reveals": "Done revealing",
    "shift_fate": "Spend a stone to shift a hidden Fate up",
    "finish_shifts": "Done shifting",
    "narrate": "Describe the scene",
    "wait": "Wait",
    "act": "Act",
    "choose_fates": "Name the Fates this action faces",
    "reroll": "Spend the wait stone: roll again",
    "keep_roll": "Keep the failed roll",
    "end_turn": "End the turn",
    "declare_escape": "The ninja has escaped",
}


def available_actions(state: dict[str, Any], who: str) -> list[dict[str, Any]]:
    """The legal next events for ``who`` ("gm" or the ninja's id), with their parameter choices.
    Nothing here depends on a hidden Fate value or on the stones left in the bag."""
    if who != GM and who != state["ninja"]["id"]:
        raise refuse("who", f"{who!r} is neither the GM nor this mission's ninja.")
    if state["status"] != "running" or whose_move(state) != who:
        return []
    return [
        {"type": kind, "by": who, "label": EVENT_LABELS[kind], "options": _options(state, kind)}
        for kind in open_events(state)
    ]
