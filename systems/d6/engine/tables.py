"""Facts of the D6 System "Game Time" chapter as data (d6-game-time.md), plus the few app limits.

Descriptions are our own words; names, numbers and lists come from the digest.
"""

from __future__ import annotations

from typing import Any

RULES = "d6-game-time.md"

# -- die codes (§A1, §D1, ruling 8) ----------------------------------------------------------------
PIPS_PER_DIE = 3  # 3 pips make 1D
MAX_PIPS_SHOWN = 2  # a code shows +1 or +2 at most
MAX_DICE = 99  # app limit for a typed code, so nobody asks us to roll a thousand dice

# -- the traits initiative needs (ruling 8, §A2, §B3) ---------------------------------------------
PERCEPTION = "Perception"
REFLEXES = "Reflexes"
SEARCH = "search"
DODGE = "dodge"
PRESENCE = "Presence"
WILLPOWER = "willpower"
REQUIRED_ATTRIBUTES = (PERCEPTION, REFLEXES)
# skill -> the attribute it is based on ([READING] in §A2)
REQUIRED_SKILLS = {SEARCH: PERCEPTION, DODGE: REFLEXES}
EMOTIONAL_TRAITS = (WILLPOWER, PRESENCE)  # §B10: rolls for the mood of a place are not actions

# -- action allotment and the multi-action penalty (§B1, §B8) --------------------------------------
DEFAULT_ACTION_ALLOTMENT = 1
MAX_ACTION_ALLOTMENT = 30  # app limit
MAX_DECLARED_ACTIONS = 40  # app limit on N in one round
MAP_DICE_PER_EXTRA_ACTION = 1  # -1D for each action beyond the allotment
MAP_TABLE_EXTRA_ROWS = 5  # how many penalised rows the sheet's reference strip prints

# Which rolls the multi-action penalty touches (§B8, §B10, §D5): skill and attribute rolls do;
# damage, damage resistance, initiative and the willpower/Presence mood rolls never do.
ROLL_KINDS: dict[str, dict[str, Any]] = {
    "skill": {"label": "skill roll", "penalised": True, "is_action": True},
    "attribute": {"label": "attribute roll", "penalised": True, "is_action": True},
    "free_action": {"label": "roll during a free action", "penalised": True, "is_action": False},
    "damage": {"label": "damage roll", "penalised": False, "is_action": False},
    "resistance": {"label": "damage resistance roll", "penalised": False, "is_action": False},
    "initiative": {"label": "initiative roll", "penalised": False, "is_action": False},
    "emotional": {
        "label": "willpower or Presence roll for the mood of a place",
        "penalised": False,
        "is_action": False,
    },
}
NON_ACTION_ROLLS = ("damage", "resistance", "emotional", "free_action")  # the encounter's "roll" event

# -- initiative (§B2, §B3, §B4, §E1, §E2) ----------------------------------------------------------
INITIATIVE_METHODS: dict[str, dict[str, Any]] = {
    "first_move": {
        "number": 1,
        "label": "Method 1: the first significant move",
        "summary": "Whoever makes the first significant move acts first; the rest follow the tie-break "
        "chain. The order holds for the whole scene.",
        "rolls": False,
        "reroll_each_round": False,
    },
    "once_per_scene": {
        "number": 2,
        "label": "Method 2: Perception once per scene",
        "summary": "Everyone rolls Perception once; highest total first. The order holds for the scene.",
        "rolls": True,
        "reroll_each_round": False,
    },
    "every_round": {
        "number": 3,
        "label": "Method 3: Perception every round",
        "summary": "As Method 2, but everyone rolls again at the start of each round.",
        "rolls": True,
        "reroll_each_round": True,
    },
}
DEFAULT_INITIATIVE_METHOD = "once_per_scene"

# The six tie-break factors, in order (§B3). "kind" says how a value is read.
TIE_BREAK_FACTORS: tuple[dict[str, str], ...] = (
    {"key": "goes_first", "label": "an ability or talent to go first", "kind": "flag"},
    {"key": PERCEPTION, "label": "Perception", "kind": "code"},
    {"key": SEARCH, "label": "search", "kind": "code"},
    {"key": REFLEXES, "label": "Reflexes", "kind": "code"},
    {"key": DODGE, "label": "dodge", "kind": "code"},
    {"key": "situational", "label": "special equipment or the situation", "kind": "flag"},
)
# How a pair in the order was decided, beyond the factors themselves (§B2 Method 1, §E5).
ORDER_DECIDERS: dict[str, str] = {
    "first_move": "made the first significant move",
    "total": "higher initiative total",
    "draw": "random draw (every factor tied; the GM may reorder)",
    "unresolved": "every factor tied: the GM decides",
    "gm": "set by the GM",
}
FINAL_TIE_RULES = ("random", "gm")
TIE_DRAW_MAX = 1_000_000

