import pytest

from characters.systems.base import RuleError
from systems.time_to_kill.engine import SYSTEM

from .helpers import build


def victory(die_rolls, mission=None):
    return {"kind": "mission_result", "outcome": "victory", "die_rolls": die_rolls, "mission": mission}


def test_a_victory_adds_its_die_rolls_to_the_points_and_one_mission():
    ninja = SYSTEM.apply(build(), victory(7, "m1"))
    assert ninja["record"] == {"ranking_points": 7, "missions_completed": 1}
    assert ninja["missions"] == [{"mission": "m1", "outcome": "victory", "die_rolls": 7, "points": 7}]
    assert SYSTEM.derive(ninja)["record"]["ranking"] == 7


def test_the_ranking_is_points_divided_by_missions_completed():
    ninja = build()
    for rolls in (7, 4):
        ninja = SYSTEM.apply(ninja, victory(rolls))
    record = SYSTEM.derive(ninja)["record"]
    assert record["ranking"] == 5.5
    assert record["ranking_text"] == "5.50"
    assert record["ranking_bonus"] == 5
    assert SYSTEM.derive(ninja)["next_creation_budget"] == 10


def test_the_ranking_is_undefined_before_the_first_completed_mission():
    record = SYSTEM.derive(build())["record"]
    assert record["ranking"] is None
    assert record["ranking_text"] == "-"
    assert record["ranking_bonus"] == 0


@pytest.mark.parametrize("outcome", ["out_of_time", "fatally_wounded"])
def test_a_failed_mission_kills_the_ninja_and_scores_nothing(outcome):
    ninja = SYSTEM.apply(build(), {"kind": "mission_result", "outcome": outcome, "die_rolls": 9})
    assert ninja["status"] == "dead"
    assert ninja["death"]["cause"] == outcome
    assert ninja["record"] == {"ranking_points": 0, "missions_completed": 0}
    assert SYSTEM.validate(ninja) == []


def test_a_dead_ninja_takes_no_further_results():
    dead = SYSTEM.apply(build(), {"kind": "mission_result", "outcome": "out_of_time", "die_rolls": 0})
    with pytest.raises(RuleError) as error:
        SYSTEM.apply(dead, victory(3))
    assert error.value.violations[0].field == "status"


def test_the_record_carries_over_to_the_players_next_ninja():
    veteran = SYSTEM.apply(SYSTEM.apply(build(), victory(9)), victory(6))
    dead = SYSTEM.apply(veteran, {"kind": "mission_result", "outcome": "fatally_wounded", "die_rolls": 2})
    record = dead["record"]
    successor = build(
        {"armed": "+", "ranged": "+", "athletics": "+", "stealth": "+"}, record=record, use_ranking=True
    )
    assert SYSTEM.derive(successor)["budget"]["total"] == 5 + 7  # 15 / 2 = 7.5 -> 7


def test_apply_never_changes_its_input():
    ninja = build()
    SYSTEM.apply(ninja, victory(4))
    assert ninja["record"]["ranking_points"] == 0
    assert ninja["missions"] == []


@pytest.mark.parametrize(
    "entry, field",
    [
        ({"kind": "mission_result", "outcome": "draw", "die_rolls": 1}, "outcome"),
        ({"kind": "mission_result", "outcome": "victory", "die_rolls": -1}, "die_rolls"),
        ({"kind": "mission_result", "outcome": "victory", "die_rolls": True}, "die_rolls"),
        ({"kind": "promotion"}, "kind"),
        ({"kind": "reversal", "reverses": 1, "reason": "x"}, "kind"),
        ("victory", "entry"),
        ({"kind": "rename", "name": 5}, "name"),
    ],
)
def test_malformed_entries_are_refused(entry, field):
    with pytest.raises(RuleError) as error:
        SYSTEM.apply(build(), entry)
    assert error.value.violations[0].field == field


def test_rename_sets_a_name_and_an_empty_name_means_the_ninja():
    named = SYSTEM.apply(build(), {"kind": "rename", "name": "Kage"})
    assert SYSTEM.derive(named)["label"] == "Kage"
    assert SYSTEM.derive(SYSTEM.apply(named, {"kind": "rename", "name": ""}))["label"] == "the ninja"


def test_a_rebuild_needs_the_campaign_setting():
    survivor = SYSTEM.apply(build(), victory(8))
    entry = {"kind": "rebuild", "abilities": {"armed": "+"}, "use_ranking": True}
    with pytest.raises(RuleError):
        SYSTEM.apply(survivor, entry)
    rebuilt = SYSTEM.apply(
        survivor,
        {
            "kind": "rebuild",
            "abilities": {k: "+" for k in ("armed", "ranged", "athletics", "hand_to_hand")}
            | {"stealth": "+", "awareness": "+", "knowledge": "0", "craftsmanship": "0", "willpower": "0"},
            "use_ranking": True,
        },
        {"survivor_rebuild": True},
    )
    assert SYSTEM.derive(rebuilt)["budget"]["total"] == 13
    assert SYSTEM.validate(rebuilt) == []


def test_a_rebuild_over_budget_is_refused():
    survivor = SYSTEM.apply(build(), victory(1))
    entry = {
        "kind": "rebuild",
        "abilities": {k: "+" for k in ("armed", "ranged", "athletics")},
        "use_ranking": True,
    }
    with pytest.raises(RuleError):
        SYSTEM.apply(survivor, entry, {"survivor_rebuild": True})


def test_replaying_a_ledger_with_a_reversal_skips_the_reversed_entry():
    entries = [
        {"id": 1, **victory(6)},
        {"id": 2, **victory(20)},
        {"id": 3, "kind": "reversal", "reverses": 2, "reason": "miscounted"},
        {"id": 4, **victory(2)},
    ]
    ninja = SYSTEM.replay(build(), entries)
    assert ninja["record"] == {"ranking_points": 8, "missions_completed": 2}


def test_a_reversal_of_nothing_is_refused():
    with pytest.raises(RuleError):
        SYSTEM.replay(build(), [{"id": 1, "kind": "reversal", "reverses": 9, "reason": "oops"}])


def test_reversing_a_death_brings_the_ninja_back():
    entries = [
        {"id": "a", "kind": "mission_result", "outcome": "out_of_time", "die_rolls": 0},
        {"id": "b", "kind": "reversal", "reverses": "a", "reason": "wrong ninja"},
    ]
    assert SYSTEM.replay(build(), entries)["status"] == "alive"


@pytest.mark.parametrize("outcome", ["out_of_time", "fatally_wounded"])
def test_is_dead_after_a_failed_mission_and_not_after_its_reversal(outcome):
    failed = {"id": "a", "kind": "mission_result", "outcome": outcome, "die_rolls": 0}
    assert not SYSTEM.is_dead(build())
    assert SYSTEM.is_dead(SYSTEM.replay(build(), [failed]))
    reversal = {"id": "b", "kind": "reversal", "reverses": "a", "reason": "wrong ninja"}
    assert not SYSTEM.is_dead(SYSTEM.replay(build(), [failed, reversal]))


def test_a_victory_or_a_rename_is_not_a_death():
    ninja = SYSTEM.apply(SYSTEM.apply(build(), victory(3)), {"kind": "rename", "name": "Kage"})
    assert not SYSTEM.is_dead(ninja)
