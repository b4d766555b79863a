"""One or more tests for each rule of timemaster-characters.md §10 that a build or a step can break.

Rules about ledger entries rather than builds (19-22 and 36) are the advancement engine's and are
tested with it (systems/timemaster/tests/advancement); their build-visible parts are tested here.
"""

from __future__ import annotations

import copy

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import abilities, condition, creation, derived

from .helpers import background, choices, fields_of, make_build, rules_of


def rule(n: int) -> str:
    return f"timemaster-characters.md §10 rule {n}"


def step_errors(step, **changes):
    return creation.validate_step(step, choices(**changes)).errors


def build_errors(build, stage="auto", settings=None):
    return creation.validate(build, settings=settings, stage=stage)


def played(build):
    """The same agent after some play: the creation-only rules no longer apply."""
    later = copy.deepcopy(build)
    later["grade"] = 1
    return later


# -- creation ---------------------------------------------------------------------------------


def test_rule_1_ability_numbers_of_a_new_agent_are_even_and_26_to_80():
    build = make_build()
    build["abilities"]["STR"] = 73
    assert rule(1) in rules_of(build_errors(build))
    build["abilities"]["STR"] = 24
    assert rule(1) in rules_of(build_errors(build))


def test_rule_1_bought_points_may_make_an_odd_score_later():
    build = played(make_build())
    build["abilities"]["STR"] = 73
    assert build_errors(build) == []


def test_rule_2_reroll_needs_three_low_numbers_and_rerolls_only_them():
    record = {"values": [26, 40, 60, 72, 64, 60, 56, 52], "dice": None, "rerolls_used": 0, "history": []}
    record.pop("dice")
    with pytest.raises(RuleError) as error:
        abilities.reroll_hopeless(record, __import__("random").Random(1))
    assert error.value.violations[0].rule.endswith("rule 2")
    forged = dict(record, values=[80, 40, 60, 72, 64, 60, 56, 52], rerolls_used=1, history=[record["values"]])
    assert rule(2) in rules_of(abilities.check_roll_record(forged))
    assert rule(2) in rules_of(step_errors("abilities", ability_roll=forged))


def test_rule_3_each_rolled_number_goes_to_exactly_one_ability():
    wrong = dict(choices()["abilities"], STA=72)
    assert rule(3) in rules_of(step_errors("abilities", abilities=wrong))
    build = make_build()
    del build["abilities"]["LUCK"]
    assert "abilities.LUCK" in fields_of(build_errors(build))


@pytest.mark.parametrize(
    ("year", "ok"), [(-3500, True), (7171, True), (-3501, False), (7172, False), (0, False)]
)
def test_rule_4_birth_between_3500_bc_and_7171_ad(year, ok):
    errors = step_errors("background", background=background(birth_year=year, age_at_recruitment=21))
    assert (rule(4) not in rules_of(errors)) == ok


def test_rule_5_recruitment_after_the_corps_present_waits_for_the_cm():
    late = background(birth_year=7171, age_at_recruitment=30)  # recruited 7201
    review = creation.validate_step("background", choices(background=late))
    assert review.ok and rule(5) in rules_of(review.pending)
    later_present = creation.validate_step(
        "background", choices(background=late), {"corps_present_year": 7201}
    )
    assert rule(5) not in rules_of(later_present.pending)
    approved = creation.validate_step(
        "background", choices(background=late, cm_approvals=["background.recruitment_year"])
    )
    assert rule(5) in rules_of(approved.approved)


def test_rule_6_age_and_height_weight_outside_the_guides_only_warn():
    odd = background(age_at_recruitment=16, height="5'10\"", weight=240)
    review = creation.validate_step("background", choices(background=odd))
    assert review.ok
    assert {"background.age_at_recruitment", "background.weight"} <= fields_of(review.warnings)
    tall = creation.validate_step("background", choices(background=background(height="198 cm")))
    assert "background.height" in fields_of(tall.warnings) and tall.ok


def test_rule_6_five_foot_nine_is_read_between_its_neighbours():
    review = creation.validate_step("background", choices(background=background(height="5'9\"", weight=160)))
    assert review.warnings == []


def test_rule_7_a_profession_waits_for_the_cms_confirmation():
    review = creation.validate_step("background", choices())
    assert rule(7) in rules_of(review.pending)
    none = creation.validate_step("background", choices(background=background(profession="")))
    assert rule(7) not in rules_of(none.pending)


def test_rule_8_exactly_two_chosen_skills_plus_the_automatic_two_all_at_specialist():
    assert rule(8) in rules_of(step_errors("skills", skills=["investigation"]))
    assert rule(8) in rules_of(step_errors("skills", skills=["investigation", "pistol", "stealth"]))
    build = make_build()
    build["skills"]["pistol"]["level"] = "expert"
    assert rule(8) in rules_of(build_errors(build, stage="creation"))
    build = make_build()
    del build["skills"]["time_corps_stunner"]
    assert rule(8) in rules_of(build_errors(build))


