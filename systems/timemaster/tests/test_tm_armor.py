"""Armor, hit location and called shots (systems/timemaster/engine/armor.py).

timemaster-play.md §19 (L1477-1584) and §11 called shots (L978-990), §15 knockouts (L1403);
timemaster-characters.md Blackjack (L2695). Seed lines are of ../shared/seeds/002_02af72a61b7d5f0b.txt.
Readings the book leaves open: docs/rulings-timemaster-combat.md.
"""

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import armor
from systems.timemaster.engine.formulas import penetration_bonus


# -- the Hit Location Chart (§19, L1489-1504): both ends of every range --------------------------------
@pytest.mark.parametrize(
    ("roll", "location"),
    [
        (1, "head"),
        (9, "head"),
        (10, "upper_torso"),
        (27, "upper_torso"),
        (28, "abdomen"),
        (44, "abdomen"),
        (45, "right_leg"),
        (53, "right_leg"),
        (54, "left_leg"),
        (62, "left_leg"),
        (63, "right_arm"),
        (71, "right_arm"),
        (72, "left_arm"),
        (80, "left_arm"),
        (81, "right_hand"),
        (85, "right_hand"),
        (86, "left_hand"),
        (90, "left_hand"),
        (91, "right_foot"),
        (95, "right_foot"),
        (96, "left_foot"),
        (100, "left_foot"),
    ],
)
def test_the_hit_location_chart_at_both_ends_of_every_range(roll, location):
    assert armor.hit_location(roll) == location


@pytest.mark.parametrize("roll", [0, 101, -5, True, "50"])
def test_a_location_roll_outside_1_to_100_is_refused(roll):
    with pytest.raises(RuleError, match="percent from 1 to 100"):
        armor.hit_location(roll)


# -- penetration (§19, L1504-1508, L1523-1552) -------------------------------------------------------
def test_a_sword_against_plate_needs_60_and_the_bonus_counts_only_for_the_test():
    # metal plates AR 60: 58 Stamina + STR 64's bonus +10 = 68 gets through; 58 alone does not
    assert penetration_bonus(64) == 10
    assert armor.armor_test(58, "metal_plates", "melee_weapon", 10)[0] is True
    assert armor.armor_test(49, "metal_plates", "melee_weapon", 10)[0] is False
    assert armor.armor_test(50, "metal_plates", "melee_weapon", 10)[0] is True  # equal: penetrates
    through = armor.armor_outcome(
        58, 4, "upper_torso", ["metal_plates"], "melee_weapon", penetration_bonus=10
    )
    assert (through.stamina, through.wounds, through.penetrated) == (58, 4, True)  # the bonus is dropped


@pytest.mark.parametrize(("stamina", "through"), [(44, False), (45, True)])
def test_stamina_equal_to_the_ar_penetrates_and_one_less_does_not(stamina, through):
    # "equal to or higher than the Armor Rating" (L1506): mail AR 45, a sword without bonus
    assert armor.armor_test(stamina, "mail", "melee_weapon")[0] is through


def test_the_bonus_counts_for_thrown_missiles_but_never_for_slings_or_fired_weapons():
    # L1539-1543: leather AR 10, 6 Stamina + bonus 5
    assert armor.armor_test(6, "studded_leather", "thrown", 10)[0] is True
    assert armor.armor_test(6, "studded_leather", "fired", 10)[0] is False
    assert armor.armor_test(14, "studded_leather", "fired", 10)[0] is False
    assert armor.armor_test(15, "studded_leather", "fired", 10)[0] is True


