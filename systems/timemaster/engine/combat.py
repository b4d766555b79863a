"""Attacks at the table: which defense column an attack is read on, and what the hit does.

``defense_column(situation)`` takes one attack situation (a plain dict, so the API and the
pages pass what the GM chose) and gives the column with every reason that set or moved it;
``resolve_attack`` reads the attack roll on the Action Table at that column and on the results
key the weapon names, and rolls the Stamina loss. Pure: dice come from an injected
``random.Random`` or are passed in.

timemaster-play.md §4 (defense columns), §5.2-§5.3 (Armed and Unarmed keys), §7 (surprise),
§11 (combat procedure, Luck in step 4, helpless defenders), §13 (missile combat), §15 (melee),
§16.1 (Luck), §19 (shields), §21.4 (mass-armor modifier); timemaster-characters.md §4 (Advanced
Self-Defense L2683, Florentine style L2711, Net L2836); §29 ambiguities 10, 18 and 38 for the
readings. Seed lines (L...) are of ../shared/seeds/002_02af72a61b7d5f0b.txt.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from characters.systems.base import SettingSpec, is_one_of, refuse
from characters.systems.dice import d10, percent

from . import action_table
from .play_tables import (
    ARMORED_INFANTRY_AR,
    ATTACK_FORMS,
    DAMAGE_DICE,
    DAMAGE_KEYS,
    ENTANGLED_COLUMN,
    HIGHEST_COLUMN,
    LOWEST_COLUMN,
    MASS_ARMOR_MODIFIERS,
    MAX_LUCK_PER_MISSILE_DEFENSE,
    MISSILE_CLASSES,
    SCRATCH_HIGH_FROM,
    SEVERITY_LETTERS,
    SHIELD_ATTACKS_PER_ROUND,
    SHIELDS,
    SURPRISED_COLUMN,
)
from .tables import RESULTS_KEYS

RULE_COLUMN = "timemaster-play.md §4"
RULE_MELEE = "timemaster-play.md §4, §15 (L960-970)"
RULE_SURPRISE = "timemaster-play.md §4, §7 (L876-880, L964-966)"
RULE_MISSILE = "timemaster-play.md §4, §13 (L958)"
RULE_LUCK = "timemaster-play.md §11 step 4, §16.1 (L627, L947, L958)"
RULE_SHIELD = "timemaster-play.md §19 (L1572-1576), §29 ambiguity 18"
RULE_ASD = "timemaster-characters.md §4 Advanced Self-Defense (L2683)"
RULE_FLORENTINE = "timemaster-characters.md §4 Florentine style (L2711)"
RULE_NET = "timemaster-characters.md §4 Net (L2836)"
RULE_HELPLESS = "timemaster-play.md §11 helpless defenders (L986-990), §29 ambiguity 10"
RULE_MASS_ARMOR = "timemaster-play.md §21.4 (L1901-1912)"
RULE_PARANORMAL = "timemaster-play.md §4, §12 (L605, L3530)"
RULE_LIMITS = "timemaster-play.md §4, §28 rule 2 (L958, L2683)"
RULE_DAMAGE = "timemaster-play.md §5.2-§5.3, §16 (L1411-1419, L4068-4097)"

DEFENDER_KINDS = ("pc", "npc", "troops")
_BOOL_FIELDS = (
    "surprised",
    "entangled",
    "helpless",
    "defender_advanced_self_defense",
    "attacker_advanced_self_defense",
    "attacker_florentine",
    "defender_florentine",
    "mass_armor",
)
_INT_FIELDS = (
    "declared_skill_score",
    "unskilled_melee",
    "defense_die",
    "luck_spent",
    "luck_available",
    "attack_number",
    "troop_armor_rating",
    "current_willpower",
)
SITUATION_FIELDS = ("form", "defender_kind", "missile_class", "shield", *_BOOL_FIELDS, *_INT_FIELDS)

#: Campaign settings for the readings the rules leave to the CM (§29 ambiguities 10 and 18).
COMBAT_SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        name="helpless_defender_result",
        label="Result of an attack on a helpless defender",
        kind="choice",
        default="C",
        choices=SEVERITY_LETTERS,
        meaning="How badly an attack hurts someone who cannot defend at all.",
        help="A helpless defender is hit with no roll; the rules give no severity. The reading is C "
        "(so any called shot, a kill included, succeeds).",
        rule="timemaster-play.md §11, §29 ambiguity 10",
    ),
    SettingSpec(
        name="shields_against_missiles",
        label="Shields shift the column against thrown and shot missiles too",
        kind="bool",
        default=True,
        meaning="Whether a shield also helps against arrows, stones and other thrown or shot missiles.",
        help="The rules show shields in melee only; the reading applies them to missiles other "
        "than firearms, after 1d10 + Luck.",
        rule="timemaster-play.md §19, §29 ambiguity 18",
    ),
    SettingSpec(
        name="hit_location_always",
        label="Roll the hit location on every hit, armor or not",
        kind="bool",
        default=False,
        meaning="Whether every hit rolls where it lands; behind cover, a hit on a hidden part misses.",
        help="The book offers the GM the hit location chart without armor too. In missile fire it "
        "then replaces the behind-cover modifier (-30 to hit): a hit that lands on a part the "
        "cover hides misses, and the GM names what the cover hides.",
        rule="timemaster-play.md §19 note to the GM (L1558)",
    ),
)
_DEFAULTS = {spec.name: spec.default for spec in COMBAT_SETTINGS}


def _options(settings: Any) -> dict[str, Any]:
    """The combat settings over their defaults (a campaign's settings are already checked)."""
    return {**_DEFAULTS, **(settings if isinstance(settings, dict) else {})}


@dataclass(frozen=True)
class Reason:
    """One step of choosing the column: what it did, the column after it, and the rule."""

    text: str
    column: int | None
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DefenseColumn:
    """The column an attack is read on (None for a helpless defender: no roll is made)."""

    column: int | None
    reasons: tuple[Reason, ...]
    automatic_hit: bool = False
    defense_die: int | None = None
    luck_spent: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "reasons": [r.as_dict() for r in self.reasons],
            "automatic_hit": self.automatic_hit,
            "defense_die": self.defense_die,
            "luck_spent": self.luck_spent,
        }

    def summary(self) -> str:
        """The reasons in one line, e.g. "Unskilled Melee 61: column 5; small shield +1: column 6"."""
        return "; ".join(r.text for r in self.reasons)


