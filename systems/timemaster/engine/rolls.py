"""TIMEMASTER rolls from the agent's page: every ability, skill, talent and other score is a check
on the Action Table (timemaster-play.md §2-§3).

A check is a percent roll (00 reads 100, §1) against the score, changed first by the modifier
(§2.1). A general check succeeds when the roll is at most the score; a specific check also reads
the margin on the Action Table under a defense column (§2.2, §3): column 2 for abilities (§2.3),
column 3 for non-combat skills (§2.5), a talent's own where it names one. Secret checks
(timemaster-characters.md §4.2, the chart's secret marker) are the game master's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from characters.systems.base import Build, RollOption, RollPlan, RollSpec, refuse
from characters.systems.dice import DiceResult

from . import action_table
from .tables import ABILITY_CODES, ABILITY_NAMES, RESULTS_KEYS

RULE_CHECK = "timemaster-play.md §2-§3"
ABILITY_COLUMN, SKILL_COLUMN = 2, 3
OTHER_SCORES = {
    "unskilled_melee": "Unskilled Melee",
    "basic_driving": "Basic driving",
    "basic_riding": "Basic riding",
    "bombardier": "Bombardier",
    # general checks on current scores: strangling and poison (current STA, §15, §18), the
    # critically wounded agent's check (current WPR, §16 and §29 ambiguity 11)
    "current_stamina": "Current Stamina",
    "current_willpower": "Current Willpower",
}
RESULTS_KEY_NAMES = {
    "ability": "Ability checks",
    "armed": "Armed combat",
    "unarmed": "Unarmed combat",
    "direct_action": "Direct action",
    "vehicle_fire": "Vehicle fire",
    "battle_fire": "Battle fire",
}
MODIFIER_LIMIT = 200


@dataclass(frozen=True)
class ScoreRow:
    """One score an agent can be checked against."""

    key: str  # "ability:DEX", "skill:pistol", "talent:telepathic_probe", "other:unskilled_melee"
    group: str
    name: str
    value: int
    column: int | None  # the usual defense column of a specific check; None when no rule names one
    secret: bool = False


def _talent_column(value: Any) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def scores(derived: dict[str, Any]) -> list[ScoreRow]:
    """Every checkable score, from ``derive()`` (automatic talents have no score and are left out)."""
    out = [
        ScoreRow(
            f"ability:{code}", "Abilities", ABILITY_NAMES[code], derived["abilities"][code], ABILITY_COLUMN
        )
        for code in ABILITY_CODES
    ]
    for key, skill in derived.get("skills", {}).items():
        if skill.get("score") is not None:
            name = f"{skill['name']} ({skill['level_name']})"
            out.append(
                ScoreRow(
                    f"skill:{key}",
                    "Skills",
                    name,
                    skill["score"],
                    SKILL_COLUMN,
                    bool(skill.get("secret_check")),
                )
            )
    for key, talent in derived.get("talents", {}).items():
        if talent.get("score") is not None:
            column = _talent_column(talent.get("defense_column"))
            secret = bool(talent.get("secret_check"))
            out.append(ScoreRow(f"talent:{key}", "Talents", talent["name"], talent["score"], column, secret))
    for key, name in OTHER_SCORES.items():
        if isinstance(derived.get(key), int):
            column = None if key == "unskilled_melee" else ABILITY_COLUMN
            out.append(ScoreRow(f"other:{key}", "Other scores", name, derived[key], column))
    return out


def _options(row: ScoreRow) -> tuple[RollOption, ...]:
    columns = [("", f"Usual ({row.column})" if row.column else "Give one for a specific check")]
    columns += [(str(n), str(n)) for n in range(1, 11)]
    return (
        RollOption(
            "modifier",
            "Modifier to the score",
            minimum=-MODIFIER_LIMIT,
            maximum=MODIFIER_LIMIT,
            help="Added to the score before the roll (§2.1).",
        ),
        RollOption(
            "check",
            "Kind of check",
            kind="choice",
            default="general",
            choices=(
                ("general", "General: success or failure"),
                ("specific", "Specific: read the Action Table"),
            ),
        ),
        RollOption(
            "column",
            "Defense column",
            kind="choice",
            default="",
            choices=tuple(columns),
            help="A specific check only, as are the results key's letters.",
        ),
        RollOption(
            "results_key",
            "Results key",
            kind="choice",
            default="ability",
            choices=tuple((key, RESULTS_KEY_NAMES.get(key, key)) for key in RESULTS_KEYS),
        ),
    )


def rolls(derived: dict[str, Any]) -> list[RollSpec]:
    return [
        RollSpec(
            key=row.key,
            group=row.group,
            name=row.name,
            value=str(row.value),
            dice=f"percentile dice against {row.value}",
            options=_options(row),
            secret=row.secret,
            rule="timemaster-characters.md §4.2; " + RULE_CHECK if row.secret else RULE_CHECK,
        )
        for row in scores(derived)
    ]


def _row(derived: dict[str, Any], key: str) -> ScoreRow:
    return next(row for row in scores(derived) if row.key == key)


def _column(row: ScoreRow, values: dict[str, Any]) -> int | None:
    if values["check"] != "specific":
        return None
    if values["column"]:
        return int(values["column"])
    if row.column is None:
        raise refuse(
            "modifiers.column",
            f"{row.name} has no usual column: give the defense column (1 to 10).",
            RULE_CHECK,
        )
    return row.column


def plan(derived: dict[str, Any], spec: RollSpec, values: dict[str, Any]) -> RollPlan:
    row = _row(derived, spec.key)
    _column(row, values)  # refused before any die is rolled
    modifier = values["modifier"]
    what = f"{row.name} check" + (f" ({modifier:+d})" if modifier else "")
    return RollPlan("percent", 1, 0, what, secret=row.secret)


def check_detail(
    result: action_table.CheckResult, key: str, name: str, value: int, target: int, roll: int
) -> dict[str, Any]:
    """A check as ``Roll.detail`` keeps it (the keys the dice log shows): the score checked, the
    target, the roll and the Action Table's result (timemaster-play.md §2-§3)."""
    return {
        "check": result.kind,
        "score_key": key,
        "score_name": name,
        "score": value,
        "target": target,
        "roll": roll,
        "success": result.success,
        "margin": result.margin,
        "row": result.row,
        "column": result.column,
        "code": result.code,
        "letter": result.letter,
        "knockdown": result.knockdown,
        "results_key": result.key,
        "result_name": result.name,
    }


