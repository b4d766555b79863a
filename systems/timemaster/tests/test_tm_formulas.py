"""Every skill and talent formula, and every boundary of the derived-score tables (§2, §4, §5)."""

from __future__ import annotations

import math
import re

import pytest

from systems.timemaster.engine import formulas, tables
from systems.timemaster.engine.action_table import column_for_score

# The digest's formulas (timemaster-characters.md §4.4 and §5.2-5.3), as printed there.
DIGEST_SKILL_FORMULAS = {
    "boxing": "(STR+DEX+AGL)/3",
    "wrestling": "(STR+AGL)/2",
    "martial_arts": "(STR+DEX+AGL+WPR)/4",
    "advanced_self_defense": "(STR+DEX+AGL+WPR)/4",
    "bayonet": "(STR+AGL)/2",
    "blackjack": "(STR+AGL)/2",
    "bullwhip": "(STR+DEX+AGL)/3",
    "dagger_knife_melee": "(STR+AGL)/2",
    "lance_horsemans": "(STR+AGL)/2",
    "polearm": "(STR+AGL)/2",
    "short_handled_weapons": "(STR+AGL)/2",
    "sword": "(STR+AGL)/2",
    "florentine_style": "(STR+DEX+AGL)/3",
    "bola": "DEX",
    "lasso": "(STR+DEX)/2",
    "net": "(STR+DEX+AGL)/3",
    "equestrian": "(DEX+AGL+PER)/3",
    "sling": "DEX",
    "shortbow": "DEX",
    "crossbow": "DEX",
    "longbow": "(STR+DEX)/2",
    "automatic_rifle": "DEX",
    "long_barreled_gun": "DEX",
    "pistol": "DEX",
    "time_corps_stunner": "DEX",
    "laser_pistol": "DEX",
    "laser_rifle": "DEX",
    "axe_tomahawk_thrown": "(STR+DEX)/2",
    "dagger_knife_thrown": "(STR+DEX)/2",
    "dart": "(STR+DEX)/2",
    "javelin": "(STR+DEX)/2",
    "spear_thrown": "(STR+DEX)/2",
    "grenade": "DEX",
    "ancient_artillery": "(PCN+DEX)/2",
    "anti_tank_weapon": "DEX",
    "cannon": "(PCN+DEX)/2",
    "artillery": "(PCN+DEX)/2",
    "machine_gun": "DEX",
    "mortar": "(PCN+DEX)/2",
    "pilot": "(PCN+DEX+AGL)/3",
    "computers": "(PCN+LUCK)/2",
    "demolitions": "(PCN+DEX)/2",
    "disguise": "(PER+DEX)/2",
    "distance_running": "STA_CUR",
    "electronics": "(PCN+DEX+LUCK)/3",
    "forgery": "(PCN+DEX)/2",
    "gambling": "(PCN+LUCK)/2",
    "historical_specialty": "(PCN+WPR)/2",
    "impersonation": "(PCN+WPR+PER+DEX)/4",
    "investigation": "(PCN+WPR+PER)/3",
    "mechanics": "(PCN+DEX)/2",
    "military_leadership": "(STR+WPR+PER)/3",
    "medicine": "(PCN+PER+WPR+LUCK)/4",
    "outdoor_survival": "(PCN+WPR+LUCK)/3",
    "security_devices": "(PCN+DEX+LUCK)/3",
    "stealth": "(DEX+AGL)/2",
    "stunt_driving": "(PCN+AGL)/2",
    "swimming": "STA_CUR",
    "theft": "(PCN+DEX+WPR)/3",
    "tracking": "(PCN+LUCK)/2",
}
WEAPON_SKILL_BASED = {"mounted_melee", "mounted_missile"}

