"""Defense columns and attack resolution (systems/timemaster/engine/combat.py).

Each test names the digest section and the seed lines (../shared/seeds/002_02af72a61b7d5f0b.txt)
it checks: timemaster-play.md §4 (L958-970), §5.2-§5.3 (L4068-4097), §7 (L876-880), §11 (L947,
L986-990), §16.1, §19 (L1572-1576), §21.4 (L1901-1912); timemaster-characters.md §4 (L2683,
L2711, L2836).
"""

import random

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import combat


def column(**situation):
    return combat.defense_column(situation).column


# -- melee (play §4, L960-970) -------------------------------------------------------------------
def test_a_melee_defender_who_declared_a_skill_defends_on_that_skills_column():
    # §4 "declared use of a melee skill": Boxing 76 is in 76-90, column 6 (L960-962)
    reading = combat.defense_column({"form": "melee", "declared_skill_score": 76, "unskilled_melee": 40})
    assert reading.column == 6
    assert reading.reasons[0].text == "declared melee skill 76: column 6"


def test_any_other_melee_defender_defends_on_his_unskilled_melee_column():
    # §4, §29 ambiguity 38 (L968-970): UM 61 -> column 5
    assert column(form="melee", unskilled_melee=61) == 5


def test_a_surprised_melee_defender_is_on_column_1_whatever_his_shield_or_skill():
    # §7 (L876-878), §4 (L964-966)
    reading = combat.defense_column(
        {"form": "melee", "surprised": True, "declared_skill_score": 120, "shield": "large"}
    )
    assert reading.column == 1
    assert [r.text for r in reading.reasons] == ["surprised: column 1"]


def test_an_entangled_defender_is_on_column_1_in_melee():
    # characters §4 Net (L2836)
    assert column(form="melee", entangled=True, unskilled_melee=80, defender_advanced_self_defense=True) == 1


def test_a_melee_defender_without_skill_or_unskilled_melee_is_refused():
    with pytest.raises(RuleError) as caught:
        combat.defense_column({"form": "melee"})
    assert caught.value.violations[0].field == "unskilled_melee"


# -- shields (play §19, L1572-1576) -----------------------------------------------------------------
def test_the_books_shield_example_column_4_becomes_5_with_a_small_shield_and_6_with_a_large():
    # L1574: "normally defend in melee on column 4 ... small shield ... column 5 ... large ... 6"
    assert column(form="melee", unskilled_melee=50, shield="small") == 5
    assert column(form="melee", unskilled_melee=50, shield="large") == 6


def test_a_shield_covers_only_the_first_two_attacks_of_a_round():
    # L1576: "on the third attack, the victim defends normally"
    assert column(form="melee", unskilled_melee=50, shield="large", attack_number=2) == 6
    reading = combat.defense_column(
        {"form": "melee", "unskilled_melee": 50, "shield": "large", "attack_number": 3}
    )
    assert reading.column == 4
    assert "first 2" in reading.reasons[-1].text


def test_a_shield_never_helps_against_a_firearm_or_a_talent():
    # L1576; play §4 paranormal column = current WPR
    assert column(form="missile", missile_class="firearm", defense_die=4, shield="large") == 4
    assert column(form="paranormal", current_willpower=52, shield="large") == 4


def test_a_shield_counts_against_thrown_missiles_after_the_die_and_luck_unless_the_campaign_says_no():
    # §29 ambiguity 18: shift after 1d10 + Luck (max 10)
    situation = {"form": "missile", "missile_class": "missiles_a", "defense_die": 9, "shield": "large"}
    assert combat.defense_column(situation).column == 10
    assert combat.defense_column(situation, {"shields_against_missiles": False}).column == 9


# -- Advanced Self-Defense and Florentine (characters §4, L2683, L2711) -------------------------------
def test_advanced_self_defense_shifts_right_only_against_an_attacker_without_it():
    assert column(form="melee", unskilled_melee=50, defender_advanced_self_defense=True) == 5
    assert (
        column(
            form="melee",
            unskilled_melee=50,
            defender_advanced_self_defense=True,
            attacker_advanced_self_defense=True,
        )
        == 4
    )


def test_a_florentine_attacker_shifts_the_defender_left_unless_he_fights_florentine_too():
    assert column(form="melee", unskilled_melee=50, attacker_florentine=True) == 3
    assert column(form="melee", unskilled_melee=50, attacker_florentine=True, defender_florentine=True) == 4


