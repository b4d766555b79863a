import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems import get_system
from characters.systems.base import RuleError
from systems.tempo.engine import SYSTEM, creation
from systems.tempo.engine.modules import FLASHPOINTS

from .helpers import SLOTS, agent, choices


def messages(problems, field=None):
    return [p.message for p in problems if field is None or p.field == field]


def test_the_registry_serves_tempo_with_the_flashpoints_module():
    system = get_system("tempo")
    assert system is SYSTEM
    assert system.modules == ("flashpoints",)
    assert {s.name for s in system.settings} >= {"starting_fate_points", "fate_refresh", "fumble_rule"}


def test_a_legal_agent_is_built_and_survives_json():
    build = SYSTEM.new_build(choices(), random.Random(0))
    assert build["module"] == "flashpoints"
    assert build["system"] == "tempo"
    assert build["fate_points"] == 0
    assert SYSTEM.validate(json.loads(json.dumps(build))) == []


def test_starting_fate_points_come_from_the_campaign_setting():
    build = SYSTEM.new_build(choices(fate_points=9), random.Random(0), {"starting_fate_points": 3})
    assert build["fate_points"] == 3


def test_the_flashpoints_data_matches_the_digest():
    assert [r.name for r in FLASHPOINTS.roles] == [
        "Athlete", "Diplomat", "Observer", "Politician", "Scholar", "Soldier", "Technician", "Thief",
    ]  # fmt: skip
    assert [(r.name, r.modifier, r.count) for r in FLASHPOINTS.ranks] == [
        ("World Class", 8, 1), ("Elite", 6, 2), ("Seasoned", 4, 2), ("Trained", 2, 2), ("Untrained", 0, 1),
    ]  # fmt: skip
    assert sum(len(r.benefits) for r in FLASHPOINTS.roles) == 24
    assert FLASHPOINTS.slot_keys == SLOTS
    assert all(slot.anchor_required for slot in FLASHPOINTS.aspect_slots)
    assert FLASHPOINTS.campaign_aspects == ("TRUST NO ONE",)


def test_ratings_always_sum_to_32():
    assert SYSTEM.derive(agent())["rating_total"] == 32


# -- aspects (§D1) ------------------------------------------------------------------------------
def test_every_aspect_needs_text_and_an_anchor():
    build = agent()
    build["aspects"]["origin"] = {"text": "DOCKSIDE KID", "anchor": ""}
    build["aspects"]["service"] = {"text": "", "anchor": "a beret"}
    problems = SYSTEM.validate(build)
    assert messages(problems, "aspects.origin.anchor") == [
        "The Origin aspect (DOCKSIDE KID) needs an anchor (a person, place or thing)."
    ]
    assert messages(problems, "aspects.service.text") == ["The Service aspect is still empty."]


def test_an_unknown_aspect_slot_is_named():
    build = agent()
    build["aspects"]["secret"] = {"text": "X", "anchor": "Y"}
    assert [p.field for p in SYSTEM.validate(build)] == ["aspects.secret"]


# -- roles (§D2) --------------------------------------------------------------------------------
def test_the_role_distribution_says_what_is_extra_and_what_is_missing():
    build = agent()
    build["roles"]["thief"] = "world_class"  # two World Class, no Untrained
    found = messages(SYSTEM.validate(build), "roles")
    assert found == [
        "World Class: 2 roles (Observer, Thief), but an agent has exactly 1. Move 1 to another rating.",
        "Untrained: 0 roles, but an agent has exactly 1. 1 missing.",
    ]


def test_a_missing_role_is_named():
    build = agent()
    del build["roles"]["technician"]
    problems = SYSTEM.validate(build)
    assert "Technician has no rating yet; every role needs one." in messages(problems, "roles.technician")
    assert "Trained: 1 role (Politician), but an agent has exactly 2. 1 missing." in messages(
        problems, "roles"
    )


def test_an_unknown_role_or_rating_is_named():
    build = agent()
    build["roles"]["pilot"] = "elite"
    build["roles"]["thief"] = "legendary"
    problems = SYSTEM.validate(build)
    assert messages(problems, "roles.pilot") == ["Flashpoints has no role called 'pilot'."]
    assert "'legendary' is not a rating for Thief" in messages(problems, "roles.thief")[0]


