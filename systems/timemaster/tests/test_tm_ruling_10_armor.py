"""Ruling 10 of rules/README.md (TIMEMASTER armor Stamina cost), with timemaster-characters.md
§9.1 (armor and Stamina loss per round)."""

import pytest

from systems.timemaster.engine import formulas


@pytest.mark.parametrize(
    ("armor", "loss"),
    [
        (["bulletproof_vest", "leather"], 1),  # a vest over leather costs what the leather costs
        (["leather", "bulletproof_vest"], 1),
        (["bulletproof_vest"], 0),  # a vest alone costs nothing
        (["body_suit", "leather"], 1),  # body suits are left out too
        (["body_suit", "mail"], 3),
        (["body_suit", "bulletproof_vest"], 0),
        (["helmet", "bulletproof_vest"], 0),  # and helmets
        (["helmet", "studded_leather", "bulletproof_vest"], 1),
        (["leather", "metal_plates", "bulletproof_vest", "helmet"], 4),  # the heaviest remaining
    ],
)
def test_the_heaviest_armor_left_after_vests_suits_and_helmets_sets_the_stamina_loss(armor, loss):
    assert formulas.armor_stamina_loss(armor)[1] == loss


def test_the_armor_rating_still_counts_the_vest():
    assert formulas.armor_stamina_loss(["bulletproof_vest", "leather"]) == (15, 1)
