"""The D6 engine's dice-source protocol (issue 32): a source that makes whole draws of the dice
roller's kinds gets the code's dice with its Wild Die as one draw and each extra Wild Die as one
more, and the roll is the one a plain random source gives from the same stream."""

from __future__ import annotations

import random

import pytest

from characters.systems.dice import roll_kind
from systems.d6.engine.dicecode import parse


class Drawing:
    """Draws of the roller's kinds, all from one stream, noted as they are asked for."""

    def __init__(self, seed: int) -> None:
        self.stream = random.Random(seed)
        self.asked: list[tuple[str, int]] = []

    def draw(self, kind: str, count: int) -> tuple[int, ...]:
        self.asked.append((kind, count))
        return roll_kind(self.stream, kind, count).faces


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize(("wild_die", "kind"), [(True, "d6_wild"), (False, "d6")])
def test_whole_draws_give_the_roll_a_plain_stream_gives(seed, wild_die, kind):
    code = parse("4D+2")
    source = Drawing(seed)
    drawn = code.roll(source, wild_die, extra_wild_dice=2, bonus=1)  # type: ignore[arg-type]
    plain = code.roll(random.Random(seed), wild_die, extra_wild_dice=2, bonus=1)
    assert drawn == plain
    assert source.asked == [(kind, 4), (kind, 1), (kind, 1)]
