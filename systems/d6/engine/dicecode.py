"""Die codes such as ``3D``, ``4D+1``, ``3D+2`` (d6-game-time.md §A1, §D1, §E4; rules README
ruling 8): parse, format, compare, add, subtract and roll.

A code is ``n`` six-sided dice plus ``p`` pips; 3 pips make 1D, so a normalised code has
``p`` in 0..2 and compares by its total pips ``3n + p``. The Wild Die is not defined in the
"Game Time" chapter (§B2 [EXTERNAL], §E3); the campaign settings choose its behaviour and the
default re-rolls and adds on a 6, as the digest's note suggests.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from characters.systems.base import RuleError, refuse
from characters.systems.wording import was_were

from .tables import MAX_DICE, MAX_WILD_CHAIN, PIPS_PER_DIE, RULES, WILD_DIE_RULES, WILD_ONE_RULES

RULE_CODES = f"{RULES} §A1, §D1"
RULE_WILD = f"{RULES} §B2, §E3"
_CODE = re.compile(r"^(\d+)D(?:\+(\d+))?$")


@dataclass(frozen=True, order=True)
class DieCode:
    """``dice``D+``pips``, normalised so that 3 pips become 1D. Ordering is by total pips."""

    dice: int
    pips: int = 0

    def __post_init__(self) -> None:
        for name in ("dice", "pips"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"DieCode.{name} must be an int, not {type(value).__name__}")
        if self.dice < 0 or self.pips < 0:
            raise ValueError("a die code is never below 0D")
        if self.pips >= PIPS_PER_DIE:
            object.__setattr__(self, "dice", self.dice + self.pips // PIPS_PER_DIE)
            object.__setattr__(self, "pips", self.pips % PIPS_PER_DIE)

    # -- conversions -------------------------------------------------------------------------------
    @classmethod
    def from_pips(cls, total: int) -> DieCode:
        """The code worth ``total`` pips; below zero counts as 0D (a code never goes negative)."""
        return cls(0, max(0, total))

    @property
    def total_pips(self) -> int:
        return self.dice * PIPS_PER_DIE + self.pips

    def __str__(self) -> str:
        return format_code(self)

    # -- arithmetic ----------------------------------------------------------------------------------
    def __add__(self, other: object) -> DieCode:
        if not isinstance(other, DieCode):
            return NotImplemented
        return DieCode.from_pips(self.total_pips + other.total_pips)

    def __sub__(self, other: object) -> DieCode:
        """Take ``other`` away, never below 0D (the multi-action penalty, §B8)."""
        if not isinstance(other, DieCode):
            return NotImplemented
        return DieCode.from_pips(self.total_pips - other.total_pips)

    def without_dice(self, count: int) -> DieCode:
        """The code less ``count`` whole dice: the effective code under a -``count``D penalty (§B8)."""
        return self - DieCode(max(0, count))

    @property
    def usable(self) -> bool:
        """A code needs at least one die to be rolled; pips alone do not count (§B8, §E10)."""
        return self.dice >= 1

    # -- rolling -------------------------------------------------------------------------------------
    def roll(
        self,
        rng: random.Random,
        wild_die: bool = True,
        *,
        extra_wild_dice: int = 0,
        bonus: int = 0,
        wild_one: str = "flag",
    ) -> DieRoll:
        """Roll the code. With ``wild_die`` one of the dice is the Wild Die, which re-rolls and
        adds on a 6; ``extra_wild_dice`` more Wild Dice are added (a Character Point each, §B2);
        ``bonus`` is a flat addition (the optional initiative bonus, §B4)."""
        if not self.usable:
            raise refuse(
                "code", f"{self} has no dice to roll: a trait at zero cannot be used.", f"{RULES} §B8"
            )
        normal_count = self.dice - 1 if wild_die else self.dice
        draw = getattr(rng, "draw", None)
        if callable(draw):
            # A dice source that makes whole draws of the dice roller's kinds (the campaign's fair
            # dice, where each draw carries its own proof): the code's dice with its Wild Die in
            # one draw, each extra Wild Die in a draw of its own. Same faces in the same order.
            faces = tuple(draw("d6_wild" if wild_die else "d6", self.dice))
            dice, wild = faces[:normal_count], faces[normal_count:]
            extra = tuple(
                tuple(draw("d6_wild" if wild_die else "d6", 1)) for _ in range(max(0, extra_wild_dice))
            )
        else:
            dice = tuple(rng.randint(1, 6) for _ in range(normal_count))
            wild = _roll_wild(rng, wild_die) if wild_die else ()
            extra = tuple(_roll_wild(rng, wild_die) for _ in range(max(0, extra_wild_dice)))
        return DieRoll(self, dice, wild, extra, bonus, "exploding" if wild_die else "plain", wild_one)


def _roll_wild(rng: random.Random, explode: bool) -> tuple[int, ...]:
    faces = [rng.randint(1, 6)]
    while explode and faces[-1] == 6 and len(faces) < MAX_WILD_CHAIN:
        faces.append(rng.randint(1, 6))
    return tuple(faces)


def format_code(code: DieCode) -> str:
    """``3D`` or ``3D+2``; never decimals (§A1)."""
    return f"{code.dice}D+{code.pips}" if code.pips else f"{code.dice}D"


def parse(text: Any, field_name: str = "code") -> DieCode:
    """Read a die code typed by a person. Lower case and spaces are forgiven; anything else that
    is not ``nD`` or ``nD+1``/``nD+2`` is refused with a RuleError naming ``field_name``."""
    if isinstance(text, DieCode):
        return text
    if not isinstance(text, str):
        raise refuse(field_name, f"{_shown(text)} is not a die code: write it like 3D or 3D+2.", RULE_CODES)
    cleaned = re.sub(r"\s+", "", text).upper()
    match = _CODE.match(cleaned)
    if not match:
        hint = " A penalty or lower code is still written as a positive code." if "-" in cleaned else ""
        raise refuse(
            field_name, f"{_shown(text)} is not a die code: write it like 3D or 3D+2.{hint}", RULE_CODES
        )
    dice = int(match.group(1))
    pips = int(match.group(2)) if match.group(2) is not None else 0
    if pips == 0 and match.group(2) is not None:
        raise refuse(field_name, f"{_shown(text)} has +0 pips: write it as {dice}D.", RULE_CODES)
    if pips >= PIPS_PER_DIE:
        better = format_code(DieCode(dice, pips))
        raise refuse(
            field_name,
            f"{_shown(text)} has {pips} pips, but 3 pips make 1D: write it as {better}.",
            RULE_CODES,
        )
    if dice > MAX_DICE:
        raise refuse(field_name, f"{_shown(text)} has more than {MAX_DICE} dice.", RULE_CODES)
    return DieCode(dice, pips)


def _shown(value: Any) -> str:
    return repr(value[:40]) if isinstance(value, str) else repr(value)[:40]


def is_code(text: Any) -> bool:
    try:
        parse(text)
    except RuleError:
        return False
    return True


def total(codes: Iterable[DieCode]) -> DieCode:
    result = DieCode(0)
    for code in codes:
        result = result + code
    return result


@dataclass(frozen=True)
class DieRoll:
    """One rolled code: the ordinary dice, the Wild Die's chain of faces (the first face, then each
    re-roll after a 6), one chain per extra Wild Die, a flat bonus, and the total they make."""

    code: DieCode
    dice: tuple[int, ...]
    wild: tuple[int, ...] = ()
    extra_wild: tuple[tuple[int, ...], ...] = ()
    bonus: int = 0
    wild_die: str = "exploding"  # "exploding" | "plain" (§E3 setting)
    wild_one: str = "flag"  # "flag" | "remove_highest" (§E3 setting)
    removed: tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "removed", self._removed())

    @property
    def wild_one_rolled(self) -> bool:
        """The Wild Die's first face is a 1: the GM may call for a complication."""
        return bool(self.wild) and self.wild[0] == 1

    def _removed(self) -> tuple[int, ...]:
        if self.wild_one != "remove_highest" or not self.wild_one_rolled:
            return ()
        return (self.wild[0], max(self.dice)) if self.dice else (self.wild[0],)

    @property
    def total(self) -> int:
        rolled = sum(self.dice) + sum(self.wild) + sum(sum(chain) for chain in self.extra_wild)
        return rolled - sum(self.removed) + self.code.pips + self.bonus

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": format_code(self.code),
            "dice": list(self.dice),
            "wild": list(self.wild),
            "extra_wild": [list(chain) for chain in self.extra_wild],
            "pips": self.code.pips,
            "bonus": self.bonus,
            "wild_die": self.wild_die,
            "wild_one": self.wild_one,
            "wild_one_rolled": self.wild_one_rolled,
            "removed": list(self.removed),
            "total": self.total,
        }


