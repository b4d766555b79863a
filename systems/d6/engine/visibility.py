"""What the GM tracker and the players see of an encounter (d6-game-time.md §C2, hidden
information), and the free-movement check (§B10, §B11 Move, §D11, §E14). Read-only views of the
state built by ``encounter``."""

from __future__ import annotations

import copy
from typing import Any

from characters.systems.base import is_one_of, refuse

from .derived import map_dice
from .encounter import acting_now, remaining_actions, whose_turn
from .tables import (
    ACTIONS,
    FREE_MOVE_FRACTION,
    FREE_MOVE_HARD_GROUND_METRES,
    INITIATIVE_METHODS,
    RULES,
    TERRAINS,
)


def movement_cost(
    distance: float, move: float, terrain: str = "easy", all_movement_costs_action: bool = False
) -> str:
    """Whether a move of ``distance`` is "free" or costs an "action" (§B10, §B11 Move, §D11, §E14)."""
    if not is_one_of(terrain, TERRAINS):
        raise refuse("terrain", f"Terrain is one of: {', '.join(TERRAINS)}.", f"{RULES} §D11")
    if isinstance(distance, bool) or not isinstance(distance, int | float) or distance < 0:
        raise refuse("distance", "The distance is a number, 0 or more.", f"{RULES} §D11")
    if all_movement_costs_action and distance > 0:
        return "action"
    numerator, denominator = FREE_MOVE_FRACTION
    limit = move * numerator / denominator if terrain == "easy" else FREE_MOVE_HARD_GROUND_METRES
    return "free" if distance <= limit else "action"


def tracker(state: dict[str, Any]) -> dict[str, Any]:
    """The GM's round and initiative tracker (§C2), already computed."""
    totals = (state["initiative"] or {}).get("totals", {})
    notes_after = {note["before"]: note for note in state["order_notes"]}
    order = state["order"] or state["setup_order"]
    rows = []
    for place, pid in enumerate(order, start=1):
        p = state["participants"][pid]
        rnd = p["round"]
        declared = rnd["declared"]
        dice = map_dice(declared, p["action_allotment"]) if declared is not None else 0
        rows.append(
            {
                "place": place if state["order"] else None,
                "id": pid,
                "name": p["name"],
                "kind": p["kind"],
                "controlled_by": p["controlled_by"],
                "initiative_total": totals.get(pid),
                "tie_break_note": notes_after.get(pid),
                "declared": declared,
                "allotment": p["action_allotment"],
                "penalty_dice": dice,
                "penalty": f"-{dice}D" if dice else "none",
                "action_boxes": [
                    "used" if i < rnd["used"] else "lost" if i < rnd["used"] + rnd["lost"] else "open"
                    for i in range(declared or 0)
                ],
                "remaining": remaining_actions(p),
                "waiting": rnd["waiting"],
                "moved_up": rnd["moved_up"],
                "interrupts": rnd["interrupts"],
                "incapacitated": p["incapacitated"],
                "skipped": rnd["skipped"],
                "turn_taken": rnd["turn_taken"],
                "is_turn": whose_turn(state) == pid,
                "acting": acting_now(state) == pid,
                "members": copy.deepcopy(p["members"]),
                "character_points_left": p["character_points"] - p["character_points_spent"],
            }
        )
    return {
        "scene": state["name"],
        "method": state["method"],
        "method_label": INITIATIVE_METHODS[state["method"]]["label"],
        "status": state["status"],
        "phase": state["phase"],
        "round": state["round"],
        "all_movement_costs_action": state["all_movement_costs_action"],
        "order": rows,
        "order_notes": copy.deepcopy(state["order_notes"]),
        "unresolved_ties": copy.deepcopy(state["unresolved"]),
        "whose_turn": whose_turn(state),
        "acting_now": acting_now(state),
        "pending_results": copy.deepcopy(state["windows"]),
        "groups": [
            {"id": pid, "name": p["name"], "members": copy.deepcopy(p["members"])}
            for pid, p in state["participants"].items()
            if p["kind"] == "group"
        ],
        "actions": {
            key: {"name": a["name"], "skills": list(a["skills"]), "roll": a["roll"]}
            for key, a in ACTIONS.items()
        },
    }


def public_view(state: dict[str, Any]) -> dict[str, Any]:
    """The state as players may see it (digest, hidden information): GM-run participants keep
    only their name, kind, place and condition; their codes, rolls, totals, group makeup,
    declarations and tie-break values are removed. The raw event list is left out."""
    view = copy.deepcopy(state)
    hidden = {pid for pid, p in view["participants"].items() if p["controlled_by"] == "gm"}
    view.pop("events", None)
    for pid in hidden:
        p = view["participants"][pid]
        for key in (
            "attributes",
            "skills",
            "special_abilities",
            "equipment",
            "character_points",
            "character_points_spent",
            "initiative_bonus",
            "goes_first",
            "action_allotment",
        ):
            p.pop(key, None)
        p["members"] = [] if p["kind"] == "group" else p["members"]
        p["round"] = {"turn_taken": p["round"]["turn_taken"], "skipped": p["round"]["skipped"]}
    initiative = view.get("initiative")
    if initiative:
        for key in ("totals", "rolls", "draws"):
            for pid in hidden:
                initiative.get(key, {}).pop(pid, None)
        initiative["situational"] = [pid for pid in initiative.get("situational", []) if pid not in hidden]
    for note in view["order_notes"]:
        if note["before"] in hidden or note["after"] in hidden:
            note.update({"decided_by": "hidden", "factor_number": None, "label": "", "values": []})
    view["windows"] = [
        {"participant": w["participant"], "action": w["action"]} if w["participant"] in hidden else w
        for w in view["windows"]
    ]
    log = []
    for record in view["log"]:
        if "public_summary" in record:
            log.append(
                {
                    "round": record["round"],
                    "type": record["type"],
                    "participant": record.get("participant"),
                    "summary": record["public_summary"],
                }
            )
        elif record.get("participant") in hidden and record["type"] == "order":
            log.append(record)
        else:
            log.append({k: v for k, v in record.items() if k != "public_summary"})
    view["log"] = log
    return view