# -- benefits (§D3) -----------------------------------------------------------------------------
def test_an_elite_role_takes_exactly_one_benefit():
    build = agent()
    build["benefits"]["diplomat"] = [{"key": "gambler"}, {"key": "plant_seed"}]
    assert messages(SYSTEM.validate(build), "benefits.diplomat") == [
        "An Elite Diplomat takes 1 different benefit; 2 are chosen. Remove 1."
    ]
    build["benefits"]["diplomat"] = []
    assert messages(SYSTEM.validate(build), "benefits.diplomat") == [
        "An Elite Diplomat takes 1 different benefit; 0 are chosen. Choose 1 more."
    ]


def test_a_world_class_role_takes_two_different_benefits_or_one_variant():
    build = agent()
    build["benefits"]["observer"] = [{"key": "cold_read"}]
    assert messages(SYSTEM.validate(build), "benefits.observer") == [
        "A World Class Observer takes 2 different benefits (or one of Cold Read ×2, Elementary ×2 alone); "
        "1 is chosen. Choose 1 more."
    ]
    build["benefits"]["observer"] = [{"key": "cold_read_x2"}]
    assert SYSTEM.validate(build) == []


def test_the_same_benefit_twice_is_refused():
    build = agent()
    build["benefits"]["observer"] = [{"key": "cold_read"}, {"key": "cold_read"}]
    assert "Cold Read is chosen twice; the benefits must differ." in messages(SYSTEM.validate(build))


def test_a_variant_is_taken_alone():
    build = agent()
    build["benefits"]["observer"] = [{"key": "elementary_x2"}, {"key": "cold_read"}]
    assert messages(SYSTEM.validate(build), "benefits.observer") == [
        "Elementary ×2 is taken on its own; remove Cold Read."
    ]


def test_a_variant_is_only_for_world_class():
    build = agent()
    build["benefits"]["scholar"] = [{"key": "great_mind_improved", "field": "Soviet history"}]
    assert messages(SYSTEM.validate(build), "benefits.scholar") == [
        "Great Mind (improved) is only for a World Class Scholar."
    ]


def test_world_class_scholar_may_take_improved_great_mind_with_a_field():
    roles = {**choices()["roles"], "scholar": "world_class", "observer": "elite"}
    benefits = {
        "diplomat": ["gambler"],
        "observer": ["elementary"],
        "scholar": [{"key": "great_mind_improved"}],
    }
    build = choices(roles=roles, benefits=benefits)
    with pytest.raises(RuleError) as error:
        SYSTEM.new_build(build, random.Random(0))
    assert [v.field for v in error.value.violations] == ["benefits.scholar.0.field"]
    build["benefits"]["scholar"][0]["field"] = "Game theory"
    assert SYSTEM.new_build(build, random.Random(0))["benefits"]["scholar"][0]["field"] == "Game theory"


def test_the_man_focus_needs_the_tables_approval():
    roles = {**choices()["roles"], "politician": "world_class", "observer": "trained"}
    benefits = {
        "diplomat": ["gambler"],
        "scholar": [{"key": "linguist"}],
        "politician": [{"key": "the_man_focus"}],
    }
    build = choices(roles=roles, benefits=benefits)
    problems = creation.validate(build | {"system": "tempo", "fate_points": 0})
    assert messages(problems) == ["The Man (focus) needs the table's approval before the agent is final."]
    build["benefits"]["politician"][0]["table_approved"] = True
    assert SYSTEM.new_build(build, random.Random(0))


def test_a_world_class_athlete_gets_both_benefits_without_choosing():
    roles = {**choices()["roles"], "athlete": "world_class", "observer": "seasoned"}
    benefits = {"diplomat": ["gambler"], "scholar": [{"key": "linguist"}]}
    build = SYSTEM.new_build(choices(roles=roles, benefits=benefits), random.Random(0))
    assert build["benefits"]["athlete"] == [{"key": "mobility"}, {"key": "brute"}]
    build["benefits"]["athlete"] = [{"key": "brute"}]
    assert messages(SYSTEM.validate(build), "benefits.athlete") == [
        "A World Class Athlete has Mobility and Brute; 1 is chosen. Choose 1 more."
    ]


