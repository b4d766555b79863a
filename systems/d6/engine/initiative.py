"""Initiative (d6-game-time.md §B2-§B4, §D2, §D3, §E1-§E6): Perception rolls with Character
Points as extra Wild Dice, the optional bonus, and the six-factor tie-break chain.

Everything here is a pure function of its inputs; the encounter state machine (``encounter``)
calls it and stores the results. A settled order carries, for every neighbouring pair, what put
the first ahead of the second, so the GM tracker can show it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from characters.systems.base import is_one_of, refuse

from .dicecode import DieCode, DieRoll, format_code, parse, roll_code, roll_from_dict
from .tables import (
    BONUS_RANKS,
    BONUS_REFLEXES_PIPS,
    BONUS_SEARCH_PIPS,
    DODGE,
    FINAL_TIE_RULES,
    INITIATIVE_METHODS,
    MAX_CHARACTER_POINTS_PER_ROLL,
    ORDER_DECIDERS,
    PERCEPTION,
    REFLEXES,
    RULES,
    SEARCH,
    TIE_BREAK_FACTORS,
    TIE_DRAW_MAX,
)

RULE_ROLL = f"{RULES} §B2, §D2"
RULE_TIES = f"{RULES} §B3, §D3, §E5"
RULE_BONUS = f"{RULES} §B4, §E6"
FACTOR_KEYS = tuple(factor["key"] for factor in TIE_BREAK_FACTORS)
_FACTORS = {factor["key"]: factor for factor in TIE_BREAK_FACTORS}


# -- the optional initiative bonus (§B4) ----------------------------------------------------------
def initiative_bonus(
    search: DieCode, search_base: DieCode, reflexes: DieCode, qualifying_ranks: int
) -> dict[str, Any]:
    """+1 per full 2D of search above its base attribute, +1 per full 4D of Reflexes, +1 per 6
    ranks of Skill Bonus / Increased Attribute on Reflexes or search; pips count, the three add
    up (§B4, §E6)."""
    from_search = max(0, search.total_pips - search_base.total_pips) // BONUS_SEARCH_PIPS
    from_reflexes = reflexes.total_pips // BONUS_REFLEXES_PIPS
    from_abilities = max(0, qualifying_ranks) // BONUS_RANKS
    return {
        "search": from_search,
        "reflexes": from_reflexes,
        "abilities": from_abilities,
        "total": from_search + from_reflexes + from_abilities,
    }


# -- the tie-break chain (§B3) --------------------------------------------------------------------
def tie_break_profile(
    attributes: Mapping[str, DieCode],
    skills: Mapping[str, Mapping[str, Any]],
    goes_first: bool = False,
    situational: bool = False,
) -> dict[str, Any]:
    """The six factor values of one character or group. A skill that is missing counts at its
    base attribute's code (§E4); an attribute that is missing counts as 0D."""
    perception = attributes.get(PERCEPTION, DieCode(0))
    reflexes = attributes.get(REFLEXES, DieCode(0))
    search = skills.get(SEARCH, {}).get("code", perception)
    dodge = skills.get(DODGE, {}).get("code", reflexes)
    return {
        "goes_first": bool(goes_first),
        PERCEPTION: format_code(perception),
        SEARCH: format_code(search),
        REFLEXES: format_code(reflexes),
        DODGE: format_code(dodge),
        "situational": bool(situational),
    }


def _factor_value(profile: Mapping[str, Any], key: str) -> int:
    value = profile.get(key)
    if _FACTORS[key]["kind"] == "flag":
        return 1 if value else 0
    if value is None:
        return 0
    return (value if isinstance(value, DieCode) else parse(value, f"profile.{key}")).total_pips


def chain_values(profile: Mapping[str, Any]) -> tuple[int, ...]:
    """The six factors as numbers, higher first (flags 1/0, codes in pips)."""
    return tuple(_factor_value(profile, key) for key in FACTOR_KEYS)


def deciding_factor(first: Mapping[str, Any], second: Mapping[str, Any]) -> str | None:
    """The first factor of the chain on which the two differ, or None when all six tie (§B3)."""
    for key in FACTOR_KEYS:
        if _factor_value(first, key) != _factor_value(second, key):
            return key
    return None


@dataclass(frozen=True)
class Contender:
    """One place to fill in the order: a character or a group, its tie-break profile, its
    initiative total (None when nobody rolls), whether it made the first significant move
    (Method 1), and its random draw for a full tie (when one was made)."""

    id: str
    profile: Mapping[str, Any]
    total: int | None = None
    first: bool = False
    draw: int | None = None
    setup_index: int = 0


@dataclass
class SettledOrder:
    order: list[str]
    notes: list[dict[str, Any]] = field(default_factory=list)
    unresolved: list[list[str]] = field(default_factory=list)  # full ties with no draw

    def as_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), "notes": list(self.notes), "unresolved": list(self.unresolved)}


def _sort_key(c: Contender) -> tuple[Any, ...]:
    total = c.total if c.total is not None else 0
    draw = c.draw if c.draw is not None else 0
    return (-int(c.first), -total, *(-v for v in chain_values(c.profile)), -draw, c.setup_index)


def _shown(profile: Mapping[str, Any], key: str) -> Any:
    value = profile.get(key)
    if _FACTORS[key]["kind"] == "flag":
        return bool(value)
    return value if isinstance(value, str) else format_code(value or DieCode(0))


