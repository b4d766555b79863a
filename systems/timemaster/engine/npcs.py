"""Non-player characters: records, quick NPCs, scores with the Luck substitute, minimum bribe.

timemaster-characters.md §8 (NPC basics), §5.3 (Demorean talents), §11 ambiguity 14.
An NPC record is plain JSON:

    {"name": str, "kind": "human" | "demorean",
     "abilities": {"STR", "DEX", "AGL", "PER", "WPR", "PCN", "STA"},   # no Luck
     "significance": int,          # human 1-500, Demorean 0
     "status": int | None,         # 1-5 for NPCs with power, else None
     "skills": {skill_key: {"level": ...}}, "talents": [talent_key, ...], "notes": str}
"""

from __future__ import annotations

import random
from typing import Any, cast

from characters.systems.base import RuleError, RuleViolation
from characters.systems.base import is_int as _is_int
from characters.systems.dice import d10

from .derived import derive_skill, derive_talent
from .formulas import chart_key, unskilled_melee
from .skills import is_known_skill
from .tables import (
    ABILITY_NAMES,
    BRIBE_PER_SIGNIFICANCE,
    BRIBE_PER_STATUS,
    DEMOREAN_TALENTS,
    NPC_ABILITY_CODES,
    NPC_KINDS,
    NPC_LUCK_SUBSTITUTE,
    NPC_SIGNIFICANCE_DEMOREAN,
    NPC_SIGNIFICANCE_HUMAN,
    NPC_STATUS_RANGE,
    QUICK_NPC,
    SKILL_LEVEL_ORDER,
    SKILLS,
    TALENTS,
)

RULE_NPC = "timemaster-characters.md §8"


def npc_record(
    name: str,
    kind: str = "human",
    abilities: dict[str, int] | None = None,
    significance: int | None = None,
    status: int | None = None,
    skills: dict[str, Any] | None = None,
    talents: list[str] | None = None,
    notes: str = "",
) -> dict[str, Any]:
    """A checked NPC record. Missing Abilities take the quick-NPC value for the kind (§8).
    Raises RuleError with every problem."""
    quick = QUICK_NPC.get(kind, QUICK_NPC["human"])
    filled = {code: quick["overrides"].get(code, quick["all_abilities"]) for code in NPC_ABILITY_CODES}
    filled.update(abilities or {})
    if significance is None and kind == "demorean":
        significance = NPC_SIGNIFICANCE_DEMOREAN
    record = {
        "name": name,
        "kind": kind,
        "abilities": filled,
        "significance": significance,
        "status": status,
        "skills": dict(skills or {}),
        "talents": list(talents or []),
        "notes": notes,
    }
    problems = validate_npc(record)
    if problems:
        raise RuleError(problems)
    return record


def quick_npc(name: str, kind: str, rng: random.Random, status: int | None = None) -> dict[str, Any]:
    """A minor NPC on the quick defaults: humans 50 everywhere and significance 1d10; Demoreans
    40 everywhere but Willpower 70, significance 0 (§8)."""
    if kind not in NPC_KINDS:
        raise RuleError(RuleViolation("kind", f"An NPC is human or demorean, not {kind!r}.", RULE_NPC))
    significance = (
        d10(rng).total if QUICK_NPC[kind]["significance"] == "1d10" else QUICK_NPC[kind]["significance"]
    )
    talents = list(DEMOREAN_TALENTS) if kind == "demorean" else []  # every Demorean has all eight (§5.3)
    return npc_record(name, kind, significance=significance, status=status, talents=talents)


