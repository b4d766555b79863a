"""The rolls each system declares for its character page (Engine.rolls / plan_roll / read_roll /
roll): the right dice, the right score, the reading by the rules, hand-computed from the digests.
Dice are handed in with ``Replay`` (the faces as the dice roller draws them)."""

from __future__ import annotations

import random

import pytest

from characters.systems import RuleError, all_systems, get_system
from characters.systems.base import Replay, RollSpec
from characters.systems.dice import roll_kind
from systems.d6.tests.helpers import build as d6_build
from systems.tempo.tests.helpers import agent as tempo_agent
from systems.time_to_kill.tests.helpers import MIXED
from systems.time_to_kill.tests.helpers import build as ttk_build
from systems.timemaster.tests.helpers import make_build as tm_build


def fields(error: RuleError) -> set[str]:
    return {v.field for v in error.violations}


# -- the contract -----------------------------------------------------------------------------------
def test_every_system_offers_rolls_that_name_their_rule_and_read_what_they_roll():
    builds = {
        "timemaster": tm_build(),
        "tempo": tempo_agent(1),
        "time_to_kill": ttk_build(MIXED),
        "d6": d6_build(),
    }
    for system in all_systems():
        if system.key not in builds:
            continue
        specs = system.rolls(builds[system.key])
        assert specs, system.key
        assert len({s.key for s in specs}) == len(specs)
        for spec in specs:
            assert isinstance(spec, RollSpec) and spec.rule and spec.dice
        rng = random.Random(7)
        for spec in specs:
            try:
                outcome = system.roll(builds[system.key], spec.key, {}, rng)
            except RuleError:  # an automatic result (Time to Kill) or an unaffordable aspect (Tempo)
                continue
            assert outcome.reading["summary"]
            assert outcome.dice.kind  # rolled by the dice roller's kinds


@pytest.mark.parametrize("key", ["timemaster", "tempo", "time_to_kill", "d6"])
def test_an_unknown_roll_or_modifier_is_refused_by_field(key):
    build = {
        "timemaster": tm_build(),
        "tempo": tempo_agent(1),
        "time_to_kill": ttk_build(),
        "d6": d6_build(),
    }[key]
    system = get_system(key)
    with pytest.raises(RuleError) as unknown:
        system.plan_roll(build, "skill:no-such-thing", {})
    assert fields(unknown.value) == {"spec"}
    first = system.rolls(build)[0]
    with pytest.raises(RuleError) as extra:
        system.plan_roll(build, first.key, {"no_such_modifier": 1})
    assert fields(extra.value) == {"modifiers.no_such_modifier"}
    with pytest.raises(RuleError) as shape:
        system.plan_roll(build, first.key, ["not", "an", "object"])
    assert fields(shape.value) == {"modifiers"}


# -- TIMEMASTER: percentile dice on the Action Table (timemaster-play.md §2-§3) -----------------
def test_timemaster_offers_every_score_with_its_value_and_secret_checks_by_rule():
    specs = {s.key: s for s in get_system("timemaster").rolls(tm_build())}
    assert specs["ability:DEX"].value == "64" and specs["ability:DEX"].group == "Abilities"
    assert specs["skill:pistol"].value == "79"
    # Investigation is a secret check (timemaster-characters.md §4.2); the talents too.
    assert specs["skill:investigation"].secret and specs["talent:telepathic_probe"].secret
    assert not specs["skill:pistol"].secret


def test_timemaster_general_check_is_a_percent_roll_at_most_the_modified_score():
    system, build = get_system("timemaster"), tm_build()
    plan = system.plan_roll(build, "ability:DEX", {"modifier": -10})
    assert (plan.kind, plan.count, plan.modifier) == ("percent", 1, 0)
    assert plan.purpose == "Dexterity check (-10)"
    # 5 then 4 reads 54: at most 64 - 10 = 54 succeeds; 5, 5 = 55 fails.
    hit = system.roll(build, "ability:DEX", {"modifier": "-10"}, Replay([5, 4])).reading
    assert (hit["target"], hit["roll"], hit["success"]) == (54, 54, True)
    miss = system.roll(build, "ability:DEX", {"modifier": -10}, Replay([5, 5])).reading
    assert miss["success"] is False and miss["summary"] == "55 against 54: failure"
    # 0, 0 reads 100 (timemaster-play.md §1): a failure against any score under 100.
    assert system.roll(build, "ability:STR", {}, Replay([0, 0])).reading["roll"] == 100


