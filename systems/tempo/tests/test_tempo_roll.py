import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.tempo.engine import roll as tempo_roll
from systems.tempo.engine.roll import (
    band_for,
    help_die,
    numeric_modifier,
    plan_dice,
    roll,
    roll_for_agent,
)

from .helpers import Scripted, agent


def fields_of(error: RuleError) -> list[str]:
    return [v.field for v in error.violations]


# -- bands (§B2, §E1) ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "band", "narrator"),
    [
        (-3, "unmitigated_failure", "gm"),
        (4, "unmitigated_failure", "gm"),
        (5, "failure", "player"),
        (9, "failure", "player"),
        (10, "qualified_success", "gm"),
        (14, "qualified_success", "gm"),
        (15, "unqualified_success", "gm"),
        (19, "unqualified_success", "gm"),
        (20, "dramatic_success", "player"),
        (26, "dramatic_success", "player"),
    ],
)
def test_every_band_boundary_and_its_narrator(total, band, narrator):
    assert band_for(total)["key"] == band
    assert band_for(total)["narrator"] == narrator


@pytest.mark.parametrize(
    ("faces", "total", "band"),
    [
        ([1, 1, 1], 4, "unmitigated_failure"),  # the book's +1 examples
        ([2, 2, 3], 8, "failure"),
        ([3, 4, 4], 12, "qualified_success"),
        ([5, 5, 6], 17, "unqualified_success"),
        ([6, 6, 6], 19, "unqualified_success"),
    ],
)
def test_a_plain_roll_adds_three_dice_and_the_rating(faces, total, band):
    result = roll(Scripted(faces), {"rating": 1})
    assert result.total == total
    assert result.band == band
    assert result.kept == tuple(sorted(faces, reverse=True))
    assert result.keep == "all"
    assert result.explanation[-1].startswith(result.band_name)


def test_the_result_has_all_dice_kept_dice_total_band_and_narrator():
    data = roll(Scripted([2, 5, 3, 6]), {"rating": 4, "bonus_dice": 1}).as_dict()
    assert data["faces"] == [2, 5, 3, 6]
    assert data["kept"] == [6, 5, 3]
    assert data["dropped"] == [2]
    assert data["total"] == 18
    assert data["band"] == "unqualified_success"
    assert data["narrator"] == "gm"
    assert data["explanation"]


# -- bonus and penalty dice (§B4) ---------------------------------------------------------------
def test_a_bonus_die_drops_the_lowest():
    result = roll(Scripted([1, 4, 4, 6]), {"bonus_dice": 1})
    assert result.kept == (6, 4, 4)
    assert result.dropped == (1,)
    assert result.keep == "highest"


def test_a_penalty_die_drops_the_highest():
    result = roll(Scripted([1, 4, 4, 6]), {"penalty_dice": 1})
    assert result.kept == (4, 4, 1)
    assert result.dropped == (6,)
    assert result.keep == "lowest"


def test_bonus_and_penalty_dice_cancel_one_for_one_before_rolling():
    result = roll(Scripted([3, 2, 6, 5]), {"bonus_dice": 2, "penalty_dice": 1})
    assert len(result.faces) == 4
    assert result.kept == (6, 5, 3)
    assert result.bonus_dice == 1
    assert "2 bonus and 1 penalty dice cancel, leaving 1 bonus die." in result.explanation


def test_equal_bonus_and_penalty_dice_leave_a_plain_roll():
    result = roll(Scripted([3, 2, 6]), {"bonus_dice": 2, "penalty_dice": 2})
    assert result.faces == (3, 2, 6)
    assert result.keep == "all"


def test_several_penalty_dice_still_keep_three():
    result = roll(Scripted([6, 6, 1, 2, 5]), {"penalty_dice": 2})
    assert result.kept == (5, 2, 1)
    assert result.dropped == (6, 6)


def test_dice_and_numbers_never_cancel_each_other():
    result = roll(Scripted([2, 3, 4, 6]), {"bonus_dice": 1, "penalties": [2]})
    assert result.kept == (6, 4, 3)
    assert result.numeric_modifier == -2
    assert result.total == 11


def test_an_extra_die_raises_the_number_kept_and_a_lost_die_lowers_it():
    assert roll(Scripted([1, 2, 3, 4]), {"extra_dice": 1}).kept == (4, 3, 2, 1)
    lost = roll(Scripted([5, 2, 1]), {"lost_dice": 1, "bonus_dice": 1})
    assert lost.keep_count == 2
    assert lost.kept == (5, 2)


