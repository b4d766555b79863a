"""The agent's background: dates, native time, sex, profession, height and weight.

timemaster-characters.md §1 (sheet fields), §2.14 (background notes), §10 rules 4-7.
"""

from __future__ import annotations

import re
from typing import Any

from characters.systems.base import RuleError, RuleViolation
from characters.systems.base import is_int as _is_int

from .tables import (
    AGE_RECOMMENDED,
    BIRTH_YEAR_MAX,
    BIRTH_YEAR_MIN,
    HEIGHT_WEIGHT_GUIDE,
    HOME_PARALLEL,
    NATIVE_ERA_FLAGS,
    SEXES,
)
from .years import add_years, is_year, span_label, to_astronomical, year_label

RULE_BACKGROUND = "timemaster-characters.md §2.14"
RULE_BIRTH = "timemaster-characters.md §10 rule 4"
RULE_PRESENT = "timemaster-characters.md §10 rule 5"
RULE_GUIDES = "timemaster-characters.md §10 rule 6"
RULE_PROFESSION = "timemaster-characters.md §10 rule 7"

TEXT_FIELDS = ("birth_place", "profession", "education", "reputation", "nationality", "eyes", "hair")
REQUIRED_TEXT = ("birth_place",)


def recruitment_year(background: dict[str, Any]) -> int | None:
    """Birth year + age at recruitment, or None while either is missing or malformed."""
    birth, age = background.get("birth_year"), background.get("age_at_recruitment")
    if not is_year(birth) or not _is_int(age) or age < 0:
        return None
    return add_years(birth, age)


def native_time(background: dict[str, Any]) -> tuple[int, int] | None:
    """(birth year, recruitment year): the span the agent lived before joining (§2.14)."""
    end = recruitment_year(background)
    return None if end is None else (background["birth_year"], end)


def native_parallel(background: dict[str, Any]) -> str:
    return str(background.get("native_parallel") or HOME_PARALLEL)


def native_flag(background: dict[str, Any], flag: str) -> bool:
    era = background.get("native_era") or {}
    return bool(era.get(flag, False)) if isinstance(era, dict) else False


# -- height and weight (a guide, never a limit: §10 rule 6) ----------------------------------------

_FEET_INCHES = re.compile(
    r"^\s*(\d+)\s*(?:'|ft\.?|feet|foot)\s*(?:(\d+(?:\.\d+)?)\s*(?:\"|''|in\.?|inches)?)?\s*$"
)
_CENTIMETRES = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*cm\s*$")
_METRES = re.compile(r"^\s*(\d(?:\.\d+)?)\s*m\s*$")
_INCHES = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\"|in\.?|inches)?\s*$")
_POUNDS = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:lbs?\.?|pounds)?\s*$")
_KILOGRAMS = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*kg\s*$")


def height_inches(height: Any) -> int | None:
    """5'10", 5 ft 10, 70 (inches), 178 cm or 1.78 m -> whole inches; None if unreadable."""
    if _is_int(height):
        return height if height > 0 else None
    if not isinstance(height, str) or not height.strip():
        return None
    text = height.strip().lower()
    if match := _FEET_INCHES.match(text):
        return round(int(match.group(1)) * 12 + float(match.group(2) or 0))
    if match := _CENTIMETRES.match(text):
        return round(float(match.group(1)) / 2.54)
    if match := _METRES.match(text):
        return round(float(match.group(1)) * 100 / 2.54)
    if match := _INCHES.match(text):
        return round(float(match.group(1)))
    return None


def weight_pounds(weight: Any) -> int | None:
    """150, "150 lb" or "68 kg" -> whole pounds; None if unreadable."""
    if _is_int(weight):
        return weight if weight > 0 else None
    if not isinstance(weight, str) or not weight.strip():
        return None
    text = weight.strip().lower()
    if match := _KILOGRAMS.match(text):
        return round(float(match.group(1)) * 2.20462)
    if match := _POUNDS.match(text):
        return round(float(match.group(1)))
    return None


def feet_inches(inches: int) -> str:
    return f"{inches // 12}'{inches % 12}\""


def guide_row(inches: int) -> tuple[int, int, tuple[int, int], tuple[int, int]] | None:
    for row in HEIGHT_WEIGHT_GUIDE:
        if row[0] <= inches <= row[1]:
            return row
    return None


def height_weight_warnings(background: dict[str, Any]) -> list[RuleViolation]:
    """Advice when height or weight falls outside the guideline chart (§2.14; never an error)."""
    out: list[RuleViolation] = []
    height, weight = background.get("height"), background.get("weight")
    inches = height_inches(height) if height not in (None, "") else None
    pounds = weight_pounds(weight) if weight not in (None, "") else None
    if height not in (None, "") and inches is None:
        out.append(
            RuleViolation(
                "background.height",
                f"Could not read the height {height!r} (try 5'10\" or 178 cm).",
                RULE_GUIDES,
            )
        )
    if weight not in (None, "") and pounds is None:
        out.append(
            RuleViolation(
                "background.weight",
                f"Could not read the weight {weight!r} (try 160 lb or 72 kg).",
                RULE_GUIDES,
            )
        )
    if inches is None:
        return out
    row = guide_row(inches)
    low, high = HEIGHT_WEIGHT_GUIDE[0][0], HEIGHT_WEIGHT_GUIDE[-1][1]
    if row is None:
        out.append(
            RuleViolation(
                "background.height",
                f"{feet_inches(inches)} is outside the guideline chart "
                f"({feet_inches(low)} to {feet_inches(high)}); that is allowed, the chart is only a guide.",
                RULE_GUIDES,
            )
        )
        return out
    sex = str(background.get("sex") or "").lower()
    if pounds is None or sex not in SEXES:
        return out
    least, most = row[2] if sex == "male" else row[3]
    if not least <= pounds <= most:
        out.append(
            RuleViolation(
                "background.weight",
                f"{pounds} lb is outside the guide of {least}-{most} lb for a {sex} agent of "
                f"{feet_inches(inches)}; that is allowed, the chart is only a guide.",
                RULE_GUIDES,
            )
        )
    return out


