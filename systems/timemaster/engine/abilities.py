"""Rolling, rerolling and assigning the eight Basic Ability numbers.

timemaster-characters.md §2 steps 4-5, §10 rules 1-3, §11 ambiguity 3.
A roll record is plain JSON so the wizard can keep it between steps:

    {"values": [8 ints], "dice": [[3 d10 faces], ...], "rerolls_used": int,
     "history": [[the 8 values before each reroll round], ...]}
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from characters.systems.base import RuleViolation, refuse
from characters.systems.base import is_int as _is_int
from characters.systems.dice import d10
from characters.systems.wording import is_are

from .tables import (
    ABILITY_ADDEND,
    ABILITY_CODES,
    ABILITY_COUNT,
    ABILITY_DICE,
    ABILITY_MAX,
    ABILITY_MIN,
    ABILITY_MULTIPLIER,
    ABILITY_NAMES,
    HOPELESS_COUNT,
    HOPELESS_SCORE,
)

RULE_ROLL = "timemaster-characters.md §10 rule 1"
RULE_REROLL = "timemaster-characters.md §10 rule 2"
RULE_ASSIGN = "timemaster-characters.md §10 rule 3"


def ability_value(faces: list[int] | tuple[int, ...]) -> int:
    """(3d10) x 2 + 20, a face of 0 already read as 10."""
    return sum(faces) * ABILITY_MULTIPLIER + ABILITY_ADDEND


def roll_one(rng: random.Random) -> tuple[int, list[int]]:
    faces = list(d10(rng, ABILITY_DICE).faces)
    return ability_value(faces), faces


def roll_abilities(rng: random.Random) -> dict[str, Any]:
    """Eight Ability numbers, each 26-80 and even (§2 step 4)."""
    dice = []
    values = []
    for _ in range(ABILITY_COUNT):
        value, faces = roll_one(rng)
        values.append(value)
        dice.append(faces)
    return {"values": values, "dice": dice, "rerolls_used": 0, "history": []}


def low_values(values: list[int]) -> list[int]:
    """Indexes of the numbers that count towards "hopeless" (40 or less)."""
    return [i for i, value in enumerate(values) if value <= HOPELESS_SCORE]


def is_hopeless(values: list[int]) -> bool:
    """Three or more numbers of 40 or less (ambiguity 3 reads "three" as "at least three")."""
    return len(low_values(values)) >= HOPELESS_COUNT


def reroll_hopeless(record: dict[str, Any], rng: random.Random, allowed_rounds: int = 1) -> dict[str, Any]:
    """Reroll every number of 40 or less, when the set is hopeless (§10 rule 2).

    The player chooses whether to do it; ``allowed_rounds`` is the campaign setting
    ``hopeless_reroll_rounds`` (0 turns rerolls off). Returns a new record.
    """
    problems = check_roll_record(record, allowed_rounds=None)
    if problems:
        raise refuse(problems[0].field, problems[0].message, problems[0].rule)
    values = list(record["values"])
    used = record.get("rerolls_used", 0)
    if allowed_rounds <= 0:
        raise refuse(
            "ability_roll", "This campaign does not allow rerolling hopeless Ability numbers.", RULE_REROLL
        )
    if used >= allowed_rounds:
        raise refuse(
            "ability_roll",
            f"The reroll allowance is used up ({allowed_rounds} round{'s' if allowed_rounds != 1 else ''}).",
            RULE_REROLL,
        )
    low = low_values(values)
    if len(low) < HOPELESS_COUNT:
        raise refuse(
            "ability_roll",
            f"Only {len(low)} of the numbers {is_are(len(low))} {HOPELESS_SCORE} or less; "
            f"a reroll needs at least {HOPELESS_COUNT}.",
            RULE_REROLL,
        )
    dice = [list(faces) for faces in record.get("dice") or [[] for _ in values]]
    for index in low:
        values[index], dice[index] = roll_one(rng)
    return {
        "values": values,
        "dice": dice,
        "rerolls_used": used + 1,
        "history": [*record.get("history", []), list(record["values"])],
    }


def check_number(field: str, value: Any, label: str) -> list[RuleViolation]:
    """One Ability number as the formula makes it: whole, 26-80 and even (§10 rule 1)."""
    if not _is_int(value):
        return [RuleViolation(field, f"{label} must be a whole number.", RULE_ROLL)]
    if value < ABILITY_MIN:
        return [RuleViolation(field, f"{label} {value} is below the minimum of {ABILITY_MIN}.", RULE_ROLL)]
    if value > ABILITY_MAX:
        return [RuleViolation(field, f"{label} {value} is above the maximum of {ABILITY_MAX}.", RULE_ROLL)]
    if value % 2:
        return [
            RuleViolation(
                field, f"{label} {value} is odd; rolled numbers are always even (3d10 x 2 + 20).", RULE_ROLL
            )
        ]
    return []


def check_roll_record(record: Any, allowed_rounds: int | None = 1) -> list[RuleViolation]:
    """A roll record is consistent: eight legal numbers matching their dice, and every reroll round
    was allowed and changed only the numbers of 40 or less (§10 rules 1-2)."""
    field = "ability_roll"
    if not isinstance(record, dict) or not isinstance(record.get("values"), list):
        return [RuleViolation(field, "The Ability roll is missing; roll the eight numbers first.", RULE_ROLL)]
    values = record["values"]
    if len(values) != ABILITY_COUNT:
        return [
            RuleViolation(
                field, f"An Ability roll has {ABILITY_COUNT} numbers, not {len(values)}.", RULE_ROLL
            )
        ]
    problems: list[RuleViolation] = []
    for index, value in enumerate(values):
        problems += check_number(f"{field}.values.{index}", value, f"Number {index + 1}")
    dice = record.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or len(dice) != ABILITY_COUNT:
            problems.append(RuleViolation(f"{field}.dice", "Each number needs its three dice.", RULE_ROLL))
        else:
            for index, faces in enumerate(dice):
                ok = isinstance(faces, list) and len(faces) == ABILITY_DICE
                ok = ok and all(_is_int(f) and 1 <= f <= 10 for f in faces)
                if not ok or ability_value(faces) != values[index]:
                    problems.append(
                        RuleViolation(
                            f"{field}.dice.{index}", f"Number {index + 1} does not match its dice.", RULE_ROLL
                        )
                    )
    used = record.get("rerolls_used", 0)
    history = record.get("history", [])
    if not _is_int(used) or used < 0 or not isinstance(history, list) or len(history) != used:
        problems.append(RuleViolation(f"{field}.history", "The reroll history does not add up.", RULE_REROLL))
        return problems
    if allowed_rounds is not None and used > allowed_rounds:
        problems.append(
            RuleViolation(
                field, f"{used} reroll rounds were used; this campaign allows {allowed_rounds}.", RULE_REROLL
            )
        )
    if problems:
        return problems
    rounds = [*history, values]
    if not all(isinstance(r, list) and len(r) == ABILITY_COUNT and all(map(_is_int, r)) for r in rounds):
        return [RuleViolation(f"{field}.history", "The reroll history does not add up.", RULE_REROLL)]
    for number, (before, after) in enumerate(zip(rounds, rounds[1:], strict=False), start=1):
        if not is_hopeless(before):
            problems.append(
                RuleViolation(
                    f"{field}.history.{number - 1}",
                    f"Reroll round {number} was not allowed: fewer than {HOPELESS_COUNT} numbers were "
                    f"{HOPELESS_SCORE} or less.",
                    RULE_REROLL,
                )
            )
        changed = [i for i in range(ABILITY_COUNT) if before[i] != after[i]]
        if any(before[i] > HOPELESS_SCORE for i in changed):
            problems.append(
                RuleViolation(
                    f"{field}.history.{number - 1}",
                    f"Reroll round {number} changed a number above {HOPELESS_SCORE}; only low numbers may be "
                    "rerolled.",
                    RULE_REROLL,
                )
            )
    return problems


def check_abilities_shape(abilities: Any, field: str = "abilities") -> list[RuleViolation]:
    """Exactly the eight Abilities, each a whole number (§10 rule 3)."""
    if not isinstance(abilities, dict):
        return [RuleViolation(field, "The eight Ability scores are missing.", RULE_ASSIGN)]
    problems = [
        RuleViolation(f"{field}.{code}", f"{ABILITY_NAMES[code]} has no score.", RULE_ASSIGN)
        for code in ABILITY_CODES
        if code not in abilities
    ]
    problems += [
        RuleViolation(f"{field}.{code}", f"{code!r} is not one of the eight Abilities.", RULE_ASSIGN)
        for code in abilities
        if code not in ABILITY_CODES
    ]
    problems += [
        RuleViolation(f"{field}.{code}", f"{ABILITY_NAMES[code]} must be a whole number.", RULE_ASSIGN)
        for code in ABILITY_CODES
        if code in abilities and not _is_int(abilities[code])
    ]
    return problems


def check_assignment(values: list[int], abilities: Any) -> list[RuleViolation]:
    """The eight rolled numbers, each used once, one per Ability (§10 rule 3)."""
    problems = check_abilities_shape(abilities)
    if problems:
        return problems
    assigned = Counter(abilities[code] for code in ABILITY_CODES)
    rolled = Counter(values)
    if assigned == rolled:
        return []
    extra = sorted((assigned - rolled).elements())
    unused = sorted((rolled - assigned).elements())
    detail = []
    if extra:
        detail.append(f"not rolled (or used too often): {', '.join(map(str, extra))}")
    if unused:
        detail.append(f"rolled but not used: {', '.join(map(str, unused))}")
    return [
        RuleViolation(
            "abilities",
            "Each rolled number must go to exactly one Ability; " + "; ".join(detail) + ".",
            RULE_ASSIGN,
        )
    ]


def check_manual(abilities: Any) -> list[RuleViolation]:
    """Numbers typed in by the player (e.g. rolled at the table): eight legal rolled numbers."""
    problems = check_abilities_shape(abilities)
    if problems:
        return problems
    out: list[RuleViolation] = []
    for code in ABILITY_CODES:
        out += check_number(f"abilities.{code}", abilities[code], ABILITY_NAMES[code])
    return out


def assign_in_order(
    values: list[int], priority: list[str] | tuple[str, ...] = ABILITY_CODES
) -> dict[str, int]:
    """Highest number to the first Ability named in ``priority``, and so on down."""
    order = list(priority) if isinstance(priority, (list, tuple)) else []
    if not all(isinstance(code, str) for code in order) or sorted(order) != sorted(ABILITY_CODES):
        raise refuse(
            "ability_priority", "The priority must name each of the eight Abilities once.", RULE_ASSIGN
        )
    ranked = sorted(values, reverse=True)
    return {code: ranked[i] for i, code in enumerate(order)}
