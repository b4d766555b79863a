"""A short mission to victory, move by move, with the dice it needs."""

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