def _whole(situation: dict[str, Any], name: str, low: int, high: int | None = None) -> int | None:
    value = situation.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high and value > high):
        bounds = f"from {low} to {high}" if high else f"{low} or more"
        raise refuse(name, f"{name.replace('_', ' ').capitalize()} must be a whole number {bounds}.")
    return value


def check_situation(situation: Any) -> dict[str, Any]:
    """The situation with its defaults, or RuleError naming the field that is wrong."""
    if not isinstance(situation, dict):
        raise refuse("situation", "An attack situation must be an object.", RULE_COLUMN)
    unknown = sorted(str(k) for k in situation if k not in SITUATION_FIELDS)
    if unknown:
        raise refuse(
            unknown[0], f"{unknown[0]!r} is not part of an attack situation ({', '.join(SITUATION_FIELDS)})."
        )
    form = situation.get("form")
    if form not in ATTACK_FORMS:
        raise refuse("form", f"The attack form is one of: {', '.join(ATTACK_FORMS)}.", RULE_COLUMN)
    out: dict[str, Any] = {"form": form}
    kind = situation.get("defender_kind", "npc")
    if kind not in DEFENDER_KINDS:
        raise refuse("defender_kind", f"The defender is one of: {', '.join(DEFENDER_KINDS)}.")
    out["defender_kind"] = kind
    for name in _BOOL_FIELDS:
        value = situation.get(name, False)
        if not isinstance(value, bool):
            raise refuse(name, f"{name.replace('_', ' ').capitalize()} is true or false.")
        out[name] = value
    out["declared_skill_score"] = _whole(situation, "declared_skill_score", 0, 999)
    out["unskilled_melee"] = _whole(situation, "unskilled_melee", 0, 999)
    out["defense_die"] = _whole(situation, "defense_die", 1, 10)
    out["luck_spent"] = _whole(situation, "luck_spent", 0, 999) or 0
    out["luck_available"] = _whole(situation, "luck_available", 0, 999)
    out["attack_number"] = _whole(situation, "attack_number", 1, 99) or 1
    out["troop_armor_rating"] = _whole(situation, "troop_armor_rating", 0, 999)
    out["current_willpower"] = _whole(situation, "current_willpower", 0, 999)
    shield = situation.get("shield")
    if shield in ("", "none"):
        shield = None
    if shield is not None and not is_one_of(shield, SHIELDS):
        raise refuse("shield", f"A shield is one of: {', '.join(SHIELDS)} (or none).", RULE_SHIELD)
    out["shield"] = shield
    missile_class = situation.get("missile_class")
    if form == "missile" and missile_class not in MISSILE_CLASSES:
        raise refuse(
            "missile_class",
            f"Name the missile: one of {', '.join(MISSILE_CLASSES)} (shields and troop armor depend on it).",
            RULE_SHIELD,
        )
    out["missile_class"] = missile_class if form == "missile" else None
    _check_luck(out)
    _check_form_fields(out)
    return out


