"""The agent's condition in play: current Stamina and Willpower, wounds marked, armor worn.

Kept in the optional build key ``condition``; a build without it is unhurt and unarmored:

    {"current_stamina": int, "current_willpower": int, "wounds_marked": int, "armor": [armor key, ...],
     "unconscious": bool, "coma": bool, "death_check_due": bool, "dead": bool, "critical_treated": bool,
     "crumpled": [hit location, ...]}

The state flags are written by the play entries of ``recovery.py`` (timemaster-play.md §16, §17);
``crumpled`` lists the hit locations where the worn armor was penetrated and is worthless from
then on (timemaster-play.md §19, L1535-1537), written by a damage entry's ``crumple``.

timemaster-characters.md §9.1-9.4, §5.1, §10 rules 14, 15 and 17.
"""

from __future__ import annotations

import copy
from typing import Any

from characters.systems.base import Build, RuleError, RuleViolation, refuse
from characters.systems.base import is_int as _is_int

from .armor import LOCATIONS
from .formulas import wound_count
from .tables import (
    ABILITY_NAMES,
    ARMOR,
    MAX_EXTRA_WILLPOWER_PER_USE,
    MIN_WILLPOWER_TO_USE_TALENT,
    TALENTS,
)

RULE_CURRENT = "timemaster-characters.md §10 rule 14"
RULE_WOUNDS = "timemaster-characters.md §10 rule 15"
RULE_TALENT_USE = "timemaster-characters.md §10 rule 17"
RULE_ARMOR = "timemaster-characters.md §9.1"

STATE_FLAGS = ("unconscious", "coma", "death_check_due", "dead", "critical_treated")
CONDITION_KEYS = ("current_stamina", "current_willpower", "wounds_marked", "armor", *STATE_FLAGS, "crumpled")
RULE_CRUMPLED = "timemaster-play.md §19 (L1535-1537)"


def condition_of(build: Build) -> dict[str, Any]:
    """The condition with defaults filled in: current scores at their maximum, no wounds, no armor."""
    abilities = build.get("abilities")
    abilities = abilities if isinstance(abilities, dict) else {}
    stored = build.get("condition")
    stored = stored if isinstance(stored, dict) else {}
    armor = stored.get("armor", [])
    crumpled = stored.get("crumpled", [])
    return {
        "current_stamina": stored.get("current_stamina", abilities.get("STA")),
        "current_willpower": stored.get("current_willpower", abilities.get("WPR")),
        "wounds_marked": stored.get("wounds_marked", 0),
        "armor": list(armor) if isinstance(armor, list) else [armor],
        **{flag: stored.get(flag, False) for flag in STATE_FLAGS},
        "crumpled": list(crumpled) if isinstance(crumpled, list) else [crumpled],
    }


def is_fresh_condition(build: Build) -> bool:
    """Unhurt, full Willpower, no armor: the condition of a newly created agent (§10 rule 13)."""
    condition = condition_of(build)
    abilities = build.get("abilities")
    abilities = abilities if isinstance(abilities, dict) else {}
    return bool(
        condition["current_stamina"] == abilities.get("STA")
        and condition["current_willpower"] == abilities.get("WPR")
        and condition["wounds_marked"] == 0
        and not any(condition[flag] for flag in STATE_FLAGS)
    )


