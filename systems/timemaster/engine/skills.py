"""Skill rules: levels, prerequisites, the era rule for new agents, Historical Specialty.

timemaster-characters.md §4 (skills), §2 step 3 and §10 rules 8-11, 16, 28-30.
"""

from __future__ import annotations

from typing import Any, cast

from characters.systems.base import RuleViolation

from .background import native_flag, native_time, recruitment_year
from .formulas import chart_key
from .tables import (
    AMERICAS_HORSE_YEAR,
    BRONZE_AGE_CM_CHECK_BEFORE,
    CREATION_RESTRICTIONS,
    HISTORICAL_SPECIALTY,
    HISTORICAL_SPECIALTY_MAX_CULTURES,
    HISTORICAL_SPECIALTY_MAX_YEARS,
    HISTORICAL_SPECIALTY_YEARS_BEFORE_BIRTH,
    SKILL_LEVEL_NAMES,
    SKILL_LEVEL_ORDER,
    SKILLS,
)
from .years import add_years, is_year, span_label, to_astronomical, year_label, years_between

RULE_STARTING = "timemaster-characters.md §10 rule 8"
RULE_FIT = "timemaster-characters.md §10 rule 9"
RULE_ERA = "timemaster-characters.md §10 rule 10"
RULE_PREREQ_AT_CREATION = "timemaster-characters.md §10 rule 11"
RULE_LEVELS = "timemaster-characters.md §10 rule 16"
RULE_PREREQ = "timemaster-characters.md §10 rule 28"
RULE_NO_LEVELS = "timemaster-characters.md §10 rule 29"
RULE_SPECIALTY = "timemaster-characters.md §10 rule 30"


def skill_name(skill_key: str) -> str:
    return cast(str, SKILLS[chart_key(skill_key)]["name"])


def is_known_skill(skill_key: Any) -> bool:
    return isinstance(skill_key, str) and chart_key(skill_key) in SKILLS


def level_rank(level: str) -> int:
    return SKILL_LEVEL_ORDER.index(level)


def prerequisite_met(skill_key: str, skills: dict[str, Any]) -> bool:
    """Any one listed (skill, level) pair at that level or better satisfies it (§10 rule 28)."""
    requirement = SKILLS[chart_key(skill_key)]["prerequisite"]
    if not requirement:
        return True
    for needed, level in requirement:
        held = (skills.get(needed) or {}).get("level")
        if held in SKILL_LEVEL_ORDER and level_rank(held) >= level_rank(level):
            return True
    return False


def prerequisite_label(skill_key: str) -> str:
    requirement = SKILLS[chart_key(skill_key)]["prerequisite"] or ()
    return " or ".join(f"{SKILLS[k]['name']} at {SKILL_LEVEL_NAMES[level]}" for k, level in requirement)


def starting_specialty_period(background: dict[str, Any]) -> dict[str, int] | None:
    """The automatic Historical Specialty: 100 years before birth to recruitment (§4.6)."""
    span = native_time(background)
    if span is None:
        return None
    birth, recruited = span
    return {"start_year": add_years(birth, -HISTORICAL_SPECIALTY_YEARS_BEFORE_BIRTH), "end_year": recruited}


# -- the era rule and background qualifiers (§4.5) -------------------------------------------------


def era_problems(
    skill_key: str, background: dict[str, Any]
) -> tuple[list[RuleViolation], list[RuleViolation]]:
    """(errors the CM may override, CM confirmations) for a skill chosen by a new agent (§10 rule 10)."""
    skill = SKILLS[chart_key(skill_key)]
    field = f"skills.{skill_key}"
    errors: list[RuleViolation] = []
    pending: list[RuleViolation] = []
    recruited = recruitment_year(background)
    earliest = skill["earliest_year"]
    if (
        earliest is not None
        and recruited is not None
        and to_astronomical(earliest) > to_astronomical(recruited)
    ):
        errors.append(
            RuleViolation(
                field,
                f"{skill['name']} dates from the {skill['era']} ({year_label(earliest)}), after this agent's "
                f"recruitment in {year_label(recruited)}.",
                RULE_ERA,
            )
        )
    restriction = skill["creation_restriction"]
    if restriction == "non_american":
        birth = background.get("birth_year")
        if native_flag(background, "americas") and is_year(birth) and birth < AMERICAS_HORSE_YEAR:
            errors.append(
                RuleViolation(
                    field,
                    f"{skill['name']} is closed to agents born in the Americas before {AMERICAS_HORSE_YEAR}.",
                    RULE_ERA,
                )
            )
    elif restriction == "bronze_age":
        if recruited is not None and to_astronomical(recruited) < to_astronomical(BRONZE_AGE_CM_CHECK_BEFORE):
            pending.append(
                RuleViolation(
                    field,
                    f"{skill['name']} needs {CREATION_RESTRICTIONS[restriction]['label']}.",
                    RULE_ERA,
                )
            )
    elif restriction is not None:
        spec = CREATION_RESTRICTIONS[restriction]
        if not native_flag(background, spec["flag"]):
            errors.append(
                RuleViolation(
                    field,
                    f"{skill['name']} is open at creation only to agents with {spec['label']}.",
                    RULE_ERA,
                )
            )
    return errors, pending


