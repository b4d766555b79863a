"""Dice, pure and seeded: every roll takes an injected ``random.Random``.

Tests pass ``random.Random(seed)``; the application passes ``secrets.SystemRandom()``
(see ``system_rng``). Every roll returns its faces and its total.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any

FUDGE_FACES = (-1, 0, 1)
FUDGE_SYMBOLS = {-1: "-", 0: "0", 1: "+"}


@dataclass(frozen=True)
class DiceResult:
    """What was rolled: the kind, every face in rolling order, the kept faces, the total."""

    kind: str
    faces: tuple[int, ...]
    total: int
    kept: tuple[int, ...] = ()
    modifier: int = 0
    detail: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "faces": list(self.faces),
            "kept": list(self.kept or self.faces),
            "modifier": self.modifier,
            "total": self.total,
            **({"detail": self.detail} if self.detail else {}),
        }


def system_rng() -> random.Random:
    """The application's source of randomness (not reproducible, not predictable)."""
    return secrets.SystemRandom()


def _faces(rng: random.Random, sides: int, count: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, sides) for _ in range(count))


def d6(rng: random.Random, count: int = 1, modifier: int = 0) -> DiceResult:
    faces = _faces(rng, 6, count)
    return DiceResult("d6", faces, sum(faces) + modifier, modifier=modifier)


def d10_face(rng: random.Random) -> int:
    """One d10 as printed: 0-9."""
    return rng.randint(0, 9)


def d10(rng: random.Random, count: int = 1, modifier: int = 0) -> DiceResult:
    """d10s read 1-10: a face of 0 reads 10 (timemaster-play.md §1)."""
    faces = tuple(face or 10 for face in (d10_face(rng) for _ in range(count)))
    return DiceResult("d10", faces, sum(faces) + modifier, modifier=modifier)


def read_percent(tens: int, ones: int) -> int:
    """Two d10 read as 1-100, 00 = 100."""
    value = tens * 10 + ones
    return value or 100


def percent(rng: random.Random) -> DiceResult:
    """Percentile dice: tens die then ones die, 00 reads 100."""
    tens, ones = d10_face(rng), d10_face(rng)
    return DiceResult("percent", (tens, ones), read_percent(tens, ones))


def read_d1000(hundreds: int, tens: int, ones: int) -> int:
    """Three d10 read as 001-1000, 000 = 1000 (rules README, ruling 4)."""
    value = hundreds * 100 + tens * 10 + ones
    return value or 1000


def d1000(rng: random.Random) -> DiceResult:
    faces = (d10_face(rng), d10_face(rng), d10_face(rng))
    return DiceResult("d1000", faces, read_d1000(*faces))


def fudge(rng: random.Random, count: int = 4) -> DiceResult:
    """Fudge dice: each face is -1, 0 or +1 (shown as -, 0, +)."""
    faces = tuple(rng.choice(FUDGE_FACES) for _ in range(count))
    return DiceResult("fudge", faces, sum(faces))


def keep(
    rng: random.Random,
    count: int,
    keep_count: int = 3,
    highest: bool = True,
    sides: int = 6,
    modifier: int = 0,
) -> DiceResult:
    """Roll ``count`` dice and keep the highest (or lowest) ``keep_count``.

    Tempo rolls 3d6 plus bonus dice keeping the highest three, or plus penalty dice
    keeping the lowest three; the engine decides how many extra dice survive cancelling.
    """
    if count < keep_count:
        raise ValueError(f"cannot keep {keep_count} of {count} dice")
    faces = _faces(rng, sides, count)
    ordered = sorted(faces, reverse=highest)
    kept = tuple(ordered[:keep_count])
    kind = f"{count}d{sides}k{'h' if highest else 'l'}{keep_count}"
    return DiceResult(kind, faces, sum(kept) + modifier, kept=kept, modifier=modifier)


#: How many times one Wild Die is rolled again at most (a bound, so a roll always ends).
MAX_WILD_CHAIN = 50


def d6_wild(rng: random.Random, count: int = 1, modifier: int = 0) -> DiceResult:
    """``count`` d6 of which the last is a Wild Die: a 6 on it is rolled again and added, each
    time it shows 6 (at most MAX_WILD_CHAIN faces). Faces in rolling order; all count."""
    faces = list(_faces(rng, 6, count - 1))
    chain = [rng.randint(1, 6)]
    while chain[-1] == 6 and len(chain) < MAX_WILD_CHAIN:
        chain.append(rng.randint(1, 6))
    every = tuple(faces + chain)
    return DiceResult("d6_wild", every, sum(every) + modifier, modifier=modifier)


# What the generic dice roller offers, with the bounds of its count.
ROLLER_KINDS: dict[str, dict[str, Any]] = {
    "d6": {"label": "d6", "min_count": 1, "max_count": 30},
    "d10": {"label": "d10 (0 reads 10)", "min_count": 1, "max_count": 30},
    "percent": {"label": "Percentile (00 = 100)", "min_count": 1, "max_count": 1},
    "d1000": {"label": "Three d10 as 001-1000", "min_count": 1, "max_count": 1},
    "fudge": {"label": "Fudge dice (-/0/+)", "min_count": 1, "max_count": 10},
    "3d6_bonus": {"label": "3d6 + bonus dice (keep highest 3)", "min_count": 0, "max_count": 10},
    "3d6_penalty": {"label": "3d6 + penalty dice (keep lowest 3)", "min_count": 0, "max_count": 10},
    "d6_wild": {"label": "d6, the last a Wild Die (a 6 rolls again)", "min_count": 1, "max_count": 30},
}


#: A dice kind in words, for the dice log (the roller's codes stay in the API and the proofs).
KIND_WORDS: dict[str, str] = {
    "percent": "percentile dice",
    "d1000": "three d10 (001-1000)",
    "fudge": "Fudge dice",
    "3d6_bonus": "3d6 with bonus dice",
    "3d6_penalty": "3d6 with penalty dice",
    "d6_wild": "d6 with a Wild Die",
}


def roll_kind(rng: random.Random, kind: str, count: int = 1, modifier: int = 0) -> DiceResult:
    """The dice roller's one entry point; ``count`` means extra dice for the 3d6 kinds."""
    if kind == "d6":
        return d6(rng, count, modifier)
    if kind == "d10":
        return d10(rng, count, modifier)
    if kind == "percent":
        return _with_modifier(percent(rng), modifier)
    if kind == "d1000":
        return _with_modifier(d1000(rng), modifier)
    if kind == "fudge":
        return _with_modifier(fudge(rng, count), modifier)
    if kind == "3d6_bonus":
        return keep(rng, 3 + count, 3, highest=True, modifier=modifier)
    if kind == "3d6_penalty":
        return keep(rng, 3 + count, 3, highest=False, modifier=modifier)
    if kind == "d6_wild":
        return d6_wild(rng, count, modifier)
    raise ValueError(f"unknown dice kind {kind!r}")


def _with_modifier(result: DiceResult, modifier: int) -> DiceResult:
    if not modifier:
        return result
    return DiceResult(result.kind, result.faces, result.total + modifier, modifier=modifier)