def check_condition(build: Build) -> list[RuleViolation]:
    """Current scores between 0 and the Ability, wounds within the count, known armor (§10 rules 14-15)."""
    stored = build.get("condition")
    if stored is None:
        return []
    if not isinstance(stored, dict):
        return [RuleViolation("condition", "The condition must be an object.", RULE_CURRENT)]
    problems = [
        RuleViolation(f"condition.{key}", f"{key!r} is not part of an agent's condition.", RULE_CURRENT)
        for key in stored
        if key not in CONDITION_KEYS
    ]
    abilities = build.get("abilities") or {}
    condition = condition_of(build)
    for key, code in (("current_stamina", "STA"), ("current_willpower", "WPR")):
        value, maximum = condition[key], abilities.get(code)
        if not _is_int(value):
            problems.append(RuleViolation(f"condition.{key}", "This must be a whole number.", RULE_CURRENT))
        elif _is_int(maximum) and not 0 <= value <= maximum:
            problems.append(
                RuleViolation(
                    f"condition.{key}",
                    f"Current {ABILITY_NAMES[code]} {value} must lie between 0 and the {ABILITY_NAMES[code]} "
                    f"score of {maximum}.",
                    RULE_CURRENT,
                )
            )
    marked, stamina = condition["wounds_marked"], abilities.get("STA")
    if not _is_int(marked) or marked < 0:
        problems.append(
            RuleViolation("condition.wounds_marked", "Wounds marked must be 0 or more.", RULE_WOUNDS)
        )
    elif _is_int(stamina) and marked > wound_count(stamina):
        problems.append(
            RuleViolation(
                "condition.wounds_marked",
                f"{marked} wounds marked, but this agent has only {wound_count(stamina)} wound boxes.",
                RULE_WOUNDS,
            )
        )
    problems += [
        RuleViolation(f"condition.{flag}", "This must be true or false.", RULE_CURRENT)
        for flag in STATE_FLAGS
        if not isinstance(condition[flag], bool)
    ]
    armor = condition["armor"]
    if not all(isinstance(key, str) and key in ARMOR for key in armor):
        problems.append(
            RuleViolation("condition.armor", f"Armor must be chosen from: {', '.join(ARMOR)}.", RULE_ARMOR)
        )
    if not all(isinstance(key, str) and key in LOCATIONS for key in condition["crumpled"]):
        problems.append(
            RuleViolation(
                "condition.crumpled",
                f"Crumpled armor is at hit locations: {', '.join(LOCATIONS)}.",
                RULE_CRUMPLED,
            )
        )
    return problems


def with_condition(build: Build, **changes: Any) -> Build:
    """A new build with some condition values changed, refused when the result breaks a rule."""
    unknown = [key for key in changes if key not in CONDITION_KEYS]
    if unknown:
        raise refuse("condition", f"Unknown condition value(s): {', '.join(unknown)}.", RULE_CURRENT)
    result = copy.deepcopy(build)
    result["condition"] = {**condition_of(build), **changes}
    problems = check_condition(result)
    if problems:
        raise RuleError(problems)
    return result


def talent_use_problems(build: Build, talent_key: str, extra_willpower: int = 0) -> list[RuleViolation]:
    """Why the agent may not use a talent now, if anything (§5.1, §10 rule 17).

    The cost (plus up to 20 extra points) must leave current Willpower at 21 or more.
    """
    if talent_key not in (build.get("talents") or []):
        return [
            RuleViolation("talent", f"This agent does not have the talent {talent_key!r}.", RULE_TALENT_USE)
        ]
    if not _is_int(extra_willpower) or not 0 <= extra_willpower <= MAX_EXTRA_WILLPOWER_PER_USE:
        return [
            RuleViolation(
                "extra_willpower",
                f"Extra Willpower for one use runs from 0 to {MAX_EXTRA_WILLPOWER_PER_USE}.",
                RULE_TALENT_USE,
            )
        ]
    current = condition_of(build)["current_willpower"]
    cost = TALENTS[talent_key]["willpower_cost"] + extra_willpower
    if current - cost < MIN_WILLPOWER_TO_USE_TALENT:
        return [
            RuleViolation(
                "talent",
                f"{TALENTS[talent_key]['name']} would cost {cost} Willpower and leave {current - cost}; "
                f"current Willpower may not drop below {MIN_WILLPOWER_TO_USE_TALENT} for a talent.",
                RULE_TALENT_USE,
            )
        ]
    return []


def use_talent(build: Build, talent_key: str, extra_willpower: int = 0) -> Build:
    """Pay a talent's Willpower cost (succeed or fail); returns a new build (§5.1)."""
    problems = talent_use_problems(build, talent_key, extra_willpower)
    if problems:
        raise RuleError(problems)
    current = condition_of(build)["current_willpower"]
    return with_condition(
        build, current_willpower=current - TALENTS[talent_key]["willpower_cost"] - extra_willpower
    )
