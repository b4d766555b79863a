"""An encounter in rounds as a pure state machine (d6-game-time.md §B1-§B13, §D2-§D12, §E7-§E17).

``new_encounter(participants, method=None, settings=None, name="")`` makes the starting state;
``apply_event(state, event, rng=None)`` returns a NEW state or raises RuleError naming what is
wrong; ``replay(state, events)`` folds a list. States and events are JSON-able dicts.

Dice: an event that needs a roll either carries its dice (``"dice"`` / ``"rolls"``, checked and
scored here) or is applied with an ``rng`` that rolls them. Either way the state's ``events`` list
keeps the event *with* its dice, so ``replay(initial, state["events"])`` gives the same state
without any randomness. Shapes are listed in README.md.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from typing import Any, cast

from characters.systems.base import RuleError, RuleViolation, is_one_of, refuse, replay_events
from characters.systems.wording import possessive

from .campaign_settings import resolved
from .creation import attributes as build_attributes
from .creation import goes_first as build_goes_first
from .creation import normalised, validate
from .creation import skills as build_skills
from .derived import bonus_for, map_dice
from .dicecode import DieCode, DieRoll, format_code, parse, roll_code, roll_from_dict
from .initiative import (
    Contender,
    check_points,
    draw_ties,
    full_ties,
    method_info,
    settle_order,
    tie_break_profile,
)
from .tables import (
    ACTIONS,
    CONTROLLERS,
    EMOTIONAL_TRAITS,
    INITIATIVE_METHODS,
    MAX_DECLARED_ACTIONS,
    MAX_TEXT,
    MOVE_UP_REASONS,
    NON_ACTION_ROLLS,
    ORDER_DECIDERS,
    PARTICIPANT_KINDS,
    ROLL_KINDS,
    RULES,
    TIE_DRAW_MAX,
)

STATE_VERSION = 1
MAX_PARTICIPANTS = 200
MAX_ID = 64
RULE_METHODS = f"{RULES} §B2, §E1, §E2"
RULE_TIES = f"{RULES} §B3, §D3"
RULE_DECLARE = f"{RULES} §B5, §D4, §E7"
RULE_WAIT = f"{RULES} §B5, §B6, §D7, §E9"
RULE_MAP = f"{RULES} §B8, §D5, §D6, §E10"
RULE_MOVE_UP = f"{RULES} §B7, §D8, §E8"
RULE_INCAPACITATED = f"{RULES} §B2, §D3, §E17"
RULE_GROUPS = f"{RULES} §B12, §D12, §E16"
RULE_ACTIONS = f"{RULES} §B11, §D9, §D10"
EVENT_TYPES = (
    "begin_round",
    "roll_initiative",
    "order_without_rolls",
    "set_order",
    "declare",
    "act",
    "wait",
    "done",
    "interrupt",
    "move_up",
    "announce",
    "roll",
    "incapacitate",
    "recover",
    "split_group",
    "movement_rule",
    "end_scene",
)
PHASES = ("between_rounds", "initiative", "turns")


# -- small readers -------------------------------------------------------------------------------------
def _text(value: Any, where: str, what: str, required: bool = True, limit: int = MAX_TEXT) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or len(value) > limit or (required and not value.strip()):
        raise refuse(where, f"Give {what} (text of at most {limit} characters).")
    return value.strip()


def _int(value: Any, where: str, what: str, low: int, high: int, rule: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse(where, f"{what} must be a whole number from {low} to {high}.", rule)
    return value


def _ids(value: Any, state: dict[str, Any], where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise refuse(where, "Give a list of participant ids.")
    for pid in value:
        if not is_one_of(pid, state["participants"]):
            raise refuse(where, f"{pid!r} is not taking part in this encounter.")
    if len(set(value)) != len(value):
        raise refuse(where, "A participant is listed twice.")
    return list(value)


def _participant(state: dict[str, Any], event: dict[str, Any], key: str = "participant") -> dict[str, Any]:
    pid = event.get(key)
    if not isinstance(pid, str) or pid not in state["participants"]:
        raise refuse(key, f"{pid!r} is not taking part in this encounter.")
    return cast("dict[str, Any]", state["participants"][pid])


def remaining_actions(p: dict[str, Any]) -> int:
    """Declared actions not yet used nor lost this round (§B5, §E17)."""
    rnd = p["round"]
    if rnd["declared"] is None:
        return 0
    return max(0, cast(int, rnd["declared"] - rnd["used"] - rnd["lost"]))


def _fresh_round() -> dict[str, Any]:
    return {
        "declared": None,
        "used": 0,
        "lost": 0,
        "waiting": False,
        "turn_taken": False,
        "skipped": False,
        "moved_up": 0,
        "interrupts": 0,
        "item_uses": {},
    }


def _top(state: dict[str, Any]) -> dict[str, Any] | None:
    return state["active"][-1] if state["active"] else None


def _how(state: dict[str, Any]) -> str:
    """How the participant acting now came to act (their turn, a move-up, ...); someone is acting."""
    return cast(str, cast("dict[str, Any]", _top(state))["how"])


def _name(state: dict[str, Any], pid: str) -> str:
    return cast(str, state["participants"][pid]["name"])


def _log(state: dict[str, Any], record: dict[str, Any], public: str | None = None) -> None:
    """A log line. ``public`` is what players may read when the line concerns a GM-run
    participant (hidden information: no NPC numbers)."""
    entry = {"round": state["round"], **record}
    if public is not None:
        entry["public_summary"] = public
    state["log"].append(entry)


# -- participants ------------------------------------------------------------------------------------
def _participant_from_input(raw: Any, index: int) -> dict[str, Any]:
    where = f"participants.{index}"
    if not isinstance(raw, dict):
        raise refuse(where, "Each participant is an object with an id.")
    pid = raw.get("id")
    if not isinstance(pid, str) or not pid.strip() or len(pid) > MAX_ID:
        raise refuse(f"{where}.id", f"Each participant needs an id (text of at most {MAX_ID} characters).")
    kind = raw.get("kind", "character")
    if not is_one_of(kind, PARTICIPANT_KINDS):
        raise refuse(
            f"{where}.kind", f"A participant is one of: {', '.join(PARTICIPANT_KINDS)}.", RULE_GROUPS
        )
    controlled_by = raw.get("controlled_by", "player" if kind == "character" else "gm")
    if not is_one_of(controlled_by, CONTROLLERS):
        raise refuse(f"{where}.controlled_by", "A participant is run by a player or by the GM.")
    if kind in ("npc", "group") and controlled_by != "gm":
        raise refuse(f"{where}.controlled_by", "NPCs and groups are run by the GM.", RULE_GROUPS)
    if "build" in raw:
        build = raw["build"]
        if not isinstance(build, dict):
            raise refuse(f"{where}.build", "The build must be a D6 character document.")
        name = raw.get("name") or build.get("name")
    else:
        name = raw.get("name")
        build = normalised(
            {
                "name": name,
                "attributes": raw.get("attributes"),
                "skills": raw.get("skills", {}),
                "action_allotment": raw.get("action_allotment", 1),
                "character_points": raw.get("character_points", 0),
                "goes_first": raw.get("goes_first", False),
                "special_abilities": raw.get("special_abilities", []),
                "equipment": raw.get("equipment", []),
            }
        )
    problems = validate(build)
    if problems:
        raise RuleError([RuleViolation(f"{where}.{v.field}", v.message, v.rule) for v in problems])
    name = _text(name, f"{where}.name", "the participant's name")
    members: list[dict[str, Any]] = []
    if kind == "group":
        raw_members = raw.get("members")
        if not isinstance(raw_members, list) or not raw_members:
            raise refuse(f"{where}.members", "A group lists its members (one or more).", RULE_GROUPS)
        names = [_text(m, f"{where}.members", "each member's name") for m in raw_members]
        if len(set(names)) != len(names):
            raise refuse(f"{where}.members", "Two members of the group share a name.", RULE_GROUPS)
        members = [{"name": m, "incapacitated": False} for m in names]
    elif raw.get("members"):
        raise refuse(f"{where}.members", "Only a group has members.", RULE_GROUPS)
    return {
        "id": pid,
        "name": name,
        "kind": kind,
        "controlled_by": controlled_by,
        "attributes": dict(build["attributes"]),
        "skills": copy.deepcopy(build["skills"]),
        "action_allotment": build.get("action_allotment", 1),
        "character_points": build.get("character_points", 0),
        "character_points_spent": 0,
        "goes_first": build_goes_first(build),
        "initiative_bonus": bonus_for(build)["total"],
        "special_abilities": [a["name"] for a in build.get("special_abilities", [])],
        "equipment": [
            {
                "name": item["name"],
                "quick_multi_use": bool(item.get("quick_multi_use", False)),
                "uses_per_round": item.get("uses_per_round", 1),
            }
            for item in build.get("equipment", [])
        ],
        "members": members,
        "incapacitated": False,
        "round": _fresh_round(),
    }


def new_encounter(
    participants: list[dict[str, Any]],
    method: str | None = None,
    settings: dict[str, Any] | None = None,
    name: str = "",
) -> dict[str, Any]:
    """The starting state: no round yet, no order (§B13 SCENE_START). ``method`` overrides the
    campaign's initiative method for this encounter. Participant input: see README.md."""
    options = resolved(settings)
    chosen = method or options["initiative_method"]
    method_info(chosen)
    if not isinstance(participants, list) or not participants:
        raise refuse("participants", "An encounter needs at least one participant.")
    if len(participants) > MAX_PARTICIPANTS:
        raise refuse("participants", f"An encounter has at most {MAX_PARTICIPANTS} participants.")
    table: dict[str, dict[str, Any]] = {}
    for index, raw in enumerate(participants):
        p = _participant_from_input(raw, index)
        if p["id"] in table:
            raise refuse(f"participants.{index}.id", f"Two participants share the id {p['id']!r}.")
        table[p["id"]] = p
    return {
        "version": STATE_VERSION,
        "system": "d6",
        "name": _text(name, "name", "the scene's name", required=False),
        "method": chosen,
        "settings": {
            key: options[key]
            for key in ("optional_initiative_bonus", "wild_die", "wild_die_one", "final_tie")
        },
        "status": "running",
        "phase": "between_rounds",
        "round": 0,
        "participants": table,
        "setup_order": list(table),
        "initiative": None,
        "order": [],
        "order_notes": [],
        "unresolved": [],
        "turn": None,
        "active": [],
        "windows": [],
        "all_movement_costs_action": False,
        "outcome": None,
        "events": [],
        "log": [],
    }


