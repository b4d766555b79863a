"""TIMEMASTER facts as data, transcribed from ``timemaster-data.json`` and checked against the digest.

Digests: ``timemaster-characters.md`` (§§1-10) and ``timemaster-play.md`` (§§1-5).
Entries the digest marks UNSURE carry ``"unsure": True`` so the product can flag them.
Years are signed historical years (negative = B.C., there is no year 0).
"""

from __future__ import annotations

from typing import Any

# -- abilities (timemaster-characters.md §3) ----------------------------------------------------

#: Book order (lines 120, 555). PER = Personality, PCN = Perception.
ABILITY_CODES: tuple[str, ...] = ("STR", "DEX", "AGL", "PER", "WPR", "PCN", "LUCK", "STA")
#: The order the 1984 sheet prints them (line 537).
SHEET_ABILITY_ORDER: tuple[str, ...] = ("STR", "DEX", "AGL", "PER", "PCN", "WPR", "LUCK", "STA")
ABILITY_NAMES: dict[str, str] = {
    "STR": "Strength",
    "DEX": "Dexterity",
    "AGL": "Agility",
    "PER": "Personality",
    "WPR": "Willpower",
    "PCN": "Perception",
    "LUCK": "Luck",
    "STA": "Stamina",
}
#: How the chart and the sheet spell each code inside a formula ("(Pcn+Wpr)÷2").
FORMULA_SPELLING: dict[str, str] = {
    "STR": "Str",
    "DEX": "Dex",
    "AGL": "Agl",
    "PER": "Per",
    "WPR": "Wpr",
    "PCN": "Pcn",
    "LUCK": "Luck",
    "STA": "Sta",
}
ABILITY_MIN = 26  # normal human range, line 555
ABILITY_MAX = 80  # also the purchase cap, line 806

# -- ability generation (§2 step 4, §10 rules 1-3; ambiguity #3) ------------------------------
ABILITY_COUNT = 8
ABILITY_DICE = 3  # 3d10, a 0 face reads 10
ABILITY_MULTIPLIER = 2
ABILITY_ADDEND = 20
HOPELESS_SCORE = 40  # a value at or below this counts towards "hopeless"
HOPELESS_COUNT = 3  # at least this many such values allow a reroll of all of them

# -- Action Table (timemaster-play.md §3; timemaster-characters.md §0) -----------------------

#: (column, lowest score, highest score or None for "and up")
ACTION_TABLE_COLUMNS: tuple[tuple[int, int, int | None], ...] = (
    (1, 1, 15),
    (2, 16, 30),
    (3, 31, 45),
    (4, 46, 60),
    (5, 61, 75),
    (6, 76, 90),
    (7, 91, 105),
    (8, 106, 120),
    (9, 121, 135),
    (10, 136, None),
)
ABILITY_CHECK_COLUMN = 2  # lines 157, 669
SKILL_CHECK_COLUMN = 3  # non-combat specific skill checks, lines 2631, 2949

#: Attack-margin rows: (label, lowest margin, highest margin or None).
ACTION_TABLE_MARGINS: tuple[tuple[str, int, int | None], ...] = (
    ("0", 0, 0),
    ("1-4", 1, 4),
    ("5-9", 5, 9),
    ("10-29", 10, 29),
    ("30-49", 30, 49),
    ("50-69", 50, 69),
    ("70-89", 70, 89),
    ("90-94", 90, 94),
    ("95-99", 95, 99),
    ("100+", 100, None),
)
#: The results grid, one defense column at a time, read down the margin rows above
#: (play §3.2 prints it row by row; ``ACTION_TABLE_ROWS`` below is that view).
ACTION_TABLE_BY_COLUMN: dict[int, tuple[str, ...]] = {
    1: ("LK", "M", "H", "C", "C", "CK", "CK", "CK", "CK", "CK"),
    2: ("L", "M", "MK", "H", "C", "CK", "CK", "CK", "CK", "CK"),
    3: ("L", "L", "M", "MK", "H", "C", "CK", "CK", "CK", "CK"),
    4: ("L", "LK", "L", "M", "M", "H", "CK", "CK", "CK", "CK"),
    5: ("L", "L", "L", "M", "MK", "H", "H", "CK", "CK", "CK"),
    6: ("S", "LK", "L", "M", "M", "H", "H", "HK", "CK", "CK"),
    7: ("S", "L", "L", "LK", "M", "M", "H", "H", "HK", "CK"),
    8: ("S", "S", "L", "L", "MK", "M", "H", "H", "HK", "HK"),
    9: ("S", "S", "LK", "L", "L", "M", "M", "H", "H", "HK"),
    10: ("S", "S", "S", "L", "LK", "M", "M", "H", "H", "H"),
}
#: (label, lowest margin, highest margin or None, results for columns 1-10)
ACTION_TABLE_ROWS: tuple[tuple[str, int, int | None, tuple[str, ...]], ...] = tuple(
    (label, low, high, tuple(ACTION_TABLE_BY_COLUMN[column][index] for column in range(1, 11)))
    for index, (label, low, high) in enumerate(ACTION_TABLE_MARGINS)
)
#: The grid comes from OCR; three worked examples agree with it (play §3.3, ambiguity #17).
ACTION_TABLE_UNSURE = True
SEVERITY_ORDER: tuple[str, ...] = ("S", "L", "M", "H", "C")

