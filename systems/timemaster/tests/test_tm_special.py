"""Special results (systems/timemaster/engine/special.py): timemaster-play.md §5.2-§5.3 (L4077,
L4097), §15 holds and strangling (L1334-1346), §16 arm and hand hits (L1554-1560), §29 ambiguity 40."""

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import special


@pytest.mark.parametrize(("roll", "passed"), [(1, True), (60, True), (61, False), (100, False)])
def test_an_armed_knockdown_keeps_held_items_on_a_dex_check(roll, passed):
    effect, check = special.knockdown("armed", 60, roll)
    assert "5 ft back" in effect and check.passed is passed


def test_an_unarmed_knockdown_makes_no_dex_check():
    assert special.knockdown("unarmed")[1] is None


def test_a_weapon_hand_wound_short_of_crippling_checks_dex_and_a_crippling_one_willpower():
    assert special.weapon_hand("H", "armed", 55, 40, 55).passed is True
    dropped = special.weapon_hand("H", "armed", 55, 40, 56)
    assert dropped.name == "DEX" and "drops the weapon" in dropped.text
    crippled = special.weapon_hand("C", "armed", 55, 40, 41)
    assert crippled.name == "WPR" and not crippled.passed
    assert special.weapon_hand("C", "unarmed", 55, 40, 41).name == "DEX"  # a Crushing blow is not "crippling"


@pytest.mark.parametrize(("die", "stamina"), [(1, 1), (10, 10)])
def test_a_hold_takes_1d10_a_round_after_the_first(die, stamina):
    assert special.hold_damage(2, die) == stamina


def test_a_holds_first_round_is_the_attack_and_a_bad_die_is_refused():
    with pytest.raises(RuleError, match="round 2"):
        special.hold_damage(1, 5)
    with pytest.raises(RuleError, match="1 to 10"):
        special.hold_damage(3, 11)


@pytest.mark.parametrize(("stamina", "roll", "passed"), [(30, 30, True), (30, 31, False), (0, 1, False)])
def test_the_strangle_check_is_against_current_stamina(stamina, roll, passed):
    assert special.strangle_check(stamina, roll).passed is passed


def test_the_books_fall_of_15_ft_has_strike_number_105_and_100_ft_kills():
    # §18 (L1461): 90 + 15 = 105; 11 ft is the least fall that hurts; 99 ft is read, 100 kills
    assert special.fall(15)["strike_number"] == 105
    assert special.fall(11)["strike_number"] == 101 and not special.fall(99)["deadly"]
    assert special.fall(100)["deadly"]
    with pytest.raises(RuleError, match="from 11"):
        special.fall(10)


@pytest.mark.parametrize(
    ("kind", "rounds", "wounds"), [("fire", 1, 3), ("fire", 4, 12), ("smoke", 1, 2), ("smoke", 3, 6)]
)
def test_fire_costs_3_wounds_a_round_and_smoke_2(kind, rounds, wounds):
    assert special.burning(kind, rounds) == wounds


@pytest.mark.parametrize(("roll", "passed"), [(40, True), (41, False)])
def test_a_poison_check_is_against_current_stamina(roll, passed):
    assert special.poison_check(40, roll).passed is passed


@pytest.mark.parametrize("roll", [1, 99])
def test_the_log_words_for_a_dropped_or_kept_weapon_name_no_sex(roll):
    """Agents and NPCs are of either sex: the log says "the weapon", "what is held" (walk, point 4)."""
    words = [special.weapon_hand("H", "armed", 50, 40, roll).text, *special.knockdown("armed", 50, roll)[::1]]
    text = " ".join(w if isinstance(w, str) else w.text for w in words)
    assert ("drops the weapon" in text) is (roll == 99) and ("keeps the weapon" in text) is (roll == 1)
    assert not {"he", "his", "him", "she", "her"} & set(text.replace(",", " ").replace(":", " ").split())
