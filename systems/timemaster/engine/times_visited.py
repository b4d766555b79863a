"""Times Visited and the loop trap.

timemaster-characters.md §9.5 and §10 items 34-35, ruling 5 of rules/README.md,
§11 ambiguity 28. Years are whole historical years: negative = B.C., there is no year 0.
Spans are compared at year precision and include both end years, so two trips that share a
calendar year on the same Parallel count as overlapping (the build stores years, not days).

The agent's native Parallel is build["background"]["native_parallel"] when present, otherwise the
Corps' home Parallel T-0 (§11 ambiguity 28); the native lifetime runs from the birth year to the
recruitment year (birth year + age at recruitment).
"""

from __future__ import annotations

import re
from typing import Any, cast

from characters.systems.base import RuleError, RuleViolation, refuse

from .advancement_tables import CORPS_PRESENT_YEAR, HOME_PARALLEL, PARALLEL_CLASSES

RULE = "timemaster-characters.md §9.5, ruling 5"
_PARALLEL_CODE = re.compile(r"^([A-Z])-?(\d+)$")


def normalise_parallel(code: Any) -> str:
    """'t0', 'T-0', ' t-0 ' -> 'T-0'. A code is a class letter (T, M, R, A) and a number."""
    text = str(code or "").strip().upper().replace(" ", "")
    match = _PARALLEL_CODE.match(text)
    if not match or match.group(1) not in PARALLEL_CLASSES:
        raise refuse(
            "parallel",
            f"{code!r} is not a Parallel code: use a letter T, M, R or A, a dash and a number (e.g. T-0).",
            RULE,
        )
    return f"{match.group(1)}-{int(match.group(2))}"


def to_astronomical(year: int) -> int:
    """1 B.C. (-1) -> 0, 2 B.C. -> -1; A.D. years unchanged (digest conventions)."""
    return year + 1 if year < 0 else year


def from_astronomical(value: int) -> int:
    return value - 1 if value <= 0 else value


def year_label(year: int) -> str:
    return f"{-year} B.C." if year < 0 else f"{year} A.D."


def _check_year(field: str, year: Any) -> list[RuleViolation]:
    if isinstance(year, bool) or not isinstance(year, int):
        return [RuleViolation(field, "The year must be a whole number (negative for B.C.).", RULE)]
    if year == 0:
        return [RuleViolation(field, "There is no year 0: 1 B.C. is followed by 1 A.D.", RULE)]
    return []


def native_parallel(build: dict[str, Any]) -> str:
    return normalise_parallel((build.get("background") or {}).get("native_parallel") or HOME_PARALLEL)


def native_lifetime(build: dict[str, Any]) -> tuple[int, int]:
    """(birth year, recruitment year) in historical years."""
    background = build.get("background") or {}
    birth, age = background.get("birth_year"), background.get("age_at_recruitment")
    problems = _check_year("background.birth_year", birth)
    if isinstance(age, bool) or not isinstance(age, int) or age < 0:
        problems.append(
            RuleViolation("background.age_at_recruitment", "Age at recruitment must be a whole number.", RULE)
        )
    if problems:
        raise RuleError(problems)
    return cast(int, birth), from_astronomical(to_astronomical(cast(int, birth)) + cast(int, age))


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    a0, a1 = (to_astronomical(y) for y in a)
    b0, b1 = (to_astronomical(y) for y in b)
    return a0 <= b1 and b0 <= a1


def _span_label(start: int, end: int) -> str:
    return year_label(start) if start == end else f"{year_label(start)} to {year_label(end)}"


def check_visit(
    build: dict[str, Any],
    parallel: Any,
    start_year: Any,
    end_year: Any,
    present_year: int | None = CORPS_PRESENT_YEAR,
) -> list[RuleViolation]:
    """Refuse a trip that would cause a loop trap; return warnings for other-Parallel overlaps.

    Raises RuleError when the span is malformed, lies past the Time Barrier (``present_year``;
    None skips that check), or overlaps the native lifetime or an earlier visit on the same
    Parallel. Returns a list of warnings (RuleViolation) for overlaps on other Parallels.
    """
    problems = _check_year("start_year", start_year) + _check_year("end_year", end_year)
    if problems:
        raise RuleError(problems)
    code = normalise_parallel(parallel)
    if to_astronomical(start_year) > to_astronomical(end_year):
        raise refuse("end_year", "The trip ends before it starts.", RULE)
    if present_year is not None and to_astronomical(end_year) > to_astronomical(present_year):
        raise refuse(
            "end_year",
            f"No one can travel past the Time Barrier ({year_label(present_year)}).",
            "timemaster-characters.md §9.5, §10 item 35",
        )
    span = (start_year, end_year)
    warnings: list[RuleViolation] = []
    home = native_parallel(build)
    born, recruited = native_lifetime(build)
    if _overlaps(span, (born, recruited)):
        where = f"the agent's own lifetime before recruitment ({_span_label(born, recruited)}, on {home})"
        if code == home:
            raise refuse("start_year", f"Loop trap: this trip overlaps {where}.", RULE)
        warnings.append(
            RuleViolation("start_year", f"This trip overlaps {where}, on another Parallel.", RULE)
        )
    for number, visit in enumerate(build.get("times_visited") or [], start=1):
        earlier = (visit["start_year"], visit["end_year"])
        if not _overlaps(span, earlier):
            continue
        visit_code = normalise_parallel(visit["parallel"])
        mission = visit.get("mission")
        named = f"visit {number}" + (f" (mission {mission})" if mission not in (None, "") else "")
        where = f"{named}: {visit_code}, {_span_label(*earlier)}"
        if visit_code == code:
            raise refuse("start_year", f"Loop trap: this trip overlaps an earlier {where}.", RULE)
        warnings.append(
            RuleViolation("start_year", f"This trip overlaps an earlier {where}, on another Parallel.", RULE)
        )
    return warnings


def visit_record(
    parallel: Any, start_year: int, end_year: int, mission: Any = None, place: Any = ""
) -> dict[str, Any]:
    """One row of the Times Visited table, as stored in build["times_visited"] (``place`` only when
    known: the destination of the mission, for the printed sheet)."""
    record = {
        "parallel": normalise_parallel(parallel),
        "start_year": start_year,
        "end_year": end_year,
        "mission": mission,
    }
    if place:
        record["place"] = str(place)
    return record
