"""The 1984 character sheet as plain data: everything printed, already computed.

timemaster-characters.md §1 (every sheet field), §2 (creation values), §9.5 (Times Visited).
"""

from __future__ import annotations

from typing import Any, cast

from characters.systems.base import Build, SheetData

from .background import native_parallel
from .condition import condition_of
from .derived import derive
from .formulas import chart_key
from .tables import (
    ABILITY_NAMES,
    ARMOR,
    AUTOMATIC_SKILLS,
    PARANORMAL_MEMORY,
    SHEET_ABILITY_ORDER,
    SKILLS,
)
from .years import century_label, span_label, year_label

SYSTEM_KEY = "timemaster"
TEMPLATE = "sheets/timemaster.html"


def _skill_order(item: tuple[str, dict[str, Any]]) -> tuple[int, str]:
    """Pre-printed rows first (Historical Specialty, Time Corps Stunner), then by name."""
    key, row = item
    base = chart_key(key)
    if base in AUTOMATIC_SKILLS:
        return AUTOMATIC_SKILLS.index(base), key
    return len(AUTOMATIC_SKILLS), row["name"].lower()


def _skill_label(key: str, entry: dict[str, Any]) -> str:
    name: str = SKILLS[chart_key(key)]["name"]
    period = entry.get("period")
    cultures = entry.get("cultures") or []
    if isinstance(period, dict) and "start_year" in period and "end_year" in period:
        detail = span_label(period["start_year"], period["end_year"])
        if cultures:
            detail = f"{', '.join(cultures)}, {detail}"
        return f"{name} ({detail})"
    return name


#: How the Check column reads (the engine's keys are not for print).
CHECK_LABELS = {"general": "general", "specific": "specific", "general_or_specific": "general or specific"}


def _visit_row(visit: dict[str, Any]) -> dict[str, Any]:
    """A Times Visited row as the sheet prints it: era, place, span and Parallel (§9.5)."""
    start, end = visit.get("start_year"), visit.get("end_year")
    dated = isinstance(start, int) and isinstance(end, int) and start and end
    return {
        "era": century_label(cast(int, start)) if dated else "",
        "place": visit.get("place", ""),
        "span": span_label(cast(int, start), cast(int, end)) if dated else "",
        "parallel": visit.get("parallel", ""),
    }


def sheet_fields(build: Build) -> dict[str, Any]:
    derived = derive(build)
    background = build.get("background") or {}
    skills = build.get("skills") or {}
    birth = background.get("birth_year")
    rows = []
    for key, row in sorted(derived["skills"].items(), key=_skill_order):
        rows.append(
            {
                "key": key,
                "name": _skill_label(key, skills.get(key) or {}),
                "base_formula": row["base_formula"],
                "base": row["base"],
                "level": row["level_name"],
                "score": row["score"],
                "check": CHECK_LABELS.get(row["check"], str(row["check"]).replace("_", " ")),
                "exclusive": row["exclusive"],
                "secret_check": row["secret_check"],
                "unsure": row["unsure"],
            }
        )
    talents = sorted(derived["talents"].values(), key=lambda t: (t["key"] != PARANORMAL_MEMORY, t["name"]))
    armor_names = [ARMOR[key]["name"] for key in derived["armor"] if key in ARMOR]
    return {
        "character": build.get("name", ""),
        "player": build.get("player", ""),
        "rank": build.get("rank"),
        "grade": build.get("grade"),
        "rank_grade": derived["rank_grade"],
        "basic_statistics": [
            {"code": code, "name": ABILITY_NAMES[code], "score": derived["abilities"][code]}
            for code in SHEET_ABILITY_ORDER
        ],
        "unskilled_melee": derived["unskilled_melee"],
        "unskilled_melee_formula": "(Str+Agl)÷2",
        "penetration_bonus": derived["penetration_bonus"],
        "current_stamina": derived["current_stamina"],
        "current_willpower": derived["current_willpower"],
        "stamina_recovery_rate": derived["stamina_recovery_rate"],
        # timemaster-play.md §17: the rate is regained at the end of each round of rest.
        "stamina_recovery_unit": "per round of rest",
        "armor": ", ".join(armor_names),
        "armor_rating": derived["armor_rating"],
        "stamina_loss_per_round": derived["stamina_loss_per_round"],
        "wounds": derived["wounds"],
        "wound_boxes": derived["wound_boxes"],
        # timemaster-play.md §16: marks, the critical state and what the agent's body is in now
        "wounds_marked": derived["wounds_marked"],
        "critically_wounded": derived["critically_wounded"],
        "condition_state": condition_state(build),
        "background": {
            "date_of_birth": year_label(birth) if isinstance(birth, int) and birth else "",
            "birth_place": background.get("birth_place", ""),
            "age_at_recruitment": background.get("age_at_recruitment"),
            "recruitment_year": year_label(derived["recruitment_year"])
            if derived["recruitment_year"]
            else "",
            "sex": background.get("sex", ""),
            "nationality": background.get("nationality", ""),
            "profession": background.get("profession", ""),
            "education": background.get("education", ""),
            "height": background.get("height", ""),
            "weight": background.get("weight", ""),
            "eyes": background.get("eyes", ""),
            "hair": background.get("hair", ""),
            "reputation": background.get("reputation", ""),
            "native_parallel": native_parallel(background),
        },
        "skills": rows,
        "talents": [
            {
                "key": t["key"],
                "name": t["name"],
                "base_formula": t["formula"],
                "score": t["score"],
                "willpower_cost": t["willpower_cost"],
            }
            for t in talents
        ],
        "success_points": derived["success_points"],
        "times_visited": [
            _visit_row(visit) for visit in build.get("times_visited") or [] if isinstance(visit, dict)
        ],
    }


CONDITION_STATES = (
    ("dead", "dead"),
    ("death_check_due", "dying"),
    ("coma", "in a coma"),
    ("unconscious", "unconscious"),
)


def condition_state(build: Build) -> str:
    """The agent's state in words for the sheet, "" when conscious (timemaster-play.md §16)."""
    condition = condition_of(build)
    return next((words for flag, words in CONDITION_STATES if condition[flag]), "")


def sheet(build: Build) -> SheetData:
    """SheetData for the print template ``sheets/timemaster.html``."""
    return SheetData(
        system=SYSTEM_KEY, template=TEMPLATE, title=build.get("name") or "Agent", fields=sheet_fields(build)
    )
