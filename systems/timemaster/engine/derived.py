"""Every computed value of an agent, recomputed from the build each time (never stored).

timemaster-characters.md §1 (sheet fields), §2 steps 6-12, §4.1, §5, §9, §10 rules 13 and 31.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, RuleError, refuse

from .abilities import check_abilities_shape
from .action_table import column_for_score
from .background import native_time, recruitment_year
from .condition import condition_of
from .formulas import (
    armor_stamina_loss,
    chart_key,
    is_critically_wounded,
    other_scores,
    paranormal_memory,
    penetration_bonus,
    skill_base,
    skill_score,
    stamina_recovery_rate,
    talent_score,
    unskilled_melee,
    wound_boxes,
    wound_count,
)
from .tables import (
    ABILITY_CODES,
    ARMOR,
    MIN_WILLPOWER_TO_USE_TALENT,
    SKILL_LEVEL_NAMES,
    SKILL_LEVELS,
    SKILLS,
    TALENTS,
    WILLPOWER_FLEE_AT_OR_BELOW,
)


def derive_skill(
    key: str, entry: dict[str, Any], abilities: dict[str, int], current_stamina: int
) -> dict[str, Any]:
    skill = SKILLS[chart_key(key)]
    level = entry.get("level", "specialist")
    base = skill_base(key, abilities, current_stamina)
    known = isinstance(level, str) and level in SKILL_LEVELS
    score = skill_score(key, level, abilities, current_stamina) if known else None
    row = {
        "key": key,
        "name": skill["name"],
        "base_formula": skill["base_formula"],
        "base": base,
        "level": level,
        "level_name": SKILL_LEVEL_NAMES[level] if known else str(level),
        "modifier": SKILL_LEVELS[level] if known else None,
        "score": score,
        "column": column_for_score(score) if score is not None else None,
        "check": skill["check"],
        "secret_check": skill["secret_check"],
        "exclusive": skill["exclusive"],
        "unsure": skill["unsure"],
    }
    if "period" in entry:
        row["period"] = entry["period"]
    if "cultures" in entry:
        row["cultures"] = entry["cultures"]
    return row


def derive_talent(key: str, abilities: dict[str, int], luck_substitute: int | None = None) -> dict[str, Any]:
    talent = TALENTS[key]
    score = talent_score(key, abilities, luck_substitute)
    return {
        "key": key,
        "name": talent["name"],
        "formula": talent["formula"],
        "score": score,
        "willpower_cost": talent["willpower_cost"],
        "check": talent["check"],
        "secret_check": talent["secret_check"],
        "defense_column": talent["defense_column"],
        "demorean": talent["demorean"],
    }


def derive(build: Build) -> dict[str, Any]:
    """Every computed score of the build. Refuses a build whose Abilities are unusable."""
    if not isinstance(build, dict):
        raise refuse("build", "A build must be an object.")
    abilities = build.get("abilities")
    problems = check_abilities_shape(abilities)
    if problems:
        raise RuleError(problems)
    assert isinstance(abilities, dict)
    condition = condition_of(build)
    stamina, current_stamina = abilities["STA"], condition["current_stamina"]
    armor_rating, stamina_loss = armor_stamina_loss([a for a in condition["armor"] if a in ARMOR])
    marked = condition["wounds_marked"]
    background = build.get("background") or {}
    span = native_time(background)
    skills = build.get("skills") or {}
    talents = build.get("talents") or []
    if not isinstance(skills, dict):
        raise refuse("skills", "Skills must be an object keyed by skill.")
    if not isinstance(talents, list):
        raise refuse("talents", "Talents must be a list of talent keys.")
    return {
        "abilities": {code: abilities[code] for code in ABILITY_CODES},
        "ability_columns": {code: column_for_score(abilities[code]) for code in ABILITY_CODES},
        "unskilled_melee": unskilled_melee(abilities),
        "unskilled_melee_column": column_for_score(unskilled_melee(abilities)),
        "penetration_bonus": penetration_bonus(abilities["STR"]),
        "stamina_recovery_rate": stamina_recovery_rate(stamina),
        "wounds": wound_count(stamina),
        "wound_boxes": wound_boxes(stamina, marked),
        "wounds_marked": marked,
        "wounds_left": wound_count(stamina) - marked,
        "critically_wounded": is_critically_wounded(stamina, marked),
        "current_stamina": current_stamina,
        "current_willpower": condition["current_willpower"],
        "current_willpower_column": column_for_score(condition["current_willpower"]),
        "may_use_talents": condition["current_willpower"] >= MIN_WILLPOWER_TO_USE_TALENT,
        "flees": condition["current_willpower"] <= WILLPOWER_FLEE_AT_OR_BELOW,
        "armor": condition["armor"],
        "armor_rating": armor_rating,
        "stamina_loss_per_round": stamina_loss,
        "paranormal_memory": paranormal_memory(abilities),
        "skills": {
            key: derive_skill(key, entry, abilities, current_stamina)
            for key, entry in skills.items()
            if isinstance(entry, dict) and chart_key(key) in SKILLS
        },
        "talents": {
            key: derive_talent(key, abilities) for key in talents if isinstance(key, str) and key in TALENTS
        },
        "rank_grade": f"{build.get('rank')}/{build.get('grade')}",
        "success_points": build.get("success_points", 0),
        "recruitment_year": recruitment_year(background),
        "native_time": {"start_year": span[0], "end_year": span[1]} if span else None,
        **other_scores(abilities),
    }
