"""Scores computed from a build: every formula rounds fractions up.

timemaster-characters.md §2 steps 6-12 (Unskilled Melee, Penetration Bonus, recovery rate,
wounds, talents, skills), §3 (other Ability-derived values), §4.1 (skill scores), §5 (talent
scores), §9.1 and ruling 10 (armor Stamina loss), §8 (NPC Luck substitute).
"""

from __future__ import annotations

from typing import Any, cast

from characters.systems.base import refuse

from .action_table import column_for_score
from .tables import (
    ARMOR,
    CRITICAL_WOUND_BOXES_LEFT,
    HISTORICAL_SPECIALTY,
    PENETRATION_BONUS,
    SKILL_ALIASES,
    SKILL_LEVELS,
    SKILLS,
    TALENTS,
    WOUND_BOXES_ON_SHEET,
    WOUNDS,
)

RULE_DERIVED = "timemaster-characters.md §2"
RULE_SKILLS = "timemaster-characters.md §4.1"
RULE_TALENTS = "timemaster-characters.md §5"


def ceil_div(total: int, divisor: int) -> int:
    """Divide and round any fraction up (the book-wide convention)."""
    return -(-total // divisor)


def unskilled_melee(abilities: dict[str, int]) -> int:
    """ceil((STR + AGL) / 2), §2 step 6."""
    return ceil_div(abilities["STR"] + abilities["AGL"], 2)


def _lookup(table: tuple[tuple[int, int, int], ...], value: int) -> int:
    """Band lookup; values past either end take the nearest band."""
    for low, high, result in table:
        if low <= value <= high:
            return result
    return table[0][2] if value < table[0][0] else table[-1][2]


def penetration_bonus(strength: int) -> int:
    """§2 step 7 table."""
    return _lookup(PENETRATION_BONUS, strength)


def stamina_recovery_rate(stamina: int) -> int:
    """The Action-Table column of the original Stamina score, §2 step 8."""
    return column_for_score(stamina)


def wound_count(stamina: int) -> int:
    """How many wound boxes the agent has, §2 step 9."""
    return _lookup(WOUNDS, stamina)


def wound_boxes(stamina: int, marked: int = 0) -> list[dict[str, Any]]:
    """The sheet's 15 boxes: those beyond the wound count are struck out, §2 step 9, §10 rule 15."""
    count = wound_count(stamina)
    return [
        {"number": n, "struck": n > count, "marked": n <= min(marked, count)}
        for n in range(1, WOUND_BOXES_ON_SHEET + 1)
    ]


def chart_key(skill_key: str) -> str:
    """The Skills Chart entry a build's skill key stands for.

    Every Historical Specialty is its own skill (§4.6): the automatic one is
    "historical_specialty", others may be "historical_specialty_2", "historical_specialty:rome" ...
    """
    if skill_key.startswith(HISTORICAL_SPECIALTY):
        return HISTORICAL_SPECIALTY
    return SKILL_ALIASES.get(skill_key, skill_key)


def skill_base(skill_key: str, abilities: dict[str, int], current_stamina: int | None = None) -> int | None:
    """Base score from the chart formula, rounded up (§4.1).

    Distance Running and Swimming follow current Stamina (§4.1); Mounted Melee and Mounted Missile
    have no base of their own (they use the weapon skill's score), so None.
    """
    skill = SKILLS[chart_key(skill_key)]
    if skill["special_base"] == "weapon_skill":
        return None
    if skill["special_base"] == "current_stamina":
        return abilities["STA"] if current_stamina is None else current_stamina
    return ceil_div(sum(abilities[code] for code in skill["base_abilities"]), skill["base_divisor"])


def skill_score(
    skill_key: str, level: str, abilities: dict[str, int], current_stamina: int | None = None
) -> int | None:
    """Base + the level modifier; modifiers replace each other (§4.1, §10 rule 16)."""
    if level not in SKILL_LEVELS:
        raise refuse(f"skills.{skill_key}.level", f"{level!r} is not a skill level.", RULE_SKILLS)
    base = skill_base(skill_key, abilities, current_stamina)
    return None if base is None else base + SKILL_LEVELS[level]


def talent_score(
    talent_key: str, abilities: dict[str, int], luck_substitute: int | None = None
) -> int | None:
    """Talent score from its formula, rounded up (§5). None for the automatic Demorean talents.

    NPCs have no Luck: pass ``luck_substitute`` (50 for humans, 40 for Demoreans, §8).
    """
    talent = TALENTS[talent_key]
    if talent["automatic"]:
        return None
    values = dict(abilities)
    if luck_substitute is not None and "LUCK" not in values:
        values["LUCK"] = luck_substitute
    return ceil_div(sum(values[code] for code in talent["formula_abilities"]), talent["formula_divisor"])


def paranormal_memory(abilities: dict[str, int]) -> int:
    """ceil((PCN + WPR) / 3), always 18-54 for legal Abilities (§2 step 10)."""
    return cast(int, talent_score("paranormal_memory", abilities))  # never automatic


def armor_stamina_loss(armor_keys: list[str]) -> tuple[int, int]:
    """(AR of the heaviest body armor worn, Stamina lost per round) from the armor worn (§9.1).

    The AR ignores helmets. The loss follows ruling 10: leave out helmets, shields, body suits and
    bulletproof vests; the heaviest remaining armor sets it (its AR's Action-Table column). So a
    vest worn over leather costs what the leather costs, and a vest or body suit alone nothing.
    """
    body_armor = [ARMOR[key] for key in armor_keys if ARMOR[key]["counts_for_loss"]]
    if not body_armor:
        return 0, 0
    rating = max(armor["ar"] for armor in body_armor)
    burdening = [armor["ar"] for armor in body_armor if not armor["exempt"]]
    return rating, column_for_score(max(burdening)) if burdening else 0


def is_critically_wounded(stamina: int, marked: int) -> bool:
    """Three or fewer unmarked boxes left (§9.2)."""
    return wound_count(stamina) - marked <= CRITICAL_WOUND_BOXES_LEFT


def other_scores(abilities: dict[str, int]) -> dict[str, int]:
    """Ability-derived values the sheet may show (§3): driving, riding, bombardier, lift."""
    return {
        "basic_driving": ceil_div(abilities["PCN"] + abilities["AGL"], 2),
        "basic_riding": ceil_div(abilities["AGL"], 2),
        "bombardier": ceil_div(abilities["PCN"] + abilities["DEX"], 2),
        "max_lift_lb": 5 * abilities["STR"],
    }