def _check_luck(s: dict[str, Any]) -> None:
    """Luck: PCs only, missile attacks only, at most 2, never more than the PC has (§16.1)."""
    spent = s["luck_spent"]
    if not spent:
        return
    if s["defender_kind"] != "pc":
        raise refuse("luck_spent", "Only player characters have Luck to spend.", RULE_LUCK)
    if s["form"] != "missile":
        raise refuse(
            "luck_spent",
            "Luck is spent against missile attacks (falls and catastrophes too) only.",
            RULE_LUCK,
        )
    if s["helpless"]:
        raise refuse("luck_spent", "A helpless defender makes no defense roll to add Luck to.", RULE_HELPLESS)
    if spent > MAX_LUCK_PER_MISSILE_DEFENSE:
        raise refuse(
            "luck_spent",
            f"At most {MAX_LUCK_PER_MISSILE_DEFENSE} Luck points may be spent on one missile attack, "
            f"not {spent}.",
            RULE_LUCK,
        )
    available = s["luck_available"]
    if available is None:
        raise refuse("luck_available", "Give the defender's Luck score to spend Luck from.", RULE_LUCK)
    if spent > available:
        raise refuse(
            "luck_spent", f"The defender has only {available} Luck left; {spent} cannot be spent.", RULE_LUCK
        )


def _check_form_fields(s: dict[str, Any]) -> None:
    form = s["form"]
    fixed = s["helpless"] or s["surprised"] or s["entangled"]
    no_score = s["declared_skill_score"] is None and s["unskilled_melee"] is None
    if form == "melee" and not fixed and no_score:
        raise refuse(
            "unskilled_melee",
            "A melee defender needs the score of the melee skill declared this round, or the "
            "Unskilled Melee score.",
            RULE_MELEE,
        )
    if form == "paranormal" and s["current_willpower"] is None:
        raise refuse(
            "current_willpower",
            "A paranormal attack is read on the victim's current Willpower.",
            RULE_PARANORMAL,
        )
    if s["mass_armor"]:
        if s["defender_kind"] != "troops":
            raise refuse("mass_armor", "The mass-armor modifier is for NPC troops only.", RULE_MASS_ARMOR)
        if s["troop_armor_rating"] is None:
            raise refuse(
                "troop_armor_rating", "Give the troops' Armor Rating (helmets left out).", RULE_MASS_ARMOR
            )


def _clamped(column: int, reasons: list[Reason]) -> int:
    if column > HIGHEST_COLUMN:
        reasons.append(Reason(f"read as column {HIGHEST_COLUMN}, the highest", HIGHEST_COLUMN, RULE_LIMITS))
        return HIGHEST_COLUMN
    if column < LOWEST_COLUMN:
        reasons.append(Reason(f"read as column {LOWEST_COLUMN}, the lowest", LOWEST_COLUMN, RULE_LIMITS))
        return LOWEST_COLUMN
    return column


def mass_armor_modifier(armor_rating: int, shield: str | None = None) -> int:
    """Troops' modifier to the 1d10 defense roll against Missiles A: AR 10-15 +1, 16-25 +2,
    26-59 +3; a small shield adds 5 to the AR, a large 10 (play §21.4, L1903-1912). AR 60 and
    more is armored infantry, outside this system (play §21.3): 0."""
    rating = armor_rating + (SHIELDS[shield]["mass_armor_ar"] if shield else 0)
    for low, high, modifier in MASS_ARMOR_MODIFIERS:
        if low <= rating <= high:
            return modifier
    return 0


