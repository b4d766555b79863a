"""Numbers of TIMEMASTER play at the table: defense columns, damage dice, recovery and healing.

Data only (the rules that read them are ``combat.py`` and ``recovery.py``). Each line cites the
digest section and the seed lines (../shared/seeds/002_02af72a61b7d5f0b.txt) it comes from.
"""

from __future__ import annotations

# -- defense columns (timemaster-play.md §4) -----------------------------------------------------
LOWEST_COLUMN, HIGHEST_COLUMN = 1, 10  # play §4, §28 rule 2 (L958 "10 maximum", L2683)
SURPRISED_COLUMN = 1  # play §4, §7 (L964-966)
ENTANGLED_COLUMN = 1  # characters §4 Net (L2836)
MAX_LUCK_PER_MISSILE_DEFENSE = 2  # play §11 step 4, §16.1 (L627, L947)

#: Attack forms a defense column is chosen for (play §4, §11).
ATTACK_FORMS = ("melee", "missile", "paranormal")
#: Missile classes that decide whether shields and the mass-armor modifier count: firearms
#: (powder, beam, stunner) pass shields (L1576); "Missiles A" (sling, thrown, short bow) are the
#: only ones the mass-armor modifier works against (play §21.3-§21.4, L1903-1912); "missiles_b"
#: is every other missile (longbow, crossbow, ...); "catastrophe" covers falls and catastrophes,
#: which are read like missile attacks (play §18, L1461-1465).
MISSILE_CLASSES = ("firearm", "missiles_a", "missiles_b", "catastrophe")
#: Shields: columns shifted right, and the AR they add for the mass-armor modifier (§19, §21.4).
SHIELDS: dict[str, dict[str, int]] = {
    "small": {"shift": 1, "mass_armor_ar": 5},  # L1572-1574, L1910
    "large": {"shift": 2, "mass_armor_ar": 10},
}
SHIELD_ATTACKS_PER_ROUND = 2  # only the first two attacks on the bearer each round (L1576)
#: Mass-armor modifier for NPC troops: (lowest AR, highest AR, modifier) (play §21.4, L1912).
MASS_ARMOR_MODIFIERS: tuple[tuple[int, int, int], ...] = ((10, 15, 1), (16, 25, 2), (26, 59, 3))
ARMORED_INFANTRY_AR = 60  # AR 60+ is armored infantry, outside the modifier (play §21.3)

# -- results keys read for damage (play §5.2, §5.3) ----------------------------------------------
DAMAGE_KEYS = ("armed", "unarmed")
#: Severity letter -> (d10 count, multiplier); "S" is 1d10 read 1-5 -> 1, 6-10 -> 2 (L4072, L4092).
DAMAGE_DICE: dict[str, tuple[int, int]] = {"S": (1, 1), "L": (1, 2), "M": (2, 2), "H": (3, 2), "C": (3, 2)}
SCRATCH_HIGH_FROM = 6  # a scratch die of 6-10 costs 2 Stamina, 1-5 costs 1 (play §5.2-§5.3)
SEVERITY_LETTERS = ("S", "L", "M", "H", "C")

# -- condition over time (play §12, §16, §17) -----------------------------------------------------
HEALING_PER_DAY = 2  # wounds per day of bedrest (play §17, L1453)
HEALING_PER_DAY_MEDICAL = 4  # with daily Medical care (play §17, §29 ambiguity 3; L1453, L3183)
WILLPOWER_PER_HOUR_OF_SLEEP = 10  # play §12 (L3297)
STAMINA_ON_COMING_TO = 1  # play §16, §29 ambiguities 12-13 (L1427)
UNCONSCIOUS_MINUTES_DIE = "1d100"  # secret percent (play §16, L1425)
COMA_DAYS_DIE = "1d10"  # secret (play §16, L1429)
UNKNOWN_LIMIT = 10_000  # a bound on rounds, hours and days in one entry (bad input, not a rule)

# -- Distance Running and Swimming (characters §4 skills 46 and 60; L3007-3009, L3235-3243) ------
UNSKILLED_RUN_MINUTES = 30  # then eight hours' sleep (L3007)
RUN_REST_HOURS = 8  # L3009
UNSKILLED_SWIM_MILES = 1  # L3235
SWIM_MILES_PER_COLUMN = 3  # miles per 24 h = 3 x column of current STA (L3237)
SWIM_LUCK_CHECKS_AT_HOURS = (24, 48)  # L3239-3241
