"""The round's strike-number modifiers as named choices (timemaster-play.md §11 step 3, §13.3,
§13.7, §15; seed L944-946, L1074-1133, L1153-1198, L1356-1393, L1684).

The GM picks what happened this round (the target ran, the attacker drew a weapon, the defender
is behind cover, the attacker came from behind ...) and the engine gives each its value and rule;
they add up (L1393). ``strike_modifiers(choices)`` returns every piece and the total, so the log
line can show them as it shows the column. Unclear values follow §29 ambiguity 4.
Seed lines (L...) are of ../shared/seeds/002_02af72a61b7d5f0b.txt.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from characters.systems.base import refuse

RULE_MISSILE = "timemaster-play.md §13.3 (L1074-1113), §29 ambiguity 4"
RULE_RANGE = "timemaster-play.md §13.7 (L1153-1176)"
RULE_BURST = "timemaster-play.md §13.3, §13.6 (L1139-1141)"
RULE_MELEE = "timemaster-play.md §15 (L1356-1393, L1684)"
RULE_TALENT = "timemaster-play.md §11 step 3 (L946)"

#: key -> (label, value, group, form, rule). A group allows one choice (a target walks or runs,
#: not both); None allows any combination.
CHOICES: dict[str, tuple[str, int, str | None, str, str]] = {
    # the target's declared action (missile, L1078-1097)
    "target_walking": ("target walking", -10, "target_moves", "missile", RULE_MISSILE),
    "target_running": ("target running", -20, "target_moves", "missile", RULE_MISSILE),
    "target_sprinting": ("target sprinting", -30, "target_moves", "missile", RULE_MISSILE),
    "target_falling": ("target falling or diving", -40, "target_moves", "missile", RULE_MISSILE),
    "target_to_cover": ("target going to cover", -20, "target_moves", "missile", RULE_MISSILE),
    "target_swimming": ("target swimming", -30, "target_moves", "missile", RULE_MISSILE),
    "target_behind_cover": ("target behind cover", -30, None, "missile", RULE_MISSILE),
    "target_slow_vehicle": ("target in a slow vehicle", -10, "target_vehicle", "missile", RULE_MISSILE),
    "target_fast_vehicle": ("target in a fast vehicle", -30, "target_vehicle", "missile", RULE_MISSILE),
    "target_prone": ("target prone", -10, None, "missile", RULE_MISSILE),
    # the attacker's declared action (missile, L1099-1111); a sprinter takes no other action (L1251)
    "attacker_walking": ("attacker walking", -10, "attacker_moves", "missile", RULE_MISSILE),
    "attacker_running": ("attacker running", -20, "attacker_moves", "missile", RULE_MISSILE),
    "attacker_falling": ("attacker leaping or diving", -40, "attacker_moves", "missile", RULE_MISSILE),
    "attacker_to_cover": ("attacker going to cover", -20, "attacker_moves", "missile", RULE_MISSILE),
    "attacker_slow_vehicle": ("attacker in a slow vehicle", -10, "attacker_vehicle", "missile", RULE_MISSILE),
    "attacker_fast_vehicle": ("attacker in a fast vehicle", -30, "attacker_vehicle", "missile", RULE_MISSILE),
    "attacker_meleed": ("attacker charged or in melee this round", -40, None, "missile", RULE_MISSILE),
    "attacker_getting_up": ("attacker getting up or turning", -20, None, "missile", RULE_MISSILE),
    "attacker_drawing": ("attacker drawing a weapon", -20, None, "missile", RULE_MISSILE),
    "attacker_two_weapons": ("attacker firing more than one weapon", -20, None, "missile", RULE_MISSILE),
    "attacker_aiming": ("aimed single shot", 10, "shot", "missile", RULE_MISSILE),
    "second_shot": ("2nd shot this round", -10, "shot", "missile", RULE_MISSILE),
    "third_shot": ("3rd shot this round", -20, "shot", "missile", RULE_MISSILE),
    "fourth_shot": ("4th shot this round", -30, "shot", "missile", RULE_MISSILE),
    "unskilled_riding": ("firing from horseback without the skill", -40, None, "missile", RULE_MISSILE),
    "burst": ("automatic burst (target modifiers dropped)", 30, "shot", "missile", RULE_BURST),
    # melee (L1356-1393, L1684)
    "attacker_on_ground": ("attacker on the ground", -40, "attacker_down", "melee", RULE_MELEE),
    "attacker_rising": ("attacker getting up first", -20, "attacker_down", "melee", RULE_MELEE),
    "moved_to_close": ("attacker moved to close", -20, "closing", "melee", RULE_MELEE),
    "long_weapon_charge": ("charge with a long weapon", 20, "closing", "melee", RULE_MELEE),
    "from_behind": ("attack from behind", 20, None, "melee", RULE_MELEE),
    "defender_fleeing": ("defender lost initiative and flees", 10, None, "melee", RULE_MELEE),
    "horse_charge": ("charging on horseback", 30, "closing", "melee", RULE_MELEE),
    "mounted_vs_polearm": ("mounted charge against a polearm", -30, None, "melee", RULE_MELEE),
    "unskilled_mounted": ("attacking from horseback without the skill", -40, None, "melee", RULE_MELEE),
}
MODIFIER_KEYS: tuple[str, ...] = tuple(CHOICES)

#: Short-range modifier per 10 ft beyond the first 10 ft (§13.7, L1153-1174): the weapons the
#: table reads clearly; the long guns' per-100-yd values are left to the GM (§29 ambiguity 5).
RANGE_PER_10_FT: dict[str, tuple[str, int]] = {
    "axe_thrown": ("axe or tomahawk, thrown", -30),
    "dagger_thrown": ("dagger or knife, thrown", -20),
    "javelin": ("javelin", -5),
    "shuriken": ("shuriken", -25),
    "spear_thrown": ("spear, thrown", -20),
    "hand_grenade": ("hand grenade", -30),
    "blow_gun": ("blow gun", -20),
    "bola": ("bola", -10),
    "sling": ("sling", -5),
    "antique_pistol": ("antique pistol", -15),
    "revolver": ("revolver", -7),
    "automatic_pistol": ("automatic pistol", -12),
    "shotgun": ("shotgun", -4),
    "stunner": ("Time Corps stunner", -20),
    "crossbow": ("crossbow", -2),
    "shortbow": ("short bow", -5),
    "longbow": ("longbow", -2),
    "laser_pistol": ("laser pistol", -5),
}
RANGE_WEAPONS: tuple[str, ...] = tuple(RANGE_PER_10_FT)
STUNNER_MAX_FEET = 30  # L3697
MAX_RANGE_FEET = 10_000  # bad input, not a rule


@dataclass(frozen=True)
class Modifier:
    """One named modifier: what, how much, and the rule."""

    key: str
    text: str
    value: int
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def range_modifier(weapon: str, feet: int) -> Modifier:
    """The range modifier: (ceil(feet / 10) - 1) steps of the weapon's value (§13.7, L1174).
    A dagger at 25 ft: 2 x -20 = -40."""
    if weapon not in RANGE_PER_10_FT:
        raise refuse(
            "range_weapon", f"The weapon for the range is one of: {', '.join(RANGE_WEAPONS)}.", RULE_RANGE
        )
    if isinstance(feet, bool) or not isinstance(feet, int) or not 1 <= feet <= MAX_RANGE_FEET:
        raise refuse(
            "range_feet", f"The range is a whole number of feet from 1 to {MAX_RANGE_FEET}.", RULE_RANGE
        )
    if weapon == "stunner" and feet > STUNNER_MAX_FEET:
        raise refuse(
            "range_feet",
            f"The stunner reaches {STUNNER_MAX_FEET} ft at most.",
            "timemaster-play.md §13.7 (L3697)",
        )
    label, per_step = RANGE_PER_10_FT[weapon]
    steps = max(0, math.ceil(feet / 10) - 1)
    value = steps * per_step
    return Modifier(
        "range", f"range {feet} ft with {_article(label)} {label} ({steps} × {per_step})", value, RULE_RANGE
    )


def _article(words: str) -> str:
    """ "a" or "an" before a weapon's name in the log ("an automatic pistol", "a revolver")."""
    return "an" if words[:1].lower() in "aeiou" else "a"