def test_immunity_types_withstand_their_missiles_whatever_the_stamina():
    # L1523-1531: A stops slings; B also short bows and thrown missiles; C every missile but beams
    assert armor.armor_test(60, "leather", "sling")[0] is False
    assert armor.armor_test(60, "leather", "short_bow")[0] is True
    assert armor.armor_test(60, "helmet", "short_bow")[0] is False
    assert armor.armor_test(60, "helmet", "thrown", 20)[0] is False
    assert armor.armor_test(60, "helmet", "fired")[0] is True
    assert armor.armor_test(60, "bulletproof_vest", "fired")[0] is False
    assert armor.armor_test(60, "bulletproof_vest", "firearm")[0] is False
    # type C does not stop melee weapons or beams: those take the AR test
    assert armor.armor_test(15, "bulletproof_vest", "melee_weapon")[0] is True
    assert armor.armor_test(14, "bulletproof_vest", "beam")[0] is False
    assert armor.armor_test(45, "body_suit", "beam")[0] is True


def test_firearms_go_through_a_and_b_armor_without_a_test():
    # L1533: even 2 Stamina through plate
    assert armor.armor_test(2, "metal_plates", "firearm")[0] is True
    assert armor.armor_test(2, "mail", "beam")[0] is True


def test_all_armor_stops_unarmed_damage_but_a_knockdown_is_not_armor_s_business():
    # L1504: a punch on a leather-covered torso does nothing; K is applied by the attack flow
    outcome = armor.armor_outcome(40, 2, "upper_torso", ["leather"], "unarmed")
    assert (outcome.stamina, outcome.wounds, outcome.penetrated) == (0, 0, False)
    assert "Leather stops an unarmed blow" in outcome.summary()


def test_a_bare_location_takes_full_damage():
    # L1487: mail covers the torso, arms and legs (ruling 1), not the hands
    outcome = armor.armor_outcome(12, 2, "right_hand", ["mail"], "melee_weapon")
    assert (outcome.stamina, outcome.wounds, outcome.penetrated) == (12, 2, None)


def test_a_hit_that_does_not_penetrate_has_no_effect_and_one_that_does_crumples_the_location():
    held = armor.armor_outcome(30, 3, "abdomen", ["mail"], "melee_weapon")
    assert (held.stamina, held.wounds, held.crumples) == (0, 0, None)
    through = armor.armor_outcome(46, 4, "abdomen", ["mail"], "melee_weapon")
    assert (through.stamina, through.wounds, through.crumples) == (46, 4, "abdomen")
    # L1535-1537: later hits to that location ignore the armor there, not elsewhere
    again = armor.armor_outcome(6, 2, "abdomen", ["mail"], "melee_weapon", crumpled=["abdomen"])
    assert (again.stamina, again.wounds) == (6, 2)
    elsewhere = armor.armor_outcome(6, 2, "upper_torso", ["mail"], "melee_weapon", crumpled=["abdomen"])
    assert (elsewhere.stamina, elsewhere.wounds) == (0, 0)


def test_every_piece_over_a_location_must_be_penetrated():
    # ruling 2: a vest (15, C) over leather (10, A); a bullet is stopped by the vest
    assert armor.armor_outcome(30, 3, "upper_torso", ["leather", "bulletproof_vest"], "firearm").stamina == 0
    # a sword with 15 goes through both; with 12 only the leather
    assert (
        armor.armor_outcome(15, 3, "upper_torso", ["leather", "bulletproof_vest"], "melee_weapon").wounds == 3
    )
    assert (
        armor.armor_outcome(12, 3, "upper_torso", ["leather", "bulletproof_vest"], "melee_weapon").wounds == 0
    )


# -- the head (L1562-1566) -----------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "wounds"), [(1, 3), (50, 3), (51, 0), (100, 0)])
def test_a_partial_helmet_is_bare_on_01_to_50_and_the_helmet_on_51_to_00(roll, wounds):
    # a sword for 20 Stamina against a helmet (AR 30): on the helmet it holds, Stamina still counts
    outcome = armor.armor_outcome(20, 3, "head", ["helmet"], "melee_weapon", helmet_roll=roll)
    assert (outcome.stamina, outcome.wounds) == (20, wounds)
    assert outcome.helmet_roll == roll


