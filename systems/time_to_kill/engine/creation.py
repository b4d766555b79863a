"""Making a ninja: nine abilities at 0, five points plus the player's ranking, one Non-Combat trade
(time-to-kill.md §A1, §A2, §A4, §D1, §D2, §E4, §E5).

``new_build(choices)`` returns a build or raises RuleError with every problem; ``validate(build)``
lists the problems of a stored build. Shapes are in README.md.
"""

from __future__ import annotations

import copy
from typing import Any, cast

from characters.systems.base import Build, RuleError, RuleViolation

from .tables import (
    ABILITIES,
    ABILITY_KEYS,
    BASE_POINTS,
    COMBAT,
    COMBAT_ABILITIES,
    MAX_TEXT,
    MAX_TRADES,
    NON_COMBAT,
    NON_COMBAT_ABILITIES,
    RAISE_COST,
    RATINGS,
)

RULE_ABILITIES = "time-to-kill.md §A1, §D1"
RULE_COST = "time-to-kill.md §A2, §D2"
RULE_RANKING = "time-to-kill.md §A4, §E5"
STATUSES = ("alive", "dead")
TEXT_FIELDS = ("name", "player", "campaign")


# -- the player's record and ranking (§A4, §B13) -----------------------------------------------
def empty_record() -> dict[str, int]:
    return {"ranking_points": 0, "missions_completed": 0}


def ranking(record: dict[str, int]) -> float | None:
    """Points over missions completed; undefined (None) before the first success (§A4)."""
    if not record["missions_completed"]:
        return None
    return record["ranking_points"] / record["missions_completed"]


def ranking_bonus(record: dict[str, int]) -> int:
    """What the ranking adds to a creation budget: rounded down, 0 with no missions (§E5)."""
    if not record["missions_completed"]:
        return 0
    return record["ranking_points"] // record["missions_completed"]


def record_problems(record: Any, where: str) -> list[RuleViolation]:
    if not isinstance(record, dict):
        return [RuleViolation(where, "The player's record needs ranking_points and missions_completed.")]
    problems = []
    for key in ("ranking_points", "missions_completed"):
        value = record.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(
                RuleViolation(f"{where}.{key}", "This must be a whole number, 0 or more.", RULE_RANKING)
            )
    unknown = sorted(set(record) - {"ranking_points", "missions_completed"})
    if unknown:
        problems.append(RuleViolation(where, f"Unknown record fields: {', '.join(unknown)}."))
    if not problems and record["ranking_points"] and not record["missions_completed"]:
        problems.append(
            RuleViolation(
                f"{where}.ranking_points",
                "Victory points come only from completed missions; with none completed there can be none.",
                RULE_RANKING,
            )
        )
    return problems


# -- abilities and their cost (§A2) ------------------------------------------------------------
def name_of(key: str) -> str:
    return ABILITIES[key]["name"]


def creation_cost(abilities: dict[str, str]) -> int:
    """2 per Combat +, 1 per Non-Combat +, less 1 when a Non-Combat ability was traded to - (§A2)."""
    raised = sum(RAISE_COST[ABILITIES[key]["group"]] for key in ABILITY_KEYS if abilities[key] == "+")
    traded = 1 if any(abilities[key] == "-" for key in NON_COMBAT_ABILITIES) else 0
    return raised - traded


def traded_ability(abilities: dict[str, str]) -> str | None:
    return next((key for key in NON_COMBAT_ABILITIES if abilities.get(key) == "-"), None)


def ability_shape_problems(abilities: Any, where: str = "abilities") -> list[RuleViolation]:
    """Every ability present, each -/0/+, nothing unknown (§D1)."""
    if not isinstance(abilities, dict):
        return [
            RuleViolation(
                where, "Abilities must map each of the nine abilities to -, 0 or +.", RULE_ABILITIES
            )
        ]
    problems = []
    unknown = sorted(set(abilities) - set(ABILITY_KEYS), key=str)
    if unknown:
        known = ", ".join(ABILITY_KEYS)
        problems.append(
            RuleViolation(where, f"There is no ability called {', '.join(map(str, unknown))}; use {known}.")
        )
    for key in ABILITY_KEYS:
        if key not in abilities:
            problems.append(RuleViolation(f"{where}.{key}", f"{name_of(key)} has no rating.", RULE_ABILITIES))
        elif abilities[key] not in RATINGS:
            problems.append(
                RuleViolation(
                    f"{where}.{key}",
                    f"{name_of(key)} must be rated -, 0 or +, not {abilities[key]!r}.",
                    RULE_ABILITIES,
                )
            )
    return problems


def ability_rule_problems(
    abilities: dict[str, str], budget: int, where: str = "abilities"
) -> list[RuleViolation]:
    """Creation limits on well-formed ratings: no Combat -, one paired trade, the budget (§D2)."""
    problems = []
    for key in COMBAT_ABILITIES:
        if abilities[key] == "-":
            problems.append(
                RuleViolation(
                    f"{where}.{key}",
                    f"{name_of(key)} is a Combat ability: it starts at 0 or +, never at -.",
                    RULE_COST,
                )
            )
    lowered = [key for key in NON_COMBAT_ABILITIES if abilities[key] == "-"]
    raised_non_combat = [key for key in NON_COMBAT_ABILITIES if abilities[key] == "+"]
    if len(lowered) > MAX_TRADES:
        names = ", ".join(name_of(k) for k in lowered)
        problems.append(
            RuleViolation(
                where,
                f"Only one Non-Combat ability may be traded down to -; you lowered {len(lowered)} ({names}).",
                RULE_COST,
            )
        )
    elif lowered and not raised_non_combat:
        problems.append(
            RuleViolation(
                f"{where}.{lowered[0]}",
                f"{name_of(lowered[0])} at - is a trade: it must pay for raising a different Non-Combat "
                "ability to +, and none is at +.",
                RULE_COST,
            )
        )
    if not problems:
        cost = creation_cost(abilities)
        if cost > budget:
            problems.append(
                RuleViolation(
                    where,
                    f"These ratings cost {cost} points but the budget is {budget} "
                    f"(Combat + costs {RAISE_COST[COMBAT]}, Non-Combat + costs {RAISE_COST[NON_COMBAT]}).",
                    RULE_COST,
                )
            )
    return problems