def test_timemaster_specific_check_reads_the_margin_under_the_usual_column():
    system, build = get_system("timemaster"), tm_build()
    # Pistol 79, roll 54: margin 25 is on the 10-29 row; a skill's usual column is 3 (§2.5): MK.
    reading = system.roll(build, "skill:pistol", {"check": "specific"}, Replay([5, 4])).reading
    assert (reading["margin"], reading["row"], reading["column"], reading["code"]) == (25, "10-29", 3, "MK")
    # An ability's usual column is 2 (§2.3); the popover may name another.
    assert system.roll(build, "ability:STR", {"check": "specific"}, Replay([0, 1])).reading["column"] == 2
    assert (
        system.roll(build, "ability:STR", {"check": "specific", "column": "7"}, Replay([0, 1])).reading[
            "column"
        ]
        == 7
    )


def test_timemaster_bad_modifiers_are_refused_before_any_die():
    system, build = get_system("timemaster"), tm_build()
    for modifiers, field in (
        ({"modifier": "lots"}, "modifiers.modifier"),
        ({"modifier": 201}, "modifiers.modifier"),
        ({"modifier": True}, "modifiers.modifier"),
        ({"check": "sideways"}, "modifiers.check"),
        ({"check": "specific", "column": "11"}, "modifiers.column"),
        ({"check": "specific", "results_key": "nope"}, "modifiers.results_key"),
    ):
        with pytest.raises(RuleError) as refused:
            system.plan_roll(build, "skill:pistol", modifiers)
        assert fields(refused.value) == {field}, modifiers


def test_timemaster_secret_check_plans_a_secret_roll():
    plan = get_system("timemaster").plan_roll(tm_build(), "skill:investigation", {})
    assert plan.secret is True


# -- Tempo: 3d6 + role, bonus and penalty dice, outcome bands (tempo-flashpoints.md §B1-§B4, §B7) --
def test_tempo_role_roll_stacks_bonuses_and_keeps_the_highest_three_with_a_bonus_die():
    system, build = get_system("tempo"), tempo_agent(1)
    specs = {s.key: s for s in system.rolls(build)}
    assert specs["role:soldier"].name == "Seasoned Soldier" and specs["role:soldier"].value == "+4"
    modifiers = {"bonuses": "2 1", "bonus_dice": 1}
    plan = system.plan_roll(build, "role:soldier", modifiers)
    # bonuses 2 and 1 stack as 2 + 1 = +3 (§B3); rating +4: modifier +7; one bonus die: 4d6 keep 3
    assert (plan.kind, plan.count, plan.modifier) == ("3d6_bonus", 1, 7)
    outcome = system.roll(build, "role:soldier", modifiers, Replay([2, 3, 1, 6]))
    # kept 6, 3, 2 = 11, + 7 = 18: Unqualified Success (15-19)
    assert outcome.dice.total == 18 and outcome.reading["total"] == 18
    assert outcome.reading["band"] == "unqualified_success"
    assert outcome.reading["ledger"] == []


def test_tempo_penalty_dice_cancel_bonus_dice_and_keep_the_lowest_three():
    system, build = get_system("tempo"), tempo_agent(1)
    plan = system.plan_roll(build, "role:thief", {"bonus_dice": 1, "penalty_dice": 3})
    assert (plan.kind, plan.count, plan.modifier) == ("3d6_penalty", 2, 0)
    reading = system.roll(
        build, "role:thief", {"bonus_dice": 1, "penalty_dice": 3}, Replay([6, 5, 4, 1, 2])
    ).reading
    # keep the lowest three: 1, 2, 4 = 7 with Untrained +0: Failure (5-9), the player narrates
    assert reading["total"] == 7 and reading["band"] == "failure" and reading["narrator"] == "player"