def test_rule_8_and_30_the_starting_specialty_spans_its_fixed_period():
    build = make_build()
    build["skills"]["historical_specialty"]["period"] = {"start_year": 1900, "end_year": 1980}
    assert rule(30) in rules_of(build_errors(build))


def test_rule_9_with_a_profession_one_chosen_skill_must_go_with_it():
    assert rule(9) in rules_of(step_errors("skills", profession_skill=None))
    approved = creation.validate_step(
        "skills", choices(profession_skill=None, cm_approvals=["skills.profession"])
    )
    assert approved.ok and rule(9) in rules_of(approved.approved)


def test_rule_9_the_fit_with_the_background_waits_for_the_cm():
    review = creation.validate_step("skills", choices())
    assert "skills" in fields_of(review.pending)


@pytest.mark.parametrize(
    ("skill", "born", "flags", "blocked"),
    [
        ("computers", 1500, {}, True),  # 20th Century skill, recruited 1530
        ("computers", 1880, {}, False),  # recruited 1910
        ("laser_pistol", 2500, {}, True),
        ("net", -200, {}, True),  # Rome, 100 B.C.; recruited 170 B.C.
        ("net", -120, {}, False),  # recruited 90 B.C.
        ("dart", -230, {}, False),  # recruited 200 B.C., exactly the era
        ("martial_arts", 1900, {}, True),
        ("martial_arts", 1900, {"oriental": True}, False),
        ("blackjack", 1900, {"city": False}, True),
        ("forgery", 1900, {"writing": False}, True),
        ("equestrian", 1400, {"americas": True}, True),
        ("equestrian", 1521, {"americas": True}, False),
        ("equestrian", 1400, {"americas": False}, False),
    ],
)
def test_rule_10_era_and_background_qualifiers(skill, born, flags, blocked):
    native = background(birth_year=born, profession="", native_era=flags)
    errors = step_errors("skills", background=native, skills=[skill, "stealth"], profession_skill=None)
    assert (rule(10) in rules_of(errors)) == blocked


def test_rule_10_the_cm_may_overrule_the_era_rule():
    native = background(birth_year=1500, profession="")
    review = creation.validate_step(
        "skills",
        choices(
            background=native,
            skills=["computers", "stealth"],
            profession_skill=None,
            cm_approvals=["skills.computers"],
        ),
    )
    assert review.ok and rule(10) in rules_of(review.approved)


def test_rule_10_bronze_age_skills_of_ancient_agents_wait_for_the_cm():
    ancient = background(birth_year=-800, profession="")
    review = creation.validate_step(
        "skills", choices(background=ancient, skills=["sword", "stealth"], profession_skill=None)
    )
    assert review.ok and "skills.sword" in fields_of(review.pending)
    modern = creation.validate_step("skills", choices(skills=["sword", "investigation"]))
    assert "skills.sword" not in fields_of(modern.pending)


@pytest.mark.parametrize(
    "skill",
    ["advanced_self_defense", "lance_horsemans", "florentine_style", "mounted_melee", "mounted_missile"],
)
def test_rule_11_skills_with_a_prerequisite_cannot_be_chosen_at_creation(skill):
    errors = step_errors("skills", skills=[skill, "investigation"])
    assert rule(11) in rules_of(errors)


def test_rule_12_paranormal_memory_and_exactly_one_human_talent():
    assert rule(12) in rules_of(step_errors("talents", talent=None))
    assert rule(12) in rules_of(step_errors("talents", talent="paranormal_memory"))
    assert rule(18) in rules_of(step_errors("talents", talent="domination"))
    build = make_build()
    build["talents"].append("time_shift")
    assert rule(12) in rules_of(build_errors(build, stage="creation"))
    build["talents"] = ["time_shift"]
    assert rule(12) in rules_of(build_errors(build))


