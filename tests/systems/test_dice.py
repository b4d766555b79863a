import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.systems import dice


def test_d10_face_zero_reads_ten():
    class Zero(random.Random):
        def randint(self, a, b):
            return 0

    assert dice.d10(Zero()).faces == (10,)


def test_percent_double_zero_reads_hundred():
    assert dice.read_percent(0, 0) == 100
    assert dice.read_percent(0, 7) == 7
    assert dice.read_percent(9, 9) == 99


def test_three_d10_read_as_one_to_thousand_with_000_as_1000():
    assert dice.read_d1000(0, 0, 0) == 1000
    assert dice.read_d1000(0, 0, 1) == 1
    assert dice.read_d1000(9, 9, 9) == 999


@given(st.integers(0, 2**32))
def test_rolls_stay_in_their_ranges(seed):
    rng = random.Random(seed)
    assert 1 <= dice.d6(rng).total <= 6
    assert 1 <= dice.d10(rng).total <= 10
    assert 1 <= dice.percent(rng).total <= 100
    assert 1 <= dice.d1000(rng).total <= 1000
    fudge = dice.fudge(rng, 4)
    assert set(fudge.faces) <= {-1, 0, 1} and fudge.total == sum(fudge.faces)


@given(st.integers(0, 2**32), st.integers(0, 10), st.booleans())
def test_keep_three_keeps_the_highest_or_lowest(seed, extra, highest):
    result = dice.keep(random.Random(seed), 3 + extra, 3, highest=highest)
    assert len(result.kept) == 3 and len(result.faces) == 3 + extra
    ordered = sorted(result.faces, reverse=highest)
    assert sorted(result.kept) == sorted(ordered[:3])
    assert 3 <= result.total <= 18


def test_seeded_rolls_repeat():
    assert dice.d1000(random.Random(7)) == dice.d1000(random.Random(7))


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        dice.roll_kind(random.Random(1), "d7")