DIGEST_TALENTS = {  # formula, Willpower cost
    "paranormal_memory": ("(PCN+WPR)/3", 0),
    "memory_restoration": ("(WPR+PCN+LUCK)/4", 40),
    "telepathic_probe": ("(WPR+PER+LUCK)/4", 10),
    "significance_sensing": ("(WPR+PCN+LUCK)/4", 5),
    "telepathic_sending": ("(WPR+PCN+PER)/4", 5),
    "adaptation": ("(WPR+PER+PCN)/4", 10),
    "time_shift": ("(WPR+LUCK)/3", 50),
    "ignore_pain": ("(WPR+PER)/3", 50),
    "shock": ("(WPR+PER)/2", 20),
    "demoralize": ("(WPR+PCN)/2", 20),
    "domination": ("(WPR+PCN+PER)/3", 60),
    "shield": ("(WPR+LUCK)/2", 30),
    "paranormal_memory_demorean": ("(WPR+PCN)/2", 30),
}
AUTOMATIC_DEMOREAN = {"dimensional_travel", "shape_shift", "telepathy"}

# Distinct odd-ish values so that a wrong ability or divisor shows up in the result.
ABILITIES = {"STR": 71, "DEX": 53, "AGL": 67, "PER": 41, "WPR": 59, "PCN": 37, "LUCK": 29, "STA": 77}


def evaluate(formula: str, abilities: dict[str, int], current_stamina: int) -> int:
    if formula == "STA_CUR":
        return current_stamina
    match = re.fullmatch(r"\((.+)\)/(\d)", formula)
    if not match:
        return abilities[formula]
    codes = match.group(1).split("+")
    return math.ceil(sum(abilities[c] for c in codes) / int(match.group(2)))


def test_the_digest_lists_every_skill_of_the_table():
    assert set(DIGEST_SKILL_FORMULAS) | WEAPON_SKILL_BASED == set(tables.SKILLS)


@pytest.mark.parametrize("key", sorted(DIGEST_SKILL_FORMULAS))
@pytest.mark.parametrize("level", ["specialist", "expert", "master"])
def test_skill_score_is_the_rounded_up_formula_plus_the_level_modifier(key, level):
    expected_base = evaluate(DIGEST_SKILL_FORMULAS[key], ABILITIES, current_stamina=33)
    assert formulas.skill_base(key, ABILITIES, current_stamina=33) == expected_base
    modifier = {"specialist": 15, "expert": 30, "master": 55}[level]
    assert formulas.skill_score(key, level, ABILITIES, current_stamina=33) == expected_base + modifier


@pytest.mark.parametrize("key", sorted(WEAPON_SKILL_BASED))
def test_mounted_melee_and_missile_have_no_base_of_their_own(key):
    assert formulas.skill_base(key, ABILITIES) is None
    assert formulas.skill_score(key, "specialist", ABILITIES) is None


def test_distance_running_and_swimming_follow_current_stamina_other_skills_do_not():
    assert formulas.skill_score("swimming", "specialist", ABILITIES, current_stamina=20) == 35
    assert formulas.skill_score("distance_running", "expert", ABILITIES, current_stamina=20) == 50
    assert formulas.skill_base("swimming", ABILITIES) == ABILITIES["STA"]  # unhurt
    assert formulas.skill_score("stealth", "specialist", ABILITIES, current_stamina=1) == 60 + 15


def test_harry_adams_sword_worked_example():
    # timemaster-characters.md §4.1: STR 58 + AGL 64 -> base 61 -> 76 / 91 / 116.
    harry = dict(ABILITIES, STR=58, AGL=64)
    assert formulas.skill_base("sword", harry) == 61
    assert [formulas.skill_score("sword", lvl, harry) for lvl in ("specialist", "expert", "master")] == [
        76,
        91,
        116,
    ]


@pytest.mark.parametrize("key", sorted(DIGEST_TALENTS))
def test_talent_score_and_cost_follow_the_digest(key):
    formula, cost = DIGEST_TALENTS[key]
    assert formulas.talent_score(key, ABILITIES) == evaluate(formula, ABILITIES, 0)
    assert tables.TALENTS[key]["willpower_cost"] == cost