def _note(a: Contender, b: Contender, use_first: bool, use_totals: bool) -> dict[str, Any]:
    """Why ``a`` stands ahead of ``b`` (§B3: once a factor separates two, later ones do not count)."""
    decided_by: str
    values: list[Any] = []
    if use_first and a.first != b.first:
        decided_by, values = "first_move", [a.first, b.first]
    elif use_totals and (a.total or 0) != (b.total or 0):
        decided_by, values = "total", [a.total, b.total]
    else:
        factor = deciding_factor(a.profile, b.profile)
        if factor is not None:
            decided_by, values = factor, [_shown(a.profile, factor), _shown(b.profile, factor)]
        elif a.draw is not None and b.draw is not None and a.draw != b.draw:
            decided_by, values = "draw", [a.draw, b.draw]
        else:
            decided_by = "unresolved"
    label = _FACTORS[decided_by]["label"] if decided_by in _FACTORS else ORDER_DECIDERS[decided_by]
    return {
        "before": a.id,
        "after": b.id,
        "decided_by": decided_by,
        "factor_number": FACTOR_KEYS.index(decided_by) + 1 if decided_by in _FACTORS else None,
        "label": label,
        "values": values,
        "tie_break": decided_by not in ("first_move", "total"),
    }


def settle_order(contenders: Iterable[Contender], rolled: bool) -> SettledOrder:
    """Order by first move (Method 1), then total (Methods 2/3, when ``rolled``), then the six
    factors, then a recorded draw; anything still tied keeps its setup order and is listed in
    ``unresolved`` for the GM (§B3, §D3, §E2, §E5)."""
    ordered = sorted(contenders, key=_sort_key)
    if len({c.id for c in ordered}) != len(ordered):
        raise refuse("participants", "Each participant appears once in the order.", RULE_TIES)
    use_first = any(c.first for c in ordered)
    notes = [_note(a, b, use_first, rolled) for a, b in zip(ordered, ordered[1:], strict=False)]
    unresolved: list[list[str]] = []
    run: list[str] = []
    for i, c in enumerate(ordered):
        if i and notes[i - 1]["decided_by"] == "unresolved":
            run.append(c.id)
            continue
        if len(run) > 1:
            unresolved.append(run)
        run = [c.id]
    if len(run) > 1:
        unresolved.append(run)
    return SettledOrder([c.id for c in ordered], notes, unresolved)


def full_ties(contenders: Iterable[Contender], rolled: bool) -> list[str]:
    """Ids that tie with someone on everything before the draw: they need a draw (§E5)."""
    listed = list(contenders)
    plain = [
        Contender(c.id, c.profile, c.total if rolled else None, c.first, None, c.setup_index) for c in listed
    ]
    settled = settle_order(plain, rolled)
    return [cid for run in settled.unresolved for cid in run]


def draw_ties(ids: Iterable[str], rng: random.Random) -> dict[str, int]:
    """A random draw for each fully tied contender; the GM may still reorder (§E5 [APP])."""
    return {cid: rng.randint(1, TIE_DRAW_MAX) for cid in ids}


# -- the roll (§B2, §D2) -----------------------------------------------------------------------------
def check_points(character_points: Any, fate_points: Any, available: int | None, where: str) -> int:
    """Character Points on initiative: a whole number, no more than the character has; Fate Points
    are never allowed (§B2, §D2)."""
    if fate_points not in (None, 0):
        raise refuse(
            f"{where}.fate_points",
            "Fate Points cannot be spent on initiative; Character Points can.",
            RULE_ROLL,
        )
    points = 0 if character_points is None else character_points
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise refuse(
            f"{where}.character_points", "Character Points spent are a whole number, 0 or more.", RULE_ROLL
        )
    if points > MAX_CHARACTER_POINTS_PER_ROLL:
        raise refuse(
            f"{where}.character_points",
            f"At most {MAX_CHARACTER_POINTS_PER_ROLL} Character Points on one roll.",
            RULE_ROLL,
        )
    if available is not None and points > available:
        raise refuse(
            f"{where}.character_points",
            f"Only {available} Character Point{'s' if available != 1 else ''} left to spend.",
            RULE_ROLL,
        )
    return points


def roll_initiative(
    perception: DieCode,
    rng: random.Random,
    character_points: int = 0,
    bonus: int = 0,
    *,
    wild_die: str = "exploding",
    wild_one: str = "flag",
) -> DieRoll:
    """A Perception roll for initiative: one extra Wild Die per Character Point, plus the optional
    bonus. No multi-action penalty ever applies (§B2, §B8, §D2)."""
    return roll_code(
        perception, rng, wild_die=wild_die, wild_one=wild_one, extra_wild_dice=character_points, bonus=bonus
    )


def score_initiative(
    data: Any,
    perception: DieCode,
    character_points: int = 0,
    bonus: int = 0,
    *,
    wild_die: str = "exploding",
    wild_one: str = "flag",
    where: str = "dice",
) -> DieRoll:
    """Check and score initiative dice rolled elsewhere (at the table, or replayed)."""
    return roll_from_dict(
        data,
        perception,
        wild_die=wild_die,
        wild_one=wild_one,
        extra_wild_dice=character_points,
        bonus=bonus,
        where=where,
    )


def method_info(method: str) -> dict[str, Any]:
    if not is_one_of(method, INITIATIVE_METHODS):
        raise refuse(
            "method", f"The initiative method is one of: {', '.join(INITIATIVE_METHODS)}.", f"{RULES} §B2"
        )
    return INITIATIVE_METHODS[method]


def check_final_tie(rule: str) -> str:
    if not is_one_of(rule, FINAL_TIE_RULES):
        raise refuse(
            "final_tie", f"A full tie is settled by one of: {', '.join(FINAL_TIE_RULES)}.", RULE_TIES
        )
    return rule