def _faces(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6 for face in value
    ):
        raise refuse(where, "Dice faces are whole numbers from 1 to 6.", RULE_WILD)
    return tuple(value)


def _chain(value: Any, where: str, explode: bool) -> tuple[int, ...]:
    faces = _faces(value, where)
    if not faces:
        raise refuse(where, "A Wild Die needs at least one face.", RULE_WILD)
    if len(faces) > MAX_WILD_CHAIN:
        raise refuse(where, f"A Wild Die is recorded with at most {MAX_WILD_CHAIN} re-rolls.", RULE_WILD)
    if explode:
        if any(face != 6 for face in faces[:-1]) or (faces[-1] == 6 and len(faces) < MAX_WILD_CHAIN):
            raise refuse(where, "A Wild Die is rolled again after each 6, and only after a 6.", RULE_WILD)
    elif len(faces) != 1:
        raise refuse(where, "With plain Wild Dice each Wild Die has exactly one face.", RULE_WILD)
    return faces


def roll_from_dict(
    data: Any,
    code: DieCode,
    *,
    wild_die: str = "exploding",
    wild_one: str = "flag",
    extra_wild_dice: int = 0,
    bonus: int = 0,
    where: str = "dice",
) -> DieRoll:
    """Check dice rolled elsewhere (at the table, or stored in an event) against the code and the
    rules, and score them. The total is always recomputed; a stated total is ignored."""
    if wild_die not in WILD_DIE_RULES or wild_one not in WILD_ONE_RULES:
        raise refuse("settings", "Unknown Wild Die rule.", RULE_WILD)
    if not isinstance(data, dict):
        raise refuse(where, "A roll is given as its dice faces.", RULE_WILD)
    if not code.usable:
        raise refuse(where, f"{code} has no dice to roll: a trait at zero cannot be used.", f"{RULES} §B8")
    explode = wild_die == "exploding"
    dice = _faces(data.get("dice", []), f"{where}.dice")
    expected = code.dice - 1 if explode else code.dice
    if len(dice) != expected:
        kind = "ordinary dice besides the Wild Die" if explode else "dice"
        raise refuse(
            f"{where}.dice",
            f"{code} rolls {expected} {kind}; {len(dice)} {was_were(len(dice))} given.",
            RULE_WILD,
        )
    wild: tuple[int, ...] = ()
    if explode:
        wild = _chain(data.get("wild"), f"{where}.wild", True)
    elif data.get("wild"):
        raise refuse(f"{where}.wild", "With plain Wild Dice there is no separate Wild Die.", RULE_WILD)
    extra_raw = data.get("extra_wild", [])
    if not isinstance(extra_raw, list | tuple) or len(extra_raw) != extra_wild_dice:
        raise refuse(
            f"{where}.extra_wild",
            f"{extra_wild_dice} extra Wild Dice were paid for; give one set of faces for each.",
            RULE_WILD,
        )
    extra = tuple(_chain(chain, f"{where}.extra_wild.{i}", explode) for i, chain in enumerate(extra_raw))
    return DieRoll(code, dice, wild, extra, bonus, wild_die, wild_one)


def roll_code(
    code: DieCode,
    rng: random.Random,
    *,
    wild_die: str = "exploding",
    wild_one: str = "flag",
    extra_wild_dice: int = 0,
    bonus: int = 0,
) -> DieRoll:
    """Roll with the campaign's Wild Die settings (names as in ``settings.SETTINGS``)."""
    if wild_die not in WILD_DIE_RULES or wild_one not in WILD_ONE_RULES:
        raise refuse("settings", "Unknown Wild Die rule.", RULE_WILD)
    return code.roll(
        rng, wild_die == "exploding", extra_wild_dice=extra_wild_dice, bonus=bonus, wild_one=wild_one
    )