def test_benefits_on_a_role_below_elite_are_refused():
    build = agent()
    build["benefits"]["thief"] = [{"key": "magician"}]
    assert messages(SYSTEM.validate(build), "benefits.thief") == [
        "Only World Class and Elite roles have benefits; Thief is Untrained. Remove Magician."
    ]


def test_a_benefit_from_another_roles_list_is_refused():
    build = agent()
    build["benefits"]["diplomat"] = [{"key": "hacker"}]
    assert (
        "'hacker' is not a benefit of Diplomat" in messages(SYSTEM.validate(build), "benefits.diplomat.0")[0]
    )


def test_great_mind_needs_a_field_and_others_take_none():
    build = agent()
    build["benefits"]["scholar"] = [{"key": "great_mind", "field": " "}]
    build["benefits"]["diplomat"] = [{"key": "gambler", "field": "poker"}]
    fields = [p.field for p in SYSTEM.validate(build)]
    assert fields == ["benefits.diplomat.0.field", "benefits.scholar.0.field"]


# -- the rest -----------------------------------------------------------------------------------
def test_negative_fate_points_are_refused():
    build = agent()
    build["fate_points"] = -1
    assert [p.field for p in SYSTEM.validate(build)] == ["fate_points"]


def test_unknown_top_level_entries_are_named():
    build = agent()
    build["hit_points"] = 10
    assert [p.field for p in SYSTEM.validate(build)] == ["hit_points"]


def test_an_unknown_module_is_refused():
    with pytest.raises(RuleError) as error:
        SYSTEM.new_build(choices(module="pirates"), random.Random(0))
    assert error.value.violations[0].field == "module"


def test_new_build_reports_every_violation_at_once():
    with pytest.raises(RuleError) as error:
        SYSTEM.new_build({"roles": {"thief": "elite"}}, random.Random(0))
    fields = {v.field for v in error.value.violations}
    assert {"aspects.primary.text", "roles.athlete", "roles"} <= fields


# -- live validation (draft) --------------------------------------------------------------------
def test_an_empty_draft_has_nothing_to_complain_about():
    assert SYSTEM.validate_partial({}) == []
    assert SYSTEM.validate_partial({"aspects": {"primary": {"text": "ASSASSIN"}}}) == []


def test_a_draft_reports_over_allocation_but_not_what_is_missing():
    draft = {"roles": {"athlete": "elite", "soldier": "elite", "thief": "elite"}}
    assert messages(SYSTEM.validate_partial(draft)) == [
        "Elite: 3 roles (Athlete, Soldier, Thief), but an agent has exactly 2. Move 1 to another rating."
    ]


def test_a_draft_reports_missing_ranks_once_every_role_is_rated():
    draft = {"roles": {**choices()["roles"], "thief": "trained"}}
    assert messages(SYSTEM.validate_partial(draft)) == [
        "Trained: 3 roles (Politician, Technician, Thief), but an agent has exactly 2. "
        "Move 1 to another rating.",
        "Untrained: 0 roles, but an agent has exactly 1. 1 missing.",
    ]


def test_a_draft_checks_the_benefits_already_chosen():
    draft = {
        "roles": {"diplomat": "elite"},
        "benefits": {"diplomat": ["gambler", "plant_seed"], "scholar": ["great_mind"]},
    }
    problems = SYSTEM.validate_partial(draft)
    assert [p.field for p in problems] == ["benefits.diplomat", "benefits.scholar.0.field"]


def test_a_draft_does_not_ask_for_unchosen_benefits_or_approval():
    draft = {"roles": {"politician": "world_class"}, "benefits": {"politician": [{"key": "the_man_focus"}]}}
    assert SYSTEM.validate_partial(draft) == []
    assert SYSTEM.derive(draft)["awaiting_approval"] == ["The Man (focus)"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(["aspects", "roles", "benefits", "fate_points", "module", "name", "veto_cards"])


@settings(max_examples=120, deadline=None)
@given(st.dictionaries(KEYS, JSON, max_size=5))
def test_any_json_gives_violations_never_a_crash(document):
    for stage in ("final", "draft"):
        problems = creation.validate(document, stage)
        assert all(p.field and p.message for p in problems)
    SYSTEM.derive(document)
