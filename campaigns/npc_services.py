"""Writes and derived values for NPCs, checked by the campaign system's engine.

A system with NPC rules supplies them through the registry (SystemApp.npc_rules: its folder's
``npc_rules`` module's RULES, an NPCRules); the Django side stores what the rules return and
never repeats a rule. A system without NPC rules keeps only name, descriptions and notes for its
NPCs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import NPC, Campaign
from characters import registry
from characters.systems import RuleError
from characters.systems.dice import system_rng

#: The statistics fields of the NPC model (GM only, never shown to players).
STAT_FIELDS = ("kind", "abilities", "significance_rating", "status_rating", "skills", "talents")


class NPCRules(Protocol):
    """A system's NPC rules: what the GM's form offers, the checked record, the stored statistics,
    the derived values, and the NPC pages' parts that show them ("" for none)."""

    kinds: Sequence[str]
    ability_names: Mapping[str, str]  # ability code -> name
    field_names: Mapping[str, str]  # engine record key -> model field, where they differ
    skill_levels: Mapping[str, str]
    list_head_template: str  # extra column heads of the GM's NPC list
    list_row_template: str  # the matching cells of one row (``row``: npc and derived)
    detail_template: str  # the statistics on the GM's NPC page (``npc``, ``derived``)

    def skill_choices(self) -> list[tuple[str, list[tuple[str, str]]]]: ...

    def talent_choices(self) -> list[tuple[str, list[tuple[str, str]]]]: ...

    def record(self, name: str, stats: dict[str, Any], quick: bool, rng: random.Random) -> dict[str, Any]: ...

    def stats_of(self, record: dict[str, Any]) -> dict[str, Any]: ...

    def derive(self, npc: NPC) -> dict[str, Any]: ...


def rules_for(system: str) -> NPCRules | None:
    """The NPC rules of this system (SystemApp.npc_rules), or None."""
    app = registry.get(system)
    return cast("NPCRules | None", app.npc_rule_set()) if app is not None else None


def _as_validation_error(rules: NPCRules, error: RuleError) -> ValidationError:
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
