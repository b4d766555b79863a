"""A second Tempo module needs nothing but data: this one exists only in the tests."""

import json
import random

import pytest

from characters.systems.base import RuleError
from systems.tempo.engine import SYSTEM, modules
from systems.tempo.engine.module_data import ModuleDataError, module_from_data
from systems.tempo.engine.roll import roll, roll_for_agent

HEIST = {
    "key": "heist",
    "label": "Heist",
    "rule": "test-only module",
    "ranks": [
        {"key": "ace", "name": "Ace", "modifier": 5, "count": 1, "benefit_picks": 1},
        {"key": "pro", "name": "Pro", "modifier": 3, "count": 1},
        {"key": "amateur", "name": "Amateur", "modifier": 1, "count": None},
    ],
    "roles": [
        {"key": "driver", "name": "Driver", "summary": "Getaways.",
         "benefits": [{"key": "drift", "name": "Drift", "summary": "Corners at speed."}]},
        {"key": "cracker", "name": "Cracker", "summary": "Safes.",
         "benefits": [{"key": "stethoscope", "name": "Stethoscope", "summary": "Hears tumblers."}]},
        {"key": "face", "name": "Face", "summary": "Talking.",
         "benefits": [{"key": "disguise", "name": "Disguise", "summary": "Becomes someone else."}]},
    ],
    "aspect_slots": [
        {"key": "concept", "label": "Concept", "anchor_required": False},
        {"key": "vice", "label": "Vice", "anchor_required": False},
    ],
    "campaign_aspects": ["ONE LAST JOB"],
}  # fmt: skip


@pytest.fixture
def heist():
    module = modules.register(json.loads(json.dumps(HEIST)))  # plain JSON data, nothing else
    yield module
    modules.unregister("heist")


def heist_choices(**changes):
    base = {
        "module": "heist",
        "name": "Rook",
        "aspects": {"concept": {"text": "WHEELMAN"}, "vice": {"text": "CAN'T SAY NO TO A BET"}},
        "roles": {"driver": "ace", "cracker": "pro", "face": "amateur"},
        "benefits": {"driver": [{"key": "drift"}]},
    }
    base.update(changes)
    return base


def test_a_data_only_module_builds_validates_and_rolls(heist):
    build = SYSTEM.new_build(heist_choices(), random.Random(0))
    assert build["module"] == "heist"
    assert SYSTEM.validate(build) == []
    result, _ = roll_for_agent(build, "driver", {}, random.Random(1))
    assert result.rating == 5
    assert SYSTEM.sheet(build).fields["campaign_aspects"] == ["ONE LAST JOB"]
    assert SYSTEM.sheet(build).fields["distribution_line"] == "1 Ace, 1 Pro"


def test_a_data_only_module_applies_its_own_distribution_and_picks(heist):
    build = SYSTEM.new_build(heist_choices(), random.Random(0))
    build["roles"]["face"] = "ace"
    build["benefits"]["cracker"] = [{"key": "stethoscope"}]
    messages = [p.message for p in SYSTEM.validate(build)]
    assert "Ace: 2 roles (Driver, Face), but an agent has exactly 1. Move 1 to another rating." in messages
    assert "Only Ace roles have benefits; Cracker is Pro. Remove Stethoscope." in messages


def test_a_module_without_anchors_does_not_ask_for_them(heist):
    assert not [
        p for p in SYSTEM.validate(SYSTEM.new_build(heist_choices(), random.Random(0))) if "anchor" in p.field
    ]


def test_a_module_without_the_flashpoints_aspect_limit_allows_several_own_aspects(heist):
    uses = [{"aspect": "A", "source": "own"}, {"aspect": "B", "source": "own"}]
    assert roll(random.Random(1), {"aspects": uses}, module="heist").fate_spent == 2
    with pytest.raises(RuleError):
        roll(random.Random(1), {"aspects": uses}, module="flashpoints")


def test_inconsistent_module_data_is_rejected():
    broken = json.loads(json.dumps(HEIST))
    broken["ranks"][2]["count"] = 5
    with pytest.raises(ModuleDataError):
        module_from_data(broken)
    with pytest.raises(ModuleDataError):
        module_from_data({**HEIST, "powers": []})


def test_after_unregistering_the_module_is_unknown(heist):
    modules.unregister("heist")
    with pytest.raises(RuleError):
        modules.get_module("heist")
