"""The Action Table: columns, general and specific checks, results keys.

timemaster-play.md §2 (checks), §3 (the table), §5 (results keys);
timemaster-characters.md §0.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from characters.systems.base import refuse

from .tables import (
    ACTION_TABLE_COLUMNS,
    ACTION_TABLE_ROWS,
    DEFAULT_RESULTS_KEY,
    RESULTS_KEYS,
)

RULE_CHECKS = "timemaster-play.md §2"
RULE_TABLE = "timemaster-play.md §3"


def column_for_score(score: int) -> int:
    """The Action-Table column whose range holds ``score`` (play §3.1); 0 or less reads column 1."""
    if isinstance(score, bool) or not isinstance(score, int):
        raise refuse("score", f"A score must be a whole number, not {score!r}.", RULE_TABLE)
    for column, low, high in ACTION_TABLE_COLUMNS:
        if low <= score and (high is None or score <= high):
            return column
    return 1  # below the first range: not covered by the book (play §29), read as column 1


def row_for_margin(margin: int) -> int:
    """Index (0-9) of the Attack Margin row that holds ``margin`` (play §3.2)."""
    if isinstance(margin, bool) or not isinstance(margin, int) or margin < 0:
        raise refuse(
            "margin", f"An Attack Margin is a whole number of 0 or more, not {margin!r}.", RULE_TABLE
        )
    for index, (_label, low, high, _results) in enumerate(ACTION_TABLE_ROWS):
        if margin >= low and (high is None or margin <= high):
            return index
    raise AssertionError("the last row is open-ended")  # pragma: no cover


def result_code(margin: int, column: int) -> str:
    """The letter code where a margin's row meets a defense column, e.g. "MK"."""
    _check_column(column)
    return ACTION_TABLE_ROWS[row_for_margin(margin)][3][column - 1]


def describe_code(code: str, key: str = DEFAULT_RESULTS_KEY) -> dict[str, Any]:
    """Read a code on a results key: the severity letter, knockdown flag, names and meanings."""
    if key not in RESULTS_KEYS:
        raise refuse(
            "key", f"There is no results key {key!r}; use one of: {', '.join(RESULTS_KEYS)}.", RULE_TABLE
        )
    letters = RESULTS_KEYS[key]
    letter, knockdown = code[0], code.endswith("K")
    entry = letters.get(letter, {})
    knock = letters.get("K", {}) if knockdown else {}
    return {
        "letter": letter,
        "knockdown": knockdown,
        "name": entry.get("name"),
        "meaning": entry.get("meaning"),
        "knockdown_meaning": knock.get("meaning"),
        "stamina": entry.get("stamina"),
        "wounds": entry.get("wounds"),
    }


@dataclass(frozen=True)
class CheckResult:
    """The outcome of a check; the specific-check fields are None for a general check or a failure."""

    kind: str  # "general" or "specific"
    score: int
    roll: int
    success: bool
    margin: int | None = None
    row: str | None = None
    column: int | None = None
    code: str | None = None
    letter: str | None = None
    knockdown: bool = False
    key: str | None = None
    name: str | None = None
    meaning: str | None = None
    knockdown_meaning: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check_roll(roll: Any) -> None:
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 100:
        raise refuse("roll", f"A percent roll runs from 1 to 100 (00 reads 100), not {roll!r}.", RULE_CHECKS)


def _check_score(score: Any) -> None:
    if isinstance(score, bool) or not isinstance(score, int):
        raise refuse("score", f"A score must be a whole number, not {score!r}.", RULE_CHECKS)


def _check_column(column: Any) -> None:
    if isinstance(column, bool) or not isinstance(column, int) or not 1 <= column <= 10:
        raise refuse("defense_column", f"Defense columns run from 1 to 10, not {column!r}.", RULE_TABLE)


def general_check(score: int, roll: int) -> CheckResult:
    """Success when the percent roll is at most the score (play §2.1)."""
    _check_score(score)
    _check_roll(roll)
    return CheckResult(kind="general", score=score, roll=roll, success=roll <= score)


def specific_check(score: int, roll: int, defense_column: int, key: str = DEFAULT_RESULTS_KEY) -> CheckResult:
    """A specific check (play §2.2): margin = score - roll, read on the margin's row and the column.

    ``key`` names the results key that gives the letter its meaning: "ability" (default),
    "armed", "unarmed", "direct_action", "vehicle_fire" or "battle_fire".
    """
    _check_score(score)
    _check_roll(roll)
    _check_column(defense_column)
    if key not in RESULTS_KEYS:
        raise refuse(
            "key", f"There is no results key {key!r}; use one of: {', '.join(RESULTS_KEYS)}.", RULE_TABLE
        )
    if roll > score:
        return CheckResult(
            kind="specific", score=score, roll=roll, success=False, column=defense_column, key=key
        )
    margin = score - roll
    index = row_for_margin(margin)
    code = ACTION_TABLE_ROWS[index][3][defense_column - 1]
    reading = describe_code(code, key)
    return CheckResult(
        kind="specific",
        score=score,
        roll=roll,
        success=True,
        margin=margin,
        row=ACTION_TABLE_ROWS[index][0],
        column=defense_column,
        code=code,
        letter=reading["letter"],
        knockdown=reading["knockdown"],
        key=key,
        name=reading["name"],
        meaning=reading["meaning"],
        knockdown_meaning=reading["knockdown_meaning"],
    )


def action_table() -> dict[str, Any]:
    """The whole table as plain data, for a printable reference or the UI."""
    return {
        "columns": [{"column": c, "min": low, "max": high} for c, low, high in ACTION_TABLE_COLUMNS],
        "rows": [
            {"margin": label, "min": low, "max": high, "results": list(results)}
            for label, low, high, results in ACTION_TABLE_ROWS
        ],
        "keys": RESULTS_KEYS,
    }
