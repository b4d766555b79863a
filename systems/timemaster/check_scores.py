"""A TIMEMASTER check's score and its reading (what goes into ``Roll.detail``), apart from the dice
roller's flow (action_checks.py) so that the condition's rolls (condition_services.py: the Luck
check against death) use them without importing the roller, which records a death check through
the condition services: no import cycle (issue 42)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from systems.timemaster.engine import action_table
from systems.timemaster.engine import rolls as roll_rules


@dataclass(frozen=True)
class Score:
    """One score an agent can be checked against, as offered in the dice roller."""

    key: str  # "ability:DEX", "skill:pistol", "talent:telepathic_probe", "other:unskilled_melee"
    group: str  # "Abilities", "Skills", "Talents", "Other scores"
    name: str
    value: int
    column: int | None  # default defense column of a specific check, None when the rule names none
    # The rules make this check the game master's to roll in secret (timemaster-characters.md §4.2,
    # the chart's secret marker): whoever asks for it, only the GM sees the result.
    secret: bool = False

    @property
    def label(self) -> str:
        return f"{self.name} ({self.value})" + (
            ", secret check: the game master sees the result" if self.secret else ""
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "group": self.group,
            "name": self.name,
            "score": self.value,
            "default_column": self.column,
            "secret_check": self.secret,
        }


def reading(
    score: Score, kind: str, target: int, roll: int, defense_column: int | None, results_key: str
) -> dict[str, Any]:
    """What goes into ``Roll.detail``: the engine's result for this roll, with the score named."""
    if kind == "general":
        result = action_table.general_check(target, roll)
    else:
        result = action_table.specific_check(target, roll, defense_column, results_key)
    return roll_rules.check_detail(result, score.key, score.name, score.value, target, roll)
