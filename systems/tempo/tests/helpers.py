"""Shared builders for the Tempo engine tests."""

from __future__ import annotations

import copy
import random
from typing import Any

SLOTS = ("primary", "origin", "service", "flashpoint_1", "flashpoint_2")

ROLES: dict[str, str] = {
    "athlete": "seasoned",
    "diplomat": "elite",
    "observer": "world_class",
    "politician": "trained",
    "scholar": "elite",
    "soldier": "seasoned",
    "technician": "trained",
    "thief": "untrained",
}

BENEFITS: dict[str, list[Any]] = {
    "diplomat": [{"key": "gambler"}],
    "observer": [{"key": "cold_read"}, {"key": "elementary"}],
    "scholar": [{"key": "great_mind", "field": "Soviet history"}],
}


def choices(**changes: Any) -> dict[str, Any]:
    """Complete, legal builder choices; keyword arguments replace top-level keys."""
    base: dict[str, Any] = {
        "module": "flashpoints",
        "name": "Finn Marlowe",
        "codename": "KESTREL",
        "player": "Fred",
        "aspects": {
            "primary": {"text": "GOOD ENOUGH IS GOOD ENOUGH", "anchor": "his old sergeant"},
            "origin": {"text": "DOCKSIDE KID", "anchor": "the Hamburg docks"},
            "service": {"text": "EX-SPECIAL FORCES", "anchor": "a battered beret"},
            "flashpoint_1": {"text": "THE BERLIN TUNNEL", "anchor": "Checkpoint Charlie"},
            "flashpoint_2": {"text": "SHARP EYES", "anchor": "Leanne"},
        },
        "roles": dict(ROLES),
        "benefits": copy.deepcopy(BENEFITS),
    }
    base.update(copy.deepcopy(changes))
    return base


def agent(fate_points: int = 0, **changes: Any) -> dict[str, Any]:
    from systems.tempo.engine import SYSTEM

    build = SYSTEM.new_build(choices(**changes), random.Random(0))
    build["fate_points"] = fate_points
    return build


class Scripted(random.Random):
    """An rng whose d6 faces are given in order (dice.keep draws with randint)."""

    def __init__(self, faces: list[int]):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:  # noqa: D401 - same signature as random.Random
        return self.faces.pop(0)