@pytest.mark.parametrize("key", sorted(AUTOMATIC_DEMOREAN))
def test_automatic_demorean_talents_have_no_score_and_no_cost(key):
    assert formulas.talent_score(key, ABILITIES) is None
    assert tables.TALENTS[key]["willpower_cost"] == 0


def test_talent_formulas_round_up():
    # (PCN + WPR) / 3 = (37 + 59) / 3 = 32 exactly; 38 + 59 = 97 / 3 = 32.33 -> 33.
    assert formulas.paranormal_memory(dict(ABILITIES, PCN=38)) == 33


def test_paranormal_memory_spans_18_to_54():
    assert formulas.paranormal_memory(dict(ABILITIES, PCN=26, WPR=26)) == 18
    assert formulas.paranormal_memory(dict(ABILITIES, PCN=80, WPR=80)) == 54


def test_unskilled_melee_rounds_up():
    assert formulas.unskilled_melee({"STR": 57, "AGL": 64}) == 61
    assert formulas.unskilled_melee({"STR": 26, "AGL": 26}) == 26
    assert formulas.unskilled_melee({"STR": 80, "AGL": 80}) == 80


@pytest.mark.parametrize(
    ("strength", "bonus"),
    [(26, 0), (49, 0), (50, 5), (59, 5), (60, 10), (69, 10), (70, 15), (79, 15), (80, 20)],
)
def test_penetration_bonus_boundaries(strength, bonus):
    assert formulas.penetration_bonus(strength) == bonus


@pytest.mark.parametrize(
    ("stamina", "wounds"),
    [(26, 11), (36, 11), (37, 12), (47, 12), (48, 13), (58, 13), (59, 14), (69, 14), (70, 15), (80, 15)],
)
def test_wound_count_boundaries(stamina, wounds):
    assert formulas.wound_count(stamina) == wounds


@pytest.mark.parametrize(
    ("stamina", "rate"),
    [(26, 2), (30, 2), (31, 3), (45, 3), (46, 4), (60, 4), (61, 5), (70, 5), (75, 5), (76, 6), (80, 6)],
)
def test_stamina_recovery_is_the_action_table_column_of_stamina(stamina, rate):
    assert formulas.stamina_recovery_rate(stamina) == rate


def test_recovery_column_agrees_with_the_digest_table_for_every_legal_stamina():
    for low, high, rate in tables.STAMINA_RECOVERY:
        for stamina in range(low, high + 1):
            assert formulas.stamina_recovery_rate(stamina) == column_for_score(stamina) == rate


def test_wound_boxes_strike_out_those_beyond_the_count():
    boxes = formulas.wound_boxes(40, marked=2)
    assert len(boxes) == 15
    assert [b["number"] for b in boxes if b["struck"]] == [13, 14, 15]
    assert [b["number"] for b in boxes if b["marked"]] == [1, 2]
    assert not any(b["struck"] for b in formulas.wound_boxes(70))


@pytest.mark.parametrize(
    ("armor", "expected"),
    [
        ([], (0, 0)),
        (["leather"], (10, 1)),
        (["studded_leather"], (15, 1)),
        (["mail"], (45, 3)),
        (["metal_plates", "helmet"], (60, 4)),
        (["helmet"], (0, 0)),
        (["bulletproof_vest"], (15, 0)),
        (["body_suit"], (45, 0)),
    ],
)
def test_armor_stamina_loss_is_the_column_of_the_heaviest_armor(armor, expected):
    assert formulas.armor_stamina_loss(armor) == expected


def test_other_ability_derived_values():
    assert formulas.other_scores(ABILITIES) == {
        "basic_driving": math.ceil((37 + 67) / 2),
        "basic_riding": math.ceil(67 / 2),
        "bombardier": math.ceil((37 + 53) / 2),
        "max_lift_lb": 5 * 71,
    }


def test_numbered_historical_specialties_use_the_chart_entry():
    assert formulas.chart_key("historical_specialty_2") == "historical_specialty"
    assert formulas.skill_base("historical_specialty:rome", ABILITIES) == math.ceil((37 + 59) / 2)