# -- the limits at both ends (play §4, §28 rule 2; L958, L2683) ---------------------------------------
def test_shifts_never_take_a_column_above_10():
    reading = combat.defense_column(
        {
            "form": "melee",
            "declared_skill_score": 140,
            "shield": "large",
            "defender_advanced_self_defense": True,
        }
    )
    assert reading.column == 10
    assert reading.reasons[-1].text == "read as column 10, the highest"


def test_shifts_never_take_a_column_below_1():
    reading = combat.defense_column({"form": "melee", "unskilled_melee": 10, "attacker_florentine": True})
    assert reading.column == 1
    assert reading.reasons[-1].text == "read as column 1, the lowest"


def test_a_missile_roll_of_10_with_luck_is_still_column_10():
    # L958 "10 maximum"
    reading = combat.defense_column(
        {
            "form": "missile",
            "missile_class": "firearm",
            "defense_die": 10,
            "defender_kind": "pc",
            "luck_spent": 2,
            "luck_available": 30,
        }
    )
    assert reading.column == 10
    assert reading.luck_spent == 2


# -- missiles and Luck (play §4, §11 step 4, §16.1; L627, L947, L958) ----------------------------------
def test_a_missile_defense_is_the_1d10_plus_the_luck_spent():
    reading = combat.defense_column(
        {
            "form": "missile",
            "missile_class": "firearm",
            "defense_die": 3,
            "defender_kind": "pc",
            "luck_spent": 2,
            "luck_available": 40,
        }
    )
    assert reading.column == 5
    assert "lost for good" in reading.reasons[1].text


@pytest.mark.parametrize("spent", [3, 10])
def test_more_than_two_luck_points_on_one_missile_are_refused(spent):
    with pytest.raises(RuleError) as caught:
        combat.defense_column(
            {
                "form": "missile",
                "missile_class": "firearm",
                "defense_die": 3,
                "defender_kind": "pc",
                "luck_spent": spent,
                "luck_available": 40,
            }
        )
    assert caught.value.violations[0].field == "luck_spent"
    assert "At most 2" in caught.value.violations[0].message


def test_luck_above_what_the_pc_has_left_is_refused():
    with pytest.raises(RuleError, match="only 1 Luck left"):
        combat.defense_column(
            {
                "form": "missile",
                "missile_class": "firearm",
                "defense_die": 3,
                "defender_kind": "pc",
                "luck_spent": 2,
                "luck_available": 1,
            }
        )


def test_npcs_have_no_luck_and_melee_takes_none():
    with pytest.raises(RuleError, match="Only player characters"):
        combat.defense_column(
            {"form": "missile", "missile_class": "firearm", "defense_die": 3, "luck_spent": 1}
        )
    with pytest.raises(RuleError, match="missile attacks"):
        combat.defense_column(
            {
                "form": "melee",
                "unskilled_melee": 40,
                "defender_kind": "pc",
                "luck_spent": 1,
                "luck_available": 9,
            }
        )


def test_a_surprised_defender_still_rolls_his_die_against_missiles():
    # §7 (L880)
    assert column(form="missile", missile_class="firearm", defense_die=7, surprised=True) == 7


# -- helpless defenders (play §11, L986-990, §29 ambiguity 10) -------------------------------------------
def test_a_helpless_defender_is_hit_without_a_roll_on_the_campaigns_severity():
    reading = combat.defense_column({"form": "melee", "helpless": True})
    assert reading.automatic_hit and reading.column is None
    outcome = combat.resolve_attack(40, None, reading, "armed", (5, 5, 5))
    assert outcome.hit and outcome.roll is None and outcome.letter == "C"
    assert outcome.damage.stamina == 30 and outcome.damage.wounds == 5
    lighter = combat.resolve_attack(40, None, reading, "armed", (5,), {"helpless_defender_result": "L"})
    assert lighter.letter == "L" and lighter.damage.wounds == 2


# -- mass-armor modifier for troops (play §21.4, L1901-1912) ----------------------------------------------
@pytest.mark.parametrize(
    ("rating", "shield", "modifier"),
    [
        (9, None, 0),
        (10, None, 1),
        (15, None, 1),
        (16, None, 2),
        (25, None, 2),
        (26, None, 3),
        (59, None, 3),
        (10, "small", 1),
        (11, "small", 2),
        (16, "large", 3),
        (60, None, 0),
    ],
)
def test_the_troop_armor_modifier_follows_the_ar_with_the_shield_added(rating, shield, modifier):
    assert combat.mass_armor_modifier(rating, shield) == modifier