def test_tempo_aspect_invoked_costs_a_fate_point_and_refuses_without_one():
    system = get_system("tempo")
    rich, poor = tempo_agent(1), tempo_agent(0)
    modifiers = {"role": "observer", "use": "invoke"}
    plan = system.plan_roll(rich, "aspect:primary", modifiers)
    assert (plan.kind, plan.count, plan.modifier) == ("3d6_bonus", 1, 8)
    reading = system.roll(rich, "aspect:primary", modifiers, Replay([1, 1, 1, 2])).reading
    assert reading["ledger"] == [
        {
            "kind": "fate_point_spent",
            "reason": "bonus_die_from_aspect",
            "aspect": "GOOD ENOUGH IS GOOD ENOUGH",
        }
    ]
    with pytest.raises(RuleError) as refused:
        system.plan_roll(poor, "aspect:primary", modifiers)
    assert fields(refused.value) == {"modifiers.use"}
    assert "costs 1 fate point and this agent has none" in str(refused.value)
    trouble = system.roll(poor, "aspect:origin", {"role": "thief", "use": "trouble"}, Replay([3, 3, 3, 6]))
    assert trouble.plan.kind == "3d6_penalty"
    assert [e["kind"] for e in trouble.reading["ledger"]] == ["fate_point_gained"]


def test_tempo_optional_fumble_reads_all_ones_as_unmitigated():
    system, build = get_system("tempo"), tempo_agent(1)
    # World Class Observer +8 with 1, 1, 1 = 11: Qualified, unless the campaign plays the fumble rule
    plain = system.roll(build, "role:observer", {}, Replay([1, 1, 1])).reading
    assert plain["band"] == "qualified_success"
    fumble = system.roll(build, "role:observer", {}, Replay([1, 1, 1]), {"fumble_rule": True}).reading
    assert fumble["band"] == "unmitigated_failure" and fumble["fumble"] is True


# -- Time to Kill: a d6 on the Action Table, ability + Fate (time-to-kill.md §B7, §B8) ---------
def test_ttk_ability_against_the_revealed_fate_reads_the_action_table():
    system, build = get_system("time_to_kill"), ttk_build(MIXED)
    specs = {s.key: s for s in system.rolls(build)}
    assert specs["ability:awareness"].value == "+" and specs["ability:knowledge"].value == "-"
    plan = system.plan_roll(build, "ability:awareness", {"fate": "0"})
    assert (plan.kind, plan.count, plan.modifier) == ("d6", 1, 0)
    # Fate 0 with + fails on a 1 only
    assert system.roll(build, "ability:awareness", {"fate": "0"}, Replay([1])).reading["success"] is False
    assert system.roll(build, "ability:awareness", {"fate": "0"}, Replay([2])).reading["success"] is True
    # Fate 0 with 0 fails on 1-3; Fate + with - fails on 1-3; Fate - with 0 fails on 1-5
    assert system.roll(build, "ability:stealth", {"fate": "0"}, Replay([3])).reading["fail_on"] == 3
    assert system.roll(build, "ability:knowledge", {"fate": "+"}, Replay([4])).reading["success"] is True
    assert system.roll(build, "ability:armed", {"fate": "-"}, Replay([5])).reading["success"] is False
    assert system.roll(build, "ability:armed", {"fate": "-"}, Replay([6])).reading["success"] is True


def test_ttk_automatic_results_take_no_roll_and_fates_combine():
    system, build = get_system("time_to_kill"), ttk_build(MIXED)
    for key, fate in (("ability:knowledge", "-"), ("ability:awareness", "+")):
        with pytest.raises(RuleError) as refused:
            system.plan_roll(build, key, {"fate": fate})
        assert fields(refused.value) == {"modifiers.fate"} and "automatic" in str(refused.value)
    # + and - combine to 0 (§B8): with + the roll fails on a 1 only
    reading = system.roll(build, "ability:awareness", {"fate": "+", "second_fate": "-"}, Replay([2])).reading
    assert (reading["fate"], reading["fail_on"], reading["success"]) == ("0", 1, True)