# Optional initiative bonus (§B4): +1 per full 2D of search above its attribute, +1 per full 4D
# of Reflexes, +1 per 6 ranks of these special abilities where they apply to Reflexes or search.
BONUS_SEARCH_PIPS = 2 * PIPS_PER_DIE
BONUS_REFLEXES_PIPS = 4 * PIPS_PER_DIE
BONUS_RANKS = 6
BONUS_ABILITIES = ("Skill Bonus", "Increased Attribute")
BONUS_TRAITS = (REFLEXES, SEARCH)

# -- the Wild Die: not in this chapter ([EXTERNAL] §B2, §E3, §E15) -------------------------------
WILD_DIE_RULES: dict[str, str] = {
    "exploding": "A 6 on a Wild Die is rolled again and added, as long as it keeps showing 6.",
    "plain": "Wild Dice are ordinary dice: no re-rolls.",
}
WILD_ONE_RULES: dict[str, str] = {
    "flag": "A 1 on the Wild Die is marked for the GM (a possible complication); the total is unchanged.",
    "remove_highest": "A 1 on the Wild Die removes that die and the highest other die from the total.",
}
MAX_WILD_CHAIN = 50  # app limit on re-rolls recorded for one Wild Die
MAX_CHARACTER_POINTS_PER_ROLL = 20  # app limit on extra Wild Dice in one roll

# -- movement (§B10, §B11 Move, §D11, §E14) --------------------------------------------------------
FREE_MOVE_FRACTION = (1, 2)  # up to half of Move on easy ground is free
FREE_MOVE_HARD_GROUND_METRES = 1
TERRAINS = ("easy", "hard")

# -- groups (§B12) --------------------------------------------------------------------------------
PARTICIPANT_KINDS = ("character", "npc", "group")
CONTROLLERS = ("player", "gm")

# -- move-ups (§B7) --------------------------------------------------------------------------------
MOVE_UP_REASONS: dict[str, str] = {
    "catch": "catching something thrown or dropped",
    "mental_resistance": "resisting a mental attack",
    "gm_ruling": "another case the GM allows",
}

