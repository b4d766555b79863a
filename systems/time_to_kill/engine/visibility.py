"""What the GM and the player may see of a mission, and the GM's Fate Record Sheet
(time-to-kill.md "Hidden information", §C2, rules README ruling 6).

``player_view`` is built field by field from what the player is allowed to know: it never copies the
state wholesale, so nothing secret can slip in by accident.
"""

from __future__ import annotations

import copy
from typing import Any

from characters.systems.base import SheetData, refuse

from .mission import available_actions, stones_accounted, whose_move
from .tables import (
    ABILITIES,
    ABILITY_KEYS,
    DEFAULT_LABEL,
    FATE_KEYS,
    FATES,
    FUDGE_FROM_D6,
    GAME_TITLE,
    GM,
    GROUP_LABEL,
    OUTCOMES,
    STEPS,
    action_table_rows,
)

FATE_SHEET_TEMPLATE = "sheets/time_to_kill_fate_record.html"
BLANK_GRID_TURNS = 30


def _step(state: dict[str, Any], who: str | None = None) -> dict[str, Any]:
    info = STEPS[state["step"]]
    step = {"key": state["step"], "step": info["step"], "label": info["label"]}
    if who is not None:
        step["your_move"] = whose_move(state) == who
    return step


def _ninja(state: dict[str, Any]) -> dict[str, Any]:
    ninja = state["ninja"]
    abilities = [
        {
            "key": key,
            "name": ABILITIES[key]["name"],
            "group": ABILITIES[key]["group"],
            "group_label": GROUP_LABEL[ABILITIES[key]["group"]],
            "creation": ninja["creation"][key],
            "current": ninja["current"][key],
            "disabled": key in ninja["disabled"],
        }
        for key in ABILITY_KEYS
    ]
    return {
        "id": ninja["id"],
        "name": ninja["name"] or DEFAULT_LABEL,
        "abilities": abilities,
        "fatally_wounded": ninja["fatally_wounded"],
    }


