"""Tempo rolls from the agent's page: each rated role, and each aspect invoked on a roll.

A role's roll is the basic roll (tempo-flashpoints.md §B1): 3d6 plus the role's rating and the
net numeric modifier (§B3: the largest bonus plus 1 if there are several, the same for penalties,
then they cancel), with bonus and penalty dice cancelling one for one before rolling (§B4): a bonus
die rolls one more d6 and keeps the highest three, a penalty die keeps the lowest three. The total
is read on the outcome bands (§B2), with the campaign's optional fumble and crit rules.

An aspect's roll is a role's roll that uses the aspect (§B7): invoked for a bonus die at the cost of
a fate point, or taken as trouble for a penalty die that earns one. The fate points move in the
agent's ledger with the roll (fate.entries_for_roll). Help dice and hurrying belong to rolls made
together at the table (the conflict page's roll panel); they are not asked here.

The engine's own roll (roll.roll_for_agent) does the rules; ``Replay`` hands it the fair dice.
"""

from __future__ import annotations

import random
from typing import Any

from characters.systems.base import Build, Replay, RollOption, RollPlan, RollSpec, RuleError
from characters.systems.dice import DiceResult

from . import fate
from .campaign_settings import resolved
from .modules import get_module
from .roll import RULE_ASPECTS, RULE_ROLL, RollResult, roll_for_agent
from .tables import NARRATORS

MAX_DICE = 10


def _settings(settings: dict[str, Any] | None) -> dict[str, Any]:
    try:
        return resolved(settings)
    except RuleError:  # a campaign of another system's settings, or an old value: the defaults
        return resolved(None)


def _rated_roles(build: Build) -> list[tuple[str, str, int]]:
    """(role key, "Rank Role", modifier) of every role the agent has a rating in."""
    module = get_module(build.get("module"))
    out = []
    for role in module.roles:
        rank = module.rank((build.get("roles") or {}).get(role.key, ""))
        if rank is not None:
            out.append((role.key, f"{rank.name} {role.name}", rank.modifier))
    return out


def _common_options() -> tuple[RollOption, ...]:
    return (
        RollOption(
            "bonuses", "Numeric bonuses", kind="list", default=[], minimum=1, maximum=20,
            help="Each bonus that applies; several count as the largest plus 1 (§B3).",
        ),
        RollOption(
            "penalties", "Numeric penalties", kind="list", default=[], minimum=1, maximum=20,
            help="Each penalty as a positive number; several count as the largest plus 1.",
        ),
        RollOption("bonus_dice", "Bonus dice", default=0, minimum=0, maximum=MAX_DICE,
                   help="From the GM or other sources; they cancel penalty dice one for one (§B4)."),
        RollOption("penalty_dice", "Penalty dice", default=0, minimum=0, maximum=MAX_DICE),
    )  # fmt: skip


def rolls(build: Build, settings: dict[str, Any] | None = None) -> list[RollSpec]:
    roles = _rated_roles(build)
    if not roles:
        return []
    specs = [
        RollSpec(
            key=f"role:{key}",
            group="Roles",
            name=label,
            value=f"{modifier:+d}",
            dice=f"3d6 {modifier:+d}, read on the outcome bands",
            options=_common_options(),
            rule=RULE_ROLL,
        )
        for key, label, modifier in roles
    ]
    role_choice = RollOption(
        "role", "Role rolled", kind="choice", default=roles[0][0],
        choices=tuple((key, f"{label} ({modifier:+d})") for key, label, modifier in roles),
    )  # fmt: skip
    # The page starts on the use that spends nothing (a fate point is spent only when the player
    # picks the invoke, which says what it costs): no die from the aspect, no fate point moved.
    use = RollOption(
        "use", "Use of the aspect", kind="choice", default=NO_USE,
        choices=((NO_USE, "No die from the aspect: costs nothing"),
                 ("invoke", "Invoke: bonus die, costs 1 fate point"),
                 ("trouble", "Trouble: penalty die, earns 1 fate point")),
        unavailable=_unaffordable(build),
    )  # fmt: skip
    for slot, entry in (build.get("aspects") or {}).items():
        text = (entry or {}).get("text") if isinstance(entry, dict) else None
        if isinstance(text, str) and text.strip():
            specs.append(
                RollSpec(
                    key=f"aspect:{slot}",
                    group="Aspects",
                    name=text,
                    value=_fate_points(build),
                    dice="3d6 plus the role's rating, with a bonus die if you invoke the aspect or a "
                    "penalty die if you take it as trouble",
                    options=(role_choice, use, *_common_options()),
                    rule=f"{RULE_ASPECTS}; {RULE_ROLL}",
                )
            )
    return specs


def _unaffordable(build: Build) -> tuple[tuple[str, str], ...]:
    """Invoking needs a fate point to pay with (§D4): with none, invoke is not offered, saying why
    (the demo's agents start and refresh at 0, ruling 7)."""
    points = build.get("fate_points", 0)
    if isinstance(points, int) and points >= 1:
        return ()
    return (("invoke", NO_FATE_POINT),)


#: The aspect's use that rolls the role alone: no bonus or penalty die, no fate point spent or earned.
NO_USE = "none"

#: Why an aspect cannot be invoked, on the page and in the refusal (§D4, §B7).
NO_FATE_POINT = (
    "Invoking costs 1 fate point and this agent has none to spend: take the aspect as trouble "
    "(a penalty die) to earn one, or ask the game master for one."
)


def _fate_points(build: Build) -> str:
    points = build.get("fate_points", 0)
    return f"({points} fate point{'' if points == 1 else 's'} to spend)"


def _request(spec: RollSpec, values: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    request: dict[str, Any] = {
        "bonuses": values["bonuses"],
        "penalties": values["penalties"],
        "bonus_dice": values["bonus_dice"],
        "penalty_dice": values["penalty_dice"],
    }
    kind, _, name = spec.key.partition(":")
    if kind == "role":
        return name, request
    if values["use"] == NO_USE:
        return values["role"], request
    request["aspects"] = [{"aspect": spec.name, "source": "own", "use": values["use"]}]
    return values["role"], request


def _rolled(
    build: Build, spec: RollSpec, values: dict[str, Any], rng: random.Random, settings: Any
) -> RollResult:
    role, request = _request(spec, values)
    result, _ = roll_for_agent(build, role, request, rng, settings=_settings(settings))
    return result


def plan(build: Build, spec: RollSpec, values: dict[str, Any], settings: dict[str, Any] | None) -> RollPlan:
    """The dice after cancelling (the rules' checks, such as a fate point to pay, run here, before
    any die is rolled: the dice a probe rolls are thrown away)."""
    probe = _rolled(build, spec, values, random.Random(0), settings)
    if probe.penalty_dice:
        kind, count = "3d6_penalty", probe.penalty_dice
    else:
        kind, count = "3d6_bonus", probe.bonus_dice
    used = spec.key.startswith("aspect:") and values.get("use") != NO_USE
    purpose = probe.role + (f" with {spec.name}" if used else "")
    return RollPlan(kind, count, probe.rating + probe.numeric_modifier, purpose)


def reading(
    build: Build, spec: RollSpec, values: dict[str, Any], dice: DiceResult, settings: dict[str, Any] | None
) -> dict[str, Any]:
    result = _rolled(build, spec, values, Replay(dice.faces), settings)
    data = result.as_dict()
    data["summary"] = f"total {result.total}: {result.band_name}, {NARRATORS[result.narrator]} narrates"
    data["ledger"] = fate.entries_for_roll(result)
    data["rule"] = spec.rule
    return data