def test_rule_13_derived_values_equal_their_formulas_and_the_agent_starts_fresh():
    build = make_build()
    scores = derived.derive(build)
    a = build["abilities"]
    assert scores["unskilled_melee"] == -(-(a["STR"] + a["AGL"]) // 2)
    assert 18 <= scores["paranormal_memory"] <= 54
    assert all(row["score"] == row["base"] + 15 for row in scores["skills"].values())
    assert (scores["current_stamina"], scores["current_willpower"]) == (a["STA"], a["WPR"])
    assert scores["rank_grade"] == "Trainee/0" and scores["success_points"] == 0
    for key, value in (("rank", "Agent"), ("success_points", 10)):
        changed = dict(make_build(), **{key: value})
        assert rule(13) in rules_of(build_errors(changed, stage="creation"))
    hurt = condition.with_condition(make_build(), current_stamina=10)
    assert rule(13) in rules_of(build_errors(hurt, stage="creation"))


# -- scores in play ---------------------------------------------------------------------------


def test_rule_14_current_stamina_and_willpower_stay_between_0_and_the_ability():
    build = make_build()
    for key, value in (("current_stamina", -1), ("current_stamina", 41), ("current_willpower", 53)):
        broken = dict(build, condition={key: value})
        assert rule(14) in rules_of(build_errors(broken))
    with pytest.raises(RuleError):
        condition.with_condition(build, current_willpower=999)
    assert build_errors(condition.with_condition(build, current_stamina=0, current_willpower=0)) == []


def test_rule_15_marked_wounds_cannot_exceed_the_wound_count():
    build = make_build()  # STA 40: 12 wounds
    assert build_errors(condition.with_condition(build, wounds_marked=12)) == []
    assert rule(15) in rules_of(build_errors(dict(build, condition={"wounds_marked": 13})))


def test_rule_16_skill_levels_are_specialist_expert_or_master():
    build = played(make_build())
    build["skills"]["pistol"]["level"] = "grandmaster"
    assert rule(16) in rules_of(build_errors(build))
    build["skills"]["pistol"]["level"] = "master"
    assert derived.derive(build)["skills"]["pistol"]["score"] == build["abilities"]["DEX"] + 55


def test_rule_17_a_talent_may_not_take_current_willpower_below_21():
    build = condition.with_condition(make_build(), current_willpower=31)  # Telepathic Probe costs 10
    assert condition.talent_use_problems(build, "telepathic_probe") == []
    after = condition.use_talent(build, "telepathic_probe")
    assert condition.condition_of(after)["current_willpower"] == 21
    assert rule(17) in rules_of(condition.talent_use_problems(after, "telepathic_probe"))
    assert rule(17) in rules_of(condition.talent_use_problems(build, "telepathic_probe", extra_willpower=1))
    assert rule(17) in rules_of(condition.talent_use_problems(build, "paranormal_memory", extra_willpower=21))
    assert condition.talent_use_problems(after, "paranormal_memory") == []  # costs nothing
    with pytest.raises(RuleError):
        condition.use_talent(build, "time_shift")  # not held


def test_rule_18_at_most_eight_human_talents():
    build = played(make_build())
    build["talents"] = ["paranormal_memory", "shield"]
    assert rule(18) in rules_of(build_errors(build))
    build["talents"] = ["paranormal_memory", "adaptation", "adaptation"]
    assert rule(18) in rules_of(build_errors(build))
    build["talents"] = [*(t for t in derived.TALENTS if not derived.TALENTS[t]["demorean"])]
    assert build_errors(build) == []  # all eight


# -- advancement: the parts a build shows ------------------------------------------------------


def test_rule_23_success_points_never_go_below_zero():
    build = played(make_build())
    build["success_points"] = -10
    assert rule(23) in rules_of(build_errors(build))


def test_rule_24_no_ability_above_80():
    build = played(make_build())
    build["abilities"]["DEX"] = 81
    assert rule(24) in rules_of(build_errors(build))


def test_rule_24_spent_luck_may_fall_below_26_but_other_abilities_may_not():
    build = played(make_build())
    build["abilities"]["LUCK"] = 10
    assert build_errors(build) == []
    build["abilities"]["STR"] = 10
    assert rule(24) in rules_of(build_errors(build))


def test_rules_25_to_27_a_skill_gains_at_most_one_level_per_adventure_after_it_was_acquired():
    build = played(make_build())
    build["skills"]["boxing"] = {"level": "expert", "source": "purchase"}
    build["state"]["skills_acquired_in"] = {"boxing": 3}
    build["state"]["skills_raised_in"] = {"boxing": 3}
    assert "timemaster-characters.md §10 rules 25-27" in rules_of(build_errors(build))
    build["state"]["skills_raised_in"] = {"boxing": 4}
    assert build_errors(build) == []
    build["skills"]["investigation"]["level"] = "master"
    build["state"]["skills_raised_in"]["investigation"] = 1  # Master needs two adventures
    assert "skills.investigation.level" in fields_of(build_errors(build))


def test_rule_28_prerequisites_must_be_held():
    build = played(make_build())
    build["skills"]["florentine_style"] = {"level": "specialist", "source": "purchase"}
    assert rule(28) in rules_of(build_errors(build))
    build["skills"]["sword"] = {"level": "master", "source": "purchase"}
    assert rule(28) not in rules_of(build_errors(build))
    build["skills"]["advanced_self_defense"] = {"level": "specialist", "source": "purchase"}
    assert rule(28) in rules_of(build_errors(build))
    build["skills"]["wrestling"] = {"level": "master", "source": "purchase"}  # any one of three
    assert rule(28) not in rules_of(build_errors(build))


def test_rule_29_mounted_melee_and_missile_have_no_levels():
    build = played(make_build())
    build["skills"]["equestrian"] = {"level": "expert", "source": "purchase"}
    build["skills"]["mounted_melee"] = {"level": "specialist", "source": "purchase"}
    assert build_errors(build) == []
    build["skills"]["mounted_melee"]["level"] = "expert"
    assert rule(29) in rules_of(build_errors(build))


def test_rule_30_every_historical_specialty_names_at_most_a_century_and_two_cultures():
    build = played(make_build())
    good = {"level": "specialist", "source": "purchase", "period": {"start_year": 1776, "end_year": 1876}}
    build["skills"]["historical_specialty_2"] = dict(good, cultures=["United States"])
    assert build_errors(build) == []
    build["skills"]["historical_specialty_2"]["period"] = {"start_year": 1776, "end_year": 1877}
    assert rule(30) in rules_of(build_errors(build))
    build["skills"]["historical_specialty_2"] = dict(good, cultures=["Athens", "Sparta", "Persia"])
    assert rule(30) in rules_of(build_errors(build))
    build["skills"]["historical_specialty_2"] = {"level": "specialist", "source": "purchase"}
    assert rule(30) in rules_of(build_errors(build))
    build["skills"]["historical_specialty_2"] = dict(good, cultures=["Rome"])
    build["skills"]["historical_specialty_3"] = dict(good, cultures=["rome"])
    assert rule(30) in rules_of(build_errors(build))


def test_rule_30_the_starting_specialty_keeps_the_two_culture_limit():
    errors = step_errors("skills", historical_specialty={"cultures": ["A", "B", "C"]})
    assert rule(30) in rules_of(errors)


def test_rule_31_raising_an_ability_recomputes_everything_that_uses_it():
    build = played(make_build())
    before = derived.derive(build)
    build["abilities"]["PCN"] += 6
    after = derived.derive(build)
    assert after["skills"]["investigation"]["score"] == before["skills"]["investigation"]["score"] + 2
    assert after["paranormal_memory"] == before["paranormal_memory"] + 2
    assert after["skills"]["pistol"]["score"] == before["skills"]["pistol"]["score"]


@pytest.mark.parametrize(
    ("rank", "grade", "ok"),
    [("Trainee", 9, True), ("Trainee", 10, False), ("Timemaster", 10, True), ("Timemaster", 11, False)]
    + [("Trainee", -1, False), ("General", 0, False), ("Agent", "3", False)],
)
def test_rules_32_and_33_rank_and_grade_stay_on_the_ladder(rank, grade, ok):
    build = played(make_build())
    build["rank"], build["grade"] = rank, grade
    assert (build_errors(build) == []) == ok


# -- time travel ------------------------------------------------------------------------------


def visited(*trips):
    build = played(make_build())
    build["times_visited"] = [
        {"parallel": p, "start_year": s, "end_year": e, "mission": f"m{i}"}
        for i, (p, s, e) in enumerate(trips)
    ]
    return build


def test_rule_34_no_trip_into_the_native_lifetime_on_the_native_parallel():
    assert build_errors(visited(("T-0", 1066, 1066))) == []
    assert "times_visited.0.start_year" in fields_of(build_errors(visited(("T-0", 1975, 1976))))
    other = creation.review_build(visited(("M-3", 1975, 1976)))
    assert other.ok and "times_visited.0.start_year" in fields_of(other.warnings)


def test_rule_34_no_trip_overlapping_an_earlier_one_on_the_same_parallel():
    assert build_errors(visited(("T-0", 1066, 1067), ("T-0", 1067, 1070)))
    assert build_errors(visited(("T-0", 1066, 1067), ("T-1", 1067, 1070))) == []


def test_rule_35_no_trip_past_the_time_barrier():
    assert build_errors(visited(("T-0", 7193, 7193)))
    assert build_errors(visited(("T-0", 7193, 7193)), settings={"corps_present_year": 7200}) == []


def test_auto_stage_reads_a_fresh_build_as_creation_and_a_played_one_as_play():
    assert creation.is_new(make_build())
    assert not creation.is_new(played(make_build()))
    spent = make_build()
    spent["state"]["adventures_closed"] = 1
    assert not creation.is_new(spent)


def test_native_parallel_must_be_a_parallel_code():
    assert step_errors("background", background=background(native_parallel="T-3")) == []
    assert "background.native_parallel" in fields_of(
        step_errors("background", background=background(native_parallel="X"))
    )
