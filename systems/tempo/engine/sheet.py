"""The printable agent sheet (tempo-flashpoints.md §C1; §C3 for modules other than Flashpoints):
plain data, everything computed, in the order the sheet prints it."""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, SheetData

from .derived import derive
from .modules import get_module
from .tables import (
    FATE_GAIN_REASONS,
    FATE_SPEND_REASONS,
    HELP_DIE_BANDS,
    HURRY_MODES,
    NARRATORS,
    OUTCOME_BANDS,
    SPEND_BENEFITS,
    SPEND_RESULT,
    TEMPO_NAMES,
)

TEMPLATE = "sheets/tempo.html"


def _range(low: int | None, high: int | None) -> str:
    if low is None:
        return f"{high} or less"
    if high is None:
        return f"{low}+"
    return f"{low}–{high}"


def reference(module_key: str) -> dict[str, Any]:
    """The rules reference panel (§C1), our own wording."""
    module = get_module(module_key)
    aspect_rules = ["An aspect whose effect is obvious simply applies, for good or ill."]
    if module.own_aspects_per_roll is not None:
        aspect_rules.append(
            f"Per roll: at most {module.own_aspects_per_roll} aspect from your own sheet helps; any number "
            "from the opponent's sheet, 1 fate point each."
        )
    if module.campaign_aspects:
        aspect_rules.append(f"Campaign aspects ({', '.join(module.campaign_aspects)}) are in every scene.")
    modifier_rules = [
        "Several bonuses: the highest, plus 1. Several penalties: the largest, plus 1 more.",
        "Bonuses and penalties cancel each other; dice never cancel numbers.",
    ]
    if not module.descriptive_bonuses_stack:
        modifier_rules.append(
            f"Good plans, tools and the like: +{module.descriptive_bonus} in total, however many apply."
        )
    spend_rows = []
    for level, tiers in SPEND_RESULT.items():
        for tier, after in tiers.items():
            spend_rows.append(
                {
                    "holding": TEMPO_NAMES[level],
                    "benefit_tier": TEMPO_NAMES[tier],
                    "options": list(SPEND_BENEFITS[tier].values()),
                    "leaves": TEMPO_NAMES[after],
                }
            )
    return {
        "outcome_bands": [
            {
                "range": _range(b["low"], b["high"]),
                "name": b["name"],
                "narrator": NARRATORS[b["narrator"]],
                "effect": b["effect"],
            }
            for b in OUTCOME_BANDS
        ],
        "modifiers": modifier_rules,
        "dice": [
            "Bonus die: roll one more d6, drop the lowest. Penalty die: roll one more, drop the highest.",
            "Bonus and penalty dice cancel one for one before rolling; three dice are always kept.",
        ],
        "help": [{"range": _range(b["low"], b["high"]), "gives": b["label"]} for b in HELP_DIE_BANDS],
        "hurry": [{"mode": mode, "summary": data["summary"]} for mode, data in HURRY_MODES.items()],
        "fate_gain": list(FATE_GAIN_REASONS.values()),
        "fate_spend": list(FATE_SPEND_REASONS.values()),
        "aspects": aspect_rules,
        "tempo_ladder": [
            {"margin": "tie", "from_even": "no change"},
            {"margin": "1–5", "from_even": TEMPO_NAMES["edge"]},
            {"margin": "6–8", "from_even": TEMPO_NAMES["advantage"]},
            {"margin": "9+", "from_even": TEMPO_NAMES["decisive"]},
        ],
        "tempo_spends": spend_rows,
        # What a spend of each tier buys, once per tier (the spend rows above repeat it per holding).
        "tempo_benefits": [
            {"tier": TEMPO_NAMES[tier], "options": list(options.values())}
            for tier, options in SPEND_BENEFITS.items()
        ],
    }


def sheet(build: Build) -> SheetData:
    """SheetData for the agent sheet (§C1): header, campaign aspect banner, aspects with anchors,
    roles with ratings and chosen benefits, the distribution check, fate points, reference."""
    module = get_module(build.get("module"))
    data = derive(build)
    aspects = build.get("aspects") or {}
    aspect_rows = []
    for slot in module.aspect_slots:
        entry = aspects.get(slot.key) or {}
        aspect_rows.append(
            {
                "slot": slot.key,
                "label": slot.label,
                "text": entry.get("text", ""),
                "anchor": entry.get("anchor", ""),
                "anchor_required": slot.anchor_required,
            }
        )
    role_rows = [
        {
            **row,
            "modifier_text": "" if row["modifier"] is None else f"{row['modifier']:+d}",
            "benefits": [
                {**b, "label": b["name"] + (f" — {b['field']}" if b["field"] else "")}
                for b in row["benefits"]
            ],
        }
        for row in data["roles"]
    ]
    check_line = ", ".join(
        f"{row['need']} {row['name']}" for row in data["distribution"] if row["need"] is not None
    )
    name = build.get("name") or build.get("codename") or "Unnamed agent"
    fields = {
        "header": {
            "name": build.get("name", ""),
            "codename": build.get("codename", ""),
            "player": build.get("player", ""),
            "module": module.label,
        },
        "campaign_aspects": list(module.campaign_aspects),
        "aspects": aspect_rows,
        "anchor_kinds": module.anchor_kinds,
        "roles": role_rows,
        "distribution": data["distribution"],
        "distribution_line": check_line,
        "distribution_ok": data["distribution_ok"],
        "rating_total": data["rating_total"],
        "fate_points": data["fate_points"],
        "veto_cards": [v.get("note", "") for v in build.get("veto_cards", []) if isinstance(v, dict)],
        "notes": build.get("notes", ""),
        "complete": data["complete"],
        "awaiting_approval": data["awaiting_approval"],
        "reference": reference(module.key),
    }
    return SheetData(system="tempo", template=TEMPLATE, title=name, fields=fields)
