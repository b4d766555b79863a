"""Facts of Time to Kill as data (time-to-kill.md). Descriptions are our own words."""

from __future__ import annotations

GAME_TITLE = "Time to Kill"
DEFAULT_LABEL = "the ninja"  # §A2 identity: a name is optional
MAX_TEXT = 200
MAX_LONG_TEXT = 2000

# -- the -/0/+ scale (§0 rating scale) ------------------------------------------------------------
RATINGS: tuple[str, ...] = ("-", "0", "+")
RATING_VALUE: dict[str, int] = {"-": -1, "0": 0, "+": 1}
VALUE_RATING: dict[int, str] = {-1: "-", 0: "0", 1: "+"}
RATING_NAME: dict[str, str] = {"-": "negative", "0": "neutral", "+": "positive"}
STEP_UP: dict[str, str] = {"-": "0", "0": "+", "+": "+"}  # §B4: + stays +
STEP_DOWN: dict[str, str] = {"+": "0", "0": "-", "-": "-"}  # §B10: - stays -

# -- abilities (§A1): key, name, group, scope in our words ----------------------------------------
COMBAT = "combat"
NON_COMBAT = "non_combat"
GROUP_LABEL = {COMBAT: "Combat", NON_COMBAT: "Non-Combat"}

ABILITIES: dict[str, dict[str, str]] = {
    "armed": {"name": "Armed", "group": COMBAT, "scope": "fighting with weapons"},
    "hand_to_hand": {"name": "Hand-to-Hand", "group": COMBAT, "scope": "fighting bare-handed"},
    "ranged": {"name": "Ranged", "group": COMBAT, "scope": "missiles, bows, slings and guns"},
    "athletics": {"name": "Athletics", "group": COMBAT, "scope": "leaping, climbing, evading blows"},
    "knowledge": {"name": "Knowledge", "group": NON_COMBAT, "scope": "lore and learning"},
    "craftsmanship": {"name": "Craftsmanship", "group": NON_COMBAT, "scope": "building or breaking devices"},
    "awareness": {"name": "Awareness", "group": NON_COMBAT, "scope": "noticing things, a sixth sense"},
    "willpower": {"name": "Willpower", "group": NON_COMBAT, "scope": "enduring pain, staying alert"},
    "stealth": {"name": "Stealth", "group": NON_COMBAT, "scope": "hiding, moving quietly, disguise"},
}
ABILITY_KEYS: tuple[str, ...] = tuple(ABILITIES)
COMBAT_ABILITIES: tuple[str, ...] = tuple(k for k, a in ABILITIES.items() if a["group"] == COMBAT)
NON_COMBAT_ABILITIES: tuple[str, ...] = tuple(k for k, a in ABILITIES.items() if a["group"] == NON_COMBAT)

# -- creation (§A2) -----------------------------------------------------------------------------
BASE_POINTS = 5
RAISE_COST: dict[str, int] = {COMBAT: 2, NON_COMBAT: 1}
MAX_TRADES = 1
SPENDING_CEILING = len(COMBAT_ABILITIES) * RAISE_COST[COMBAT] + len(NON_COMBAT_ABILITIES)  # 13

# -- Fates (§B2) --------------------------------------------------------------------------------
FATES: dict[str, dict[str, str]] = {
    "opposition": {"label": "Opposition", "covers": "guards, dogs, traps, how tight security is"},
    "concealment": {"label": "Concealment", "covers": "how easily the ninja stays hidden"},
    "terrain": {"label": "Terrain", "covers": "the lie of the land and the buildings"},
    "circumstance": {"label": "Circumstance", "covers": "chance: weather, passers-by, surprises"},
}
FATE_KEYS: tuple[str, ...] = tuple(FATES)
FATE_DICE = 4

# A d6 standing in for a Fudge die (§0): faces -> symbol.
FUDGE_FROM_D6: tuple[dict[str, str], ...] = (
    {"d6": "1-2", "fudge": "-"},
    {"d6": "3-4", "fudge": "0"},
    {"d6": "5-6", "fudge": "+"},
)

# -- the Action Table (§B7), exact: (fate, ability) -> outcome ---------------------------------
# automatic: "failure" | "success" | None (roll a d6); fail_on: the highest d6 face that fails.
ACTION_TABLE: dict[tuple[str, str], dict[str, object]] = {
    ("-", "-"): {"automatic": "failure", "fail_on": None},
    ("-", "0"): {"automatic": None, "fail_on": 5},
    ("-", "+"): {"automatic": None, "fail_on": 3},
    ("0", "-"): {"automatic": None, "fail_on": 5},
    ("0", "0"): {"automatic": None, "fail_on": 3},
    ("0", "+"): {"automatic": None, "fail_on": 1},
    ("+", "-"): {"automatic": None, "fail_on": 3},
    ("+", "0"): {"automatic": None, "fail_on": 1},
    ("+", "+"): {"automatic": "success", "fail_on": None},
}


