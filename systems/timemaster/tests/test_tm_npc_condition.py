"""An NPC's body in a fight (systems/timemaster/engine/npc_condition.py): timemaster-play.md §16
(L1405-1435), §16.1 and §29 ambiguity 37 (NPCs have no Luck, L623), §19 crumpled armor (L1535-1537)."""

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import npc_condition

GUARD = {"STR": 50, "DEX": 50, "AGL": 50, "PCN": 50, "STA": 50, "WPR": 50, "PER": 50}  # 13 boxes


def test_an_npc_loses_stamina_and_marks_wounds_like_an_agent():
    build = npc_condition.fold(
        GUARD, [{"kind": "damage_taken", "stamina": 14, "wounds": 3, "crumple": "abdomen"}]
    )
    state = npc_condition.summary(build)
    assert (state["current_stamina"], state["wounds_marked"], state["wounds_left"]) == (36, 3, 10)
    assert state["crumpled"] == ["abdomen"] and state["status"] == "conscious"


def test_at_0_stamina_the_npc_is_unconscious_and_with_every_box_marked_dead_without_a_luck_check():
    out = npc_condition.fold(GUARD, [{"kind": "damage_taken", "stamina": 50, "wounds": 0}])
    assert npc_condition.summary(out)["status"] == "unconscious"
    twelve = npc_condition.fold(GUARD, [{"kind": "damage_taken", "stamina": 1, "wounds": 12}])
    assert (
        npc_condition.summary(twelve)["status"] == "conscious" and npc_condition.summary(twelve)["critical"]
    )
    dead = npc_condition.fold(GUARD, [{"kind": "damage_taken", "stamina": 1, "wounds": 13}])
    assert npc_condition.summary(dead)["status"] == "dead"
    killed = npc_condition.fold(GUARD, [{"kind": "fatal_blow", "cause": "killing_shot"}])
    assert npc_condition.summary(killed)["status"] == "dead"


def test_a_dead_npc_takes_no_more_entries_and_an_npc_makes_no_luck_check():
    dead = npc_condition.fold(GUARD, [{"kind": "fatal_blow", "cause": "killing_shot"}])
    with pytest.raises(RuleError, match="dead"):
        npc_condition.apply(dead, "damage_taken", {"stamina": 1, "wounds": 0})
    with pytest.raises(RuleError, match="one of"):
        npc_condition.apply(npc_condition.npc_build(GUARD), "death_check", {"roll": 5})
    with pytest.raises(RuleError, match="no Stamina"):
        npc_condition.npc_build({})


def test_a_missing_value_is_refused_by_name():
    with pytest.raises(RuleError, match="Stamina lost"):
        npc_condition.apply(npc_condition.npc_build(GUARD), "damage_taken", {"wounds": 1})