def _player_fates(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Names of all four Fates; a value only where it has been revealed."""
    current = state["current"]
    fates = (current or {}).get("fates") or {}
    shown = []
    for key in FATE_KEYS:
        entry = {"fate": key, "label": FATES[key]["label"], "revealed": False}
        if key in fates and fates[key]["revealed"]:
            entry.update(revealed=True, value=fates[key]["value"], revealed_by=fates[key]["revealed_by"])
        shown.append(entry)
    return shown


_PUBLIC_ACTION_KEYS = (
    "kind",
    "ability",
    "objective",
    "rushed",
    "after_wait",
    "description",
    "fates",
    "combined",
    "rating",
    "automatic",
    "fail_on",
    "rolls",
    "result",
    "downgrade",
    "drawn",
)


def _player_action(state: dict[str, Any]) -> dict[str, Any] | None:
    """The action under way: everything in it is the player's own or already revealed."""
    current = state["current"]
    action = (current or {}).get("action")
    if action is None:
        return None
    return {key: copy.deepcopy(action[key]) for key in _PUBLIC_ACTION_KEYS if key in action}


def player_view(state: dict[str, Any], ninja_id: str) -> dict[str, Any]:
    """What the ninja's player may see: own ratings, stones held, revealed Fates, draws, the die-roll
    tally, the open choices. No unrevealed Fate, no raw Fate dice, no GM notes, no stone count unless
    the campaign shows it (Hidden information, ruling 6)."""
    if ninja_id != state["ninja"]["id"]:
        raise refuse("ninja_id", "This view is only for the ninja on this mission.")
    current = state["current"]
    briefing = state["briefing"]
    settings = state["settings"]
    view: dict[str, Any] = {
        "system": "time_to_kill",
        "ninja_id": ninja_id,
        "mission": {
            "brief": briefing["brief"],
            "victory_conditions": briefing["victory_conditions"],
            "escape_required": briefing["escape_required"],
        },
        "status": state["status"],
        "outcome": state["outcome"],
        "outcome_label": OUTCOMES.get(state["outcome"] or "", ""),
        "objective_achieved": state["objective_achieved"],
        "victory_points": state["victory_points"],
        "turn": state["turn"],
        "step": _step(state, ninja_id),
        "ninja": _ninja(state),
        "stones": {"preparation": state["stones"]["bank"], "wait": state["stones"]["wait"]},
        "target_in_sight": state["bag"]["target"] == "in_sight",
        "fates": _player_fates(state),
        "rush": {
            "downshifts_owed": state["pending_downshifts"] + (current["downshifts_due"] if current else 0),
            "downshifts_applied_this_turn": len(current["downshifts"]) if current else 0,
            "this_turn_rushed": bool(current and current["rushed"]),
        },
        "shifts_this_turn": [
            {"fate": s["fate"], "justification": s["justification"]}
            for s in (current or {}).get("shifts", [])
        ],
        "narration": (current or {}).get("narration", ""),
        "action": _player_action(state),
        "die_roll_count": state["die_roll_count"],
        "draws": copy.deepcopy(state["draws"]),
        "log": [{"turn": line["turn"], "text": line["public"]} for line in state["log"]],
        "available_actions": available_actions(state, ninja_id),
        "settings": {
            "players_see_stone_count": settings["players_see_stone_count"],
            "wait_stones_persist": settings["wait_stones_persist"],
            "fate_assignment": settings["fate_assignment"],
        },
    }
    if settings["players_see_stone_count"]:
        view["bag"] = {
            "stones_at_start": state["bag"]["start_ordinary"],
            "stones_left": state["bag"]["ordinary"],
        }
    return view


def gm_view(state: dict[str, Any]) -> dict[str, Any]:
    """Everything: the whole state, the Fate Record Sheet of this turn, both sides' open actions."""
    view = copy.deepcopy(state)
    view["step_info"] = _step(state)
    view["whose_move"] = whose_move(state)
    view["stones_left"] = state["bag"]["ordinary"]
    view["stones_accounted"] = stones_accounted(state)
    view["fate_record_sheet"] = fate_record_sheet(state)
    view["available_actions"] = {
        "gm": available_actions(state, GM),
        "player": available_actions(state, state["ninja"]["id"]),
    }
    return view


# -- the Fate Record Sheet (§C2) ---------------------------------------------------------------
def _box(key: str, entry: dict[str, Any] | None) -> dict[str, Any]:
    box: dict[str, Any] = {"fate": key, "label": FATES[key]["label"], "covers": FATES[key]["covers"]}
    if entry is None:
        box.update(rolled="", value="", revealed=False, revealed_by="", shifts=0, downshifts=0)
    else:
        box.update(
            rolled=entry["rolled"],
            value=entry["value"],
            revealed=entry["revealed"],
            revealed_by=entry["revealed_by"] or "",
            shifts=entry["shifts"],
            downshifts=entry["downshifts"],
        )
    return box


def _grid_row(turn: dict[str, Any]) -> dict[str, Any]:
    fates = turn["fates"] or {}
    action = turn["action"] or {}
    if action.get("kind") == "act":
        summary = f"{ABILITIES[action['ability']]['name']}: {action.get('result') or 'pending'}"
        if action.get("objective"):
            summary = "Objective, " + summary
    elif action.get("kind") == "wait":
        summary = "Wait" + (" (drew the target)" if action.get("drawn") == "target" else "")
    else:
        summary = ""
    return {
        "turn": turn["turn"],
        "cells": [_box(key, fates.get(key)) for key in FATE_KEYS],
        "rushed": turn["rushed"],
        "action": summary,
        "end_of_turn": turn["end_of_turn"] or "",
    }


def _reference() -> dict[str, Any]:
    return {"conversion": [dict(row) for row in FUDGE_FROM_D6], "action_table": action_table_rows()}


def fate_record_sheet(state: dict[str, Any]) -> dict[str, Any]:
    """GM-only: the four boxes of the current turn, a row per turn, the mission panel (§C2)."""
    current = state["current"]
    fates = (current or {}).get("fates") or {}
    briefing = state["briefing"]
    turns = [*state["history"], *([current] if current else [])]
    return {
        "title": "Fate Record Sheet",
        "game": GAME_TITLE,
        "gm_only": True,
        "turn": state["turn"],
        "dice": list((current or {}).get("dice") or []),
        "boxes": [_box(key, fates.get(key)) for key in FATE_KEYS],
        "grid": [_grid_row(turn) for turn in turns],
        "mission": {
            "ninja": state["ninja"]["name"] or DEFAULT_LABEL,
            "brief": briefing["brief"],
            "victory_conditions": briefing["victory_conditions"],
            "escape_required": briefing["escape_required"],
            "gm_notes": briefing["gm_notes"],
            "stones_at_start": state["bag"]["start_ordinary"],
            "stones_left": state["bag"]["ordinary"],
            "target": state["bag"]["target"],
            "pending_downshifts": state["pending_downshifts"] + ((current or {}).get("downshifts_due") or 0),
            "die_roll_count": state["die_roll_count"],
            "status": state["status"],
            "outcome": OUTCOMES.get(state["outcome"] or "", ""),
        },
        **_reference(),
    }


def blank_fate_record_sheet(turns: int = BLANK_GRID_TURNS) -> dict[str, Any]:
    """The same shape with every value empty, for printing before play (§C2)."""
    empty_turn = {"fates": None, "action": None, "rushed": False, "end_of_turn": None}
    return {
        "title": "Fate Record Sheet",
        "game": GAME_TITLE,
        "gm_only": True,
        "turn": None,
        "dice": [],
        "boxes": [_box(key, None) for key in FATE_KEYS],
        "grid": [_grid_row({**empty_turn, "turn": n}) for n in range(1, turns + 1)],
        "mission": {
            "ninja": "",
            "brief": "",
            "victory_conditions": "",
            "escape_required": None,
            "gm_notes": "",
            "stones_at_start": None,
            "stones_left": None,
            "target": "",
            "pending_downshifts": None,
            "die_roll_count": None,
            "status": "",
            "outcome": "",
        },
        **_reference(),
    }


def fate_record_sheet_data(state: dict[str, Any] | None = None) -> SheetData:
    """The Fate Record Sheet as SheetData for the GM's PDF (blank without a state). Never for players."""
    fields = fate_record_sheet(state) if state is not None else blank_fate_record_sheet()
    return SheetData("time_to_kill", FATE_SHEET_TEMPLATE, "Fate Record Sheet", fields)


__all__ = [
    "blank_fate_record_sheet",
    "fate_record_sheet",
    "fate_record_sheet_data",
    "gm_view",
    "player_view",
]