def budget_of(build: Build) -> int:
    return BASE_POINTS + cast(int, build["creation"]["ranking_bonus"])


# -- text fields -------------------------------------------------------------------------------
def _text_problems(container: dict[str, Any], where_prefix: str = "") -> list[RuleViolation]:
    problems = []
    for key in TEXT_FIELDS:
        value = container.get(key, "")
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            problems.append(
                RuleViolation(
                    f"{where_prefix}{key}", f"The {key} must be text of at most {MAX_TEXT} characters."
                )
            )
    return problems


# -- new build ---------------------------------------------------------------------------------
def new_build(choices: dict[str, Any]) -> Build:
    """A new ninja from the player's choices (§A2, §A4). Every problem is reported at once.

    choices: {"name", "player", "campaign": str (optional), "abilities": {key: "-"|"0"|"+"}
    (missing abilities stay 0), "use_ranking": bool, "record": the player's record so far}.
    """
    if not isinstance(choices, dict):
        raise RuleError(RuleViolation("choices", "The choices must be an object."))
    problems = _text_problems(choices)
    unknown = sorted(set(choices) - {*TEXT_FIELDS, "abilities", "use_ranking", "record"}, key=str)
    if unknown:
        problems.append(RuleViolation("choices", f"Unknown choices: {', '.join(map(str, unknown))}."))
    raw = choices.get("abilities", {})
    abilities = {key: "0" for key in ABILITY_KEYS}
    if isinstance(raw, dict):
        abilities.update(raw)
    shape = ability_shape_problems(abilities if isinstance(raw, dict) else raw)
    problems += shape
    record = choices.get("record", empty_record())
    record_issues = record_problems(record, "record")
    problems += record_issues
    use_ranking = choices.get("use_ranking", False)
    if not isinstance(use_ranking, bool):
        problems.append(RuleViolation("use_ranking", "Say yes or no to adding the ranking to the budget."))
        use_ranking = False
    bonus = ranking_bonus(record) if use_ranking and not record_issues else 0
    if not shape:
        problems += ability_rule_problems(abilities, BASE_POINTS + bonus)
    if problems:
        raise RuleError(problems)
    return {
        "name": choices.get("name", "").strip(),
        "player": choices.get("player", "").strip(),
        "campaign": choices.get("campaign", "").strip(),
        "abilities": dict(abilities),
        "creation": {"use_ranking": use_ranking, "ranking_bonus": bonus, "record": dict(record)},
        "record": dict(record),
        "status": "alive",
        "death": None,
        "missions": [],
    }


# -- validate ----------------------------------------------------------------------------------
def validate(build: Any) -> list[RuleViolation]:
    """Every problem in a stored build (§D1, §D2, §A4)."""
    if not isinstance(build, dict):
        return [RuleViolation("build", "A build must be an object.")]
    problems = _text_problems(build)
    shape = ability_shape_problems(build.get("abilities"))
    problems += shape
    creation = build.get("creation")
    creation_ok = False
    if not isinstance(creation, dict) or not isinstance(creation.get("use_ranking"), bool):
        problems.append(
            RuleViolation("creation", "The creation block (use_ranking, ranking_bonus, record) is missing.")
        )
    else:
        record_issues = record_problems(creation.get("record"), "creation.record")
        problems += record_issues
        bonus = creation.get("ranking_bonus")
        if not record_issues:
            expected = ranking_bonus(creation["record"]) if creation["use_ranking"] else 0
            if bonus != expected:
                problems.append(
                    RuleViolation(
                        "creation.ranking_bonus",
                        f"The ranking bonus must be {expected}: the ranking rounded down when it is used, "
                        "otherwise 0.",
                        RULE_RANKING,
                    )
                )
            else:
                creation_ok = True
    if not shape and creation_ok:
        problems += ability_rule_problems(build["abilities"], budget_of(build))
    record_issues = record_problems(build.get("record"), "record")
    problems += record_issues
    if creation_ok and not record_issues:
        for key in ("ranking_points", "missions_completed"):
            if build["record"][key] < cast("dict[str, Any]", creation)["record"][key]:
                problems.append(
                    RuleViolation(
                        f"record.{key}", "The record cannot be lower than it was when the ninja was made."
                    )
                )
    status = build.get("status")
    if status not in STATUSES:
        problems.append(RuleViolation("status", "The status is alive or dead."))
    elif (status == "dead") != isinstance(build.get("death"), dict):
        problems.append(RuleViolation("death", "A dead ninja records how they died; a living one does not."))
    if not isinstance(build.get("missions"), list):
        problems.append(RuleViolation("missions", "The mission list is missing."))
    return problems


def normalised(build: Build) -> Build:
    """A deep copy, so callers never share lists with the input."""
    return copy.deepcopy(build)
