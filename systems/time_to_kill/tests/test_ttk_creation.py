import json
import random

import pytest

from characters.systems.base import RuleError
from systems.time_to_kill.engine import SYSTEM
from systems.time_to_kill.engine.creation import creation_cost
from systems.time_to_kill.engine.tables import ABILITY_KEYS, SPENDING_CEILING

from .helpers import build


def problems_of(choices):
    with pytest.raises(RuleError) as error:
        SYSTEM.new_build(choices, random.Random(0))
    return error.value.violations


def test_a_new_ninja_starts_with_all_nine_abilities_neutral():
    ninja = build()
    assert ninja["abilities"] == {key: "0" for key in ABILITY_KEYS}
    assert SYSTEM.validate(ninja) == []
    assert SYSTEM.derive(ninja)["points_spent"] == 0
    assert SYSTEM.derive(ninja)["label"] == "the ninja"


def test_a_combat_raise_costs_two_and_a_non_combat_raise_one():
    assert creation_cost({**{k: "0" for k in ABILITY_KEYS}, "armed": "+"}) == 2
    assert creation_cost({**{k: "0" for k in ABILITY_KEYS}, "stealth": "+"}) == 1
    ninja = build({"armed": "+", "ranged": "+", "stealth": "+"})
    derived = SYSTEM.derive(ninja)
    assert derived["points_spent"] == 5
    assert derived["points_unspent"] == 0


def test_spending_more_than_five_points_is_refused_with_the_cost():
    violations = problems_of({"abilities": {"armed": "+", "ranged": "+", "athletics": "+"}})
    assert [v.field for v in violations] == ["abilities"]
    assert "cost 6 points" in violations[0].message
    assert "budget is 5" in violations[0].message


def test_the_trade_lowers_one_non_combat_ability_to_pay_for_raising_another():
    ninja = build({"armed": "+", "ranged": "+", "stealth": "+", "awareness": "+", "knowledge": "-"})
    derived = SYSTEM.derive(ninja)
    assert derived["points_spent"] == 5
    assert derived["trade"] == {"used": True, "lowered": "knowledge", "lowered_name": "Knowledge"}


def test_a_trade_without_a_raised_non_combat_ability_is_refused():
    violations = problems_of({"abilities": {"knowledge": "-", "armed": "+"}})
    assert violations[0].field == "abilities.knowledge"
    assert "different Non-Combat" in violations[0].message


def test_only_one_trade_is_allowed():
    violations = problems_of(
        {"abilities": {"knowledge": "-", "willpower": "-", "stealth": "+", "awareness": "+"}}
    )
    assert "Only one" in violations[0].message
    assert "Knowledge, Willpower" in violations[0].message


def test_a_combat_ability_cannot_start_below_neutral():
    violations = problems_of({"abilities": {"athletics": "-", "stealth": "+"}})
    assert violations[0].field == "abilities.athletics"
    assert "Combat" in violations[0].message


def test_every_violation_is_reported_at_once():
    violations = problems_of(
        {"name": 7, "abilities": {"armed": "++", "sneaking": "+"}, "use_ranking": "yes", "colour": "black"}
    )
    fields = {v.field for v in violations}
    assert {"name", "abilities", "abilities.armed", "use_ranking", "choices"} <= fields


def test_the_ranking_adds_to_the_budget_rounded_down_when_the_player_uses_it():
    record = {"ranking_points": 11, "missions_completed": 2}  # ranking 5.5 -> +5
    combat = {"armed": "+", "hand_to_hand": "+", "ranged": "+", "athletics": "+"}
    ninja = build(combat | {"stealth": "+", "awareness": "+"}, record=record, use_ranking=True)
    derived = SYSTEM.derive(ninja)
    assert derived["budget"] == {"base": 5, "ranking_bonus": 5, "total": 10}
    assert derived["points_spent"] == 10
    assert SYSTEM.validate(ninja) == []


def test_the_best_build_needs_a_bonus_of_six_and_the_ceiling_is_thirteen():
    best = {k: "+" for k in ABILITY_KEYS if k != "knowledge"} | {"knowledge": "-"}
    assert creation_cost(best) == 11
    assert creation_cost({k: "+" for k in ABILITY_KEYS}) == SPENDING_CEILING == 13
    record = {"ranking_points": 13, "missions_completed": 2}  # ranking 6.5 -> +6
    assert SYSTEM.validate(build(best, record=record, use_ranking=True)) == []
    record = {"ranking_points": 11, "missions_completed": 2}  # 5.5 -> +5: one point short
    assert problems_of({"abilities": best, "record": record, "use_ranking": True})[0].field == "abilities"


def test_the_ranking_is_not_added_unless_the_player_asks():
    record = {"ranking_points": 20, "missions_completed": 2}
    violations = problems_of({"abilities": {"armed": "+", "ranged": "+", "athletics": "+"}, "record": record})
    assert "budget is 5" in violations[0].message


def test_unspent_points_are_allowed():
    assert SYSTEM.derive(build({"stealth": "+"}))["points_unspent"] == 4


def test_a_build_survives_a_json_round_trip():
    ninja = build({"knowledge": "-", "awareness": "+"}, name="Kage")
    again = json.loads(json.dumps(ninja))
    assert SYSTEM.validate(again) == []
    assert SYSTEM.derive(again) == SYSTEM.derive(ninja)
    assert SYSTEM.derive(again)["label"] == "Kage"


def test_validate_catches_a_tampered_ranking_bonus_and_rating():
    ninja = build()
    ninja["creation"]["ranking_bonus"] = 3
    ninja["abilities"]["stealth"] = "++"
    fields = {v.field for v in SYSTEM.validate(ninja)}
    assert {"creation.ranking_bonus", "abilities.stealth"} <= fields


def test_points_without_completed_missions_are_refused():
    violations = problems_of({"record": {"ranking_points": 4, "missions_completed": 0}})
    assert violations[0].field == "record.ranking_points"


def test_validate_of_something_that_is_not_a_build_says_so():
    assert SYSTEM.validate("ninja")[0].field == "build"