def test_losing_every_die_is_refused():
    with pytest.raises(RuleError) as error:
        roll(random.Random(1), {"lost_dice": 3})
    assert fields_of(error.value) == ["lost_dice"]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    bonus=st.integers(0, 8),
    penalty=st.integers(0, 8),
    rating=st.integers(0, 8),
    bonuses=st.lists(st.integers(1, 3), max_size=3),
    penalties=st.lists(st.integers(1, 3), max_size=3),
)
def test_any_mix_of_bonus_and_penalty_dice_keeps_three_and_stays_in_range(
    seed, bonus, penalty, rating, bonuses, penalties
):
    result = roll(
        random.Random(seed),
        {
            "rating": rating,
            "bonus_dice": bonus,
            "penalty_dice": penalty,
            "bonuses": bonuses,
            "penalties": penalties,
        },
    )
    modifier = rating + result.numeric_modifier
    assert len(result.kept) == 3
    assert 3 + modifier <= result.total <= 18 + modifier
    assert len(result.faces) == 3 + abs(bonus - penalty)
    assert sorted(result.kept + result.dropped) == sorted(result.faces)


# -- numeric modifiers (§B3) --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("bonuses", "penalties", "net"),
    [
        ([], [], 0),
        ([2], [], 2),
        ([2, 1], [], 3),
        ([3, 1, 1, 1], [], 4),  # the +1 is flat, however many extras
        ([], [2], -2),
        ([], [2, 1], -3),
        ([], [1, 1, 1], -2),
        ([3], [2], 1),  # the book's example
        ([3, 2], [2, 1], 1),
    ],
)
def test_bonuses_and_penalties_stack_as_highest_plus_one_and_cancel(bonuses, penalties, net):
    assert numeric_modifier(bonuses, penalties)[0] == net


def test_negative_penalties_count_by_size():
    result = roll(Scripted([3, 3, 3]), {"penalties": [-2, -1]})
    assert result.numeric_modifier == -3


def test_flashpoints_descriptive_bonuses_do_not_stack():
    result = roll(
        Scripted([3, 3, 3]), {"descriptive": ["good plan", "good tools", "inside man"]}, module="flashpoints"
    )
    assert result.numeric_modifier == 1
    assert any("do not stack" in line for line in result.explanation)


def test_a_descriptive_bonus_joins_other_bonuses_as_one_entry():
    result = roll(
        Scripted([3, 3, 3]),
        {"bonuses": [2], "descriptive": ["good plan", "good tools"]},
        module="flashpoints",
    )
    assert result.numeric_modifier == 3  # highest +2, plus 1 for a second entry


def test_without_a_module_descriptive_bonuses_stack_like_other_bonuses():
    assert roll(Scripted([3, 3, 3]), {"descriptive": ["plan", "tools", "map"]}).numeric_modifier == 2


def test_a_zero_bonus_is_refused():
    with pytest.raises(RuleError) as error:
        roll(random.Random(1), {"bonuses": [0]})
    assert fields_of(error.value) == ["bonuses.0"]


# -- optional fumble (§B2, §E3) -----------------------------------------------------------------
def test_triple_ones_are_a_fumble_only_with_the_setting():
    plain = roll(Scripted([1, 1, 1]), {"rating": 8})
    assert plain.band == "qualified_success"
    fumbled = roll(Scripted([1, 1, 1]), {"rating": 8}, {"fumble_rule": True})
    assert fumbled.band == "unmitigated_failure"
    assert fumbled.fumble


def test_triple_sixes_are_dramatic_only_with_the_setting():
    assert roll(Scripted([6, 6, 6]), {"rating": 1}).band == "unqualified_success"
    assert roll(Scripted([6, 6, 6]), {"rating": 1}, {"crit_rule": True}).band == "dramatic_success"


def test_a_bad_setting_value_is_refused():
    with pytest.raises(RuleError):
        roll(random.Random(1), {}, {"fumble_rule": "yes"})


