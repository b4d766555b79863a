"""Properties: any legal set of choices makes a valid agent whose scores stay in range."""

from __future__ import annotations

import json
import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from systems.timemaster.engine import SYSTEM, abilities, creation, derived, skills, tables

LEGAL_SKILL_CANDIDATES = [
    key
    for key, skill in tables.SKILLS.items()
    if key not in tables.AUTOMATIC_SKILLS and not skill["prerequisite"]
]
STARTING_TALENTS = [t for t in tables.HUMAN_TALENTS if t != tables.PARANORMAL_MEMORY]
NAMES = st.text(alphabet=string.ascii_letters + " '-", min_size=1, max_size=30).filter(str.strip)


@st.composite
def legal_choices(draw):
    record = abilities.roll_abilities(random.Random(draw(st.integers(0, 2**32 - 1))))
    order = draw(st.permutations(tables.ABILITY_CODES))
    background = {
        "birth_year": draw(st.integers(tables.BIRTH_YEAR_MIN, tables.BIRTH_YEAR_MAX).filter(bool)),
        "birth_place": draw(NAMES),
        "age_at_recruitment": draw(st.integers(0, 90)),
        "sex": draw(st.sampled_from(tables.SEXES)),
        "native_era": draw(st.fixed_dictionaries({flag: st.booleans() for flag in tables.NATIVE_ERA_FLAGS})),
        "height": draw(st.one_of(st.none(), st.integers(50, 84), st.just("5'9\""), st.just("180 cm"))),
        "weight": draw(st.one_of(st.none(), st.integers(80, 300))),
    }
    profession = draw(st.sampled_from(["", "scribe", "soldier", "physician"]))
    background["profession"] = profession
    legal = [key for key in LEGAL_SKILL_CANDIDATES if not skills.era_problems(key, background)[0]]
    chosen = draw(st.lists(st.sampled_from(legal), min_size=2, max_size=2, unique=True))
    return {
        "name": draw(NAMES),
        "ability_roll": record,
        "abilities": dict(zip(order, record["values"], strict=True)),
        "background": background,
        "skills": chosen,
        "profession_skill": draw(st.sampled_from(chosen)) if profession else None,
        "historical_specialty": {"cultures": draw(st.lists(NAMES, max_size=2))},
        "talent": draw(st.sampled_from(STARTING_TALENTS)),
    }


@given(legal_choices())
@settings(max_examples=80, deadline=None)
def test_any_legal_choices_make_a_valid_new_agent_with_scores_in_range(wanted):
    build = SYSTEM.new_build(wanted, random.Random(0))
    assert creation.is_new(build)
    assert SYSTEM.validate(build) == []
    again = json.loads(json.dumps(build))
    assert again == build and SYSTEM.validate(again) == []
    scores = SYSTEM.derive(build)
    assert 26 <= scores["unskilled_melee"] <= 80
    assert 18 <= scores["paranormal_memory"] <= 54
    assert 2 <= scores["stamina_recovery_rate"] <= 6
    assert 11 <= scores["wounds"] <= 15
    assert sum(not b["struck"] for b in scores["wound_boxes"]) == scores["wounds"]
    assert scores["penetration_bonus"] in {0, 5, 10, 15, 20}
    for row in scores["skills"].values():
        assert row["level"] == "specialist"
        assert 41 <= row["score"] <= 95 and row["score"] == row["base"] + 15
    for row in scores["talents"].values():
        assert 18 <= row["score"] <= 60  # e.g. (WPR+PCN+LUCK)÷4 reaches 60
    assert json.loads(json.dumps(SYSTEM.sheet(build).fields))["rank_grade"] == "Trainee/0"


@given(st.fixed_dictionaries({code: st.integers(26, 80) for code in tables.ABILITY_CODES}))
@settings(max_examples=150, deadline=None)
def test_derived_scores_stay_in_range_for_any_legal_abilities(scores):
    build = {"abilities": scores, "skills": {k: {"level": "master"} for k in tables.SKILLS}, "talents": []}
    result = derived.derive(build)
    assert 26 <= result["unskilled_melee"] <= 80
    assert 18 <= result["paranormal_memory"] <= 54
    assert 2 <= result["stamina_recovery_rate"] <= 6
    assert 11 <= result["wounds"] <= 15
    for key, row in result["skills"].items():
        if tables.SKILLS[key]["special_base"] == "weapon_skill":
            assert row["score"] is None
        else:
            assert 26 + 55 <= row["score"] <= 80 + 55


@given(legal_choices(), st.sampled_from(creation.STEPS))
@settings(max_examples=40, deadline=None)
def test_every_step_of_legal_choices_passes_on_its_own(wanted, step):
    assert creation.validate_step(step, wanted).ok


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10000, 10000) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
PATHS = [
    ("name",),
    ("abilities",),
    ("abilities", "STR"),
    ("abilities", "LUCK"),
    ("background",),
    ("background", "birth_year"),
    ("background", "age_at_recruitment"),
    ("background", "sex"),
    ("background", "height"),
    ("background", "native_era"),
    ("skills",),
    ("skills", "pistol"),
    ("skills", "historical_specialty"),
    ("skills", "historical_specialty", "period"),
    ("talents",),
    ("rank",),
    ("grade",),
    ("success_points",),
    ("times_visited",),
    ("state",),
    ("condition",),
    ("cm_approvals",),
]


@given(st.sampled_from(PATHS), JSON_VALUES)
@settings(max_examples=300, deadline=None)
def test_validate_reports_rather_than_crashes_on_any_damaged_build(path, value):
    from .helpers import make_build

    build = make_build()
    target = build
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    problems = SYSTEM.validate(build)
    assert isinstance(problems, list)
    if problems:
        assert all(p.field and p.message for p in problems)