def reading(
    derived: dict[str, Any], spec: RollSpec, values: dict[str, Any], dice: DiceResult
) -> dict[str, Any]:
    """The check's result on the Action Table (the keys the dice log shows for a check)."""
    row = _row(derived, spec.key)
    column = _column(row, values)
    target = row.value + values["modifier"]
    if column is None:
        result = action_table.general_check(target, dice.total)
    else:
        result = action_table.specific_check(target, dice.total, column, values["results_key"])
    if not result.success:
        summary = f"{dice.total} against {target}: failure"
    elif column is None:
        summary = f"{dice.total} against {target}: success"
    else:
        summary = (
            f"{dice.total} against {target}: success, margin {result.margin}, column {column} → {result.code}"
        )
        if result.name:
            summary += f" ({result.name})"
    return {
        **check_detail(result, row.key, row.name, row.value, target, dice.total),
        "summary": summary,
        "rule": spec.rule,
    }


def _derived(build: Build) -> dict[str, Any]:
    from .derived import derive

    return derive(build)


def rolls_of(build: Build, settings: dict[str, Any] | None = None) -> list[RollSpec]:
    return rolls(_derived(build))


def plan_of(
    build: Build, spec: RollSpec, values: dict[str, Any], settings: dict[str, Any] | None
) -> RollPlan:
    return plan(_derived(build), spec, values)


def reading_of(
    build: Build, spec: RollSpec, values: dict[str, Any], dice: DiceResult, settings: dict[str, Any] | None
) -> dict[str, Any]:
    return reading(_derived(build), spec, values, dice)
