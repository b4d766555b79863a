"""An agent's condition over time (systems/timemaster/engine/recovery.py) and its ledger entries.

Digest sections with their seed lines (../shared/seeds/002_02af72a61b7d5f0b.txt):
timemaster-play.md §12 (L3297), §16 (L1411-1435), §16.1 (L625-627, L947), §17 (L1437-1453,
L3183), §29 ambiguities 3, 11-13; timemaster-characters.md §4 skills 46 (L3007-3009) and 60
(L3235-3243), §9.2. The test agent has STA 40 (12 boxes, recovery 3), WPR 52, LUCK 44.
"""

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import SYSTEM, advancement, recovery
from systems.timemaster.engine.condition import condition_of, with_condition

from .helpers import make_build


@pytest.fixture
def agent():
    return make_build()


def test_damage_comes_off_current_stamina_and_marks_boxes(agent):
    # §16 (L1411-1419): STA itself never changes
    hurt, events = recovery.take_damage(agent, 12, 3)
    c = condition_of(hurt)
    assert (c["current_stamina"], c["wounds_marked"], hurt["abilities"]["STA"]) == (28, 3, 40)
    assert events["stamina_lost"] == 12 and not events["knocked_out"]


def test_stamina_stops_at_zero_and_the_agent_passes_out(agent):
    # §16 (L1425), §29 ambiguity 12: floor at 0
    hurt, events = recovery.take_damage(agent, 55, 1)
    c = condition_of(hurt)
    assert c["current_stamina"] == 0 and c["unconscious"]
    assert events["knocked_out"] and events["stamina_beyond_zero"] == 15


def test_wounds_beyond_the_boxes_mark_the_last_box_and_make_the_luck_check_due(agent):
    # §16 (L1429), characters §10 rule 15: never more marks than boxes (12 for STA 40)
    hurt, events = recovery.take_damage(agent, 10, 9)
    hurt, events = recovery.take_damage(hurt, 10, 5)
    c = condition_of(hurt)
    assert c["wounds_marked"] == 12 and c["death_check_due"]
    assert events["wounds_marked"] == 3 and events["wounds_beyond_boxes"] == 2


def test_reaching_three_boxes_left_is_the_critical_state_with_a_willpower_check(agent):
    # §16 (L1431-1435): 12 boxes, 9 marked leaves 3
    hurt, events = recovery.take_damage(agent, 5, 9)
    assert events["became_critical"]
    state = recovery.critical_state(hurt)
    assert state["checks_due"] and state["check_score"] == 52 and state["check_against"] == "current"
    assert (
        recovery.critical_state(hurt, {"critical_check_willpower": "ability"})["check_against"] == "ability"
    )
    treated, _ = recovery.treat_critical(hurt, "medical")
    assert not recovery.critical_state(treated)["checks_due"]


def test_a_successful_luck_check_leaves_a_coma_one_box_free_and_stamina_zero(agent):
    # §16 (L1429): Luck 44, roll 44 succeeds
    dying, _ = recovery.take_damage(agent, 5, 12)
    saved, events = recovery.luck_check_against_death(dying, 44)
    c = condition_of(saved)
    assert events["survived"] and c["coma"] and c["unconscious"] and not c["dead"]
    assert (c["wounds_marked"], c["current_stamina"]) == (11, 0)
    assert SYSTEM.is_dead(saved) is False


def test_a_failed_luck_check_is_death(agent):
    dying, _ = recovery.take_damage(agent, 5, 12)
    dead, events = recovery.luck_check_against_death(dying, 45)
    assert not events["survived"] and SYSTEM.is_dead(dead) is True
    with pytest.raises(RuleError, match="dead"):
        recovery.heal(dead, 1)


def test_no_luck_check_while_a_box_is_free_and_nothing_else_until_it_is_made(agent):
    with pytest.raises(RuleError, match="No Luck check"):
        recovery.luck_check_against_death(agent, 1)
    dying, _ = recovery.take_damage(agent, 5, 12)
    with pytest.raises(RuleError, match="Luck check against death comes first"):
        recovery.heal(dying, 1)


