"""D6 rolls from the character's page: every attribute and skill die code (d6-game-time.md §A1).

A code ``nD+p`` rolls n six-sided dice and adds p (§A1). The multi-action penalty takes 1D off
every skill and attribute roll for each action declared beyond the allotment, and a code left
with no whole die cannot be used (§B8, §B9, §E10). One of the dice is the Wild Die, as the
campaign's settings say (§E3: the chapter does not define it; by default a 6 on it is rolled again
and added, a 1 on it is flagged for the GM). Difficulties are not in this chapter (§E15): the roll
gives the total and the game master reads it.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, RollOption, RollPlan, RollSpec, RuleError, refuse
from characters.systems.dice import DiceResult

from .campaign_settings import resolved
from .creation import attributes, skills
from .derived import map_dice
from .dicecode import DieCode, DieRoll, format_code, parse
from .tables import DEFAULT_ACTION_ALLOTMENT, RULES

RULE_ROLL = f"{RULES} §A1, §B8, §B9, §E3"
MAX_ACTIONS = 20


def _settings(settings: dict[str, Any] | None) -> dict[str, Any]:
    try:
        return resolved(settings)
    except RuleError:
        return resolved(None)


def rolls(build: Build, settings: dict[str, Any] | None = None) -> list[RollSpec]:
    allotment = build.get("action_allotment", DEFAULT_ACTION_ALLOTMENT)
    actions = RollOption(
        "actions", "Actions declared this round", default=1, minimum=1, maximum=MAX_ACTIONS,
        help=f"Each action beyond {allotment} takes 1D off this roll (multi-action penalty).",
    )  # fmt: skip
    wild = "with a Wild Die" if _settings(settings)["wild_die"] == "exploding" else "with a plain Wild Die"
    specs = []
    found = skills(build)
    for name, code in attributes(build).items():
        specs.append(
            RollSpec(
                f"code:{name}",
                "Attributes",
                name,
                format_code(code),
                f"{format_code(code)} {wild}",
                (actions,),
                rule=RULE_ROLL,
            )
        )
        for skill, entry in found.items():
            if entry["attribute"] == name:
                shown = format_code(entry["code"])
                specs.append(
                    RollSpec(
                        f"code:{skill}",
                        f"{name} skills",
                        skill,
                        shown,
                        f"{shown} {wild}",
                        (actions,),
                        rule=RULE_ROLL,
                    )
                )
    return specs


def _effective(build: Build, spec: RollSpec, values: dict[str, Any]) -> tuple[DieCode, int]:
    allotment = build.get("action_allotment", DEFAULT_ACTION_ALLOTMENT)
    penalty = map_dice(values["actions"], allotment)
    code = parse(spec.value).without_dice(penalty)
    if not code.usable:
        raise refuse(
            "modifiers.actions",
            f"With {values['actions']} actions, {spec.name} ({spec.value}) loses {penalty}D and has no die "
            "left: it cannot be used this round.",
            f"{RULES} §B8, §B9",
        )
    return code, penalty


def plan(build: Build, spec: RollSpec, values: dict[str, Any], settings: dict[str, Any] | None) -> RollPlan:
    code, penalty = _effective(build, spec, values)
    kind = "d6_wild" if _settings(settings)["wild_die"] == "exploding" else "d6"
    purpose = f"{spec.name} {format_code(code)}" + (f" (multi-action -{penalty}D)" if penalty else "")
    return RollPlan(kind, code.dice, code.pips, purpose)


def reading(
    build: Build, spec: RollSpec, values: dict[str, Any], dice: DiceResult, settings: dict[str, Any] | None
) -> dict[str, Any]:
    code, penalty = _effective(build, spec, values)
    options = _settings(settings)
    exploding = options["wild_die"] == "exploding"
    faces = tuple(dice.faces)
    # d6_wild: the ordinary dice, then the Wild Die's chain; plain: every die is ordinary
    ordinary = faces[: code.dice - 1] if exploding else faces
    wild = faces[code.dice - 1 :] if exploding else ()
    rolled = DieRoll(code, ordinary, wild, (), 0, options["wild_die"], options["wild_die_one"])
    summary = f"{format_code(code)}: total {rolled.total}"
    if rolled.wild_one_rolled:
        summary += " (the Wild Die shows 1" + (
            ": it and the highest die are removed)" if rolled.removed else ": the GM may call a complication)"
        )
    return {
        **rolled.as_dict(),
        "multi_action_penalty": penalty,
        "summary": summary,
        "rule": RULE_ROLL,
    }
