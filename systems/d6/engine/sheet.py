"""The printable D6 character sheet (d6-game-time.md §C1): plain data, everything computed."""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, SheetData

from .derived import derive
from .tables import ACTIONS, FREE_ACTIONS, INITIATIVE_METHODS, NON_ACTIONS, ROLL_KINDS

TEMPLATE = "sheets/d6.html"
MAP_RULE = (
    "The penalty applies to every skill and attribute roll that round, never to damage, damage "
    "resistance or initiative rolls."
)
FATE_NOTE = "Fate Points: not for initiative."
CHARACTER_POINT_NOTE = "Initiative: each Character Point spent adds one more Wild Die."


def action_card() -> list[dict[str, Any]]:
    """The action reference card (§B11), in the catalogue's order."""
    return [
        {
            "key": key,
            "name": action["name"],
            "skills": ", ".join(action["skills"]) or "no roll",
            "roll": {"usual": "roll", "gm": "usually no roll", "none": "no roll"}[action["roll"]],
            "summary": action["summary"],
        }
        for key, action in ACTIONS.items()
    ]


def metres(value: float | int | None) -> str:
    """A distance as the sheet prints every distance: whole metres as "5 m", others as "2.5 m"."""
    if value is None:
        return ""
    number = round(float(value), 1)
    return f"{int(number)} m" if number.is_integer() else f"{number} m"


def sheet(build: Build, settings: dict[str, Any] | None = None) -> SheetData:
    """SheetData for the character sheet (§C1): identity, attributes with their skills, quick
    reference (Move, initiative, allotment), resources, abilities, equipment, the multi-action
    penalty strip and the action card."""
    data = derive(build, settings)
    moves = data["movement"]
    fields = {
        "identity": {"name": build.get("name", ""), "player": build.get("player", "")},
        "attributes": data["attributes"],
        "quick_reference": {
            "move": metres(moves["move"]),
            "free_move_easy": metres(moves["free_move_easy"]),
            "free_move_hard": metres(moves["free_move_hard"]),
            "initiative": data["initiative"]["text"],
            "initiative_code": data["initiative"]["code"],
            "initiative_bonus": data["initiative"]["optional_bonus"]["total"],
            "initiative_bonus_in_use": data["initiative"]["bonus_in_use"],
            "action_allotment": data["action_allotment"],
            "goes_first": data["goes_first"],
        },
        "resources": {
            "character_points": data["character_points"],
            "fate_points": data["fate_points"],
            "fate_note": FATE_NOTE,
            "character_point_note": CHARACTER_POINT_NOTE,
        },
        "special_abilities": data["special_abilities"],
        "equipment": [
            {
                **item,
                "rate": f"{item['uses_per_round']} per round"
                if item["quick_multi_use"]
                else "once per round",
                "settings_text": ", ".join(item["settings"]),
            }
            for item in data["equipment"]
        ],
        "multi_action_penalty": {"rows": data["multi_action_penalty"], "rule": MAP_RULE},
        "actions": action_card(),
        "free_actions": list(FREE_ACTIONS),
        "non_actions": list(NON_ACTIONS),
        "unpenalised_rolls": [kind["label"] for kind in ROLL_KINDS.values() if not kind["penalised"]],
        "initiative_methods": [
            {"number": method["number"], "label": method["label"], "summary": method["summary"]}
            for method in INITIATIVE_METHODS.values()
        ],
        "notes": build.get("notes", ""),
    }
    return SheetData(
        system="d6", template=TEMPLATE, title=build.get("name") or "Unnamed character", fields=fields
    )
