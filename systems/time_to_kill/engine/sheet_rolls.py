"""Time to Kill rolls from the ninja's page: each ability, read on the Action Table (time-to-kill.md
§B6 Step 4, §B7).

An action uses one ability (``-``, ``0`` or ``+``) against the Fate the game master reveals for it
(several relevant Fates combine into one, §B8). Their sum decides: -2 fails and +2 succeeds with no
roll; otherwise one d6 fails on 5 or less (sum -1), 3 or less (sum 0) or 1 (sum +1). The Fate is
asked in the popover: the player gives the one the GM revealed. During a mission run, the run's
page takes the action itself (it downgrades a failed ability and counts the die); this roll is the
same check made at the table.
"""

from __future__ import annotations

from typing import Any, cast

from characters.systems.base import Build, RollOption, RollPlan, RollSpec, refuse
from characters.systems.dice import DiceResult

from .derived import derive
from .mission import action_cell, combine_fates
from .tables import RATING_NAME

RULE_TABLE = "time-to-kill.md §B6 Step 4, §B7, §B8"
FATE_CHOICES = (("0", "0 (neutral)"), ("+", "+ (positive)"), ("-", "- (negative)"))


def rolls(build: Build, settings: dict[str, Any] | None = None) -> list[RollSpec]:
    derived = derive(build)
    if not derived["alive"]:
        return []
    fate = RollOption(
        "fate", "Fate revealed", kind="choice", default="0", choices=FATE_CHOICES,
        help="The Fate the game master revealed for this action (several combine into one, §B8).",
    )  # fmt: skip
    second = RollOption(
        "second_fate", "Another Fate that applies", kind="choice", default="",
        choices=(("", "none"), *FATE_CHOICES),
    )  # fmt: skip
    return [
        RollSpec(
            key=f"ability:{key}",
            group=f"{ability['group_label']} abilities",
            name=ability["name"],
            value=ability["rating"],
            dice="a d6 on the Action Table, against the Fate",
            options=(fate, second),
            rule=RULE_TABLE,
        )
        for key, ability in derived["abilities"].items()
    ]


def _cell(build: Build, spec: RollSpec, values: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    fates = [values["fate"]] + ([values["second_fate"]] if values["second_fate"] else [])
    fate = combine_fates(fates)
    rating = spec.value
    return fate, rating, action_cell(fate, rating)


def plan(build: Build, spec: RollSpec, values: dict[str, Any], settings: dict[str, Any] | None) -> RollPlan:
    fate, rating, cell = _cell(build, spec, values)
    if cell["automatic"] is not None:
        raise refuse(
            "modifiers.fate",
            f"No roll: Fate {fate} with {spec.name} {rating} is an automatic {cell['automatic']}.",
            RULE_TABLE,
        )
    return RollPlan("d6", 1, 0, f"{spec.name} ({rating}) against Fate {fate}")


def reading(
    build: Build, spec: RollSpec, values: dict[str, Any], dice: DiceResult, settings: dict[str, Any] | None
) -> dict[str, Any]:
    fate, rating, cell = _cell(build, spec, values)
    fail_on = cast(int, cell["fail_on"])
    success = dice.total > fail_on
    words = "success" if success else "failure"
    return {
        "ability": spec.key.partition(":")[2],
        "rating": rating,
        "rating_name": RATING_NAME[rating],
        "fate": fate,
        "fail_on": fail_on,
        "roll": dice.total,
        "success": success,
        "summary": f"{dice.total} (fails on {fail_on} or less): {words}",
        "rule": RULE_TABLE,
    }