def test_troop_armor_adds_to_the_die_against_missiles_a_only_and_reads_above_10_as_10():
    base = {
        "form": "missile",
        "defender_kind": "troops",
        "mass_armor": True,
        "troop_armor_rating": 45,
        "defense_die": 9,
    }
    assert combat.defense_column({**base, "missile_class": "missiles_a"}).column == 10
    assert combat.defense_column({**base, "missile_class": "missiles_b"}).column == 9
    small = {
        **base,
        "missile_class": "missiles_a",
        "troop_armor_rating": 10,
        "defense_die": 2,
        "shield": "small",
    }
    assert combat.defense_column(small).column == 3  # AR 10 + 5 for the shield = 15: +1, no shift besides
    with pytest.raises(RuleError, match="troops only"):
        combat.defense_column({**base, "defender_kind": "npc", "missile_class": "missiles_a"})


# -- reading the attack (play §2.2, §5.2-§5.3, §11 step 5) ---------------------------------------------------
def test_bobs_rock_margin_20_on_column_5_is_a_medium_wound_on_the_armed_key():
    # play §2.2 worked example (L165-173): DEX 72, roll 52, defender's 1d10 = 5 -> M
    defense = combat.defense_column({"form": "missile", "missile_class": "missiles_a", "defense_die": 5})
    outcome = combat.resolve_attack(72, 52, defense, "armed", (4, 6))
    assert (outcome.margin, outcome.as_dict()["column"]) == (20, 5)
    assert outcome.letter == "M" and outcome.result_name == "Medium Wound"
    assert outcome.damage.as_dict() == {"stamina": 20, "wounds": 3, "faces": [4, 6]}


def test_the_unarmed_key_marks_no_wounds_below_harsh():
    # play §5.3 (L4088-4097)
    defense = combat.defense_column({"form": "melee", "unskilled_melee": 50})
    outcome = combat.resolve_attack(60, 45, defense, "unarmed", (3, 4))  # margin 15, col 4 -> M
    assert outcome.letter == "M" and outcome.damage.wounds == 0 and outcome.damage.stamina == 14


@pytest.mark.parametrize(("face", "stamina"), [(1, 1), (5, 1), (6, 2), (10, 2)])
def test_a_scratch_costs_1_on_1_to_5_and_2_on_6_to_10(face, stamina):
    # play §5.2, §29 ambiguity 34 (L4072, L4092)
    assert combat.damage("S", "armed", (face,)).stamina == stamina


def test_a_miss_reads_nothing_and_luck_spent_stays_spent():
    defense = combat.defense_column(
        {
            "form": "missile",
            "missile_class": "firearm",
            "defense_die": 3,
            "defender_kind": "pc",
            "luck_spent": 1,
            "luck_available": 9,
        }
    )
    outcome = combat.resolve_attack(40, 41, defense, "armed")
    assert not outcome.hit and outcome.letter is None
    assert outcome.notes == ("Luck spent is lost all the same",)


def test_roll_attack_rolls_the_die_the_percent_and_the_damage_from_the_rng():
    outcome = combat.roll_attack(
        {"form": "missile", "missile_class": "firearm"}, 150, "armed", random.Random(1)
    )
    assert 1 <= outcome.defense.defense_die <= 10 and outcome.hit
    assert len(outcome.damage.faces) == combat.damage_dice(outcome.letter)


def test_unknown_situation_fields_and_bad_values_are_refused_by_name():
    for situation, field in [
        ({"form": "melee", "unskilled_melee": 40, "colour": "red"}, "colour"),
        ({"form": "throw"}, "form"),
        ({"form": "missile", "defense_die": 3}, "missile_class"),
        ({"form": "missile", "missile_class": "firearm", "defense_die": 11}, "defense_die"),
        ({"form": "melee", "unskilled_melee": 40, "shield": "tower"}, "shield"),
        ({"form": "melee", "unskilled_melee": 40, "surprised": "yes"}, "surprised"),
    ]:
        with pytest.raises(RuleError) as caught:
            combat.defense_column(situation)
        assert caught.value.violations[0].field == field