#: Results keys (timemaster-play.md §5). Meanings are our own short wording.
#: Each entry: letter -> {"name", "meaning", optional "stamina" (dice), "wounds"}.
RESULTS_KEYS: dict[str, dict[str, dict[str, Any]]] = {
    "ability": {
        "L": {"name": "Limited success", "meaning": "It works, just barely."},
        "M": {"name": "Moderate success", "meaning": "It works reasonably well."},
        "H": {"name": "High success", "meaning": "It works very well."},
        "C": {"name": "Colossal success", "meaning": "It works exactly as intended."},
        "K": {"name": "Knockdown", "meaning": "Not used for Ability checks; ignore it."},
    },
    "armed": {
        "S": {
            "name": "Scratch",
            "meaning": "Lose 1-2 Stamina and mark 1 wound.",
            "stamina": "1-2",
            "wounds": 1,
        },
        "L": {
            "name": "Light Wound",
            "meaning": "Lose 1d10x2 Stamina and mark 2 wounds.",
            "stamina": "1d10x2",
            "wounds": 2,
        },
        "M": {
            "name": "Medium Wound",
            "meaning": "Lose 2d10x2 Stamina and mark 3 wounds.",
            "stamina": "2d10x2",
            "wounds": 3,
        },
        "H": {
            "name": "Heavy Wound",
            "meaning": "Lose 3d10x2 Stamina and mark 4 wounds.",
            "stamina": "3d10x2",
            "wounds": 4,
        },
        "C": {
            "name": "Crippling Wound",
            "meaning": "Lose 3d10x2 Stamina and mark 5 wounds.",
            "stamina": "3d10x2",
            "wounds": 5,
        },
        "K": {
            "name": "Knockdown",
            "meaning": "Down and 5 ft back; DEX check to hold on to items; no more actions this round.",
        },
    },
    "unarmed": {
        "S": {"name": "Scant Damage", "meaning": "Lose 1-2 Stamina.", "stamina": "1-2", "wounds": 0},
        "L": {"name": "Light Damage", "meaning": "Lose 1d10x2 Stamina.", "stamina": "1d10x2", "wounds": 0},
        "M": {"name": "Medium Damage", "meaning": "Lose 2d10x2 Stamina.", "stamina": "2d10x2", "wounds": 0},
        "H": {
            "name": "Harsh Damage",
            "meaning": "Lose 3d10x2 Stamina and mark 1 wound.",
            "stamina": "3d10x2",
            "wounds": 1,
        },
        "C": {
            "name": "Crushing Damage",
            "meaning": "Lose 3d10x2 Stamina and mark 2 wounds.",
            "stamina": "3d10x2",
            "wounds": 2,
        },
        "K": {"name": "Knockdown", "meaning": "Down and 5 ft back; unfinished actions this round are lost."},
    },
    "direct_action": {
        "S": {"name": "Slightly positive", "meaning": "Undecided; more talk is needed."},
        "L": {"name": "Limited positive", "meaning": "Helps only if it is safe, free and quick."},
        "M": {"name": "Moderately positive", "meaning": "Helps while there is no risk."},
        "H": {"name": "Highly positive", "meaning": "Glad to help within reason, without risk."},
        "C": {"name": "Charmed", "meaning": "Will run some risks for the agent (or is badly frightened)."},
        "K": {"name": "Knockdown", "meaning": "Not used for direct action; ignore it."},
    },
    "vehicle_fire": {
        "S": {"name": "Destruction check", "meaning": "Vehicle destruction check."},
        "L": {"name": "Destruction check -10", "meaning": "Vehicle destruction check at -10."},
        "M": {"name": "Destruction check -15", "meaning": "Vehicle destruction check at -15."},
        "H": {"name": "Destruction check -20", "meaning": "Vehicle destruction check at -20."},
        "C": {"name": "Destruction check -30", "meaning": "Vehicle destruction check at -30."},
        "K": {"name": "Pushed back", "meaning": "If it survives, the vehicle is pushed back one hex."},
    },
    "battle_fire": {
        "S": {"name": "Morale check", "meaning": "Troops make a morale check."},
        "L": {"name": "Morale check -10", "meaning": "Morale check at -10."},
        "M": {"name": "Morale check -15", "meaning": "Morale check at -15."},
        "H": {"name": "Morale check -20", "meaning": "Morale check at -20."},
        "C": {"name": "Morale check -30", "meaning": "Morale check at -30."},
        "K": {"name": "Fall back", "meaning": "If morale holds, the troops fall back one hex."},
    },
}
DEFAULT_RESULTS_KEY = "ability"

