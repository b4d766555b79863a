"""Shared builders for the TIMEMASTER engine tests."""

from __future__ import annotations

import copy
import random
from typing import Any

from systems.timemaster.engine import creation

#: A legal roll record: eight even numbers 26-80 whose dice add up.
ROLL: dict[str, Any] = {
    "values": [72, 64, 60, 56, 52, 48, 44, 40],
    "dice": [[10, 10, 6], [10, 10, 2], [10, 5, 5], [6, 6, 6], [6, 5, 5], [5, 5, 4], [4, 4, 4], [4, 3, 3]],
    "rerolls_used": 0,
    "history": [],
}

#: The assignment used by ``choices()``: the eight numbers above in book order.
ASSIGNMENT = {"STR": 72, "DEX": 64, "AGL": 60, "PER": 56, "WPR": 52, "PCN": 48, "LUCK": 44, "STA": 40}

BACKGROUND: dict[str, Any] = {
    "birth_year": 1950,
    "birth_place": "Boston",
    "age_at_recruitment": 30,
    "sex": "male",
    "profession": "police detective",
    "education": "police academy",
    "height": "5'10\"",
    "weight": 170,
    "reputation": "dogged, dislikes cats",
    "native_era": {"city": True, "writing": True},
}


def choices(**changes: Any) -> dict[str, Any]:
    """Complete, legal wizard choices; keyword arguments replace top-level keys."""
    base: dict[str, Any] = {
        "name": "Harry Adams",
        "player": "Pat",
        "ability_method": "rolled",
        "ability_roll": copy.deepcopy(ROLL),
        "abilities": dict(ASSIGNMENT),
        "background": copy.deepcopy(BACKGROUND),
        "skills": ["investigation", "pistol"],
        "profession_skill": "investigation",
        "historical_specialty": {"cultures": ["United States"]},
        "talent": "telepathic_probe",
    }
    base.update(changes)
    return base


def background(**changes: Any) -> dict[str, Any]:
    result = copy.deepcopy(BACKGROUND)
    result.update(changes)
    return result


def make_build(**changes: Any) -> dict[str, Any]:
    return creation.new_build(choices(**changes), random.Random(0))


def rules_of(violations) -> set[str]:
    return {v.rule for v in violations}


def fields_of(violations) -> set[str]:
    return {v.field for v in violations}
