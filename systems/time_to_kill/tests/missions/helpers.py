"""A short mission to victory, move by move, with the dice it needs, and scripted dice."""

import random

PLACEMENT = {"opposition": "-", "concealment": "0", "terrain": "+", "circumstance": "0"}
# Draws: one preparation stone, then the wait draws the target stone. Fate dice: the four of PLACEMENT.
# The d6: 5 against "fails on 1" (Concealment 0 vs Stealth +).
VICTORY_SCRIPT = {"draws": ["o", "t"], "fudge": [-1, 0, 1, 0], "d6": [5]}
VICTORY_MOVES = [
    ("player", "prepare_draw", {}),
    ("player", "end_preparation", {}),
    ("gm", "roll_fates", {}),
    ("gm", "assign_fates", {"fates": PLACEMENT}),
    ("player", "reveal_fate", {"fate": "opposition"}),
    ("gm", "narrate", {"text": "Fog over the monastery wall."}),
    ("player", "wait", {}),
    ("player", "act", {"ability": "stealth", "objective": True}),
    ("gm", "choose_fates", {"fates": ["concealment"]}),
]


class ScriptedRng(random.Random):
    """Dice injection for the engine: draws ("o" ordinary / "t" target), Fudge faces and d6 rolls
    come from the queues; anything not scripted comes from a seeded generator."""

    def __init__(self, draws=(), fudge=(), d6=()):
        super().__init__(7)
        self.draws, self.fudge, self.d6 = list(draws), list(fudge), list(d6)

    def randrange(self, start, stop=None, step=1):
        if stop is None and self.draws:
            return start - 1 if self.draws.pop(0) == "t" else 0
        return super().randrange(start, stop, step)

    def choice(self, seq):
        if tuple(seq) == (-1, 0, 1) and self.fudge:
            return self.fudge.pop(0)
        return super().choice(seq)

    def randint(self, a, b):
        if (a, b) == (1, 6) and self.d6:
            return self.d6.pop(0)
        return super().randint(a, b)