def strike_modifiers(
    choices: Any,
    *,
    form: str,
    range_weapon: str | None = None,
    range_feet: int | None = None,
) -> tuple[list[Modifier], int]:
    """The named modifiers of one attack and their total (they add up, L1393).

    Refused by name: an unknown choice, a choice of the other attack form, two choices of one
    group (walking and running), any modifier on a talent (L946). A burst drops every target
    modifier (L1141)."""
    if choices is None:
        choices = []
    if not isinstance(choices, list | tuple) or not all(isinstance(c, str) for c in choices):
        raise refuse("modifiers", "The modifiers are a list of names.", RULE_MISSILE)
    choices = list(dict.fromkeys(choices))
    unknown = [c for c in choices if c not in CHOICES]
    if unknown:
        raise refuse(
            "modifiers", f"{unknown[0]!r} is not a modifier; choose from: {', '.join(MODIFIER_KEYS)}."
        )
    if form == "paranormal" and (choices or range_weapon):
        raise refuse("modifiers", "A talent takes no modifiers.", RULE_TALENT)
    groups: dict[str, str] = {}
    for key in choices:
        label, _value, group, kind, rule = CHOICES[key]
        if kind != form:
            raise refuse("modifiers", f"“{label}” is a {kind} modifier, not for a {form} attack.", rule)
        if group and group in groups:
            raise refuse("modifiers", f"“{CHOICES[groups[group]][0]}” and “{label}” cannot both apply.", rule)
        if group:
            groups[group] = key
    out = []
    burst = "burst" in choices
    for key in choices:
        label, value, _group, _kind, rule = CHOICES[key]
        if burst and key.startswith("target_"):
            out.append(Modifier(key, f"{label}: dropped for a burst", 0, RULE_BURST))
            continue
        out.append(Modifier(key, f"{label} {value:+d}", value, rule))
    if range_weapon or range_feet is not None:
        if form != "missile":
            raise refuse("range_weapon", "Range counts for missile attacks.", RULE_RANGE)
        if not range_weapon or range_feet is None:
            raise refuse("range_feet", "Give both the weapon and the range in feet.", RULE_RANGE)
        rng = range_modifier(range_weapon, range_feet)
        out.append(Modifier(rng.key, f"{rng.text} {rng.value:+d}", rng.value, rng.rule))
    return out, sum(m.value for m in out)
