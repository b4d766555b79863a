"""TIMEMASTER's NPC rules for the platform's NPCs (campaigns.npc_services.NPCRules, found by the
registry as this module's RULES): the kinds, Abilities, skills and talents the GM's form offers,
the checked record through systems.timemaster.engine.npcs, and the NPC pages' parts that show them.
"""

from __future__ import annotations

import random
from typing import Any

from campaigns.models import NPC
from characters.systems import RuleError
from systems.timemaster.engine import npcs as tm_npcs
from systems.timemaster.engine.tables import (
    ABILITY_NAMES,
    NPC_ABILITY_CODES,
    NPC_KINDS,
    SKILL_LEVEL_NAMES,
    SKILLS,
    TALENTS,
)


class TimemasterNPCRules:
    """timemaster-characters.md §8 through systems.timemaster.engine.npcs."""

    kinds = NPC_KINDS
    ability_names = {code: ABILITY_NAMES[code] for code in NPC_ABILITY_CODES}
    # engine record key -> model field
    field_names = {"significance": "significance_rating", "status": "status_rating"}
    skill_levels = SKILL_LEVEL_NAMES
    # the NPC pages' parts (GM only): the list's extra column heads and cells, the detail's stats
    list_head_template = "timemaster/_npc_list_head.html"
    list_row_template = "timemaster/_npc_list_row.html"
    detail_template = "timemaster/_npc_stats.html"

    @staticmethod
    def skill_choices() -> list[tuple[str, list[tuple[str, str]]]]:
        """The Skills Chart, grouped by category in chart order (timemaster-characters.md §4)."""
        groups: dict[str, list[tuple[str, str]]] = {}
        for key, skill in SKILLS.items():
            category = skill["category"].replace("non_combat", "non-combat").replace("_", " ").capitalize()
            groups.setdefault(category, []).append((key, skill["name"]))
        return list(groups.items())

    @staticmethod
    def talent_choices() -> list[tuple[str, list[tuple[str, str]]]]:
        """Every paranormal talent, human ones and Demorean ones apart (§5, §5.3)."""
        human = [(key, t["name"]) for key, t in TALENTS.items() if not t["demorean"]]
        demorean = [(key, t["name"]) for key, t in TALENTS.items() if t["demorean"]]
        return [("Human talents", human), ("Demorean talents", demorean)]

    def record(self, name: str, stats: dict[str, Any], quick: bool, rng: random.Random) -> dict[str, Any]:
        """The checked engine record for these statistics; RuleError with every problem.

        ``quick`` starts from the quick-NPC defaults of the kind (a human's significance rolled on
        1d10, a Demorean's eight talents) and lays what the GM gave over them.
        """
        kind = stats.get("kind") or "human"
        if quick:
            base = tm_npcs.quick_npc(name or "NPC", kind, rng, status=stats.get("status_rating"))
            abilities = {**base["abilities"], **(stats.get("abilities") or {})}
            significance = stats.get("significance_rating")
            record = {
                **base,
                "name": name,
                "abilities": abilities,
                "significance": base["significance"] if significance is None else significance,
                "skills": stats.get("skills") or base["skills"],
                "talents": stats.get("talents") or base["talents"],
            }
            problems = tm_npcs.validate_npc(record)
            if problems:
                raise RuleError(problems)
            return record
        return tm_npcs.npc_record(
            name,
            kind,
            abilities=stats.get("abilities"),
            significance=stats.get("significance_rating"),
            status=stats.get("status_rating"),
            skills=stats.get("skills"),
            talents=stats.get("talents"),
        )

    def stats_of(self, record: dict[str, Any]) -> dict[str, Any]:
        return {
            "kind": record["kind"],
            "abilities": record["abilities"],
            "significance_rating": record["significance"],
            "status_rating": record.get("status"),
            "skills": record.get("skills") or {},
            "talents": record.get("talents") or [],
        }

    def derive(self, npc: NPC) -> dict[str, Any]:
        record = {
            "name": npc.name,
            "kind": npc.kind,
            "abilities": npc.abilities,
            "significance": npc.significance_rating,
            "status": npc.status_rating,
            "skills": npc.skills,
            "talents": npc.talents,
        }
        return tm_npcs.derive_npc(record)


RULES = TimemasterNPCRules()