# -- helping (§B5, §D7) -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kept", "total", "die", "which"),
    [
        ([1, 2, 2], 9, 1, "lowest"),  # the book's examples with a +4 helper
        ([1, 3, 3], 11, 3, "middle"),
        ([2, 4, 6], 16, 6, "highest"),
        ([2, 3, 5], 10, 3, "middle"),
        ([1, 2, 3], 5, 1, "lowest"),
        ([4, 5, 6], 15, 6, "highest"),
        ([1, 1, 2], 4, None, "none"),
    ],
)
def test_the_helpers_band_decides_which_die_is_handed_over(kept, total, die, which):
    assert help_die(kept, total) == (die, which)


def test_a_help_die_joins_the_pool_as_a_bonus_die():
    helper = roll(Scripted([2, 4, 6]), {"rating": 4})
    assert helper.total == 16
    result = roll(Scripted([1, 3, 5]), {"help": [{"helper": "Leanne", **helper.as_dict()}]})
    assert result.help_dice == (6,)
    assert result.kept == (6, 5, 3)
    assert result.help[0]["which"] == "highest"


def test_a_helper_on_four_or_less_gives_nothing():
    result = roll(Scripted([1, 3, 5]), {"help": [{"helper": "Leanne", "kept": [1, 1, 1], "total": 3}]})
    assert result.help_dice == ()
    assert result.faces == (1, 3, 5)
    assert "gives no help" in result.explanation[0]


def test_penalty_dice_cancel_fresh_bonus_dice_before_help_dice():
    plan = plan_dice(bonus_dice=1, penalty_dice=2, help_dice=[5, 2])
    assert plan.fresh_bonus == 0
    assert plan.help_kept == (5,)
    assert plan.help_cancelled == (2,)
    assert plan.penalty == 0


def test_penalty_dice_left_after_all_help_are_rolled():
    assert plan_dice(0, 3, [4]).penalty == 2


def test_a_malformed_help_roll_is_refused():
    with pytest.raises(RuleError) as error:
        roll(random.Random(1), {"help": [{"kept": [7, 1, 1], "total": 9}]})
    assert fields_of(error.value) == ["help.0"]


# -- hurry (§B6) --------------------------------------------------------------------------------
def test_hurrying_for_a_guarantee_adds_a_penalty_die():
    result = roll(Scripted([2, 4, 6, 5]), {"hurry": {"mode": "guarantee", "text": "it is done fast"}})
    assert result.kept == (5, 4, 2)
    assert result.hurry == {"mode": "guarantee", "text": "it is done fast"}


def test_hurrying_with_a_qualifier_adds_a_bonus_die_and_may_double_a_qualified_success():
    result = roll(
        Scripted([1, 4, 4, 3]), {"rating": 1, "hurry": {"mode": "qualifier", "text": "the lock breaks"}}
    )
    assert result.kept == (4, 4, 3)
    assert result.band == "qualified_success"
    assert "second qualifier" in result.explanation[-1]


def test_hurry_needs_its_text():
    with pytest.raises(RuleError) as error:
        roll(random.Random(1), {"hurry": {"mode": "qualifier", "text": " "}})
    assert fields_of(error.value) == ["hurry.text"]


# -- aspects on a roll (§B7, §D6) ---------------------------------------------------------------
def test_invoking_and_taking_trouble_from_aspects_move_dice_and_fate():
    result = roll(
        Scripted([1, 2, 3]),
        {
            "aspects": [
                {"aspect": "SHARP EYES", "source": "own", "use": "invoke"},
                {"aspect": "GOOD ENOUGH IS GOOD ENOUGH", "source": "own", "use": "trouble"},
            ]
        },
        module="flashpoints",
    )
    assert result.faces == (1, 2, 3)  # one bonus and one penalty die cancel
    assert (result.fate_spent, result.fate_gained) == (1, 1)


def test_flashpoints_allows_only_one_own_aspect_to_help_a_roll():
    request = {
        "aspects": [
            {"aspect": "SHARP EYES", "source": "own", "use": "invoke"},
            {"aspect": "EX-SPECIAL FORCES", "source": "own", "use": "invoke"},
        ]
    }
    with pytest.raises(RuleError) as error:
        roll(random.Random(1), request, module="flashpoints")
    assert "only 1 aspect" in error.value.violations[0].message
    assert roll(random.Random(1), request).fate_spent == 2  # the core rules set no limit


def test_any_number_of_opponent_aspects_may_be_invoked():
    uses = [{"aspect": f"FLAW {i}", "source": "opponent", "use": "invoke"} for i in range(3)]
    uses.append({"aspect": "SHARP EYES", "source": "own", "use": "invoke"})
    uses.append({"aspect": "TRUST NO ONE", "source": "campaign", "use": "invoke"})
    result = roll(random.Random(2), {"aspects": uses}, module="flashpoints")
    assert result.fate_spent == 5
    assert len(result.faces) == 8