# -- derived scores (timemaster-characters.md §2 steps 6-9) ------------------------------------

#: (lowest STR, highest STR, bonus); STR 0-49 gives 0 (ambiguity #29).
PENETRATION_BONUS: tuple[tuple[int, int, int], ...] = (
    (0, 49, 0),
    (50, 59, 5),
    (60, 69, 10),
    (70, 79, 15),
    (80, 80, 20),
)
#: (lowest STA, highest STA, wounds)
WOUNDS: tuple[tuple[int, int, int], ...] = (
    (26, 36, 11),
    (37, 47, 12),
    (48, 58, 13),
    (59, 69, 14),
    (70, 80, 15),
)
WOUND_BOXES_ON_SHEET = 15
CRITICAL_WOUND_BOXES_LEFT = 3
#: Stamina recovery per round for STA 26-80, kept only to cross-check the Action-Table rule.
STAMINA_RECOVERY: tuple[tuple[int, int, int], ...] = (
    (26, 30, 2),
    (31, 45, 3),
    (46, 60, 4),
    (61, 75, 5),
    (76, 80, 6),
)
PARANORMAL_MEMORY_RANGE = (18, 54)

# -- Willpower and talents (§5.1) ----------------------------------------------------------------
MIN_WILLPOWER_TO_USE_TALENT = 21
MAX_EXTRA_WILLPOWER_PER_USE = 20
WILLPOWER_FLEE_AT_OR_BELOW = 20
MAX_TALENTS = 8
STARTING_CHOSEN_TALENTS = 1

# -- skills (§4) ---------------------------------------------------------------------------------

#: level -> modifier; modifiers replace each other (§4.1).
SKILL_LEVELS: dict[str, int] = {"specialist": 15, "expert": 30, "master": 55}
SKILL_LEVEL_ORDER: tuple[str, ...] = ("specialist", "expert", "master")
SKILL_LEVEL_NAMES: dict[str, str] = {"specialist": "Specialist", "expert": "Expert", "master": "Master"}
AUTOMATIC_SKILLS: tuple[str, ...] = ("historical_specialty", "time_corps_stunner")
STARTING_CHOSEN_SKILLS = 2
HISTORICAL_SPECIALTY = "historical_specialty"
HISTORICAL_SPECIALTY_MAX_YEARS = 100
HISTORICAL_SPECIALTY_YEARS_BEFORE_BIRTH = 100
HISTORICAL_SPECIALTY_MAX_CULTURES = 2

SKILL_CATEGORIES: dict[str, str] = {
    "unarmed_melee": "Unarmed melee",
    "armed_melee": "Armed melee",
    "special_weapons": "Special weapons",
    "mounted": "Mounted combat",
    "bows_and_sling": "Bows and sling",
    "firearms": "Firearms",
    "beam_weapons": "Beam weapons",
    "thrown_weapons": "Thrown weapons",
    "heavy_weapons": "Heavy weapons",
    "non_combat": "Non-combat",
}

#: Background conditions printed in the "Date Avail." column (§4.5, ambiguity #24).
#: restriction -> the ``background.native_era`` flag that must be true, or None for a CM call.
CREATION_RESTRICTIONS: dict[str, dict[str, Any]] = {
    "oriental": {"flag": "oriental", "label": "an East Asian (Oriental) background"},
    "city": {"flag": "city", "label": "a town or city background"},
    "writing": {"flag": "writing", "label": "a literate culture"},
    "non_american": {"flag": "americas", "label": "birth outside the Americas, or in them from 1521 on"},
    "bronze_age": {
        "flag": None,
        "label": "a native region that knew bronze working (the game master decides)",
    },
}
#: Horses reached the Americas in 1521: "Any non-American" skills are open to natives from then on.
AMERICAS_HORSE_YEAR = 1521
#: Bronze Age is region-dependent (§4.5). Reading used here: from 1 A.D. on every region the
#: Corps recruits from knew it; earlier, the CM confirms.
BRONZE_AGE_CM_CHECK_BEFORE = 1


