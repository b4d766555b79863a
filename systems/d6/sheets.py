"""D6's print documents besides the character sheet (registry: SystemApp.blank_sheet): its blank
sheet, every box empty, the labels and reference panels from the engine's tables."""

from __future__ import annotations

from characters.systems import SheetData
from sheets.blanks import TITLE, rows
from systems.d6.engine import sheet as d6_sheet
from systems.d6.engine.derived import map_strip
from systems.d6.engine.tables import DEFAULT_ACTION_ALLOTMENT, REQUIRED_SKILLS


def blank_sheet(module: str = "") -> SheetData:
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
        "blank_rows": {"special_abilities": rows(3), "equipment": rows(4)},
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