def defense_column(situation: Any, settings: dict[str, Any] | None = None) -> DefenseColumn:
    """The defense column of one attack and the reasons that set and moved it (play §4).

    Order: the base column (melee skill declared, Unskilled Melee, surprised, entangled; missile
    1d10 + Luck spent + troops' armor modifier; paranormal: current Willpower), then the shifts
    (shield, Advanced Self-Defense, Florentine), then the limits 1 and 10. A surprised or
    entangled melee defender is on column 1 outright: he takes no action, so no shift applies.
    """
    s = check_situation(situation)
    options = _options(settings)
    reasons: list[Reason] = []
    if s["helpless"] and s["form"] in ("melee", "missile"):
        reasons.append(Reason("helpless defender: hit without a roll", None, RULE_HELPLESS))
        return DefenseColumn(None, tuple(reasons), automatic_hit=True)
    if s["form"] == "paranormal":
        column = action_table.column_for_score(s["current_willpower"])
        reasons.append(
            Reason(f"current Willpower {s['current_willpower']}: column {column}", column, RULE_PARANORMAL)
        )
        return DefenseColumn(column, tuple(reasons))  # shields never help against talents (L1576)
    if s["form"] == "melee":
        column, fixed = _melee_base(s, reasons)
        if fixed:
            return DefenseColumn(column, tuple(reasons))
        column = _shield_shift(s, column, reasons, options)
        column = _melee_skill_shifts(s, column, reasons)
        return DefenseColumn(_clamped(column, reasons), tuple(reasons))
    return _missile(s, reasons, options)


def _melee_base(s: dict[str, Any], reasons: list[Reason]) -> tuple[int, bool]:
    if s["surprised"]:
        reasons.append(Reason(f"surprised: column {SURPRISED_COLUMN}", SURPRISED_COLUMN, RULE_SURPRISE))
        return SURPRISED_COLUMN, True
    if s["entangled"]:
        reasons.append(Reason(f"entangled in a net: column {ENTANGLED_COLUMN}", ENTANGLED_COLUMN, RULE_NET))
        return ENTANGLED_COLUMN, True
    if s["declared_skill_score"] is not None:
        column = action_table.column_for_score(s["declared_skill_score"])
        reasons.append(
            Reason(f"declared melee skill {s['declared_skill_score']}: column {column}", column, RULE_MELEE)
        )
        return column, False
    column = action_table.column_for_score(s["unskilled_melee"])
    reasons.append(Reason(f"Unskilled Melee {s['unskilled_melee']}: column {column}", column, RULE_MELEE))
    return column, False


def _shield_shift(s: dict[str, Any], column: int, reasons: list[Reason], options: dict[str, Any]) -> int:
    shield = s["shield"]
    if not shield:
        return column
    if s["form"] == "missile":
        if s["missile_class"] == "firearm":
            reasons.append(Reason(f"{shield} shield: no help against a firearm", column, RULE_SHIELD))
            return column
        if s["missile_class"] == "catastrophe" or not options["shields_against_missiles"]:
            reasons.append(Reason(f"{shield} shield: not counted against this missile", column, RULE_SHIELD))
            return column
        if s["mass_armor"]:
            return column  # the shield is already in the troops' Armor Rating (§21.4)
    if s["attack_number"] > SHIELD_ATTACKS_PER_ROUND:
        reasons.append(
            Reason(
                f"{shield} shield: attack {s['attack_number']} this round, shields cover the first "
                f"{SHIELD_ATTACKS_PER_ROUND}",
                column,
                RULE_SHIELD,
            )
        )
        return column
    shift = SHIELDS[shield]["shift"]
    reasons.append(Reason(f"{shield} shield +{shift}: column {column + shift}", column + shift, RULE_SHIELD))
    return column + shift


def _melee_skill_shifts(s: dict[str, Any], column: int, reasons: list[Reason]) -> int:
    if s["defender_advanced_self_defense"]:
        if s["attacker_advanced_self_defense"]:
            reasons.append(Reason("Advanced Self-Defense on both sides: no shift", column, RULE_ASD))
        else:
            column += 1
            reasons.append(Reason(f"defender's Advanced Self-Defense +1: column {column}", column, RULE_ASD))
    if s["attacker_florentine"]:
        if s["defender_florentine"]:
            reasons.append(Reason("Florentine style on both sides: no shift", column, RULE_FLORENTINE))
        else:
            column -= 1
            reasons.append(
                Reason(f"attacker fights Florentine style -1: column {column}", column, RULE_FLORENTINE)
            )
    return column


