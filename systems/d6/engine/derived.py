"""Computed values of a D6 character (d6-game-time.md §A2, §B4, §B8, §B10, §C1)."""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, RuleError

from .campaign_settings import resolved
from .creation import attributes, bonus_ranks, goes_first, skills, validate
from .dicecode import DieCode, format_code
from .initiative import initiative_bonus, tie_break_profile
from .tables import (
    DEFAULT_ACTION_ALLOTMENT,
    FREE_MOVE_FRACTION,
    FREE_MOVE_HARD_GROUND_METRES,
    MAP_TABLE_EXTRA_ROWS,
    PERCEPTION,
    REFLEXES,
    REQUIRED_SKILLS,
    SEARCH,
)


def map_dice(declared: int, allotment: int) -> int:
    """Dice taken off every skill and attribute roll in a round: max(0, N - A) (§B8)."""
    return max(0, declared - allotment)


def map_strip(allotment: int) -> list[dict[str, Any]]:
    """The sheet's reference strip: N actions -> penalty, from 1 to A + 5 (§C1, §B8 table)."""
    rows = []
    for declared in range(1, allotment + MAP_TABLE_EXTRA_ROWS + 1):
        dice = map_dice(declared, allotment)
        rows.append({"actions": declared, "penalty_dice": dice, "penalty": f"-{dice}D" if dice else "none"})
    return rows


def movement(move: int | None) -> dict[str, Any]:
    """Free movement and the Move action threshold (§B10, §B11 Move, §E14): up to half of Move on
    easy ground, or 1 m on hard ground, is free; more than half of Move is a Move action."""
    if move is None:
        return {"move": None, "free_move_easy": None, "free_move_hard": FREE_MOVE_HARD_GROUND_METRES}
    numerator, denominator = FREE_MOVE_FRACTION
    return {
        "move": move,
        "free_move_easy": move * numerator / denominator,
        "free_move_hard": FREE_MOVE_HARD_GROUND_METRES,
    }


def bonus_for(build: Build) -> dict[str, Any]:
    """The optional initiative bonus of a build (§B4, §E6)."""
    attrs = attributes(build)
    found = skills(build)
    perception = attrs.get(PERCEPTION, DieCode(0))
    search = found.get(SEARCH)
    search_code = search["code"] if search else perception
    search_base = attrs.get(search["attribute"], perception) if search else perception
    reflexes = attrs.get(REFLEXES, DieCode(0))
    return initiative_bonus(search_code, search_base, reflexes, bonus_ranks(build.get("special_abilities")))


def derive(build: Build, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every computed value of a valid build. ``settings`` (the campaign's) decide whether the
    optional initiative bonus is shown as in use."""
    problems = validate(build)
    if problems:
        raise RuleError(problems)
    options = resolved(settings)
    attrs = attributes(build)
    found = skills(build)
    rows = []
    for name, code in attrs.items():
        under = []
        for skill, entry in found.items():
            if entry["attribute"] != name:
                continue
            added = entry["code"] - code
            under.append(
                {
                    "name": skill,
                    "code": format_code(entry["code"]),
                    "pips": entry["code"].total_pips,
                    "added": format_code(added) if entry["code"] >= code else None,
                    "below_attribute": entry["code"] < code,
                    "required": skill in REQUIRED_SKILLS,
                }
            )
        rows.append({"name": name, "code": format_code(code), "pips": code.total_pips, "skills": under})
    bonus = bonus_for(build)
    use_bonus = options["optional_initiative_bonus"]
    perception = attrs[PERCEPTION]
    allotment = build.get("action_allotment", DEFAULT_ACTION_ALLOTMENT)
    first = goes_first(build)
    return {
        "attributes": rows,
        "skills": {
            name: {"attribute": e["attribute"], "code": format_code(e["code"]), "pips": e["code"].total_pips}
            for name, e in found.items()
        },
        "initiative": {
            "code": format_code(perception),
            "bonus": bonus["total"] if use_bonus else 0,
            "bonus_in_use": use_bonus,
            "optional_bonus": bonus,
            "text": f"{format_code(perception)} (+{bonus['total']})"
            if use_bonus and bonus["total"]
            else format_code(perception),
        },
        "tie_break": tie_break_profile(attrs, found, goes_first=first),
        "goes_first": first,
        "action_allotment": allotment,
        "multi_action_penalty": map_strip(allotment),
        "character_points": build.get("character_points", 0),
        "fate_points": build.get("fate_points", 0),
        "movement": movement(build.get("move")),
        "special_abilities": [
            {
                "name": a["name"],
                "ranks": a.get("ranks", 1),
                "affects": list(a.get("affects", [])),
                "goes_first": bool(a.get("goes_first", False)),
                "note": a.get("note", ""),
            }
            for a in build.get("special_abilities", [])
        ],
        "equipment": [
            {
                "name": item["name"],
                "quick_multi_use": bool(item.get("quick_multi_use", False)),
                "uses_per_round": item.get("uses_per_round", 1),
                "settings": list(item.get("settings", [])),
                "note": item.get("note", ""),
            }
            for item in build.get("equipment", [])
        ],
    }