# -- D6: die codes, the multi-action penalty and the Wild Die (d6-game-time.md §A1, §B8, §E3) ----
def test_d6_code_rolls_its_dice_with_a_wild_die_that_explodes_on_six():
    system, build = get_system("d6"), d6_build()
    specs = {s.key: s for s in system.rolls(build)}
    assert specs["code:brawling"].value == "4D" and specs["code:brawling"].group == "Strength skills"
    plan = system.plan_roll(build, "code:brawling", {})
    assert (plan.kind, plan.count, plan.modifier) == ("d6_wild", 4, 0)
    # ordinary 1, 2, 3; the Wild Die shows 6, is rolled again (6) and again (4): 1+2+3+6+6+4 = 22
    outcome = system.roll(build, "code:brawling", {}, Replay([1, 2, 3, 6, 6, 4]))
    assert outcome.dice.faces == (1, 2, 3, 6, 6, 4) and outcome.dice.total == 22
    assert outcome.reading["dice"] == [1, 2, 3] and outcome.reading["wild"] == [6, 6, 4]
    assert outcome.reading["total"] == 22


def test_d6_multi_action_penalty_takes_a_die_per_extra_action_and_zero_cannot_roll():
    system, build = get_system("d6"), d6_build()
    plan = system.plan_roll(build, "code:Perception", {"actions": 3})  # 3D, allotment 1: -2D
    assert (plan.kind, plan.count) == ("d6_wild", 1)
    assert "multi-action -2D" in plan.purpose
    with pytest.raises(RuleError) as refused:
        system.plan_roll(build, "code:Perception", {"actions": 4})  # 3D - 3D leaves nothing (§B9)
    assert fields(refused.value) == {"modifiers.actions"}


def test_d6_wild_die_settings_plain_dice_and_a_one_removing_the_highest():
    system, build = get_system("d6"), d6_build()
    plain = system.roll(build, "code:Perception", {}, Replay([6, 6, 6]), {"wild_die": "plain"})
    assert plain.plan.kind == "d6" and plain.reading["total"] == 18
    # 5, 4 and a Wild Die of 1 with "remove_highest": the 1 and the 5 go, 4 is left
    removed = system.roll(build, "code:Perception", {}, Replay([5, 4, 1]), {"wild_die_one": "remove_highest"})
    assert removed.reading["total"] == 4 and removed.reading["removed"] == [1, 5]
    flagged = system.roll(build, "code:Perception", {}, Replay([5, 4, 1])).reading
    assert flagged["total"] == 10 and flagged["wild_one_rolled"] is True


def test_the_wild_die_kind_rolls_again_while_it_shows_six_and_stops():
    assert roll_kind(Replay([2, 6, 6, 3]), "d6_wild", 2).faces == (2, 6, 6, 3)
    assert roll_kind(Replay([6, 1]), "d6_wild", 2).faces == (6, 1)  # an ordinary 6 is not rolled again
    long = roll_kind(Replay([6] * 60), "d6_wild", 1)
    assert len(long.faces) == 50 and long.total == 300


def test_a_tempo_aspect_preselects_the_use_that_costs_nothing_and_says_why_invoke_is_not_possible():
    """Issue 44, finding 1: the popover preselected Invoke while the agent had 0 fate points (the
    demo's start and refresh), so the first aspect roll was refused. The demo walk: with a fate
    point to spend, Invoke spent it on the first click. The use that costs nothing comes first."""
    system = get_system("tempo")
    poor = next(s for s in system.rolls(tempo_agent(0)) if s.key == "aspect:primary")
    use = next(o for o in poor.options if o.name == "use")
    assert use.preselected == "none"
    assert [(code, bool(why)) for code, _, why in use.choice_rows] == [
        ("none", False),
        ("invoke", True),
        ("trouble", False),
    ]
    assert "has none to spend" in use.why_not("invoke")
    listed = next(c for c in poor.as_dict()["options"] if c["name"] == "use")["choices"]
    assert listed[1]["value"] == "invoke" and "fate point" in listed[1]["unavailable"]
    # not given, the use is the one that costs nothing: no die from the aspect, no fate point moved
    plain = system.plan_roll(tempo_agent(0), "aspect:primary", {"role": "observer"})
    assert plain.count == 0 and "with" not in plain.purpose
    with pytest.raises(RuleError) as refused:
        system.plan_roll(tempo_agent(0), "aspect:primary", {"role": "observer", "use": "invoke"})
    assert fields(refused.value) == {"modifiers.use"}
    rich = next(s for s in system.rolls(tempo_agent(1)) if s.key == "aspect:primary")
    rich_use = next(o for o in rich.options if o.name == "use")
    assert rich_use.preselected == "none" and not rich_use.unavailable
    assert "costs 1 fate point" in dict(rich_use.choices)["invoke"]