def _missile(s: dict[str, Any], reasons: list[Reason], options: dict[str, Any]) -> DefenseColumn:
    die = s["defense_die"]
    if die is None:
        raise refuse("defense_die", "A missile defense needs the defender's 1d10 (1 to 10).", RULE_MISSILE)
    if s["surprised"]:
        reasons.append(Reason("surprised: still rolls 1d10 against missiles", None, RULE_SURPRISE))
    column = die
    reasons.append(Reason(f"defense roll 1d10 = {die}", column, RULE_MISSILE))
    if s["luck_spent"]:
        column += s["luck_spent"]
        reasons.append(
            Reason(f"Luck spent +{s['luck_spent']} (lost for good, hit or miss): {column}", column, RULE_LUCK)
        )
    if s["mass_armor"]:
        if s["missile_class"] != "missiles_a":
            reasons.append(Reason("troop armor modifier: only against Missiles A", column, RULE_MASS_ARMOR))
        else:
            rating = s["troop_armor_rating"]
            modifier = mass_armor_modifier(rating, s["shield"])
            if rating >= ARMORED_INFANTRY_AR:
                reasons.append(
                    Reason(f"AR {rating} is armored infantry: no modifier", column, RULE_MASS_ARMOR)
                )
            else:
                column += modifier
                with_shield = f" with {s['shield']} shield" if s["shield"] else ""
                reasons.append(
                    Reason(
                        f"troop armor AR {rating}{with_shield} +{modifier}: {column}", column, RULE_MASS_ARMOR
                    )
                )
    column = _clamped(column, reasons)  # "10 maximum" before any shift (§29 ambiguity 18)
    column = _clamped(_shield_shift(s, column, reasons, options), reasons)
    return DefenseColumn(column, tuple(reasons), defense_die=die, luck_spent=s["luck_spent"])


def helpless_letter(settings: dict[str, Any] | None = None) -> str:
    """The result an attack on a helpless defender gets (campaign setting, §29 ambiguity 10)."""
    letter = _options(settings)["helpless_defender_result"]
    if not is_one_of(letter, SEVERITY_LETTERS):
        raise refuse(
            "helpless_defender_result", f"Choose one of {', '.join(SEVERITY_LETTERS)}.", RULE_HELPLESS
        )
    return str(letter)


# -- the attack roll and its damage ------------------------------------------------------------------
@dataclass(frozen=True)
class Damage:
    """Stamina lost and wound boxes to mark for one result (play §5.2-§5.3, §16)."""

    stamina: int
    wounds: int
    faces: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"stamina": self.stamina, "wounds": self.wounds, "faces": list(self.faces)}


def damage_dice(letter: str) -> int:
    """How many d10 a result letter rolls for Stamina (S 1, L 1, M 2, H 3, C 3)."""
    if not is_one_of(letter, DAMAGE_DICE):
        raise refuse("letter", f"A damage result is one of {', '.join(SEVERITY_LETTERS)}, not {letter!r}.")
    return DAMAGE_DICE[letter][0]


def damage(letter: str, key: str, faces: tuple[int, ...] | list[int]) -> Damage:
    """The Stamina loss (from the d10 faces, 0 read as 10) and wounds of a result on a key."""
    if key not in DAMAGE_KEYS:
        raise refuse("results_key", f"Damage is read on the {' or '.join(DAMAGE_KEYS)} key.", RULE_DAMAGE)
    count, multiplier = DAMAGE_DICE[letter] if is_one_of(letter, DAMAGE_DICE) else (None, None)
    if count is None or multiplier is None:
        raise refuse("letter", f"A damage result is one of {', '.join(SEVERITY_LETTERS)}, not {letter!r}.")
    faces = tuple(faces)
    if len(faces) != count or not all(
        isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 10 for f in faces
    ):
        raise refuse("faces", f"{letter} needs {count} d10 read 1-10.", RULE_DAMAGE)
    scratch = 2 if faces[0] >= SCRATCH_HIGH_FROM else 1
    stamina = scratch if letter == "S" else sum(faces) * multiplier
    return Damage(stamina, int(RESULTS_KEYS[key][letter]["wounds"]), faces)