def participant_from_build(pid: str, build: dict[str, Any], controlled_by: str = "player") -> dict[str, Any]:
    """Participant input for a stored character."""
    return {"id": pid, "kind": "character", "controlled_by": controlled_by, "build": build}


# -- codes, penalties (§B8, §B9, §D5, §D6) ---------------------------------------------------------------
def _codes(p: dict[str, Any]) -> tuple[dict[str, DieCode], dict[str, dict[str, Any]]]:
    doc = {"attributes": p["attributes"], "skills": p["skills"]}
    return build_attributes(doc), build_skills(doc)


def _lookup(p: dict[str, Any], trait: str) -> tuple[str, DieCode] | None:
    attrs, skills = _codes(p)
    if trait in attrs:
        return "attribute", attrs[trait]
    if trait in skills:
        return "skill", skills[trait]["code"]
    folded = trait.casefold()
    for name, code in attrs.items():
        if name.casefold() == folded:
            return "attribute", code
    for name, entry in skills.items():
        if name.casefold() == folded:
            return "skill", entry["code"]
    return None


def trait_for_roll(
    p: dict[str, Any], trait: Any, attribute: Any = None, where: str = "trait"
) -> tuple[str, str, DieCode]:
    """(roll kind, trait name, code). A skill the participant lacks is rolled on the attribute
    named in ``attribute`` (untrained, §B11 Use a Skill, §E4)."""
    if not isinstance(trait, str) or not trait.strip():
        raise refuse(where, "Name the skill or attribute rolled.")
    found = _lookup(p, trait.strip())
    if found is not None:
        return found[0], trait.strip(), found[1]
    if attribute is None:
        raise refuse(
            where,
            f"{p['name']} has no skill or attribute called {trait!r}; for an untrained "
            "skill name the attribute it falls back on.",
            f"{RULES} §B11, §E4",
        )
    base = _lookup(p, attribute) if isinstance(attribute, str) else None
    if base is None or base[0] != "attribute":
        raise refuse(
            "attribute", f"{attribute!r} is not one of {possessive(p['name'])} attributes.", f"{RULES} §E4"
        )
    return "skill", trait.strip(), base[1]