def _spell(abilities: tuple[str, ...], divisor: int | None) -> str:
    if not abilities:
        return ""
    names = "+".join(FORMULA_SPELLING[code] for code in abilities)
    if len(abilities) == 1 and divisor in (None, 1):
        return names
    return f"({names})÷{divisor}"


def _skill(
    key: str,
    name: str,
    category: str,
    base: tuple[str, ...],
    *,
    check: str,
    secret: bool,
    exclusive: bool,
    era: str,
    earliest_year: int | None,
    restriction: str | None,
    prerequisite: tuple[tuple[str, str], ...] | None = None,
    special_base: str | None = None,
    unsure: bool = False,
) -> tuple[str, dict[str, Any]]:
    if special_base == "current_stamina":
        formula = "Current Sta"
    elif special_base == "weapon_skill":
        formula = "Weapon skill score"
    else:
        formula = _spell(base, len(base))
    return key, {
        "key": key,
        "name": name,
        "category": category,
        "base_abilities": base,
        "base_divisor": len(base) or None,
        "base_formula": formula,
        "special_base": special_base,
        "check": check,
        "secret_check": secret,
        "exclusive": exclusive,
        "era": era,
        "earliest_year": earliest_year,
        "creation_restriction": restriction,
        # any one of these (skill, minimum level) pairs satisfies the prerequisite
        "prerequisite": prerequisite,
        # Mounted Melee / Mounted Missile borrow the weapon skill's score and have no levels
        "has_levels": special_base != "weapon_skill",
        "unsure": unsure,
    }


