"""Rule-engine figures: dice, a TIMEMASTER agent built and derived, each system's validation."""

from __future__ import annotations

import random

from timing import measure, summary

from characters.systems import dice, get_system


def main() -> None:
    rng = random.Random(1984)
    print(summary("dice: three d10 read 001-1000", measure(lambda: dice.d1000(rng), repeat=20000)))
    print(
        summary(
            "dice: 3d6 with two bonus dice", measure(lambda: dice.keep(rng, 5, 3, highest=True), repeat=20000)
        )
    )

    timemaster = get_system("timemaster")
    from systems.timemaster.tests.helpers import choices

    legal = choices()
    build = timemaster.new_build(legal, rng)
    new_build = measure(lambda: timemaster.new_build(legal, rng), repeat=500)
    print(summary("timemaster: new_build (validate + derive)", new_build))
    print(summary("timemaster: derive", measure(lambda: timemaster.derive(build), repeat=1000)))
    print(summary("timemaster: sheet data", measure(lambda: timemaster.sheet(build), repeat=500)))