def test_a_fatal_blow_marks_every_box_and_asks_for_the_luck_check(agent):
    # §16.1 (L990, L1461, L1475)
    dying, _ = recovery.fatal_blow(agent, "fall_100_ft")
    assert condition_of(dying)["death_check_due"] and condition_of(dying)["wounds_marked"] == 12


def test_luck_spent_is_gone_from_the_score_and_capped_at_two_and_at_what_is_left(agent):
    # §16.1 (L627, L947)
    spent, events = recovery.spend_luck(agent, 2)
    assert spent["abilities"]["LUCK"] == 42 and events["luck_after"] == 42
    with pytest.raises(RuleError, match="1 or 2"):
        recovery.spend_luck(agent, 3)
    poor = with_condition(agent)
    poor["abilities"]["LUCK"] = 1
    with pytest.raises(RuleError, match="only 1 Luck"):
        recovery.spend_luck(poor, 2)


def test_coming_to_gives_one_stamina_point(agent):
    # §16 (L1427), §29 ambiguity 13
    out, _ = recovery.take_damage(agent, 60, 1)
    awake, _ = recovery.come_to(out)
    c = condition_of(awake)
    assert not c["unconscious"] and c["current_stamina"] == 1
    with pytest.raises(RuleError, match="not unconscious"):
        recovery.come_to(awake)


def test_rest_recovers_the_column_of_original_stamina_per_round_up_to_the_score(agent):
    # §17, §3.5 (L1445-1447): STA 40 -> column 3
    tired, _ = recovery.take_damage(agent, 20, 0)
    rested, events = recovery.rest(tired, 2)
    assert condition_of(rested)["current_stamina"] == 26 and events["rate"] == 3
    full, events = recovery.rest(tired, 50)
    assert condition_of(full)["current_stamina"] == 40 and events["beyond_cap"] == 130
    assert events["recovered"] == 20


def test_no_rest_recovery_while_unconscious(agent):
    # §29 ambiguity 12
    out, _ = recovery.take_damage(agent, 60, 0)
    with pytest.raises(RuleError, match="unconscious"):
        recovery.rest(out, 1)


def test_bedrest_heals_two_a_day_and_medical_care_four(agent):
    # §17 (L1453, L3183), §29 ambiguity 3
    hurt, _ = recovery.take_damage(agent, 5, 10)
    healed, events = recovery.heal(hurt, 2)
    assert condition_of(healed)["wounds_marked"] == 6 and events["healed"] == 4
    cared, _ = recovery.heal(hurt, 2, medical_days=1)
    assert condition_of(cared)["wounds_marked"] == 4
    all_well, events = recovery.heal(hurt, 10, medical_days=10)
    assert condition_of(all_well)["wounds_marked"] == 0 and events["beyond_cap"] == 30
    with pytest.raises(RuleError, match="only 2 days"):
        recovery.heal(hurt, 2, medical_days=3)


def test_an_agent_in_a_coma_heals_normally(agent):
    dying, _ = recovery.take_damage(agent, 5, 12)
    coma, _ = recovery.luck_check_against_death(dying, 1)
    healed, _ = recovery.heal(coma, 1)
    assert condition_of(healed)["wounds_marked"] == 9 and condition_of(healed)["coma"]


def test_sleep_gives_ten_willpower_an_hour_up_to_the_score(agent):
    # §12 (L3297): WPR 52
    tired = with_condition(agent, current_willpower=12)
    slept, _ = recovery.sleep(tired, 2)
    assert condition_of(slept)["current_willpower"] == 32
    slept, events = recovery.sleep(tired, 8)
    assert condition_of(slept)["current_willpower"] == 52 and events["beyond_cap"] == 40