def penalty_dice(state: dict[str, Any], p: dict[str, Any], roll_kind: str) -> int:
    """Dice the multi-action penalty takes off this kind of roll right now (§B8, §D5)."""
    if not ROLL_KINDS[roll_kind]["penalised"] or p["round"]["declared"] is None:
        return 0
    return map_dice(p["round"]["declared"], p["action_allotment"])


def penalty_for(state: dict[str, Any], participant: str, roll_kind: str) -> dict[str, Any]:
    """The multi-action penalty on a roll, for display (§B8, §D5, §C2)."""
    if not is_one_of(participant, state["participants"]):
        raise refuse("participant", f"{participant!r} is not taking part in this encounter.")
    if not is_one_of(roll_kind, ROLL_KINDS):
        raise refuse("roll_kind", f"A roll kind is one of: {', '.join(ROLL_KINDS)}.", RULE_MAP)
    p = state["participants"][participant]
    declared = p["round"]["declared"]
    penalised = ROLL_KINDS[roll_kind]["penalised"]
    dice = penalty_dice(state, p, roll_kind)
    if not penalised:
        note = f"No multi-action penalty on a {ROLL_KINDS[roll_kind]['label']}."
    elif declared is None:
        note = "No actions declared yet this round."
    elif dice:
        allotment = p["action_allotment"]
        note = f"{declared} actions declared with an allotment of {allotment}: -{dice}D on each roll."
    else:
        note = f"{declared} action{'s' if declared != 1 else ''} declared, within the allotment: no penalty."
    return {
        "participant": participant,
        "roll_kind": roll_kind,
        "declared": declared,
        "allotment": p["action_allotment"],
        "applies": penalised,
        "penalty_dice": dice,
        "penalty": f"-{dice}D" if dice else "none",
        "note": note,
    }


def effective_code(
    state: dict[str, Any],
    participant: str,
    trait: str,
    attribute: str | None = None,
    penalty: str | None = None,
) -> dict[str, Any]:
    """A trait's code after the multi-action penalty and any GM penalty, and whether it can still be
    rolled (a code below 1D cannot, §B8, §B9, §E10)."""
    p = _participant(state, {"participant": participant})
    kind, name, code = trait_for_roll(p, trait, attribute)
    dice = penalty_dice(state, p, kind)
    extra = parse(penalty, "penalty") if penalty else DieCode(0)
    effective = code.without_dice(dice) - extra
    return {
        "trait": name,
        "roll_kind": kind,
        "code": format_code(code),
        "penalty_dice": dice,
        "extra_penalty": format_code(extra),
        "effective": format_code(effective),
        "usable": effective.usable,
    }


def _usable_or_refuse(p: dict[str, Any], name: str, code: DieCode, effective: DieCode, dice: int) -> None:
    if not effective.usable:
        reason = f" after the -{dice}D multi-action penalty" if dice else ""
        raise refuse(
            "trait",
            f"{possessive(p['name'])} {name} {code} is down to {effective}{reason}: "
            "a trait at zero cannot be used.",
            RULE_MAP,
        )


def _dice(
    state: dict[str, Any],
    given: Any,
    code: DieCode,
    rng: random.Random | None,
    where: str,
    extra_wild: int = 0,
    bonus: int = 0,
    *,
    who: str,
) -> tuple[DieRoll, dict[str, Any] | None]:
    """Score dice an event carries, or roll them with ``rng``; the second value is the dice to
    store in the event when they were rolled here."""
    options = state["settings"]
    rules = {"wild_die": options["wild_die"], "wild_one": options["wild_die_one"]}
    if given is not None:
        return roll_from_dict(
            given, code, extra_wild_dice=extra_wild, bonus=bonus, where=where, **rules
        ), None
    if rng is None:
        raise refuse(where, "The roll's dice are missing: enter the dice rolled, or let the app roll them.")
    start = getattr(rng, "start_roll", None)
    if callable(start):  # a dice source that files each roll under whose it is (the fair dice)
        start(who)
    result = roll_code(code, rng, extra_wild_dice=extra_wild, bonus=bonus, **rules)
    stored = {
        "dice": list(result.dice),
        "wild": list(result.wild),
        "extra_wild": [list(c) for c in result.extra_wild],
    }
    return result, stored


# -- turn flow (§B2 end of round, §B5, §B13) -------------------------------------------------------------
def _end_round(state: dict[str, Any]) -> None:
    lost = {}
    for pid, p in state["participants"].items():
        left = remaining_actions(p)
        if left:
            lost[pid] = left
            p["round"]["lost"] += left
        p["round"]["waiting"] = False
    state["phase"] = "between_rounds"
    state["turn"] = None
    state["all_movement_costs_action"] = False
    summary = f"Round {state['round']} ends."
    if lost:
        summary += (
            " Unused actions are lost: " + ", ".join(f"{_name(state, k)} {v}" for k, v in lost.items()) + "."
        )
    _log(state, {"type": "round_end", "lost": lost, "summary": summary}, f"Round {state['round']} ends.")


def _settle(state: dict[str, Any]) -> None:
    """Hand the turn on when nobody is acting and no result is pending: skip anyone who is down
    (they lose the action, §B2) or has nothing left; end the round after the last (§B2, §B5)."""
    if state["status"] != "running" or state["phase"] != "turns":
        return
    while not state["active"] and not state["windows"]:
        index = 0 if state["turn"] is None else state["turn"] + 1
        if index >= len(state["order"]):
            _end_round(state)
            return
        state["turn"] = index
        pid = state["order"][index]
        p = state["participants"][pid]
        if p["incapacitated"]:
            p["round"]["skipped"] = True
            p["round"]["turn_taken"] = True
            p["round"]["lost"] += remaining_actions(p)
            _log(
                state,
                {
                    "type": "skipped",
                    "participant": pid,
                    "summary": f"{p['name']}: cannot act; this round's action is lost.",
                },
            )
            continue
        if p["round"]["declared"] is not None and remaining_actions(p) == 0:
            p["round"]["turn_taken"] = True
            _log(
                state,
                {
                    "type": "skipped",
                    "participant": pid,
                    "summary": f"{p['name']}: no declared actions left this round.",
                },
            )
            continue
        state["active"] = [{"participant": pid, "how": "turn"}]
        _log(state, {"type": "turn", "participant": pid, "summary": f"{possessive(p['name'])} turn."})


def _leave(state: dict[str, Any], p: dict[str, Any]) -> None:
    entry = state["active"].pop()
    if entry["how"] == "turn":
        p["round"]["turn_taken"] = True
    _settle(state)


