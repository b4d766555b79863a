"""NPC records (timemaster-characters.md §8)."""

from __future__ import annotations

import random

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import npcs

from .helpers import fields_of


def test_quick_human_npc_has_fifty_everywhere_and_significance_1d10():
    npc = npcs.quick_npc("Innkeeper", "human", random.Random(3))
    assert set(npc["abilities"].values()) == {50}
    assert "LUCK" not in npc["abilities"]
    assert 1 <= npc["significance"] <= 10
    assert npcs.validate_npc(npc) == []


def test_quick_demorean_has_forty_everywhere_but_willpower_seventy_and_significance_zero():
    npc = npcs.quick_npc("Shapeshifter", "demorean", random.Random(3))
    assert npc["abilities"]["WPR"] == 70
    assert {v for k, v in npc["abilities"].items() if k != "WPR"} == {40}
    assert npc["significance"] == 0
    assert len(npc["talents"]) == 8


def test_formulas_with_luck_use_fifty_for_humans_and_forty_for_demoreans():
    demorean = npcs.derive_npc(npcs.quick_npc("D", "demorean", random.Random(0)))
    assert demorean["talents"]["shield"]["score"] == (70 + 40) // 2
    assert demorean["talents"]["shape_shift"]["score"] is None
    human = npcs.npc_record("Clerk", significance=5, skills={"computers": {"level": "expert"}})
    assert npcs.derive_npc(human)["skills"]["computers"]["score"] == (50 + 50) // 2 + 30


@pytest.mark.parametrize(
    ("significance", "ok"), [(1, True), (500, True), (0, False), (501, False), (None, False)]
)
def test_human_significance_runs_from_1_to_500(significance, ok):
    record = {"name": "N", "kind": "human", "abilities": {}, "significance": significance}
    record["abilities"] = {c: 50 for c in ("STR", "DEX", "AGL", "PER", "WPR", "PCN", "STA")}
    assert ("significance" not in fields_of(npcs.validate_npc(record))) == ok


def test_demorean_significance_is_always_zero():
    with pytest.raises(RuleError) as error:
        npcs.npc_record("D", "demorean", significance=5)
    assert fields_of(error.value.violations) == {"significance"}


def test_npcs_have_no_luck():
    with pytest.raises(RuleError) as error:
        npcs.npc_record("N", abilities={"LUCK": 50}, significance=3)
    assert "abilities.LUCK" in fields_of(error.value.violations)


@pytest.mark.parametrize(("status", "ok"), [(None, True), (1, True), (5, True), (0, False), (6, False)])
def test_status_rating_is_optional_and_runs_from_1_to_5(status, ok):
    record = {"name": "N", "kind": "human", "significance": 30, "status": status}
    record["abilities"] = {c: 50 for c in ("STR", "DEX", "AGL", "PER", "WPR", "PCN", "STA")}
    assert ("status" not in fields_of(npcs.validate_npc(record))) == ok


def test_minimum_bribe_uses_status_when_there_is_one_else_significance():
    assert npcs.minimum_bribe(npcs.npc_record("Guard", significance=7)) == 70
    assert npcs.minimum_bribe(npcs.npc_record("Senator", significance=80, status=3)) == 3000


def test_humans_cannot_have_demorean_talents_nor_demoreans_human_ones():
    with pytest.raises(RuleError):
        npcs.npc_record("N", significance=3, talents=["shock"])
    with pytest.raises(RuleError):
        npcs.npc_record("D", "demorean", talents=["paranormal_memory"])
    assert npcs.npc_record("Psychic", significance=3, talents=["paranormal_memory"])["talents"] == [
        "paranormal_memory"
    ]


def test_unknown_kind_is_refused():
    with pytest.raises(RuleError):
        npcs.quick_npc("X", "robot", random.Random(0))