# -- checks on the skills of any build ------------------------------------------------------------


def check_skill_entries(skills: Any) -> list[RuleViolation]:
    """Known skills, legal levels, prerequisites held, no levels for Mounted Melee/Missile
    (§10 rules 16, 28, 29)."""
    if not isinstance(skills, dict):
        return [RuleViolation("skills", "The skills list is missing.", RULE_STARTING)]
    problems: list[RuleViolation] = []
    for key, entry in skills.items():
        field = f"skills.{key}"
        if not is_known_skill(key):
            problems.append(RuleViolation(field, f"{key!r} is not a skill on the Skills Chart.", RULE_LEVELS))
            continue
        if not isinstance(entry, dict):
            problems.append(RuleViolation(field, "Each skill needs its level.", RULE_LEVELS))
            continue
        level = entry.get("level")
        if level not in SKILL_LEVEL_ORDER:
            problems.append(
                RuleViolation(
                    f"{field}.level",
                    f"{level!r} is not a level; use Specialist, Expert or Master.",
                    RULE_LEVELS,
                )
            )
            continue
        skill = SKILLS[chart_key(key)]
        if not skill["has_levels"] and level != "specialist":
            problems.append(
                RuleViolation(
                    f"{field}.level",
                    f"{skill['name']} has no levels of its own; it stays as acquired.",
                    RULE_NO_LEVELS,
                )
            )
        if not prerequisite_met(key, skills):
            problems.append(
                RuleViolation(field, f"{skill['name']} needs {prerequisite_label(key)}.", RULE_PREREQ)
            )
    return problems


def check_specialties(skills: dict[str, Any], background: dict[str, Any]) -> list[RuleViolation]:
    """Every Historical Specialty names its period (at most 100 years, except the automatic one)
    and at most two cultures; no specialty is held twice (§10 rule 30, §4.6)."""
    problems: list[RuleViolation] = []
    seen: dict[tuple[Any, ...], str] = {}
    for key, entry in skills.items():
        if not isinstance(key, str) or chart_key(key) != HISTORICAL_SPECIALTY or not isinstance(entry, dict):
            continue
        field = f"skills.{key}"
        period = entry.get("period")
        if (
            not isinstance(period, dict)
            or not is_year(period.get("start_year"))
            or not is_year(period.get("end_year"))
        ):
            problems.append(
                RuleViolation(
                    f"{field}.period",
                    "A Historical Specialty names its period: a start and an end year.",
                    RULE_SPECIALTY,
                )
            )
            continue
        start, end = period["start_year"], period["end_year"]
        length = years_between(start, end)
        if length < 0:
            problems.append(
                RuleViolation(f"{field}.period", "The period ends before it starts.", RULE_SPECIALTY)
            )
            continue
        if key == HISTORICAL_SPECIALTY:
            expected = starting_specialty_period(background)
            if expected is not None and (start, end) != (expected["start_year"], expected["end_year"]):
                problems.append(
                    RuleViolation(
                        f"{field}.period",
                        "The starting Historical Specialty covers the 100 years before birth and the native "
                        f"time: {span_label(expected['start_year'], expected['end_year'])}.",
                        RULE_SPECIALTY,
                    )
                )
        elif length > HISTORICAL_SPECIALTY_MAX_YEARS:
            problems.append(
                RuleViolation(
                    f"{field}.period",
                    f"A Historical Specialty covers at most {HISTORICAL_SPECIALTY_MAX_YEARS} years; "
                    f"{span_label(start, end)} is {length}.",
                    RULE_SPECIALTY,
                )
            )
        cultures = entry.get("cultures", [])
        if not isinstance(cultures, list) or not all(isinstance(c, str) and c.strip() for c in cultures):
            problems.append(
                RuleViolation(f"{field}.cultures", "Cultures are a list of names.", RULE_SPECIALTY)
            )
            continue
        if len(cultures) > HISTORICAL_SPECIALTY_MAX_CULTURES:
            problems.append(
                RuleViolation(
                    f"{field}.cultures",
                    f"A Historical Specialty covers at most {HISTORICAL_SPECIALTY_MAX_CULTURES} "
                    f"civilizations, cultures or nations, not {len(cultures)}.",
                    RULE_SPECIALTY,
                )
            )
        identity = (
            to_astronomical(start),
            to_astronomical(end),
            tuple(sorted(c.strip().lower() for c in cultures)),
        )
        if identity in seen:
            problems.append(
                RuleViolation(
                    field,
                    f"This specialty is the same as {seen[identity]!r}; each is held once.",
                    RULE_SPECIALTY,
                )
            )
        seen.setdefault(identity, key)
    return problems