@dataclass(frozen=True)
class AttackOutcome:
    """One attack read on the table: the column and why, the roll, the result, the damage."""

    strike_number: int
    results_key: str
    defense: DefenseColumn
    roll: int | None
    hit: bool
    margin: int | None = None
    row: str | None = None
    code: str | None = None
    letter: str | None = None
    knockdown: bool = False
    result_name: str | None = None
    damage: Damage | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        return {
            "strike_number": self.strike_number,
            "results_key": self.results_key,
            "defense": self.defense.as_dict(),
            "column": self.defense.column,
            "roll": self.roll,
            "hit": self.hit,
            "margin": self.margin,
            "row": self.row,
            "code": self.code,
            "letter": self.letter,
            "knockdown": self.knockdown,
            "result_name": self.result_name,
            "damage": self.damage.as_dict() if self.damage else None,
            "notes": list(self.notes),
        }


def resolve_attack(
    strike_number: int,
    roll: int | None,
    defense: DefenseColumn,
    results_key: str,
    damage_faces: tuple[int, ...] | list[int] | None = None,
    settings: dict[str, Any] | None = None,
) -> AttackOutcome:
    """Read an attack: a specific check of the strike number on the defense column (play §2.2,
    §11 step 5), the code on the Armed or Unarmed key (§5.2-§5.3), the Stamina and wounds from
    ``damage_faces`` (as many d10 as ``damage_dice(letter)``; None reads no damage yet)."""
    if results_key not in DAMAGE_KEYS:
        raise refuse("results_key", f"An attack is read on the {' or '.join(DAMAGE_KEYS)} key.", RULE_DAMAGE)
    if isinstance(strike_number, bool) or not isinstance(strike_number, int):
        raise refuse("strike_number", "The strike number is a whole number.", RULE_DAMAGE)
    if defense.automatic_hit:
        letter = helpless_letter(settings)
        hurt = damage(letter, results_key, damage_faces) if damage_faces is not None else None
        return AttackOutcome(
            strike_number,
            results_key,
            defense,
            None,
            True,
            code=letter,
            letter=letter,
            result_name=RESULTS_KEYS[results_key][letter]["name"],
            damage=hurt,
            notes=("no roll: a helpless defender is always hit",),
        )
    if defense.column is None:
        raise refuse("defense_column", "This attack has no defense column.", RULE_COLUMN)
    check = action_table.specific_check(strike_number, roll, defense.column, results_key)  # type: ignore[arg-type]
    if not check.success:
        notes = ("Luck spent is lost all the same",) if defense.luck_spent else ()
        return AttackOutcome(strike_number, results_key, defense, roll, False, notes=notes)
    assert check.letter is not None
    hurt = damage(check.letter, results_key, damage_faces) if damage_faces is not None else None
    return AttackOutcome(
        strike_number,
        results_key,
        defense,
        roll,
        True,
        margin=check.margin,
        row=check.row,
        code=check.code,
        letter=check.letter,
        knockdown=check.knockdown,
        result_name=check.name,
        damage=hurt,
    )


def roll_attack(
    situation: Any,
    strike_number: int,
    results_key: str,
    rng: random.Random,
    settings: dict[str, Any] | None = None,
) -> AttackOutcome:
    """Roll one attack from start to end: the defender's 1d10 for a missile (unless the
    situation gives it), the percent roll, and on a hit the damage dice."""
    s = dict(situation) if isinstance(situation, dict) else situation
    if (
        isinstance(s, dict)
        and s.get("form") == "missile"
        and not s.get("helpless")
        and s.get("defense_die") is None
    ):
        s["defense_die"] = d10(rng).total
    defense = defense_column(s, settings)
    roll = None if defense.automatic_hit else percent(rng).total
    outcome = resolve_attack(strike_number, roll, defense, results_key, None, settings)
    if not outcome.hit or outcome.letter is None:
        return outcome
    faces = d10(rng, damage_dice(outcome.letter)).faces
    return resolve_attack(strike_number, roll, defense, results_key, faces, settings)
