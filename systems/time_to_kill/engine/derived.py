"""Every computed value of a ninja (time-to-kill.md §A2, §A4, §E5)."""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, RuleError

from .creation import budget_of, creation_cost, ranking, ranking_bonus, traded_ability, validate
from .tables import (
    ABILITIES,
    ABILITY_KEYS,
    BASE_POINTS,
    COMBAT_ABILITIES,
    DEFAULT_LABEL,
    GROUP_LABEL,
    NON_COMBAT_ABILITIES,
    RAISE_COST,
    RATING_NAME,
    RATING_VALUE,
)


def ranking_text(value: float | None) -> str:
    """The ranking for display: two decimals, or a dash before the first completed mission."""
    return "-" if value is None else f"{value:.2f}"


def record_summary(record: dict[str, int]) -> dict[str, Any]:
    """Points, missions completed, ranking and the budget bonus it gives (§A4, §E5)."""
    value = ranking(record)
    return {
        "ranking_points": record["ranking_points"],
        "missions_completed": record["missions_completed"],
        "ranking": value,
        "ranking_text": ranking_text(value),
        "ranking_bonus": ranking_bonus(record),
    }


def _ability(build: Build, key: str) -> dict[str, Any]:
    rating = build["abilities"][key]
    group = ABILITIES[key]["group"]
    return {
        "key": key,
        "name": ABILITIES[key]["name"],
        "group": group,
        "group_label": GROUP_LABEL[group],
        "scope": ABILITIES[key]["scope"],
        "rating": rating,
        "rating_name": RATING_NAME[rating],
        "value": RATING_VALUE[rating],
        "raise_cost": RAISE_COST[group],
    }


def derive(build: Build) -> dict[str, Any]:
    """Budget, points spent, the trade, each ability, the player's record and next budget.
    A build that ``validate`` refuses is refused here too, with the same violations."""
    problems = validate(build)
    if problems:
        raise RuleError(problems)
    budget = budget_of(build)
    spent = creation_cost(build["abilities"])
    lowered = traded_ability(build["abilities"])
    record = record_summary(build["record"])
    return {
        "label": build["name"] or DEFAULT_LABEL,
        "budget": {"base": BASE_POINTS, "ranking_bonus": build["creation"]["ranking_bonus"], "total": budget},
        "points_spent": spent,
        "points_unspent": budget - spent,
        "trade": {
            "used": lowered is not None,
            "lowered": lowered,
            "lowered_name": ABILITIES[lowered]["name"] if lowered else "",
        },
        "abilities": {key: _ability(build, key) for key in ABILITY_KEYS},
        "combat": list(COMBAT_ABILITIES),
        "non_combat": list(NON_COMBAT_ABILITIES),
        "record": record,
        "record_at_creation": record_summary(build["creation"]["record"]),
        "next_creation_budget": BASE_POINTS + record["ranking_bonus"],
        "status": build["status"],
        "alive": build["status"] == "alive",
        "death": build["death"],
        "missions_run": len(build["missions"]),
    }