def test_a_closed_helmet_that_holds_still_costs_the_stamina_and_one_pierced_crumples():
    held = armor.armor_outcome(20, 3, "head", ["helmet"], "melee_weapon", closed_helmet=True)
    assert (held.stamina, held.wounds, held.penetrated, held.helmet_roll) == (20, 0, False, None)
    pierced = armor.armor_outcome(30, 3, "head", ["helmet"], "melee_weapon", closed_helmet=True)
    assert (pierced.stamina, pierced.wounds, pierced.crumples) == (30, 3, "head")


def test_a_partial_helmet_needs_its_roll():
    with pytest.raises(RuleError, match="partial helmet"):
        armor.armor_outcome(20, 3, "head", ["helmet"], "melee_weapon")


def test_a_punch_to_a_helmeted_head_still_costs_stamina():
    # ruling 4: the head rule (L1562) over "armor stops unarmed damage" (L1504)
    outcome = armor.armor_outcome(8, 0, "head", ["helmet"], "unarmed", helmet_roll=80)
    assert (outcome.stamina, outcome.wounds) == (8, 0)


# -- called shots (§11, L978-990, L1403, L2695) ----------------------------------------------------------
def test_bobs_called_m_to_the_leg_on_a_c_result_does_m_damage_to_the_leg():
    # L982 Bob's example: a stab to the leg, called "M"; a C grants it
    shot = armor.check_called({"location": "left_leg", "severity": "M"}, form="melee")
    assert armor.called_result("C", shot) == {
        "granted": True,
        "letter": "M",
        "location": "left_leg",
        "text": 'called left leg, "M": C grants it, read as "M"',
    }
    assert armor.called_result("CK", shot)["granted"] is True
    missed = armor.called_result("H", shot)
    assert missed["granted"] is False and missed["location"] is None


def test_called_shots_are_refused_where_the_rules_forbid_them():
    with pytest.raises(RuleError, match="paranormal"):
        armor.check_called({"location": "head"}, form="paranormal")
    with pytest.raises(RuleError, match="Boxing or Blackjack"):
        armor.check_called({"knockout": True}, form="melee", attacker_skill="sword")
    with pytest.raises(RuleError, match="Boxing or Blackjack"):
        armor.check_called({"knockout": True}, form="missile", attacker_skill="boxing")
    with pytest.raises(RuleError, match="back is turned"):
        armor.check_called({"knockout": True}, form="melee", attacker_skill="blackjack")
    with pytest.raises(RuleError, match="helpless"):
        armor.check_called({"kill": True}, form="melee")
    with pytest.raises(RuleError, match="called severity"):
        armor.check_called({"severity": "K"}, form="melee")
    assert armor.check_called(
        {"knockout": True}, form="melee", attacker_skill="blackjack", surprised_or_from_behind=True
    ).knockout
    assert armor.check_called({"kill": True}, form="melee", helpless=True).kill


# -- joints and firing into a melee (§19 L1568-1570, §13.5 L1127-1131, §29 ambiguity 20) -------------------
def test_a_granted_called_shot_at_an_armor_joint_takes_full_damage_through_plate():
    outcome = armor.armor_outcome(
        8, 2, "upper_torso", ["metal_plates"], "melee_weapon", called=True, joint=True
    )
    assert (outcome.stamina, outcome.wounds) == (8, 2) and "joints" in outcome.summary()
    with pytest.raises(RuleError, match="in melee, with a location"):
        armor.check_called({"joint": True, "location": "upper_torso"}, form="missile")
    with pytest.raises(RuleError, match="in melee, with a location"):
        armor.check_called({"joint": True}, form="melee")


@pytest.mark.parametrize(("roll", "right"), [(1, True), (50, True), (51, False), (100, False)])
def test_firing_into_a_melee_hits_the_intended_target_on_01_to_50(roll, right):
    assert armor.into_melee(roll)[0] is right


def test_a_called_hit_my_target_granted_by_a_c_needs_no_roll():
    assert armor.into_melee(0, granted_target=True)[0] is True
