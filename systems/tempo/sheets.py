"""Tempo's print documents besides the character sheet (registry: SystemApp.blank_sheet): its blank
sheet for a campaign's module, every box empty, the roles and aspects from the module's tables."""

from __future__ import annotations

from characters.systems import SheetData
from sheets.blanks import TITLE
from systems.tempo.engine import sheet as tempo_sheet
from systems.tempo.engine.modules import FLASHPOINTS, get_module, module_keys


def blank_sheet(module: str = "") -> SheetData:
    chosen = get_module(module if module in module_keys() else FLASHPOINTS.key)
    fields = {
        "blank": True,
        "header": {"name": "", "codename": "", "player": "", "module": chosen.label},
        "campaign_aspects": list(chosen.campaign_aspects),
        "aspects": [
            {
                "slot": slot.key,
                "label": slot.label,
                "text": "",
                "anchor": "",
                "anchor_required": slot.anchor_required,
            }
            for slot in chosen.aspect_slots
        ],
        "anchor_kinds": chosen.anchor_kinds,
        "roles": [
            {
                "key": role.key,
                "name": role.name,
                "summary": role.summary,
                "rank_name": "",
                "modifier_text": "",
                "benefits": [],
            }
            for role in chosen.roles
        ],
        "distribution_line": ", ".join(
            f"{rank.count} {rank.name}" for rank in chosen.ranks if rank.count is not None
        ),
        "fate_points": "",
        "veto_cards": [],
        "notes": "",
        "reference": tempo_sheet.reference(chosen.key),
    }
    return SheetData("tempo", tempo_sheet.TEMPLATE, TITLE, fields)
