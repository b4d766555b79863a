"""The round's strike-number modifiers as named choices (systems/timemaster/engine/modifiers.py).

timemaster-play.md §11 step 3 (L946), §13.3 (L1074-1113), §13.7 (L1153-1174), §15 (L1356-1393);
§29 ambiguity 4 for the values the OCR lost. Seed lines are of ../shared/seeds/002_02af72a61b7d5f0b.txt.
"""

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import modifiers


def test_the_books_dagger_at_25_ft_is_minus_40():
    # §13.7 (L1174): ceil(25/10) - 1 = 2 steps of -20
    assert modifiers.range_modifier("dagger_thrown", 25).value == -40


@pytest.mark.parametrize(("feet", "value"), [(1, 0), (10, 0), (11, -12), (20, -12), (21, -24), (60, -60)])
def test_range_steps_start_beyond_the_first_10_ft(feet, value):
    assert modifiers.range_modifier("automatic_pistol", feet).value == value


def test_the_stunner_reaches_30_ft():
    assert modifiers.range_modifier("stunner", 30).value == -40
    with pytest.raises(RuleError, match="30 ft"):
        modifiers.range_modifier("stunner", 31)


def test_a_pistol_shot_at_a_running_target_behind_cover_adds_each_named_modifier():
    parts, total = modifiers.strike_modifiers(
        ["target_running", "target_behind_cover"],
        form="missile",
        range_weapon="automatic_pistol",
        range_feet=60,
    )
    assert [(m.key, m.value) for m in parts] == [
        ("target_running", -20),
        ("target_behind_cover", -30),
        ("range", -60),
    ]
    assert total == -110
    assert parts[0].text == "target running -20" and "§13.3" in parts[0].rule


def test_melee_modifiers_add_up():
    # §15 escaping melee (L1395): beat a fleeing defender +10, from behind +20 = +30
    _parts, total = modifiers.strike_modifiers(["defender_fleeing", "from_behind"], form="melee")
    assert total == 30


def test_a_burst_drops_the_target_modifiers():
    parts, total = modifiers.strike_modifiers(["burst", "target_running"], form="missile")
    assert total == 30 and parts[1].value == 0


def test_exclusive_choices_other_forms_and_talents_are_refused():
    with pytest.raises(RuleError, match="cannot both apply"):
        modifiers.strike_modifiers(["target_walking", "target_running"], form="missile")
    with pytest.raises(RuleError, match="cannot both apply"):
        modifiers.strike_modifiers(["attacker_aiming", "second_shot"], form="missile")
    with pytest.raises(RuleError, match="melee modifier"):
        modifiers.strike_modifiers(["from_behind"], form="missile")
    with pytest.raises(RuleError, match="no modifiers"):
        modifiers.strike_modifiers(["target_running"], form="paranormal")
    with pytest.raises(RuleError, match="not a modifier"):
        modifiers.strike_modifiers(["flying"], form="missile")
    with pytest.raises(RuleError, match="both the weapon"):
        modifiers.strike_modifiers([], form="missile", range_feet=40)


@pytest.mark.parametrize(
    ("weapon", "words"),
    [
        ("automatic_pistol", "with an automatic pistol"),
        ("antique_pistol", "with an antique pistol"),
        ("axe_thrown", "with an axe or tomahawk, thrown"),
        ("revolver", "with a revolver"),
        ("stunner", "with a Time Corps stunner"),
    ],
)
def test_the_range_line_takes_the_right_article(weapon, words):
    assert words in modifiers.range_modifier(weapon, 20).text