def validate_npc(record: Any) -> list[RuleViolation]:
    """Every problem with an NPC record (§8)."""
    if not isinstance(record, dict):
        return [RuleViolation("npc", "An NPC must be an object.", RULE_NPC)]
    out: list[RuleViolation] = []
    name = record.get("name")
    if not isinstance(name, str) or not name.strip():
        out.append(RuleViolation("name", "Give the NPC a name.", RULE_NPC))
    kind = record.get("kind")
    if kind not in NPC_KINDS:
        out.append(RuleViolation("kind", f"An NPC is human or demorean, not {kind!r}.", RULE_NPC))
    abilities = record.get("abilities")
    if not isinstance(abilities, dict):
        out.append(RuleViolation("abilities", "The NPC's Abilities are missing.", RULE_NPC))
    else:
        if "LUCK" in abilities:
            out.append(
                RuleViolation(
                    "abilities.LUCK", "NPCs have no Luck; they have a significance rating instead.", RULE_NPC
                )
            )
        for code in NPC_ABILITY_CODES:
            value = abilities.get(code)
            if not _is_int(value) or value < 0:
                out.append(
                    RuleViolation(
                        f"abilities.{code}",
                        f"{ABILITY_NAMES[code]} must be a whole number, 0 or more.",
                        RULE_NPC,
                    )
                )
        out += [
            RuleViolation(f"abilities.{code}", f"{code!r} is not an NPC Ability.", RULE_NPC)
            for code in abilities
            if code not in NPC_ABILITY_CODES and code != "LUCK"
        ]
    significance = record.get("significance")
    if kind == "demorean":
        if significance != NPC_SIGNIFICANCE_DEMOREAN:
            out.append(
                RuleViolation("significance", "A Demorean's significance rating is always 0.", RULE_NPC)
            )
    elif kind == "human":
        low, high = NPC_SIGNIFICANCE_HUMAN
        if not _is_int(significance) or not low <= significance <= high:
            out.append(
                RuleViolation(
                    "significance", f"A human NPC's significance runs from {low} to {high}.", RULE_NPC
                )
            )
    status = record.get("status")
    if status is not None and (
        not _is_int(status) or not NPC_STATUS_RANGE[0] <= status <= NPC_STATUS_RANGE[1]
    ):
        out.append(
            RuleViolation(
                "status",
                f"A status rating runs from {NPC_STATUS_RANGE[0]} to {NPC_STATUS_RANGE[1]}, or stays empty.",
                RULE_NPC,
            )
        )
    skills = record.get("skills") or {}
    if not isinstance(skills, dict):
        out.append(RuleViolation("skills", "Skills must be an object.", RULE_NPC))
    else:
        for key, entry in skills.items():
            if not is_known_skill(key):
                out.append(
                    RuleViolation(f"skills.{key}", f"{key!r} is not a skill on the Skills Chart.", RULE_NPC)
                )
            elif not isinstance(entry, dict) or entry.get("level") not in SKILL_LEVEL_ORDER:
                out.append(
                    RuleViolation(f"skills.{key}.level", "Use Specialist, Expert or Master.", RULE_NPC)
                )
    talents = record.get("talents") or []
    if not isinstance(talents, list):
        out.append(RuleViolation("talents", "Talents must be a list.", RULE_NPC))
    else:
        for key in talents:
            if key not in TALENTS:
                out.append(RuleViolation(f"talents.{key}", f"{key!r} is not a paranormal talent.", RULE_NPC))
            elif kind == "human" and TALENTS[key]["demorean"]:
                out.append(RuleViolation(f"talents.{key}", "Only Demoreans have Demorean talents.", RULE_NPC))
            elif kind == "demorean" and not TALENTS[key]["demorean"]:
                out.append(
                    RuleViolation(
                        f"talents.{key}",
                        "Demoreans use their own talents (their Paranormal Memory is the Demorean one).",
                        RULE_NPC,
                    )
                )
    return out


def minimum_bribe(record: dict[str, Any]) -> int:
    """Least bribe a minor NPC takes, in 1984 US dollars: status x 1000 when the NPC has a status
    rating, otherwise significance x 10 (§8)."""
    status = record.get("status")
    if status:
        return cast(int, status * BRIBE_PER_STATUS)
    return (record.get("significance") or 0) * BRIBE_PER_SIGNIFICANCE


def derive_npc(record: dict[str, Any]) -> dict[str, Any]:
    """Scores of an NPC, with Luck replaced by 50 (human) or 40 (Demorean) in formulas (§8)."""
    problems = validate_npc(record)
    if problems:
        raise RuleError(problems)
    luck = NPC_LUCK_SUBSTITUTE[record["kind"]]
    abilities = {**record["abilities"], "LUCK": luck}
    return {
        "abilities": dict(record["abilities"]),
        "luck_in_formulas": luck,
        "unskilled_melee": unskilled_melee(abilities),
        "significance": record["significance"],
        "status": record.get("status"),
        "minimum_bribe": minimum_bribe(record),
        "intrigue_chance_percent": (record.get("status") or 0) * 10,
        "skills": {
            key: derive_skill(key, entry, abilities, abilities["STA"])
            for key, entry in (record.get("skills") or {}).items()
            if chart_key(key) in SKILLS
        },
        "talents": {key: derive_talent(key, abilities) for key in record.get("talents") or []},
    }