def _acting(state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """The participant named by the event, who must be the one acting now."""
    _in_turns(state)
    p = _participant(state, event)
    top = _top(state)
    if top is None or top["participant"] != p["id"]:
        now = f" It is {possessive(_name(state, top['participant']))} move." if top else ""
        raise refuse("participant", f"{p['name']} is not the one acting now.{now}", RULE_DECLARE)
    return p


def _own_window_open(state: dict[str, Any], pid: str) -> bool:
    return any(w["participant"] == pid for w in state["windows"])


def _ready_to_act(state: dict[str, Any], p: dict[str, Any]) -> None:
    if p["round"]["declared"] is None:
        raise refuse("participant", f"{p['name']} declares how many actions to take first.", RULE_DECLARE)
    if _own_window_open(state, p["id"]):
        raise refuse(
            "participant", f"The GM announces the result of {possessive(p['name'])} roll first.", RULE_WAIT
        )
    if remaining_actions(p) < 1:
        raise refuse(
            "participant",
            f"{p['name']} has no declared actions left this round; the number "
            "cannot be raised once declared.",
            RULE_DECLARE,
        )


def _running(state: dict[str, Any]) -> None:
    if state["status"] != "running":
        raise refuse("status", "The scene is over.")


def _in_turns(state: dict[str, Any]) -> None:
    _running(state)
    if state["phase"] != "turns":
        hint = {"between_rounds": "Begin a round first.", "initiative": "Settle the order first."}[
            state["phase"]
        ]
        raise refuse("phase", f"Nobody acts now. {hint}", f"{RULES} §B13")


# -- rounds and initiative (§B2, §B3, §B13) --------------------------------------------------------------
def _begin_round(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    _running(state)
    if state["phase"] != "between_rounds":
        raise refuse("phase", "The current round has not ended yet.", f"{RULES} §B13")
    flag = event.get("all_movement_costs_action", False)
    if not isinstance(flag, bool):
        raise refuse("all_movement_costs_action", "Say yes or no.", f"{RULES} §D11")
    state["round"] += 1
    for p in state["participants"].values():
        p["round"] = _fresh_round()
    state["active"], state["windows"], state["turn"] = [], [], None
    state["all_movement_costs_action"] = flag
    method = INITIATIVE_METHODS[state["method"]]
    if method["reroll_each_round"] or not state["order"]:
        state["phase"] = "initiative"
        if method["reroll_each_round"] and state["order"]:
            state["order"], state["order_notes"], state["unresolved"] = [], [], []
        _log(state, {"type": "begin_round", "summary": f"Round {state['round']} begins: settle the order."})
        return
    state["phase"] = "turns"
    _log(state, {"type": "begin_round", "summary": f"Round {state['round']} begins in the scene's order."})
    _settle(state)


def _situational(state: dict[str, Any], event: dict[str, Any]) -> set[str]:
    return set(_ids(event.get("situational"), state, "situational"))


def _contenders(
    state: dict[str, Any],
    totals: dict[str, int | None],
    first: set[str],
    situational: set[str],
    draws: dict[str, int],
) -> list[Contender]:
    result = []
    for index, pid in enumerate(state["setup_order"]):
        p = state["participants"][pid]
        attrs, skills = _codes(p)
        profile = tie_break_profile(attrs, skills, p["goes_first"], pid in situational)
        result.append(Contender(pid, profile, totals.get(pid), pid in first, draws.get(pid), index))
    return result


def _draws(
    state: dict[str, Any],
    event: dict[str, Any],
    contenders: list[Contender],
    rolled: bool,
    rng: random.Random | None,
) -> list[Contender]:
    raw = event.get("tie_draws") or {}
    if not isinstance(raw, dict):
        raise refuse("tie_draws", "Tie draws are given per participant id.", RULE_TIES)
    for pid, value in raw.items():
        if not is_one_of(pid, state["participants"]):
            raise refuse("tie_draws", f"{pid!r} is not taking part in this encounter.", RULE_TIES)
        _int(value, f"tie_draws.{pid}", "A tie draw", 1, TIE_DRAW_MAX, RULE_TIES)
    if state["settings"]["final_tie"] != "random":
        if raw:
            raise refuse("tie_draws", "This campaign leaves full ties to the GM, not to a draw.", RULE_TIES)
        return contenders
    needed = [pid for pid in full_ties(contenders, rolled) if pid not in raw]
    if needed and rng is not None:
        raw = {**raw, **draw_ties(needed, rng)}
        event["tie_draws"] = raw
    return [Contender(c.id, c.profile, c.total, c.first, raw.get(c.id), c.setup_index) for c in contenders]


def _set_order(
    state: dict[str, Any], contenders: list[Contender], rolled: bool, record: dict[str, Any]
) -> None:
    settled = settle_order(contenders, rolled)
    state["order"], state["order_notes"], state["unresolved"] = (
        settled.order,
        settled.notes,
        settled.unresolved,
    )
    state["initiative"] = {"round": state["round"], **record}
    state["phase"] = "turns"
    state["turn"] = None
    names = ", ".join(_name(state, pid) for pid in settled.order)
    summary = f"Order: {names}."
    if settled.unresolved:
        summary += " Some places tie on every factor: the GM decides."
    _log(state, {"type": "order", "order": list(settled.order), "summary": summary})
    _settle(state)


def _roll_initiative(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """Everyone rolls Perception: Character Points add Wild Dice, Fate Points are refused, the
    optional bonus adds on, ties go down the chain (§B2, §B3, §B4, §D2)."""
    _running(state)
    if state["phase"] != "initiative":
        raise refuse("phase", "The order is already settled for now.", RULE_METHODS)
    if not INITIATIVE_METHODS[state["method"]]["rolls"]:
        raise refuse(
            "type", "Method 1 settles the order without rolls: use order_without_rolls.", RULE_METHODS
        )
    spends = event.get("character_points") or {}
    fates = event.get("fate_points") or {}
    rolls = event.get("rolls")
    if rolls is None:
        rolls = {}
        event["rolls"] = rolls
    for key, value in (("character_points", spends), ("fate_points", fates), ("rolls", rolls)):
        if not isinstance(value, dict):
            raise refuse(key, "Give these per participant id.", RULE_METHODS)
        for pid in value:
            if not is_one_of(pid, state["participants"]):
                raise refuse(key, f"{pid!r} is not taking part in this encounter.")
    use_bonus = state["settings"]["optional_initiative_bonus"]
    totals: dict[str, int | None] = {}
    scored: dict[str, dict[str, Any]] = {}
    for pid in state["setup_order"]:
        p = state["participants"][pid]
        left = p["character_points"] - p["character_points_spent"]
        points = check_points(spends.get(pid, 0), fates.get(pid, 0), left, f"participants.{pid}")
        bonus = p["initiative_bonus"] if use_bonus else 0
        perception = _codes(p)[0]["Perception"]
        result, stored = _dice(state, rolls.get(pid), perception, rng, f"rolls.{pid}", points, bonus, who=pid)
        if stored is not None:
            rolls[pid] = stored
        totals[pid] = result.total
        scored[pid] = {**result.as_dict(), "character_points": points}
    for pid, record in scored.items():
        state["participants"][pid]["character_points_spent"] += record["character_points"]
    situational = _situational(state, event)
    contenders = _draws(state, event, _contenders(state, totals, set(), situational, {}), True, rng)
    for pid in state["setup_order"]:
        p = state["participants"][pid]
        spent = scored[pid]["character_points"]
        extra = f" with {spent} Character Point{'s' if spent != 1 else ''}" if spent else ""
        _log(
            state,
            {
                "type": "initiative_roll",
                "participant": pid,
                "roll": scored[pid],
                "summary": f"{p['name']}: initiative {totals[pid]}{extra}.",
            },
            f"{p['name']}: initiative rolled." if p["controlled_by"] == "gm" else None,
        )
    _set_order(
        state,
        contenders,
        True,
        {
            "how": "rolled",
            "totals": totals,
            "rolls": scored,
            "draws": event.get("tie_draws", {}),
            "first": [],
            "situational": sorted(situational),
        },
    )


def _order_without_rolls(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """Method 1 (first significant move first, then the chain), or any method when the GM skips
    the rolls (§B2, §B3, §E2)."""
    _running(state)
    if state["phase"] != "initiative":
        raise refuse("phase", "The order is already settled for now.", RULE_METHODS)
    first = set(_ids(event.get("first"), state, "first"))
    situational = _situational(state, event)
    contenders = _draws(state, event, _contenders(state, {}, first, situational, {}), False, rng)
    _set_order(
        state,
        contenders,
        False,
        {
            "how": "first_move" if first else "no_rolls",
            "totals": {},
            "rolls": {},
            "draws": event.get("tie_draws", {}),
            "first": sorted(first),
            "situational": sorted(situational),
        },
    )


def _gm_order(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """The GM sets the order outright: a full tie, or Method 1 by GM ruling (§E2, §E5)."""
    _running(state)
    order = event.get("order")
    if (
        not isinstance(order, list)
        or sorted(map(str, order)) != sorted(state["setup_order"])
        or len(set(order)) != len(order)
    ):
        raise refuse("order", "The order must list every participant exactly once.", RULE_TIES)
    if state["phase"] == "turns":
        if any(p["round"]["declared"] is not None for p in state["participants"].values()):
            raise refuse(
                "phase",
                "Someone has already declared this round; change the order between rounds.",
                RULE_TIES,
            )
        state["active"] = []
    elif state["phase"] != "initiative":
        raise refuse(
            "phase", "The order is set while settling initiative, or before anyone declares.", RULE_TIES
        )
    reason = _text(event.get("reason"), "reason", "the GM's reason", required=False)
    notes = [
        {
            "before": a,
            "after": b,
            "decided_by": "gm",
            "factor_number": None,
            "label": ORDER_DECIDERS["gm"],
            "values": [],
            "tie_break": True,
        }
        for a, b in zip(order, order[1:], strict=False)
    ]
    keep = state["initiative"] if state["phase"] == "turns" and state["initiative"] else {}
    state["order"], state["order_notes"], state["unresolved"] = list(order), notes, []
    state["initiative"] = {
        "round": state["round"],
        "how": "gm",
        "totals": keep.get("totals", {}),
        "rolls": keep.get("rolls", {}),
        "draws": {},
        "first": [],
        "situational": [],
        "reason": reason,
    }
    state["phase"] = "turns"
    state["turn"] = None
    _log(
        state,
        {
            "type": "order",
            "order": list(order),
            "summary": "The GM sets the order: " + ", ".join(_name(state, pid) for pid in order) + ".",
        },
    )
    _settle(state)


# -- declaring, acting, waiting (§B5-§B8, §B11) ---------------------------------------------------------
def _declare(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    p = _acting(state, event)
    if p["round"]["declared"] is not None:
        raise refuse(
            "actions",
            f"{p['name']} already declared {p['round']['declared']} actions; the number cannot be raised.",
            RULE_DECLARE,
        )
    count = _int(
        event.get("actions"), "actions", "The number of actions", 0, MAX_DECLARED_ACTIONS, RULE_DECLARE
    )
    p["round"]["declared"] = count
    dice = map_dice(count, p["action_allotment"])
    penalty = f" at -{dice}D" if dice else ""
    _log(
        state,
        {
            "type": "declare",
            "participant": p["id"],
            "actions": count,
            "penalty_dice": dice,
            "summary": f"{p['name']}: {count} action{'s' if count != 1 else ''} declared{penalty}.",
        },
        f"{p['name']} declares." if p["controlled_by"] == "gm" else None,
    )
    if count == 0:
        _log(state, {"type": "pass", "participant": p["id"], "summary": f"{p['name']}: pass."})
        _leave(state, p)


def _item_use(p: dict[str, Any], event: dict[str, Any]) -> str | None:
    item_name = event.get("item")
    if item_name is None:
        return None
    items = {item["name"].casefold(): item for item in p["equipment"]}
    item = items.get(item_name.casefold()) if isinstance(item_name, str) else None
    if item is None:
        raise refuse("item", f"{p['name']} carries nothing called {item_name!r}.", RULE_ACTIONS)
    limit = item["uses_per_round"] if item["quick_multi_use"] else 1
    used = p["round"]["item_uses"].get(item["name"], 0)
    if used >= limit:
        kind = "" if item["quick_multi_use"] else " (it is not built for quick repeated use)"
        raise refuse(
            "item",
            f"{item['name']} can be used {limit} time{'s' if limit != 1 else ''} a round{kind}.",
            RULE_ACTIONS,
        )
    return cast(str, item["name"])


def _check_action(state: dict[str, Any], p: dict[str, Any], event: dict[str, Any]) -> str:
    action: Any = event.get("action")  # one of ACTIONS once checked below
    if action == "waiting":
        raise refuse("action", "Waiting is its own event: use wait.", RULE_WAIT)
    if not is_one_of(action, ACTIONS):
        raise refuse(
            "action",
            "Pick an action from the list (bash, catch, ... use_skill, vehicle_maneuver).",
            RULE_ACTIONS,
        )
    if action == "use_skill" and event.get("ability") is not None:
        owned = {name.casefold() for name in p["special_abilities"]}
        ability = event["ability"]
        if not isinstance(ability, str) or ability.casefold() not in owned:
            raise refuse(
                "ability", f"{p['name']} does not have the special ability {ability!r}.", RULE_ACTIONS
            )
    if action == "catch":
        thrower: Any = event.get("from")
        if not is_one_of(thrower, state["participants"]) or thrower == p["id"]:
            raise refuse("from", "Say who threw or dropped what is caught.", f"{RULES} §B11 Catch, §D8")
        how = _how(state)
        order = state["order"]
        if how == "turn" and order.index(thrower) > order.index(p["id"]):
            raise refuse(
                "from",
                f"{p['name']} comes before {_name(state, thrower)} in the order: catching needs a move-up.",
                f"{RULES} §B7, §D8",
            )
    return cast(str, action)


def _act(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """One action; with a trait, a skill or attribute roll at the multi-action penalty, which opens
    the window for interrupts until the GM announces the result (§B6, §B8, §B11)."""
    p = _acting(state, event)
    _ready_to_act(state, p)
    action = _check_action(state, p, event)
    item = _item_use(p, event)
    note = _text(event.get("note"), "note", "a note", required=False)
    record: dict[str, Any] = {
        "type": "act",
        "participant": p["id"],
        "action": action,
        "action_name": ACTIONS[action]["name"],
        "how": _how(state),
        "note": note,
    }
    summary = f"{p['name']}: {ACTIONS[action]['name']}"
    if event.get("trait") is not None:
        kind, name, code = trait_for_roll(p, event["trait"], event.get("attribute"))
        dice = penalty_dice(state, p, kind)
        extra = parse(event["penalty"], "penalty") if event.get("penalty") else DieCode(0)
        effective = code.without_dice(dice) - extra
        _usable_or_refuse(p, name, code, effective, dice)
        left = p["character_points"] - p["character_points_spent"]
        points = check_points(event.get("character_points", 0), None, left, "roll")
        result, stored = _dice(state, event.get("dice"), effective, rng, "dice", points, who=p["id"])
        if stored is not None:
            event["dice"] = stored
        p["character_points_spent"] += points
        roll = {**result.as_dict(), "character_points": points}
        window = {
            "participant": p["id"],
            "action": action,
            "trait": name,
            "roll_kind": kind,
            "code": format_code(code),
            "penalty_dice": dice,
            "extra_penalty": format_code(extra),
            "effective": format_code(effective),
            "roll": roll,
        }
        state["windows"].append(window)
        record.update(
            {k: window[k] for k in ("trait", "roll_kind", "code", "penalty_dice", "effective", "roll")}
        )
        penalty = f" at -{dice}D" if dice else ""
        summary += f", {name} {effective}{penalty}: rolls {result.total}"
    p["round"]["used"] += 1
    if item:
        p["round"]["item_uses"][item] = p["round"]["item_uses"].get(item, 0) + 1
        record["item"] = item
    record["action_number"] = p["round"]["used"]
    _log(
        state,
        {**record, "summary": summary + "."},
        f"{p['name']}: {ACTIONS[action]['name']}." if p["controlled_by"] == "gm" else None,
    )


def _wait(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """Waiting uses one action and lets the character interrupt later (§B5, §B6, §B11 Waiting)."""
    p = _acting(state, event)
    _ready_to_act(state, p)
    p["round"]["used"] += 1
    p["round"]["waiting"] = True
    _log(
        state,
        {
            "type": "wait",
            "participant": p["id"],
            "action_number": p["round"]["used"],
            "summary": f"{p['name']}: waiting.",
        },
    )
    _leave(state, p)


def _done(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    p = _acting(state, event)
    if _own_window_open(state, p["id"]):
        raise refuse(
            "participant", f"The GM announces the result of {possessive(p['name'])} roll first.", RULE_WAIT
        )
    how = _how(state)
    _log(
        state,
        {
            "type": "done",
            "participant": p["id"],
            "how": how,
            "remaining": remaining_actions(p),
            "summary": f"{p['name']}: done" + (" for now." if how != "turn" else " this turn."),
        },
    )
    _leave(state, p)


def _interrupt(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """Only a waiting character interrupts, after the other's roll and points and before the GM's
    result (§B6, §D7, §E9)."""
    _in_turns(state)
    p = _participant(state, event)
    if p["incapacitated"]:
        raise refuse("participant", f"{p['name']} cannot act.", RULE_INCAPACITATED)
    if not p["round"]["waiting"]:
        raise refuse(
            "participant", f"Only a character who has waited can interrupt; {p['name']} has not.", RULE_WAIT
        )
    if any(entry["participant"] == p["id"] for entry in state["active"]):
        raise refuse("participant", f"{p['name']} is already acting.", RULE_WAIT)
    others = [w for w in state["windows"] if w["participant"] != p["id"]]
    if not others:
        raise refuse(
            "participant",
            "An interrupt comes after someone's roll and before the GM gives its "
            "result; no roll is waiting for a result now.",
            RULE_WAIT,
        )
    if remaining_actions(p) < 1:
        raise refuse("participant", f"{p['name']} has no declared actions left to interrupt with.", RULE_WAIT)
    target = others[-1]
    p["round"]["waiting"] = False
    p["round"]["interrupts"] += 1
    state["active"].append({"participant": p["id"], "how": "interrupt"})
    _log(
        state,
        {
            "type": "interrupt",
            "participant": p["id"],
            "interrupts": target["participant"],
            "summary": f"{p['name']}: interrupting {_name(state, target['participant'])} before the result.",
        },
    )


def _move_up(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """A GM-approved move-up: the character acts now, using one of her actions (§B7, §E8)."""
    _in_turns(state)
    p = _participant(state, event)
    if p["incapacitated"]:
        raise refuse("participant", f"{p['name']} cannot act.", RULE_INCAPACITATED)
    if any(entry["participant"] == p["id"] for entry in state["active"]):
        raise refuse("participant", f"{p['name']} is already acting.", RULE_MOVE_UP)
    reason = event.get("reason", "gm_ruling")
    if not is_one_of(reason, MOVE_UP_REASONS):
        raise refuse("reason", f"A move-up is for one of: {', '.join(MOVE_UP_REASONS)}.", RULE_MOVE_UP)
    if p["round"]["declared"] is None:
        count = _int(
            event.get("actions"),
            "actions",
            "Moving up declares the round's actions, which",
            1,
            MAX_DECLARED_ACTIONS,
            RULE_MOVE_UP,
        )
        p["round"]["declared"] = count
    else:
        if event.get("actions") not in (None, p["round"]["declared"]):
            raise refuse(
                "actions",
                f"{p['name']} already declared {p['round']['declared']} actions; the "
                "number cannot be raised.",
                RULE_DECLARE,
            )
        if remaining_actions(p) < 1:
            raise refuse("participant", f"{p['name']} has no actions left to move up with.", RULE_MOVE_UP)
    p["round"]["moved_up"] += 1
    p["round"]["waiting"] = False
    state["active"].append({"participant": p["id"], "how": "move_up"})
    _log(
        state,
        {
            "type": "move_up",
            "participant": p["id"],
            "reason": reason,
            "declared": p["round"]["declared"],
            "summary": f"{p['name']}: moving up ({MOVE_UP_REASONS[reason]}).",
        },
    )


def _announce(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """The GM gives the result of the latest pending roll; the interrupt window closes (§B6)."""
    _in_turns(state)
    if not state["windows"]:
        raise refuse("windows", "No roll is waiting for a result.", RULE_WAIT)
    window = state["windows"][-1]
    owner = window["participant"]
    acting = [entry["participant"] for entry in state["active"]]
    if owner in acting and acting[-1] != owner:
        raise refuse(
            "windows", f"{_name(state, acting[-1])} is still interrupting; finish that first.", RULE_WAIT
        )
    result = _text(event.get("result"), "result", "the result", required=False, limit=1000)
    state["windows"].pop()
    _log(
        state,
        {
            "type": "announce",
            "participant": owner,
            "action": window["action"],
            "result": result,
            "summary": f"Result for {possessive(_name(state, owner))} {ACTIONS[window['action']]['name']}"
            + (f": {result}" if result else "."),
        },
    )
    _settle(state)


def _roll(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """A roll that is not an action: damage, damage resistance, willpower/Presence for the mood of a
    place (never penalised), or a roll during a free action (penalised) (§B8, §B10, §D10)."""
    _in_turns(state)
    p = _participant(state, event)
    kind: Any = event.get("roll_kind")
    if not is_one_of(kind, NON_ACTION_ROLLS):
        raise refuse(
            "roll_kind",
            f"A roll outside the actions is one of: {', '.join(NON_ACTION_ROLLS)}.",
            f"{RULES} §B10",
        )
    if kind == "free_action" and p["incapacitated"]:
        raise refuse("participant", f"{p['name']} cannot act.", RULE_INCAPACITATED)
    if event.get("code") is not None:
        if kind not in ("damage", "resistance"):
            raise refuse(
                "code", "Only damage and resistance are rolled on a code of their own; name the trait."
            )
        name, code = "", parse(event["code"], "code")
    else:
        _, name, code = trait_for_roll(p, event.get("trait"), event.get("attribute"))
        if kind == "emotional" and name.casefold() not in {t.casefold() for t in EMOTIONAL_TRAITS}:
            raise refuse("trait", "The mood of a place is rolled on willpower or Presence.", f"{RULES} §B10")
    dice = penalty_dice(state, p, "free_action") if kind == "free_action" else 0
    effective = code.without_dice(dice)
    _usable_or_refuse(p, name or "code", code, effective, dice)
    left = p["character_points"] - p["character_points_spent"]
    points = check_points(event.get("character_points", 0), None, left, "roll")
    result, stored = _dice(state, event.get("dice"), effective, rng, "dice", points, who=p["id"])
    if stored is not None:
        event["dice"] = stored
    p["character_points_spent"] += points
    label = ROLL_KINDS[kind]["label"]
    _log(
        state,
        {
            "type": "roll",
            "participant": p["id"],
            "roll_kind": kind,
            "trait": name,
            "code": format_code(code),
            "penalty_dice": dice,
            "effective": format_code(effective),
            "roll": {**result.as_dict(), "character_points": points},
            "summary": f"{p['name']}: {label}, {name + ' ' if name else ''}{effective}: {result.total}.",
        },
        f"{p['name']}: {label}." if p["controlled_by"] == "gm" else None,
    )


# -- conditions, groups, movement (§B2, §B12, §D11, §E16, §E17) -----------------------------------------
def _incapacitate(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """Knocked out or held fast: the action is lost if not yet taken; actions already taken stand
    and the rest are lost (§B2, §E17). For a group, one member can go down."""
    _running(state)
    p = _participant(state, event)
    reason = _text(event.get("reason"), "reason", "what happened", required=False)
    member = event.get("member")
    if member is not None:
        if p["kind"] != "group":
            raise refuse("member", "Only a group has members.", RULE_GROUPS)
        found = next((m for m in p["members"] if m["name"] == member), None)
        if found is None:
            raise refuse("member", f"{p['name']} has no member called {member!r}.", RULE_GROUPS)
        found["incapacitated"] = True
        _log(
            state,
            {
                "type": "incapacitate",
                "participant": p["id"],
                "member": member,
                "reason": reason,
                "summary": f"{member} of {p['name']} is out of the fight.",
            },
        )
        if not all(m["incapacitated"] for m in p["members"]):
            return
    if p["incapacitated"] and member is None:
        raise refuse("participant", f"{p['name']} is already unable to act.", RULE_INCAPACITATED)
    p["incapacitated"] = True
    lost = remaining_actions(p)
    p["round"]["lost"] += lost
    p["round"]["waiting"] = False
    was_turn = any(e["participant"] == p["id"] and e["how"] == "turn" for e in state["active"])
    state["active"] = [e for e in state["active"] if e["participant"] != p["id"]]
    if was_turn:
        p["round"]["turn_taken"] = True
    _log(
        state,
        {
            "type": "incapacitate",
            "participant": p["id"],
            "reason": reason,
            "lost": lost,
            "summary": f"{p['name']}: can no longer act" + (f"; {lost} action(s) lost." if lost else "."),
        },
    )
    _settle(state)


def _recover(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    _running(state)
    p = _participant(state, event)
    member = event.get("member")
    if member is not None:
        found = next((m for m in p["members"] if m["name"] == member), None)
        if found is None or not found["incapacitated"]:
            raise refuse("member", f"{member!r} of {p['name']} is not down.", RULE_GROUPS)
        found["incapacitated"] = False
    elif not p["incapacitated"]:
        raise refuse("participant", f"{p['name']} is not incapacitated.", RULE_INCAPACITATED)
    else:
        for m in p["members"]:
            m["incapacitated"] = False
    p["incapacitated"] = False
    _log(
        state,
        {
            "type": "recover",
            "participant": p["id"],
            "member": member,
            "summary": f"{member or p['name']} can act again (actions already lost stay lost).",
        },
    )


def _split_group(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """Members doing clearly different things become a group of their own; they keep the group's
    roll and place (§B12, §D12, §E16)."""
    _running(state)
    p = _participant(state, event)
    if p["kind"] != "group":
        raise refuse("participant", f"{p['name']} is not a group.", RULE_GROUPS)
    if any(e["participant"] == p["id"] for e in state["active"]) or _own_window_open(state, p["id"]):
        raise refuse("participant", f"Split {p['name']} when it is not in the middle of acting.", RULE_GROUPS)
    names = event.get("members")
    current = [m["name"] for m in p["members"]]
    if (
        not isinstance(names, list)
        or not names
        or len(set(names)) != len(names)
        or not set(names) <= set(current)
    ):
        raise refuse("members", f"Name some of {possessive(p['name'])} members to split off.", RULE_GROUPS)
    if len(names) == len(current):
        raise refuse(
            "members",
            "Splitting off every member leaves nothing behind; rename the group instead.",
            RULE_GROUPS,
        )
    new_id = event.get("id")
    if (
        not isinstance(new_id, str)
        or not new_id.strip()
        or len(new_id) > MAX_ID
        or new_id in state["participants"]
    ):
        raise refuse("id", "The new group needs an id of its own.", RULE_GROUPS)
    new = copy.deepcopy(p)
    new["id"] = new_id
    new["name"] = _text(event.get("name"), "name", "the new group's name")
    new["members"] = [m for m in p["members"] if m["name"] in names]
    new["character_points"], new["character_points_spent"] = 0, 0
    new["incapacitated"] = all(m["incapacitated"] for m in new["members"])
    p["members"] = [m for m in p["members"] if m["name"] not in names]
    state["participants"][new_id] = new
    state["setup_order"].insert(state["setup_order"].index(p["id"]) + 1, new_id)
    if p["id"] in state["order"]:
        at = state["order"].index(p["id"])
        state["order"].insert(at + 1, new_id)
        for note in state["order_notes"]:
            if note["before"] == p["id"]:
                note["before"] = new_id
        state["order_notes"].insert(
            at,
            {
                "before": p["id"],
                "after": new_id,
                "decided_by": "split",
                "factor_number": None,
                "label": "split from the same group",
                "values": [],
                "tie_break": True,
            },
        )
        if state["turn"] is not None and state["turn"] > at:
            state["turn"] += 1
    initiative = state["initiative"]
    if initiative and p["id"] in initiative.get("totals", {}):
        initiative["totals"][new_id] = initiative["totals"][p["id"]]
    _log(
        state,
        {
            "type": "split_group",
            "participant": p["id"],
            "new": new_id,
            "members": list(names),
            "summary": f"{', '.join(names)} split from {p['name']} as {new['name']}.",
        },
        f"{p['name']} splits." if p["controlled_by"] == "gm" else None,
    )


def _movement_rule(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    """The GM rules that any movement costs an action this round (§B11 Move, §D11)."""
    _in_turns(state)
    flag = event.get("all_movement_costs_action")
    if not isinstance(flag, bool):
        raise refuse("all_movement_costs_action", "Say yes or no.", f"{RULES} §D11")
    state["all_movement_costs_action"] = flag
    _log(
        state,
        {
            "type": "movement_rule",
            "all_movement_costs_action": flag,
            "summary": "This round any movement costs an action." if flag else "Short moves are free again.",
        },
    )


def _end_scene(state: dict[str, Any], event: dict[str, Any], rng: random.Random | None) -> None:
    _running(state)
    reason = _text(event.get("reason"), "reason", "why the scene ends", required=False)
    state["status"] = "over"
    state["active"], state["windows"] = [], []
    state["outcome"] = {"reason": reason, "round": state["round"]}
    _log(
        state,
        {
            "type": "end_scene",
            "reason": reason,
            "summary": "The scene ends" + (f": {reason}" if reason else "."),
        },
    )


_HANDLERS = {
    "begin_round": _begin_round,
    "roll_initiative": _roll_initiative,
    "order_without_rolls": _order_without_rolls,
    "set_order": _gm_order,
    "declare": _declare,
    "act": _act,
    "wait": _wait,
    "done": _done,
    "interrupt": _interrupt,
    "move_up": _move_up,
    "announce": _announce,
    "roll": _roll,
    "incapacitate": _incapacitate,
    "recover": _recover,
    "split_group": _split_group,
    "movement_rule": _movement_rule,
    "end_scene": _end_scene,
}


def apply_event(
    state: dict[str, Any], event: dict[str, Any], rng: random.Random | None = None
) -> dict[str, Any]:
    """The state after ``event``; the input is never changed. Illegal events raise RuleError. Dice
    the event lacks are rolled with ``rng``; the event is kept in ``events`` with its dice."""
    if not isinstance(event, dict) or not is_one_of(event.get("type"), _HANDLERS):
        raise refuse("type", f"An event's type is one of: {', '.join(EVENT_TYPES)}.")
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION or state.get("system") != "d6":
        raise refuse("state", "This is not a D6 encounter state.")
    new = copy.deepcopy(state)
    stored = copy.deepcopy(event)
    _HANDLERS[event["type"]](new, stored, rng)
    new["events"].append(stored)
    return new


def replay(state: dict[str, Any], events: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Fold events in order without rolling; a RuleError names the failing event's position."""
    return replay_events(state, events, apply_event)


# -- where the turn stands -----------------------------------------------------------------------
def whose_turn(state: dict[str, Any]) -> str | None:
    """The participant whose place in the order it is (not an interrupter)."""
    if state["phase"] != "turns" or state["turn"] is None:
        return None
    return cast(str, state["order"][state["turn"]])


def acting_now(state: dict[str, Any]) -> str | None:
    top = _top(state)
    return None if top is None else top["participant"]
