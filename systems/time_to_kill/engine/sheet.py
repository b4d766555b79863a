"""The Character Record Sheet (time-to-kill.md §C1): plain data, everything computed here.

``sheet(build, mission_view=None)``: pass a ``player_view`` to fill the mission boxes (current ratings,
stones held, die-roll tally); it never reads a GM state, so nothing secret reaches the player's PDF.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from characters.systems.base import Build, SheetData

from .derived import derive
from .tables import (
    ABILITY_KEYS,
    COMBAT,
    GAME_TITLE,
    GROUP_LABEL,
    NON_COMBAT,
    RAISE_COST,
    RATING_NAME,
    STONE_USES,
    TURN_STEPS,
    action_table_rows,
)

TEMPLATE = "sheets/time_to_kill.html"
TRACK = ("+", "0", "-")
OUTCOME_LABELS = {"victory": "victory", "out_of_time": "out of time", "fatally_wounded": "fatally wounded"}


def _mission_state(mission_view: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    if not mission_view:
        return {}
    return {entry["key"]: entry for entry in mission_view["ninja"]["abilities"]}


def _ability_row(info: dict[str, Any], in_mission: dict[str, Any] | None) -> dict[str, Any]:
    current = in_mission["current"] if in_mission else info["rating"]
    disabled = bool(in_mission and in_mission["disabled"])
    row = {
        "key": info["key"],
        "name": info["name"],
        "scope": info["scope"],
        "creation": info["rating"],
        "creation_name": info["rating_name"],
        "current": current if in_mission else "",
        "track": [{"rating": r, "marked": bool(in_mission) and r == current} for r in TRACK],
    }
    if info["group"] == NON_COMBAT:
        row["disabled_box"] = True
        row["disabled"] = disabled
    return row


def _mission_block(mission_view: dict[str, Any] | None) -> dict[str, Any]:
    if not mission_view:
        return {
            "in_mission": False,
            "preparation_stones": None,
            "wait_stones": None,
            "die_roll_tally": None,
            "victory_conditions": "",
            "escape_required": None,
            "target_in_sight": None,
            "turn": None,
            "revealed_fates": [],
        }
    return {
        "in_mission": True,
        "preparation_stones": mission_view["stones"]["preparation"],
        "wait_stones": mission_view["stones"]["wait"],
        "die_roll_tally": mission_view["die_roll_count"],
        "victory_conditions": mission_view["mission"]["victory_conditions"],
        "escape_required": mission_view["mission"]["escape_required"],
        "target_in_sight": mission_view["target_in_sight"],
        "turn": mission_view["turn"],
        "revealed_fates": [
            {"label": fate["label"], "value": fate["value"]}
            for fate in mission_view["fates"]
            if fate["revealed"]
        ],
    }


def ability_groups(rows_of: Callable[[str], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The two ability groups of the sheet, Combat first, each with the rows ``rows_of`` gives."""
    return [
        {
            "group": group,
            "label": GROUP_LABEL[group],
            "raise_cost": RAISE_COST[group],
            "abilities": rows_of(group),
        }
        for group in (COMBAT, NON_COMBAT)
    ]


def reference() -> dict[str, Any]:
    """The reference panel, the same on every sheet, blank or filled (§C1)."""
    return {
        "rating_scale": [{"rating": r, "name": RATING_NAME[r]} for r in TRACK],
        "action_table": action_table_rows(),
        "turn_steps": [dict(step) for step in TURN_STEPS],
        "stone_uses": [dict(use) for use in STONE_USES],
    }


def sheet(build: Build, mission_view: dict[str, Any] | None = None) -> SheetData:
    """Header, creation block, the two ability groups with tracks and boxes, mission tracking, the
    player's record and a reference panel (§C1)."""
    derived = derive(build)
    in_mission = _mission_state(mission_view)

    def rows_of(group: str) -> list[dict[str, Any]]:
        return [
            _ability_row(derived["abilities"][key], in_mission.get(key))
            for key in ABILITY_KEYS
            if derived["abilities"][key]["group"] == group
        ]

    record = derived["record"]
    fields = {
        "header": {
            "game": GAME_TITLE,
            "character": derived["label"],
            "player": build.get("player", ""),
            "campaign": build.get("campaign", ""),
            "status": derived["status"],
        },
        "creation": {
            "base_points": derived["budget"]["base"],
            "ranking_bonus": derived["budget"]["ranking_bonus"],
            "budget": derived["budget"]["total"],
            "points_spent": derived["points_spent"],
            "points_unspent": derived["points_unspent"],
            "trade_used": derived["trade"]["used"],
            "trade_lowered": derived["trade"]["lowered_name"],
        },
        "ability_groups": ability_groups(rows_of),
        "fatally_wounded": bool(mission_view and mission_view["ninja"]["fatally_wounded"])
        or (build["death"] or {}).get("cause") == "fatally_wounded",
        "mission": _mission_block(mission_view),
        "record": {
            "missions_completed": record["missions_completed"],
            "total_points": record["ranking_points"],
            "ranking": record["ranking_text"],
            "next_creation_budget": derived["next_creation_budget"],
        },
        # Numbered in the order played. ``mission`` is the run's id: the web page links to the run,
        # the printed sheet never shows it. A history imported without its run keeps the archive's
        # key there ("ttk_run:~1"), which is no id: ``run`` is None then, and nothing links.
        "missions": [
            {
                "number": number,
                "mission": m.get("mission"),
                "run": _run_id(m.get("mission")),
                "outcome": OUTCOME_LABELS.get(m.get("outcome"), str(m.get("outcome", "")).replace("_", " ")),
                "die_rolls": m.get("die_rolls"),
                "points": m.get("points"),
            }
            for number, m in enumerate(build["missions"], start=1)
        ],
        "reference": reference(),
    }
    return SheetData("time_to_kill", TEMPLATE, derived["label"], fields)


def _run_id(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