# fmt: off
SKILLS: dict[str, dict[str, Any]] = dict((
    _skill("boxing", "Boxing", "unarmed_melee", ("STR", "DEX", "AGL"), check="specific", secret=False, exclusive=True, era="Bronze Age", earliest_year=None, restriction="bronze_age"),  # noqa: E501
    _skill("wrestling", "Wrestling", "unarmed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("martial_arts", "Martial Arts", "unarmed_melee", ("STR", "DEX", "AGL", "WPR"), check="specific", secret=False, exclusive=True, era="Any, Oriental", earliest_year=None, restriction="oriental", unsure=True),  # noqa: E501
    _skill("advanced_self_defense", "Advanced Self-Defense", "unarmed_melee", ("STR", "DEX", "AGL", "WPR"), check="specific", secret=False, exclusive=True, era="72nd Century", earliest_year=7101, restriction=None, prerequisite=(("boxing", "master"), ("wrestling", "master"), ("martial_arts", "master"))),  # noqa: E501
    _skill("bayonet", "Bayonet", "armed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=False, era="16th Century", earliest_year=1501, restriction=None, unsure=True),  # noqa: E501
    _skill("blackjack", "Blackjack", "armed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=False, era="Any City", earliest_year=None, restriction="city", unsure=True),  # noqa: E501
    _skill("bullwhip", "Bullwhip", "armed_melee", ("STR", "DEX", "AGL"), check="specific", secret=False, exclusive=True, era="19th Century", earliest_year=1801, restriction=None),  # noqa: E501
    _skill("dagger_knife_melee", "Dagger/Knife (melee)", "armed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=False, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("lance_horsemans", "Lance, horseman's", "armed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=False, era="Bronze Age", earliest_year=None, restriction="bronze_age", prerequisite=(("equestrian", "expert"),)),  # noqa: E501
    _skill("polearm", "Polearm", "armed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=False, era="Any", earliest_year=None, restriction=None, unsure=True),  # noqa: E501
    _skill("short_handled_weapons", "Short-handled weapons", "armed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=False, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("sword", "Sword", "armed_melee", ("STR", "AGL"), check="specific", secret=False, exclusive=False, era="Bronze Age", earliest_year=None, restriction="bronze_age"),  # noqa: E501
    _skill("florentine_style", "Florentine style", "armed_melee", ("STR", "DEX", "AGL"), check="specific", secret=False, exclusive=False, era="16th Century", earliest_year=1501, restriction=None, prerequisite=(("sword", "master"),)),  # noqa: E501
    _skill("bola", "Bola", "special_weapons", ("DEX",), check="specific", secret=False, exclusive=True, era="19th Century", earliest_year=1801, restriction=None),  # noqa: E501
    _skill("lasso", "Lasso", "special_weapons", ("STR", "DEX"), check="specific", secret=False, exclusive=True, era="19th Century", earliest_year=1801, restriction=None),  # noqa: E501
    _skill("net", "Net", "special_weapons", ("STR", "DEX", "AGL"), check="specific", secret=False, exclusive=True, era="Rome, 100 B.C.", earliest_year=-100, restriction=None),  # noqa: E501
    _skill("equestrian", "Equestrian", "mounted", ("DEX", "AGL", "PER"), check="general_or_specific", secret=False, exclusive=False, era="Any non-American", earliest_year=None, restriction="non_american", unsure=True),  # noqa: E501
    _skill("mounted_melee", "Mounted Melee", "mounted", (), check="specific", secret=False, exclusive=False, era="Any non-American", earliest_year=None, restriction="non_american", prerequisite=(("equestrian", "expert"),), special_base="weapon_skill"),  # noqa: E501
    _skill("mounted_missile", "Mounted Missile", "mounted", (), check="specific", secret=False, exclusive=False, era="Any non-American", earliest_year=None, restriction="non_american", prerequisite=(("equestrian", "expert"),), special_base="weapon_skill"),  # noqa: E501
    _skill("sling", "Sling", "bows_and_sling", ("DEX",), check="specific", secret=False, exclusive=False, era="Stone Age", earliest_year=None, restriction=None, unsure=True),  # noqa: E501
    _skill("shortbow", "Shortbow", "bows_and_sling", ("DEX",), check="specific", secret=False, exclusive=False, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("crossbow", "Crossbow", "bows_and_sling", ("DEX",), check="specific", secret=False, exclusive=False, era="13th Century", earliest_year=1201, restriction=None, unsure=True),  # noqa: E501
    _skill("longbow", "Longbow", "bows_and_sling", ("STR", "DEX"), check="specific", secret=False, exclusive=False, era="12th Century", earliest_year=1101, restriction=None),  # noqa: E501
    _skill("automatic_rifle", "Automatic Rifle", "firearms", ("DEX",), check="specific", secret=False, exclusive=False, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("long_barreled_gun", "Long-barreled gun", "firearms", ("DEX",), check="specific", secret=False, exclusive=False, era="16th Century", earliest_year=1501, restriction=None, unsure=True),  # noqa: E501
    _skill("pistol", "Pistol", "firearms", ("DEX",), check="specific", secret=False, exclusive=False, era="16th Century", earliest_year=1501, restriction=None, unsure=True),  # noqa: E501
    _skill("time_corps_stunner", "Time Corps Stunner", "firearms", ("DEX",), check="specific", secret=False, exclusive=False, era="72nd Century", earliest_year=7101, restriction=None, unsure=True),  # noqa: E501
    _skill("laser_pistol", "Laser Pistol", "beam_weapons", ("DEX",), check="specific", secret=False, exclusive=False, era="30th Century", earliest_year=2901, restriction=None),  # noqa: E501
    _skill("laser_rifle", "Laser Rifle", "beam_weapons", ("DEX",), check="specific", secret=False, exclusive=False, era="30th Century", earliest_year=2901, restriction=None, unsure=True),  # noqa: E501
    _skill("axe_tomahawk_thrown", "Axe/Tomahawk (thrown)", "thrown_weapons", ("STR", "DEX"), check="specific", secret=False, exclusive=False, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("dagger_knife_thrown", "Dagger/Knife (thrown)", "thrown_weapons", ("STR", "DEX"), check="specific", secret=False, exclusive=False, era="Bronze Age", earliest_year=None, restriction="bronze_age"),  # noqa: E501
    _skill("dart", "Dart", "thrown_weapons", ("STR", "DEX"), check="specific", secret=False, exclusive=False, era="2nd Century B.C.", earliest_year=-200, restriction=None),  # noqa: E501
    _skill("javelin", "Javelin", "thrown_weapons", ("STR", "DEX"), check="specific", secret=False, exclusive=False, era="Bronze Age", earliest_year=None, restriction="bronze_age"),  # noqa: E501
    _skill("spear_thrown", "Spear (thrown)", "thrown_weapons", ("STR", "DEX"), check="specific", secret=False, exclusive=False, era="Stone Age", earliest_year=None, restriction=None),  # noqa: E501
    _skill("grenade", "Grenade", "thrown_weapons", ("DEX",), check="specific", secret=False, exclusive=False, era="18th Century", earliest_year=1701, restriction=None),  # noqa: E501
    _skill("ancient_artillery", "Ancient Artillery", "heavy_weapons", ("PCN", "DEX"), check="specific", secret=False, exclusive=True, era="Bronze Age", earliest_year=None, restriction="bronze_age"),  # noqa: E501
    _skill("anti_tank_weapon", "Anti-Tank Weapon", "heavy_weapons", ("DEX",), check="specific", secret=False, exclusive=True, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("cannon", "Cannon", "heavy_weapons", ("PCN", "DEX"), check="specific", secret=False, exclusive=True, era="14th Century", earliest_year=1301, restriction=None),  # noqa: E501
    _skill("artillery", "Artillery", "heavy_weapons", ("PCN", "DEX"), check="specific", secret=False, exclusive=True, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("machine_gun", "Machine Gun", "heavy_weapons", ("DEX",), check="specific", secret=False, exclusive=False, era="20th Century", earliest_year=1901, restriction=None, unsure=True),  # noqa: E501
    _skill("mortar", "Mortar", "heavy_weapons", ("PCN", "DEX"), check="specific", secret=False, exclusive=True, era="20th Century", earliest_year=1901, restriction=None, unsure=True),  # noqa: E501
    _skill("pilot", "Pilot", "heavy_weapons", ("PCN", "DEX", "AGL"), check="general", secret=False, exclusive=True, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("computers", "Computers", "non_combat", ("PCN", "LUCK"), check="specific", secret=True, exclusive=True, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("demolitions", "Demolitions", "non_combat", ("PCN", "DEX"), check="specific", secret=True, exclusive=True, era="13th Century", earliest_year=1201, restriction=None),  # noqa: E501
    _skill("disguise", "Disguise", "non_combat", ("PER", "DEX"), check="general", secret=True, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("distance_running", "Distance Running", "non_combat", ("STA",), check="none", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None, special_base="current_stamina", unsure=True),  # noqa: E501
    _skill("electronics", "Electronics", "non_combat", ("PCN", "DEX", "LUCK"), check="specific", secret=True, exclusive=True, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("forgery", "Forgery", "non_combat", ("PCN", "DEX"), check="specific", secret=True, exclusive=True, era="Any Writing", earliest_year=None, restriction="writing"),  # noqa: E501
    _skill("gambling", "Gambling", "non_combat", ("PCN", "LUCK"), check="specific", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("historical_specialty", "Historical Specialty", "non_combat", ("PCN", "WPR"), check="specific", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None, unsure=True),  # noqa: E501
    _skill("impersonation", "Impersonation", "non_combat", ("PCN", "WPR", "PER", "DEX"), check="specific", secret=True, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("investigation", "Investigation", "non_combat", ("PCN", "WPR", "PER"), check="specific", secret=True, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("mechanics", "Mechanics", "non_combat", ("PCN", "DEX"), check="specific", secret=True, exclusive=True, era="Bronze Age", earliest_year=None, restriction="bronze_age"),  # noqa: E501
    _skill("military_leadership", "Military Leadership", "non_combat", ("STR", "WPR", "PER"), check="specific", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("medicine", "Medicine", "non_combat", ("PCN", "PER", "WPR", "LUCK"), check="general", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("outdoor_survival", "Outdoor Survival", "non_combat", ("PCN", "WPR", "LUCK"), check="specific", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None, unsure=True),  # noqa: E501
    _skill("security_devices", "Security Devices", "non_combat", ("PCN", "DEX", "LUCK"), check="specific", secret=False, exclusive=True, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("stealth", "Stealth", "non_combat", ("DEX", "AGL"), check="specific", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("stunt_driving", "Stunt Driving", "non_combat", ("PCN", "AGL"), check="general", secret=False, exclusive=True, era="20th Century", earliest_year=1901, restriction=None),  # noqa: E501
    _skill("swimming", "Swimming", "non_combat", ("STA",), check="none", secret=False, exclusive=True, era="Any", earliest_year=None, restriction=None, special_base="current_stamina"),  # noqa: E501
    _skill("theft", "Theft", "non_combat", ("PCN", "DEX", "WPR"), check="specific", secret=True, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
    _skill("tracking", "Tracking", "non_combat", ("PCN", "LUCK"), check="specific", secret=True, exclusive=True, era="Any", earliest_year=None, restriction=None),  # noqa: E501
))
# fmt: on

#: Other names the rules use for the same skill.
SKILL_ALIASES: dict[str, str] = {"swords": "sword", "medical": "medicine", "medical_skill": "medicine"}

# -- paranormal talents (§5) ---------------------------------------------------------------------


def _talent(
    key: str,
    name: str,
    abilities: tuple[str, ...],
    *,
    divisor: int | None,
    cost: int,
    check: str,
    secret: bool,
    column: str | None,
    demorean: bool,
    automatic: bool,
) -> tuple[str, dict[str, Any]]:
    return key, {
        "key": key,
        "name": name,
        "formula_abilities": abilities,
        "formula_divisor": divisor,
        "formula": "automatic" if automatic else _spell(abilities, divisor),
        "willpower_cost": cost,
        "check": check,
        "secret_check": secret,
        "defense_column": column,
        "demorean": demorean,
        "automatic": automatic,
    }


# fmt: off
TALENTS: dict[str, dict[str, Any]] = dict((
    _talent("paranormal_memory", "Paranormal Memory", ("PCN", "WPR"), divisor=3, cost=0, check="specific", secret=True, column="2", demorean=False, automatic=False),  # noqa: E501
    _talent("memory_restoration", "Memory Restoration", ("WPR", "PCN", "LUCK"), divisor=4, cost=40, check="general", secret=False, column=None, demorean=False, automatic=False),  # noqa: E501
    _talent("telepathic_probe", "Telepathic Probe", ("WPR", "PER", "LUCK"), divisor=4, cost=10, check="general", secret=True, column=None, demorean=False, automatic=False),  # noqa: E501
    _talent("significance_sensing", "Significance Sensing", ("WPR", "PCN", "LUCK"), divisor=4, cost=5, check="general", secret=False, column=None, demorean=False, automatic=False),  # noqa: E501
    _talent("telepathic_sending", "Telepathic Sending", ("WPR", "PCN", "PER"), divisor=4, cost=5, check="general", secret=False, column=None, demorean=False, automatic=False),  # noqa: E501
    _talent("adaptation", "Adaptation", ("WPR", "PER", "PCN"), divisor=4, cost=10, check="specific", secret=False, column="2", demorean=False, automatic=False),  # noqa: E501
    _talent("time_shift", "Time Shift", ("WPR", "LUCK"), divisor=3, cost=50, check="general", secret=False, column=None, demorean=False, automatic=False),  # noqa: E501
    _talent("ignore_pain", "Ignore Pain", ("WPR", "PER"), divisor=3, cost=50, check="specific", secret=False, column="2", demorean=False, automatic=False),  # noqa: E501
    _talent("dimensional_travel", "Dimensional Travel", (), divisor=None, cost=0, check="none", secret=False, column=None, demorean=True, automatic=True),  # noqa: E501
    _talent("shape_shift", "Shape Shift", (), divisor=None, cost=0, check="none", secret=False, column=None, demorean=True, automatic=True),  # noqa: E501
    _talent("telepathy", "Telepathy", (), divisor=None, cost=0, check="none", secret=False, column=None, demorean=True, automatic=True),  # noqa: E501
    _talent("shock", "Shock", ("WPR", "PER"), divisor=2, cost=20, check="specific", secret=False, column="victim's current Willpower", demorean=True, automatic=False),  # noqa: E501
    _talent("demoralize", "Demoralize", ("WPR", "PCN"), divisor=2, cost=20, check="specific", secret=False, column="victim's current Willpower", demorean=True, automatic=False),  # noqa: E501
    _talent("domination", "Domination", ("WPR", "PCN", "PER"), divisor=3, cost=60, check="specific", secret=False, column="victim's current Willpower", demorean=True, automatic=False),  # noqa: E501
    _talent("shield", "Shield", ("WPR", "LUCK"), divisor=2, cost=30, check="general", secret=False, column=None, demorean=True, automatic=False),  # noqa: E501
    _talent("paranormal_memory_demorean", "Paranormal Memory (Demorean)", ("WPR", "PCN"), divisor=2, cost=30, check="specific", secret=False, column="2", demorean=True, automatic=False),  # noqa: E501
))
# fmt: on
HUMAN_TALENTS: tuple[str, ...] = tuple(key for key, talent in TALENTS.items() if not talent["demorean"])
DEMOREAN_TALENTS: tuple[str, ...] = tuple(key for key, talent in TALENTS.items() if talent["demorean"])
PARANORMAL_MEMORY = "paranormal_memory"

# -- background (§2.14) -----------------------------------------------------------------------
BIRTH_YEAR_MIN = -3500
BIRTH_YEAR_MAX = 7171
AGE_RECOMMENDED = (21, 50)
CORPS_PRESENT_YEAR = 7192  # the Time Barrier at game start (lines 253, 359)
SEXES: tuple[str, ...] = ("male", "female")
HOME_PARALLEL = "T-0"  # ambiguity #28: background.native_parallel when not stated
#: native_era flags a background may carry, and what each means (used by the era rules, §4.5)
NATIVE_ERA_FLAGS: dict[str, str] = {
    "americas": "born in the Americas",
    "oriental": "East Asian (Oriental) culture",
    "city": "grew up in a town or city",
    "writing": "literate culture",
}

#: Height/weight guideline (inches low, inches high, male lb range, female lb range). A guide only.
HEIGHT_WEIGHT_GUIDE: tuple[tuple[int, int, tuple[int, int], tuple[int, int]], ...] = (
    (58, 60, (110, 140), (80, 120)),
    (61, 62, (120, 140), (90, 130)),
    (63, 64, (130, 150), (100, 140)),
    (65, 66, (140, 160), (110, 150)),
    (67, 68, (150, 170), (120, 160)),
    # 5'9" is missing from the printed chart (ambiguity #30): interpolated between its neighbours.
    (69, 69, (157, 178), (130, 165)),
    (70, 71, (165, 185), (140, 170)),
    (72, 73, (175, 195), (145, 175)),
)

# -- rank (§6.5, ruling 1) ----------------------------------------------------------------------
#: The ten ranks in order, each with whether the Corps brings such agents back unaged (Lifer up, §6.5).
RANK_UNAGED: dict[str, bool] = {
    "Trainee": False,
    "Probationer": False,
    "Agent": False,
    "Operative": False,
    "Veteran": False,
    "Lifer": True,
    "Sentry": True,
    "Time Guard": True,
    "Protector": True,
    "Timemaster": True,
}
RANKS: tuple[str, ...] = tuple(RANK_UNAGED)
STARTING_RANK = "Trainee"
STARTING_GRADE = 0
MAX_GRADE = 9
MAX_GRADE_TIMEMASTER = 10

# -- armor (§9.1) -------------------------------------------------------------------------------
#: key -> name, AR, immunity type, and whether it counts for Stamina loss per round
ARMOR: dict[str, dict[str, Any]] = {
    "leather": {"name": "Leather", "ar": 10, "immunity": "A", "counts_for_loss": True, "exempt": False},
    "studded_leather": {
        "name": "Studded leather",
        "ar": 15,
        "immunity": "A",
        "counts_for_loss": True,
        "exempt": False,
    },
    "mail": {"name": "Mail", "ar": 45, "immunity": "A", "counts_for_loss": True, "exempt": False},
    "metal_plates": {
        "name": "Metal plates",
        "ar": 60,
        "immunity": "B",
        "counts_for_loss": True,
        "exempt": False,
    },
    "helmet": {"name": "Helmet", "ar": 30, "immunity": "B", "counts_for_loss": False, "exempt": False},
    "bulletproof_vest": {
        "name": "Bulletproof vest",
        "ar": 15,
        "immunity": "C",
        "counts_for_loss": True,
        "exempt": True,
    },
    "body_suit": {
        "name": "Body suit (7192)",
        "ar": 45,
        "immunity": "C",
        "counts_for_loss": True,
        "exempt": True,
    },
}

# -- NPCs (§8) ----------------------------------------------------------------------------------
NPC_ABILITY_CODES: tuple[str, ...] = tuple(code for code in ABILITY_CODES if code != "LUCK")
NPC_KINDS: tuple[str, ...] = ("human", "demorean")
NPC_SIGNIFICANCE_HUMAN = (1, 500)  # lower bound read as 1 (ambiguity #14)
NPC_SIGNIFICANCE_DEMOREAN = 0
NPC_LUCK_SUBSTITUTE: dict[str, int] = {"human": 50, "demorean": 40}
NPC_STATUS_RANGE = (1, 5)
#: Who holds each status rating, in our own words (§8).
NPC_STATUS_EXAMPLES: dict[int, str] = {
    5: "the ruler of a nation",
    4: "a cabinet-level official, a top commander, a member of the ruling house",
    3: "a legislator, senior adviser or official, a general, a great noble, the very rich",
    2: "a local lord or governor, the rich",
    1: "a servant or associate of one of the above",
}
QUICK_NPC: dict[str, dict[str, Any]] = {
    "human": {"all_abilities": 50, "overrides": {}, "significance": "1d10"},
    "demorean": {"all_abilities": 40, "overrides": {"WPR": 70}, "significance": 0},
}
BRIBE_PER_SIGNIFICANCE = 10  # 1984 US dollars per point of significance
BRIBE_PER_STATUS = 1000  # 1984 US dollars per point of status
BRIBE_HONEST_AT_OR_BELOW = 30  # d100