def test_an_aspect_counts_once_per_roll():
    uses = [{"aspect": "FLAW", "source": "opponent", "use": "invoke"}] * 2
    with pytest.raises(RuleError):
        roll(random.Random(1), {"aspects": uses})


def test_only_own_aspects_earn_a_fate_point_for_trouble():
    with pytest.raises(RuleError) as error:
        roll(random.Random(1), {"aspects": [{"aspect": "RAIN", "source": "scene", "use": "trouble"}]})
    assert fields_of(error.value) == ["aspects.0.use"]


def test_a_campaign_aspect_must_be_the_modules():
    with pytest.raises(RuleError):
        roll(
            random.Random(1),
            {"aspects": [{"aspect": "TRUST EVERYONE", "source": "campaign"}]},
            module="flashpoints",
        )


def test_a_penalty_die_from_an_own_aspect_does_not_count_against_the_limit():
    uses = [
        {"aspect": "SHARP EYES", "source": "own", "use": "invoke"},
        {"aspect": "DOCKSIDE KID", "source": "own", "use": "trouble"},
    ]
    assert roll(random.Random(1), {"aspects": uses}, module="flashpoints").fate_gained == 1


# -- rolling for an agent -----------------------------------------------------------------------
def test_an_agents_roll_takes_the_rating_from_the_role():
    result, entries = roll_for_agent(agent(), "observer", {}, Scripted([2, 2, 2]))
    assert result.rating == 8
    assert result.total == 14
    assert entries == []


def test_an_agents_roll_names_own_aspects_by_slot_and_lists_fate_entries():
    request = {"aspects": [{"aspect": "flashpoint_2", "source": "own", "use": "invoke"}]}
    result, entries = roll_for_agent(agent(fate_points=1), "observer", request, random.Random(3))
    assert result.aspects[0]["aspect"] == "SHARP EYES"
    assert entries == [
        {"kind": "fate_point_spent", "reason": "bonus_die_from_aspect", "aspect": "SHARP EYES"}
    ]


def test_invoking_without_fate_points_is_refused():
    request = {"aspects": [{"aspect": "SHARP EYES", "source": "own", "use": "invoke"}]}
    with pytest.raises(RuleError) as error:
        roll_for_agent(agent(fate_points=0), "observer", request, random.Random(3))
    assert fields_of(error.value) == ["fate_points"]


def test_an_aspect_the_agent_does_not_have_is_refused():
    request = {"aspects": [{"aspect": "NINJA", "source": "own", "use": "invoke"}]}
    with pytest.raises(RuleError):
        roll_for_agent(agent(fate_points=3), "observer", request, random.Random(3))


def test_great_mind_frees_one_own_aspect_on_scholar_rolls_only():
    free = {
        "aspects": [
            {"aspect": "origin", "source": "own", "use": "free", "reason": "benefit", "benefit": "great_mind"}
        ]
    }
    result, entries = roll_for_agent(agent(), "scholar", free, random.Random(5))
    assert len(result.faces) == 4
    assert entries == []
    with pytest.raises(RuleError):
        roll_for_agent(agent(), "soldier", free, random.Random(5))


def test_a_substitution_needs_the_benefit_that_allows_it():
    result, _ = roll_for_agent(agent(), "diplomat", {}, random.Random(1), instead_of="luck")
    assert "Gambler" in result.role
    with pytest.raises(RuleError) as error:
        roll_for_agent(agent(), "soldier", {}, random.Random(1), instead_of="observer")
    assert fields_of(error.value) == ["instead_of"]


def test_a_role_without_a_rating_is_refused():
    build = agent()
    del build["roles"]["thief"]
    with pytest.raises(RuleError):
        roll_for_agent(build, "thief", {}, random.Random(1))


def test_the_roll_result_round_trips_through_json():
    import json

    data = roll(
        random.Random(9), {"rating": 2, "bonus_dice": 1, "hurry": {"mode": "guarantee", "text": "quiet"}}
    )
    assert json.loads(json.dumps(data.as_dict())) == data.as_dict()
    assert tempo_roll.RollResult(**{**data.as_dict()}).total == data.total