def _is_parallel_code(code: Any) -> bool:
    """A Parallel code such as T-0, by the Times Visited module's reading when it is installed."""
    if not isinstance(code, str) or not code.strip():
        return False
    try:
        from .times_visited import normalise_parallel
    except ImportError:  # pragma: no cover - written by the advancement engine
        return True
    try:
        normalise_parallel(code)
    except RuleError:
        return False
    return True


# -- the whole background ----------------------------------------------------------------------


def check_background(
    background: Any, present_year: int
) -> tuple[list[RuleViolation], list[RuleViolation], list[RuleViolation]]:
    """(errors, warnings, CM confirmations) for a background (§10 rules 4-7)."""
    errors: list[RuleViolation] = []
    warnings: list[RuleViolation] = []
    pending: list[RuleViolation] = []
    if not isinstance(background, dict):
        return [RuleViolation("background", "The background is missing.", RULE_BACKGROUND)], [], []
    birth = background.get("birth_year")
    if birth is None:
        errors.append(RuleViolation("background.birth_year", "Enter the year of birth.", RULE_BIRTH))
    elif not is_year(birth):
        message = (
            "There is no year 0: 1 B.C. is followed by 1 A.D."
            if birth == 0 and _is_int(birth)
            else ("The year of birth must be a whole number (negative for B.C.).")
        )
        errors.append(RuleViolation("background.birth_year", message, RULE_BIRTH))
    elif not BIRTH_YEAR_MIN <= birth <= BIRTH_YEAR_MAX:
        errors.append(
            RuleViolation(
                "background.birth_year",
                f"Agents are born between {year_label(BIRTH_YEAR_MIN)} and {year_label(BIRTH_YEAR_MAX)}; "
                f"{year_label(birth)} is outside that span.",
                RULE_BIRTH,
            )
        )
    age = background.get("age_at_recruitment")
    if age is None:
        errors.append(
            RuleViolation("background.age_at_recruitment", "Enter the age at recruitment.", RULE_BACKGROUND)
        )
    elif not _is_int(age) or age < 0:
        errors.append(
            RuleViolation(
                "background.age_at_recruitment",
                "Age at recruitment must be a whole number, 0 or more.",
                RULE_BACKGROUND,
            )
        )
    elif not AGE_RECOMMENDED[0] <= age <= AGE_RECOMMENDED[1]:
        warnings.append(
            RuleViolation(
                "background.age_at_recruitment",
                f"Most recruits are {AGE_RECOMMENDED[0]} to {AGE_RECOMMENDED[1]}; {age} is allowed.",
                RULE_GUIDES,
            )
        )
    recruited = recruitment_year(background)
    if recruited is not None and to_astronomical(recruited) > to_astronomical(present_year):
        pending.append(
            RuleViolation(
                "background.recruitment_year",
                f"Recruitment in {year_label(recruited)} would fall after the Corps' present "
                f"({year_label(present_year)}); the game master must allow it.",
                RULE_PRESENT,
            )
        )
    sex = background.get("sex")
    if not isinstance(sex, str) or sex.lower() not in SEXES:
        errors.append(RuleViolation("background.sex", "Sex must be male or female.", RULE_BACKGROUND))
    for name in TEXT_FIELDS:
        value = background.get(name)
        if value is not None and not isinstance(value, str):
            errors.append(RuleViolation(f"background.{name}", "This must be text.", RULE_BACKGROUND))
        elif name in REQUIRED_TEXT and not (value or "").strip():
            errors.append(RuleViolation(f"background.{name}", "Enter the place of birth.", RULE_BACKGROUND))
    era = background.get("native_era")
    if era is not None:
        if not isinstance(era, dict):
            errors.append(
                RuleViolation(
                    "background.native_era", "Native era facts must be yes/no flags.", RULE_BACKGROUND
                )
            )
        else:
            for flag, value in era.items():
                if flag not in NATIVE_ERA_FLAGS:
                    errors.append(
                        RuleViolation(
                            f"background.native_era.{flag}",
                            f"Unknown native-era fact {flag!r}; use: {', '.join(NATIVE_ERA_FLAGS)}.",
                            RULE_BACKGROUND,
                        )
                    )
                elif not isinstance(value, bool):
                    errors.append(
                        RuleViolation(
                            f"background.native_era.{flag}", "This must be yes or no.", RULE_BACKGROUND
                        )
                    )
    parallel = background.get("native_parallel")
    if parallel is not None and not _is_parallel_code(parallel):
        errors.append(
            RuleViolation(
                "background.native_parallel",
                "The native Parallel must be a code such as T-0.",
                RULE_BACKGROUND,
            )
        )
    for name in ("height", "weight"):
        value = background.get(name)
        if isinstance(value, bool) or (value is not None and not isinstance(value, (str, int))):
            errors.append(
                RuleViolation(f"background.{name}", "This must be a number or text.", RULE_BACKGROUND)
            )
    warnings += height_weight_warnings(background)
    profession = background.get("profession")
    if isinstance(profession, str) and profession.strip():
        span = native_time(background)
        when = f" during the native time ({span_label(*span)})" if span else " during the native time"
        pending.append(
            RuleViolation(
                "background.profession",
                f"The game master should confirm that {profession.strip()!r} was an honest trade{when}.",
                RULE_PROFESSION,
            )
        )
    return errors, warnings, pending