# -- the action catalogue (§B11): one action of at most 5 seconds each --------------------------
# roll: "usual" = normally rolled with a suggested skill; "gm" = usually no roll, the GM may ask
# for one; "none" = never rolled. Notes are our own summaries.
ACTIONS: dict[str, dict[str, Any]] = {
    "bash": {
        "name": "Bash",
        "skills": ("melee combat",),
        "roll": "usual",
        "summary": "Hit with a blunt weapon.",
        "line": "L61",
    },
    "catch": {
        "name": "Catch",
        "skills": ("throwing",),
        "roll": "usual",
        "summary": "Stop a thrown or falling object or person. The catcher must come after the "
        "thrower in the order, or move up.",
        "line": "L63",
    },
    "choke": {
        "name": "Choke",
        "skills": ("brawling",),
        "roll": "usual",
        "summary": "Take the neck and squeeze.",
        "line": "L65",
    },
    "communicate": {
        "name": "Communicate",
        "skills": ("an interaction skill",),
        "roll": "gm",
        "summary": "Pass on plans or detailed information (more than a sentence); "
        "may be roleplayed without a roll.",
        "line": "L67",
    },
    "disarm": {
        "name": "Disarm",
        "skills": ("brawling", "marksmanship", "melee combat", "missile weapons", "throwing"),
        "roll": "usual",
        "summary": "Knock or take an object from a foe's hand; a called shot.",
        "line": "L69",
    },
    "dodge": {
        "name": "Dodge",
        "skills": ("dodge",),
        "roll": "usual",
        "summary": "Get out of the way of an attack.",
        "line": "L71",
    },
    "entangle": {
        "name": "Entangle",
        "skills": ("throwing",),
        "roll": "usual",
        "summary": "Throw a weapon that wraps up the foe.",
        "line": "L73",
    },
    "escape": {
        "name": "Escape",
        "skills": ("lifting",),
        "roll": "usual",
        "summary": "Break out of a hold.",
        "line": "L75",
    },
    "grab": {
        "name": "Grab",
        "skills": ("brawling",),
        "roll": "usual",
        "summary": "Seize a foe; where he is held decides what he can still do.",
        "line": "L77",
    },
    "kick": {
        "name": "Kick",
        "skills": ("brawling",),
        "roll": "usual",
        "summary": "Strike with a foot.",
        "line": "L79",
    },
    "leap": {
        "name": "Leap",
        "skills": ("jumping",),
        "roll": "usual",
        "summary": "Jump over a foe, onto furniture and the like.",
        "line": "L81",
    },
    "lunge": {
        "name": "Lunge",
        "skills": ("melee combat",),
        "roll": "usual",
        "summary": "Thrust with a pointed weapon.",
        "line": "L83",
    },
    "move": {
        "name": "Move",
        "skills": ("running", "swimming"),
        "roll": "gm",
        "summary": "Cover more than half of Move. A roll only for hard terrain or tricky "
        "manoeuvres; the GM may make any movement cost an action this round.",
        "line": "L85",
    },
    "parry": {
        "name": "Parry",
        "skills": ("brawling", "melee combat"),
        "roll": "usual",
        "summary": "Block a blow.",
        "line": "L87",
    },
    "pin": {
        "name": "Pin",
        "skills": ("brawling", "melee combat", "missile weapons", "throwing"),
        "roll": "usual",
        "summary": "Hold a foe down or fix part of him in place; that part is "
        "unusable. Pinning the whole body is a tackle.",
        "line": "L89",
    },
    "punch": {
        "name": "Punch",
        "skills": ("brawling",),
        "roll": "usual",
        "summary": "Strike with a fist.",
        "line": "L91",
    },
    "push": {
        "name": "Push",
        "skills": ("brawling",),
        "roll": "usual",
        "summary": "Shove a foe.",
        "line": "L93",
    },
    "ready_weapon": {
        "name": "Ready a Weapon",
        "skills": (),
        "roll": "gm",
        "summary": "Draw, reload, unsheathe. Normally no roll; under stress the GM may "
        "ask for a weapon roll.",
        "line": "L95",
    },
    "run_away": {
        "name": "Run Away",
        "skills": ("running",),
        "roll": "usual",
        "summary": "Flee the scene.",
        "line": "L97",
    },
    "shoot": {
        "name": "Shoot",
        "skills": ("marksmanship", "missile weapons"),
        "roll": "usual",
        "summary": "Fire a projectile or missile weapon.",
        "line": "L99",
    },
    "slash": {
        "name": "Slash",
        "skills": ("melee combat",),
        "roll": "usual",
        "summary": "Cut with an edged weapon.",
        "line": "L101",
    },
    "switch_setting": {
        "name": "Switch a Weapon or Equipment's Setting",
        "skills": (),
        "roll": "gm",
        "summary": "Change an item's damage or effect mode. Normally no roll; under "
        "stress the GM may ask for one.",
        "line": "L103",
    },
    "tackle": {
        "name": "Tackle",
        "skills": ("brawling",),
        "roll": "usual",
        "summary": "Bring a foe down bodily; he can then only talk or try to break free.",
        "line": "L105",
    },
    "throw": {
        "name": "Throw a Weapon or Object",
        "skills": ("throwing",),
        "roll": "usual",
        "summary": "Hurl something at a foe.",
        "line": "L107",
    },
    "trip": {
        "name": "Trip",
        "skills": ("brawling",),
        "roll": "usual",
        "summary": "Knock a foe's legs out.",
        "line": "L109",
    },
    "use_skill": {
        "name": "Use a Skill or Ability",
        "skills": ("the skill or ability used",),
        "roll": "usual",
        "summary": "A quick use of a skill or special ability. Only "
        "abilities the character has; untrained skills are allowed, perhaps at a penalty; "
        "rushing a long task costs a penalty.",
        "line": "L111",
    },
    "vehicle_maneuver": {
        "name": "Vehicle Maneuver",
        "skills": ("piloting",),
        "roll": "usual",
        "summary": "A stunt while driving or piloting.",
        "line": "L113",
    },
    "waiting": {
        "name": "Waiting",
        "skills": (),
        "roll": "none",
        "summary": "Hold back for a better moment. No roll, but it takes concentration "
        "and counts as an action.",
        "line": "L115",
    },
}

FREE_ACTIONS: tuple[str, ...] = (
    "A few words to someone close by.",
    "A quick look around a room (the GM may ask for a Perception roll).",
    "Moving up to half of Move over easy ground, or up to 1 m over harder ground.",
)
NON_ACTIONS: tuple[str, ...] = (
    "Initiative rolls.",
    "Damage resistance rolls.",
    "Presence or willpower rolls for how a place affects the character's mood.",
)

# -- app limits on build documents ------------------------------------------------------------------
MAX_TEXT = 200
MAX_NOTES = 5000
MAX_ATTRIBUTES = 40
MAX_SKILLS = 300
MAX_LIST = 200
MAX_RANKS = 100
MAX_POINTS = 100_000
MAX_MOVE = 10_000
