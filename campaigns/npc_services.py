"""Writes and derived values for NPCs, checked by the campaign system's engine.

Each system with NPC rules has an adapter in ``NPC_RULES``; the Django side stores what the
adapter returns and never repeats a rule. A system without an adapter keeps only name,
descriptions and notes for its NPCs.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import NPC, Campaign
from characters.systems import RuleError
from characters.systems.dice import system_rng
from systems.timemaster.engine import npcs as tm_npcs
from systems.timemaster.engine.tables import (
    ABILITY_NAMES,
    NPC_ABILITY_CODES,
    NPC_KINDS,
    SKILL_LEVEL_NAMES,
    SKILLS,
    TALENTS,
)

#: The statistics fields of the NPC model (GM only, never shown to players).
STAT_FIELDS = ("kind", "abilities", "significance_rating", "status_rating", "skills", "talents")


class TimemasterNPCRules:
    """timemaster-characters.md §8 through systems.timemaster.engine.npcs."""

    kinds = NPC_KINDS
    ability_names = {code: ABILITY_NAMES[code] for code in NPC_ABILITY_CODES}
    # engine record key -> model field
    field_names = {"significance": "significance_rating", "status": "status_rating"}
    skill_levels = SKILL_LEVEL_NAMES

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


NPC_RULES: dict[str, TimemasterNPCRules] = {"timemaster": TimemasterNPCRules()}


def rules_for(system: str) -> TimemasterNPCRules | None:
    return NPC_RULES.get(system)


def _as_validation_error(rules: TimemasterNPCRules, error: RuleError) -> ValidationError:
    problems: dict[str, list[str]] = {}
    for violation in error.violations:
        head, _, rest = violation.field.partition(".")
        field = rules.field_names.get(head, head)
        field = "__all__" if field == "npc" else (f"{field}.{rest}" if rest else field)
        problems.setdefault(field, []).append(violation.message)
    return ValidationError(problems)


def _checked_stats(system: str, name: str, stats: dict[str, Any], quick: bool, rng) -> dict[str, Any]:
    rules = rules_for(system)
    if rules is None:
        given = [field for field in STAT_FIELDS if stats.get(field) not in (None, "", {}, [])]
        if quick:
            given.insert(0, "quick")
        if given:
            raise ValidationError(
                {field: "NPC statistics are not kept for this campaign's game system." for field in given}
            )
        return {field: NPC._meta.get_field(field).get_default() for field in STAT_FIELDS}
    try:
        return rules.stats_of(rules.record(name, stats, quick, rng or system_rng()))
    except RuleError as error:
        raise _as_validation_error(rules, error) from None


@transaction.atomic
def create_npc(campaign: Campaign, user, data: dict[str, Any], rng: random.Random | None = None) -> NPC:
    """A new NPC from checked data (name, texts, revealed, statistics, quick); ValidationError
    naming each field that is wrong, and nothing saved."""
    name = (data.get("name") or "").strip()
    if not name:
        raise ValidationError({"name": "Give the NPC a name."})
    stats = {field: data.get(field) for field in STAT_FIELDS}
    checked = _checked_stats(campaign.system, name, stats, bool(data.get("quick")), rng)
    return NPC.objects.create(
        campaign=campaign,
        system=campaign.system,
        name=name,
        public_description=data.get("public_description") or "",
        gm_notes=data.get("gm_notes") or "",
        revealed=bool(data.get("revealed", False)),
        created_by=user,
        **checked,
    )


@transaction.atomic
def update_npc(npc: NPC, data: dict[str, Any], rng: random.Random | None = None) -> NPC:
    """Change the fields in ``data``. Abilities given merge over the current ones; a change of
    kind without a significance rating takes the new kind's default. ValidationError, nothing saved."""
    name = str(data.get("name", npc.name) or "").strip()
    if not name:
        raise ValidationError({"name": "Give the NPC a name."})
    if any(field in data for field in (*STAT_FIELDS, "quick")):
        if data.get("quick") or rules_for(npc.system) is None:
            # a quick NPC starts again from the defaults; without rules only the given ones count
            stats = {field: data.get(field) for field in STAT_FIELDS}
        else:
            stats = {field: getattr(npc, field) for field in STAT_FIELDS}
            stats.update({field: data[field] for field in STAT_FIELDS if field in data})
            if isinstance(data.get("abilities"), dict) and isinstance(npc.abilities, dict):
                stats["abilities"] = {**npc.abilities, **data["abilities"]}
            if data.get("kind") not in (None, npc.kind) and "significance_rating" not in data:
                stats["significance_rating"] = None  # the new kind's default (a Demorean's 0)
        for field, value in _checked_stats(npc.system, name, stats, bool(data.get("quick")), rng).items():
            setattr(npc, field, value)
    npc.name = name
    for field in ("public_description", "gm_notes"):
        if field in data:
            setattr(npc, field, data[field] or "")
    if "revealed" in data:
        npc.revealed = bool(data["revealed"])
    npc.save()
    return npc


def set_revealed(npc: NPC, revealed: bool) -> NPC:
    npc.revealed = revealed
    npc.save(update_fields=["revealed", "updated_at"])
    return npc


def derived(npc: NPC) -> dict[str, Any]:
    """Every computed value of the NPC (GM only): scores, the minimum bribe and so on."""
    rules = rules_for(npc.system)
    if rules is None:
        return {}
    try:
        return rules.derive(npc)
    except RuleError as error:  # a record saved under older rules: say what is wrong, do not fail
        return {"problems": [v.as_dict() for v in error.violations]}