def test_distance_running_and_swimming_follow_current_stamina(agent):
    # characters §4 skills 46 and 60 (L3009, L3237)
    assert recovery.distance_running(agent) == {"skilled": False, "max_minutes": 30, "rest_hours": 8}
    assert recovery.swimming(agent) == {"skilled": False, "max_miles": 1}
    skilled = with_condition(agent, current_stamina=40)
    skilled["skills"]["distance_running"] = {"level": "expert", "source": "purchase"}
    skilled["skills"]["swimming"] = {"level": "specialist", "source": "purchase"}
    assert (
        recovery.distance_running(skilled)["score"] == 70 and recovery.distance_running(skilled)["mph"] == 5
    )
    assert recovery.swimming(skilled)["miles_per_day"] == 9  # 40 -> column 3, x 3
    tired, _ = recovery.take_damage(skilled, 25, 0)
    assert recovery.distance_running(tired)["mph"] == 3  # 15 + 30 = 45 -> column 3
    assert recovery.swimming(tired)["miles_per_day"] == 3


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("stamina_rested", {"rounds": 0}),
        ("wounds_healed", {"days": -1}),
        ("willpower_slept", {"hours": "8"}),
        ("damage_taken", {"stamina": 1.5, "wounds": 0}),
        ("luck_spent", {"points": True}),
    ],
)
def test_bad_counts_are_refused_by_field(agent, kind, fields):
    with pytest.raises(RuleError) as caught:
        recovery.play_entry(agent, kind, **fields)
    assert caught.value.violations[0].field == next(iter(fields))


def test_the_ledger_replays_damage_rest_and_healing_and_a_reversal_undoes_one_step(agent):
    entries = [
        {"id": 1, "kind": "damage_taken", "stamina": 30, "wounds": 5, "source": "Armed M"},
        {"id": 2, "kind": "stamina_rested", "rounds": 4},
        {"id": 3, "kind": "wounds_healed", "days": 1, "medical_days": 1},
        {"id": 4, "kind": "willpower_slept", "hours": 1},
    ]
    build = advancement.replay(agent, entries)
    c = condition_of(build)
    assert (c["current_stamina"], c["wounds_marked"]) == (22, 1)
    undone = advancement.replay(
        agent, [*entries, {"id": 5, "kind": "reversal", "reverses": 3, "reason": "no doctor that day"}]
    )
    assert condition_of(undone)["wounds_marked"] == 5
    assert (
        condition_of(
            advancement.replay(
                agent, [*entries, {"id": 5, "kind": "reversal", "reverses": 1, "reason": "the shot missed"}]
            )
        )["current_stamina"]
        == 40
    )


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        ("stamina_rested", "rounds"),
        ("wounds_healed", "days"),
        ("willpower_slept", "hours"),
        ("luck_spent", "points"),
        ("critical_treated", "how"),
        ("fatal_blow", "cause"),
        ("damage_taken", "stamina"),
    ],
)
def test_a_missing_value_is_refused_by_name_not_crashed_on(agent, kind, field):
    with pytest.raises(RuleError) as caught:
        recovery.play_entry(agent, kind)
    assert caught.value.violations[0].field == field


def test_a_talent_costs_its_willpower_hit_or_miss_and_never_takes_it_below_21(agent):
    # play §12 (L3291-3297), characters §10 rule 17: WPR 52, Telepathic Probe costs 10
    paid, events = recovery.pay_for_talent(agent, "telepathic_probe", 5)
    assert condition_of(paid)["current_willpower"] == 37 and events["willpower_paid"] == 15
    with pytest.raises(RuleError, match="may not drop below 21"):
        recovery.pay_for_talent(paid, "telepathic_probe", 10)
    with pytest.raises(RuleError, match="Extra Willpower"):
        recovery.pay_for_talent(agent, "telepathic_probe", 21)
    built = advancement.replay(agent, [{"id": 1, "kind": "talent_used", "talent": "telepathic_probe"}])
    assert condition_of(built)["current_willpower"] == 42
