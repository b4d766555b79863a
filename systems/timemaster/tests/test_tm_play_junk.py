"""Play at the table answers any JSON-shaped input with its refusal naming the field, never with a
TypeError, KeyError or AttributeError from inside the engine (combat.py, recovery.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from systems.timemaster.engine import SYSTEM, combat
from tests.systems.junk import JUNK_SETTINGS, Case, json_junk, one_field_junk

from .helpers import make_build

SITUATIONS = [
    {"form": "melee", "unskilled_melee": 61, "shield": "small", "attack_number": 1},
    {"form": "melee", "declared_skill_score": 90, "defender_advanced_self_defense": True},
    {
        "form": "missile",
        "missile_class": "firearm",
        "defense_die": 4,
        "defender_kind": "pc",
        "luck_spent": 1,
        "luck_available": 30,
    },
    {
        "form": "missile",
        "missile_class": "missiles_a",
        "defender_kind": "troops",
        "mass_armor": True,
        "troop_armor_rating": 20,
        "defense_die": 3,
    },
    {"form": "paranormal", "current_willpower": 40},
]
KEYS = tuple(combat.SITUATION_FIELDS)
AGENT = make_build()
PLAY_ENTRIES = [
    {"kind": "damage_taken", "stamina": 10, "wounds": 2, "willpower": 3, "source": "x"},
    {"kind": "stamina_rested", "rounds": 2},
    {"kind": "wounds_healed", "days": 1, "medical_days": 1},
    {"kind": "willpower_slept", "hours": 2},
    {"kind": "luck_spent", "points": 1},
    {"kind": "fatal_blow", "cause": "poison"},
    {"kind": "critical_treated", "how": "medical"},
]
ENTRY_KEYS = (
    "kind",
    "stamina",
    "wounds",
    "willpower",
    "rounds",
    "days",
    "medical_days",
    "hours",
    "points",
    "cause",
    "how",
    "roll",
)


def situations_with_junk():
    return st.sampled_from(SITUATIONS).flatmap(lambda s: one_field_junk(s, keys=KEYS))


def entries_with_junk():
    return st.sampled_from(PLAY_ENTRIES).flatmap(lambda e: one_field_junk(e, keys=ENTRY_KEYS))


CASES = [
    Case("defense_column(junk)", combat.defense_column, json_junk(KEYS)),
    Case("defense_column(situation with junk)", combat.defense_column, situations_with_junk()),
    Case("defense_column(settings junk)", lambda v: combat.defense_column(SITUATIONS[0], v)),
    Case(
        "roll_attack(situation with junk)",
        lambda v: combat.roll_attack(v, 70, "armed", random.Random(1)),
        situations_with_junk(),
    ),
    Case("apply(agent, play entry with junk)", lambda v: SYSTEM.apply(AGENT, v), entries_with_junk()),
]


@pytest.mark.parametrize("case", CASES, ids=repr)
@JUNK_SETTINGS
@given(data=st.data())
def test_every_play_entry_point_refuses_junk_in_its_own_words(case, data):
    case.check(data.draw(case.strategy))