def action_table_rows() -> list[dict[str, str]]:
    """The table for sheets and screens, in the book's row order (§B7)."""
    rows = []
    for (fate, ability), cell in ACTION_TABLE.items():
        if cell["automatic"] == "failure":
            result = "Failure, no roll"
        elif cell["automatic"] == "success":
            result = "Success, no roll"
        elif cell["fail_on"] == 1:
            result = "Fails on a 1"
        else:
            result = f"Fails on 1-{cell['fail_on']}"
        rows.append({"fate": fate, "ability": ability, "result": result})
    return rows


# -- mission steps (§B6, §B14): step key -> (book step, who moves, label) -----------------------
GM = "gm"
PLAYER = "player"
STEPS: dict[str, dict[str, str]] = {
    "preparation": {"step": "Preparation", "actor": PLAYER, "label": "Draw preparation stones or start"},
    "fate_roll": {"step": "Step 1", "actor": GM, "label": "GM rolls the four Fate dice"},
    "fate_assign": {"step": "Step 1", "actor": GM, "label": "GM places the dice on the four Fates"},
    "rush_downshift": {"step": "Step 1", "actor": GM, "label": "GM lowers a Fate for the rushed turn"},
    "reveal": {"step": "Step 1", "actor": PLAYER, "label": "Spend stones to see Fates"},
    "shift": {"step": "Step 2", "actor": PLAYER, "label": "Spend stones to raise hidden Fates"},
    "narration": {"step": "Step 3", "actor": GM, "label": "GM describes the scene"},
    "action": {"step": "Step 4", "actor": PLAYER, "label": "Wait or act"},
    "must_act": {"step": "Step 4", "actor": PLAYER, "label": "The target is in sight: act now"},
    "choose_fates": {"step": "Step 4", "actor": GM, "label": "GM names the Fates the action faces"},
    "reroll": {"step": "Step 4", "actor": PLAYER, "label": "Spend the wait stone to roll again?"},
    "end_turn": {"step": "Step 6", "actor": GM, "label": "End of turn"},
    "over": {"step": "Over", "actor": "", "label": "The mission is over"},
}

# Which events each step accepts (§D10). declare_escape is added while escaping (§B11, §E15).
STEP_EVENTS: dict[str, tuple[str, ...]] = {
    "preparation": ("prepare_draw", "end_preparation"),
    "fate_roll": ("roll_fates",),
    "fate_assign": ("assign_fates",),
    "rush_downshift": ("rush_downshift",),
    "reveal": ("reveal_fate", "finish_reveals"),
    "shift": ("shift_fate", "finish_shifts"),
    "narration": ("narrate",),
    "action": ("wait", "act"),
    "must_act": ("act",),
    "choose_fates": ("choose_fates",),
    "reroll": ("reroll", "keep_roll"),
    "end_turn": ("end_turn",),
    "over": (),
}
ESCAPE_STEPS: tuple[str, ...] = ("fate_roll", "narration", "end_turn")
EVENT_TYPES: tuple[str, ...] = (
    *dict.fromkeys(e for events in STEP_EVENTS.values() for e in events),
    "declare_escape",
)

# Where an ordinary stone can end up once it has left the bag (§B3).
OUT_REASONS: tuple[str, ...] = (
    "reveal",  # bank stone traded for a look at a Fate
    "shift",  # bank stone traded to raise a Fate
    "reroll",  # wait stone spent on a re-roll
    "wait_lost",  # wait stone that lapsed unused
    "end_of_turn",  # Step 6 draw
    "penalty",  # extra stone when the target was in sight and not taken
    "cleared",  # stones still held when the mission ends (§B13)
)

OUTCOMES: dict[str, str] = {
    "victory": "Mission accomplished",
    "out_of_time": "Out of time: the last stone left the bag",
    "fatally_wounded": "Fatally wounded",
}

# -- reference panel (§C1) in our own words -----------------------------------------------------
TURN_STEPS: tuple[dict[str, str], ...] = (
    {"step": "1 Fate", "text": "GM rolls four Fudge dice and places one on each Fate in secret."},
    {"step": "", "text": "Spend a preparation stone to see one Fate."},
    {"step": "2 Shift", "text": "Spend a preparation stone to raise a hidden Fate one step."},
    {"step": "3 Narration", "text": "GM describes the scene, without numbers."},
    {
        "step": "4 Action",
        "text": "Wait (take a stone) or act (GM reveals the Fates it faces; use the table).",
    },
    {"step": "5 Resolution", "text": "A failed action lowers the ability used one step."},
    {"step": "6 End", "text": "One stone leaves the bag, unless the action was rushed."},
)
STONE_USES: tuple[dict[str, str], ...] = (
    {"stone": "Preparation stone", "use": "See one Fate (Step 1) or raise one hidden Fate (Step 2)."},
    {"stone": "Wait stone", "use": "Roll the die again on the next action."},
    {"stone": "Target stone", "use": "The target is in sight: the objective may be attempted."},
)
