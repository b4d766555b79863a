"""Blank character sheets for groups who play on paper: the same print templates, every box empty.

Labels and reference panels come from the engines' own tables, so a blank sheet names the same
abilities, roles and tables as a filled one; nothing about any character (and nothing a GM keeps
secret) is in them, so every member of a campaign may print one.
"""

from __future__ import annotations

from typing import Any

from characters.systems import SheetData
from systems.d6.engine import sheet as d6_sheet
from systems.d6.engine.derived import map_strip
from systems.d6.engine.tables import DEFAULT_ACTION_ALLOTMENT, REQUIRED_SKILLS
from systems.tempo.engine import sheet as tempo_sheet
from systems.tempo.engine.modules import FLASHPOINTS, get_module, module_keys
from systems.time_to_kill.engine import sheet as ttk_sheet
from systems.time_to_kill.engine.tables import ABILITIES, ABILITY_KEYS, GAME_TITLE, NON_COMBAT
from systems.timemaster.engine.tables import ABILITY_NAMES, SHEET_ABILITY_ORDER, WOUND_BOXES_ON_SHEET

TITLE = "Blank sheet"


def _rows(count: int) -> list[None]:
    """Write-in rows for a template loop."""
    return [None] * count


def timemaster() -> SheetData:
    fields: dict[str, Any] = {
        "blank": True,
        "character": "",
        "player": "",
        "rank_grade": "",
        "success_points": "",
        "basic_statistics": [
            {"code": code, "name": ABILITY_NAMES[code], "score": ""} for code in SHEET_ABILITY_ORDER
        ],
        "unskilled_melee_formula": "(Str+Agl)÷2",
        "wound_boxes": [
            {"number": n, "struck": False, "marked": False} for n in range(1, WOUND_BOXES_ON_SHEET + 1)
        ],
        "background": {},
        "skills": [],
        "talents": [],
        "times_visited": [],
        "blank_rows": {"skills": _rows(14), "talents": _rows(4), "times_visited": _rows(6)},
    }
    return SheetData("timemaster", "sheets/timemaster.html", TITLE, fields)


def _ttk_blank_rows(group: str) -> list[dict]:
    rows = []
    for key in ABILITY_KEYS:
        info = ABILITIES[key]
        if info["group"] != group:
            continue
        row = {
            "key": key,
            "name": info["name"],
            "scope": info["scope"],
            "creation": "",
            "track": [{"rating": r, "marked": False} for r in ttk_sheet.TRACK],
        }
        if group == NON_COMBAT:
            row.update(disabled_box=True, disabled=False)
        rows.append(row)
    return rows


def time_to_kill() -> SheetData:
    fields = {
        "blank": True,
        "header": {"game": GAME_TITLE, "character": "", "player": "", "campaign": "", "status": ""},
        "creation": {},
        "ability_groups": ttk_sheet.ability_groups(_ttk_blank_rows),
        "mission": {"revealed_fates": []},
        "record": {},
        "missions": [],
        "blank_rows": {"missions": _rows(6)},
        "reference": ttk_sheet.reference(),
    }
    return SheetData("time_to_kill", ttk_sheet.TEMPLATE, TITLE, fields)


def tempo(module_key: str = "") -> SheetData:
    module = get_module(module_key if module_key in module_keys() else FLASHPOINTS.key)
    fields = {
        "blank": True,
        "header": {"name": "", "codename": "", "player": "", "module": module.label},
        "campaign_aspects": list(module.campaign_aspects),
        "aspects": [
            {
                "slot": slot.key,
                "label": slot.label,
                "text": "",
                "anchor": "",
                "anchor_required": slot.anchor_required,
            }
            for slot in module.aspect_slots
        ],
        "anchor_kinds": module.anchor_kinds,
        "roles": [
            {
                "key": role.key,
                "name": role.name,
                "summary": role.summary,
                "rank_name": "",
                "modifier_text": "",
                "benefits": [],
            }
            for role in module.roles
        ],
        "distribution_line": ", ".join(
            f"{rank.count} {rank.name}" for rank in module.ranks if rank.count is not None
        ),
        "fate_points": "",
        "veto_cards": [],
        "notes": "",
        "reference": tempo_sheet.reference(module.key),
    }
    return SheetData("tempo", tempo_sheet.TEMPLATE, TITLE, fields)


def d6() -> SheetData:
    by_attribute: dict[str, list[str]] = {}
    for skill, attribute in REQUIRED_SKILLS.items():
        by_attribute.setdefault(attribute, []).append(skill)
    attributes = [
        {
            "name": name,
            "code": "",
            "skills": [{"name": s, "code": ""} for s in skills] + [{"name": "", "code": ""}] * 2,
        }
        for name, skills in by_attribute.items()
    ]
    # The other attributes are the group's own: write-in blocks.
    attributes += [{"name": "", "code": "", "skills": [{"name": "", "code": ""}] * 2} for _ in range(4)]
    fields = {
        "blank": True,
        "identity": {"name": "", "player": ""},
        "attributes": attributes,
        "quick_reference": {"free_move_hard": ""},
        "resources": {
            "character_points": "",
            "fate_points": "",
            "fate_note": d6_sheet.FATE_NOTE,
            "character_point_note": d6_sheet.CHARACTER_POINT_NOTE,
        },
        "special_abilities": [],
        "equipment": [],
        "blank_rows": {"special_abilities": _rows(3), "equipment": _rows(4)},
        "multi_action_penalty": {"rows": map_strip(DEFAULT_ACTION_ALLOTMENT), "rule": d6_sheet.MAP_RULE},
        "actions": d6_sheet.action_card(),
        "free_actions": list(d6_sheet.FREE_ACTIONS),
        "non_actions": list(d6_sheet.NON_ACTIONS),
        "initiative_methods": [
            {"number": m["number"], "label": m["label"], "summary": m["summary"]}
            for m in d6_sheet.INITIATIVE_METHODS.values()
        ],
        "notes": "",
    }
    return SheetData("d6", d6_sheet.TEMPLATE, TITLE, fields)


BLANK_SHEETS = {"timemaster": timemaster, "time_to_kill": time_to_kill, "tempo": tempo, "d6": d6}


def blank_sheet(system: str, module: str = "") -> SheetData:
    """The blank character sheet of ``system`` (KeyError for a system without one)."""
    if system == "tempo":
        return tempo(module)
    return BLANK_SHEETS[system]()
