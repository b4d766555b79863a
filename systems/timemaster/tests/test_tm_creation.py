"""The step-by-step creation API and new_build (timemaster-characters.md §2)."""

from __future__ import annotations

import json
import random

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import abilities, creation, tables

from .helpers import choices, fields_of, make_build


def test_new_build_makes_a_trainee_with_the_four_starting_skills_and_two_talents():
    build = make_build()
    assert build["rank"] == "Trainee" and build["grade"] == 0 and build["success_points"] == 0
    assert set(build["skills"]) == {"historical_specialty", "time_corps_stunner", "investigation", "pistol"}
    assert all(
        entry["level"] == "specialist" and entry["source"] == "creation" for entry in build["skills"].values()
    )
    assert build["skills"]["investigation"]["profession"] is True
    assert build["talents"] == ["paranormal_memory", "telepathic_probe"]
    assert build["times_visited"] == []
    assert build["player"] == "Pat"


def test_starting_historical_specialty_spans_a_century_before_birth_and_the_native_time():
    build = make_build()
    assert build["skills"]["historical_specialty"]["period"] == {"start_year": 1850, "end_year": 1980}
    assert build["skills"]["historical_specialty"]["cultures"] == ["United States"]


def test_starting_specialty_period_crosses_from_bc_to_ad_without_a_year_zero():
    background = dict(choices()["background"], birth_year=-30, age_at_recruitment=40, profession="")
    build = make_build(background=background, skills=["wrestling", "stealth"], profession_skill=None)
    # 100 years before 30 B.C. is 130 B.C.; 40 years after 30 B.C. is 11 A.D.
    assert build["skills"]["historical_specialty"]["period"] == {"start_year": -130, "end_year": 11}


def test_new_build_rolls_and_assigns_by_priority_when_the_choices_hold_no_roll():
    wanted = choices()
    del wanted["ability_roll"], wanted["abilities"]
    wanted["ability_priority"] = ["DEX", "STR", "AGL", "PER", "WPR", "PCN", "LUCK", "STA"]
    build = creation.new_build(wanted, random.Random(7))
    assert build["abilities"]["DEX"] == max(build["abilities"].values())
    assert all(26 <= v <= 80 and v % 2 == 0 for v in build["abilities"].values())


def test_new_build_takes_the_reroll_only_when_asked_and_allowed():
    hopeless_seed = next(
        s for s in range(2000) if abilities.is_hopeless(abilities.roll_abilities(random.Random(s))["values"])
    )
    wanted = choices(reroll_hopeless=True)
    del wanted["ability_roll"], wanted["abilities"]
    rerolled = creation.new_build(wanted, random.Random(hopeless_seed))
    kept = creation.new_build(dict(wanted, reroll_hopeless=False), random.Random(hopeless_seed))
    first = abilities.roll_abilities(random.Random(hopeless_seed))["values"]
    assert sorted(kept["abilities"].values()) == sorted(first)
    assert sorted(rerolled["abilities"].values()) != sorted(first)
    off = creation.new_build(wanted, random.Random(hopeless_seed), settings={"hopeless_reroll_rounds": 0})
    assert sorted(off["abilities"].values()) == sorted(first)


def test_manual_numbers_are_accepted_when_they_look_rolled():
    wanted = choices(ability_method="manual", ability_roll=None)
    wanted["abilities"] = {
        "STR": 80,
        "DEX": 26,
        "AGL": 50,
        "PER": 50,
        "WPR": 50,
        "PCN": 50,
        "LUCK": 50,
        "STA": 50,
    }
    assert creation.new_build(wanted, random.Random(0))["abilities"]["STR"] == 80
    wanted["abilities"]["DEX"] = 27
    with pytest.raises(RuleError) as error:
        creation.new_build(wanted, random.Random(0))
    assert fields_of(error.value.violations) == {"abilities.DEX"}


def test_new_build_reports_every_problem_at_once():
    wanted = choices(name="", talent="shock", skills=["computers"])
    wanted["background"]["birth_year"] = 1200
    with pytest.raises(RuleError) as error:
        creation.new_build(wanted, random.Random(0))
    found = fields_of(error.value.violations)
    assert {"name", "talent", "skills", "skills.computers"} <= found


@pytest.mark.parametrize("step", creation.STEPS)
def test_each_step_of_a_complete_draft_passes(step):
    review = creation.validate_step(step, choices())
    assert review.ok, review.errors


def test_steps_check_only_their_own_part_of_a_partial_draft():
    draft = {"ability_roll": choices()["ability_roll"], "abilities": choices()["abilities"]}
    assert creation.validate_step("abilities", draft).ok
    assert not creation.validate_step("background", draft).ok
    assert not creation.validate_step("talents", draft).ok


def test_skills_step_without_a_background_still_checks_the_list():
    draft = {"skills": ["boxing", "boxing"]}
    review = creation.validate_step("skills", draft)
    assert any("different" in v.message for v in review.errors)


def test_unknown_step_is_refused():
    with pytest.raises(RuleError):
        creation.validate_step("shopping", choices())


def test_automatic_skills_cannot_be_one_of_the_two_chosen():
    review = creation.validate_step(
        "skills", choices(skills=["time_corps_stunner", "pistol"], profession_skill="pistol")
    )
    assert "skills.time_corps_stunner" in fields_of(review.errors)


def test_profession_skill_must_be_one_of_the_chosen():
    review = creation.validate_step("skills", choices(profession_skill="boxing"))
    assert "profession_skill" in fields_of(review.errors)


def test_a_build_without_a_profession_needs_no_profession_skill():
    background = dict(choices()["background"], profession="")
    review = creation.validate_step("skills", choices(background=background, profession_skill=None))
    assert review.ok


def test_review_lists_cm_confirmations_separately_from_errors():
    review = creation.review_build(make_build())
    assert review.ok
    assert fields_of(review.pending) == {"background.profession", "skills"}
    approved = make_build(cm_approvals=["background.profession", "skills"])
    assert creation.review_build(approved).pending == []
    assert fields_of(creation.review_build(approved).approved) == {"background.profession", "skills"}


def test_review_as_dict_is_json():
    assert json.loads(json.dumps(creation.review_build(make_build()).as_dict()))["ok"] is True


def test_every_human_talent_but_paranormal_memory_can_be_the_starting_choice():
    for talent in tables.HUMAN_TALENTS:
        review = creation.validate_step("talents", {"talent": talent})
        assert review.ok == (talent != "paranormal_memory")


def test_build_round_trips_through_json():
    build = make_build()
    again = json.loads(json.dumps(build))
    assert again == build
    assert creation.validate(again) == []
