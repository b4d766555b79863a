"""Shared builders for the D6 engine tests."""

from __future__ import annotations

import random
from collections.abc import Iterable

from systems.d6.engine import SYSTEM
from systems.d6.engine import encounter as enc


class ScriptedDice(random.Random):
    """An rng whose d6 faces are given in order (and whose other draws are seeded)."""

    def __init__(self, faces: Iterable[int]):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if (a, b) == (1, 6):
            return self.faces.pop(0)
        return super().randint(a, b)


def build(name: str = "Ana", **overrides) -> dict:
    choices = {
        "name": name,
        "attributes": {"Perception": "3D", "Reflexes": "3D", "Strength": "3D"},
        "skills": {
            "search": {"attribute": "Perception", "code": "3D"},
            "dodge": {"attribute": "Reflexes", "code": "3D"},
            "brawling": {"attribute": "Strength", "code": "4D"},
        },
    }
    choices.update(overrides)
    return SYSTEM.new_build(choices, random.Random(0))


def npc(pid: str, perception: str = "3D", reflexes: str = "3D", **extra) -> dict:
    return {
        "id": pid,
        "name": extra.pop("name", pid.title()),
        "kind": extra.pop("kind", "npc"),
        "attributes": {"Perception": perception, "Reflexes": reflexes, "Strength": "3D"},
        "skills": extra.pop("skills", {"brawling": {"attribute": "Strength", "code": "4D"}}),
        **extra,
    }


def start(participants, method="once_per_scene", settings=None, **order_event):
    """A running encounter at the first turn of round 1, ordered without rolls."""
    state = enc.new_encounter(participants, method=method, settings=settings)
    state = enc.apply_event(state, {"type": "begin_round"})
    return enc.apply_event(state, {"type": "order_without_rolls", **order_event})


def play(state, *events, rng=None):
    for event in events:
        state = enc.apply_event(state, event, rng)
    return state
