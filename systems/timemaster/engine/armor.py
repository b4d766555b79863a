"""Armor at the table: where a hit lands, whether it gets through the armor there, and what the
defender takes (timemaster-play.md §19, §11 called shots; seed L1477-1584, L978-990).

Pure functions over plain values, so the attack flow (``systems/timemaster/attacks.py``) and the
tests call the same rule:

* ``hit_location(roll)`` reads the Hit Location Chart (§19, L1489-1504);
* ``covering(armor, location)`` names the armor worn over a location (the book gives no coverage:
  ``docs/rulings-timemaster-combat.md`` ruling 1);
* ``armor_test(...)`` tests one piece: immunity type, firearms, unarmed blows, the attacker's
  penetration bonus, Stamina lost >= AR (§19, L1504, L1506-1533, L1539-1552);
* ``armor_outcome(...)`` applies it all to one hit: bare or crumpled locations take full damage,
  head hits always cost Stamina and a partial helmet rolls 01-50 / 51-00 (L1562-1566), a
  penetrated piece crumples for that location (L1535-1537), Knockdown still applies (L1504);
* ``called_result(...)`` turns a called shot into the location and severity a C gives (§11,
  L978-984, L1568-1570).

Seed lines (L...) are of ../shared/seeds/002_02af72a61b7d5f0b.txt.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from characters.systems.base import refuse

from .play_tables import SEVERITY_LETTERS
from .tables import ARMOR

RULE_LOCATION = "timemaster-play.md §19 Hit Location chart (L1485, L1489-1504)"
RULE_PENETRATION = "timemaster-play.md §19 (L1504-1508, L1539-1552)"
RULE_IMMUNITY = "timemaster-play.md §19 General armor guide (L1510-1533)"
RULE_UNARMED = "timemaster-play.md §19 (L1504)"
RULE_CRUMPLED = "timemaster-play.md §19 crumpled armor (L1535-1537)"
RULE_HEAD = "timemaster-play.md §19 hits to the head (L1562-1566)"
RULE_COVERAGE = "docs/rulings-timemaster-combat.md ruling 1 (§19 gives no coverage, L1485)"
RULE_CALLED = "timemaster-play.md §11 called shots (L978-984), §19 (L1485, L1568-1570)"
RULE_KNOCKOUT = "timemaster-play.md §11, §15 (L1403); timemaster-characters.md Blackjack (L2695)"
RULE_KILL = "timemaster-play.md §11 helpless defenders (L986-990)"
RULE_INTO_MELEE = "timemaster-play.md §13.5 firing into melee (L1068-1072, L1127-1131), §29 ambiguity 20"
INTENDED_UP_TO = 50  # 01-50 the intended target, 51-00 someone else in the melee (L1127)


def into_melee(roll: int, granted_target: bool = False) -> tuple[bool, str]:
    """A hit fired into a melee: (the intended target was hit, why). A called "hit my target"
    granted on a C lands on him (L1131); otherwise 01-50 is him, 51-00 someone else (L1127)."""
    if granted_target:
        return True, "into the melee: the called target, granted by the C"
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 100:
        raise refuse("roll", "The into-melee roll is a percent from 1 to 100.", RULE_INTO_MELEE)
    if roll <= INTENDED_UP_TO:
        return True, f"into the melee: roll {roll} (01-{INTENDED_UP_TO}), the intended target"
    return False, f"into the melee: roll {roll} ({INTENDED_UP_TO + 1}-00), someone else is hit (the GM picks)"


#: The Hit Location Chart: (lowest roll, highest roll, key, label) (§19, L1489-1504).
HIT_LOCATIONS: tuple[tuple[int, int, str, str], ...] = (
    (1, 9, "head", "head"),
    (10, 27, "upper_torso", "upper torso"),
    (28, 44, "abdomen", "abdomen/lower back"),
    (45, 53, "right_leg", "right leg"),
    (54, 62, "left_leg", "left leg"),
    (63, 71, "right_arm", "right arm"),
    (72, 80, "left_arm", "left arm"),
    (81, 85, "right_hand", "right hand"),
    (86, 90, "left_hand", "left hand"),
    (91, 95, "right_foot", "right foot"),
    (96, 100, "left_foot", "left foot"),
)
LOCATIONS: tuple[str, ...] = tuple(key for _l, _h, key, _label in HIT_LOCATIONS)
LOCATION_LABELS: dict[str, str] = {key: label for _l, _h, key, label in HIT_LOCATIONS}
#: The arms and hands: a wound there makes a weapon hand check (§16, L1554-1560).
WEAPON_LIMBS = ("right_arm", "left_arm", "right_hand", "left_hand")

#: What each armor covers when the GM does not say (ruling 1): a helmet the head, a vest the
#: torso, the other body armors torso, arms and legs, the 7192 body suit everything with the
#: face bare (L3721), which is read like a partial helmet on the head.
_BODY = ("upper_torso", "abdomen", "right_arm", "left_arm", "right_leg", "left_leg")
ARMOR_COVERS: dict[str, tuple[str, ...]] = {
    "leather": _BODY,
    "studded_leather": _BODY,
    "mail": _BODY,
    "metal_plates": _BODY,
    "helmet": ("head",),
    "bulletproof_vest": ("upper_torso", "abdomen"),
    "body_suit": LOCATIONS,
}
#: Armor that leaves part of the head bare unless the GM says the helmet is closed (L1564, L3721).
PARTIAL_ON_HEAD = ("helmet", "body_suit")
HELMET_BARE_UP_TO = 50  # 01-50 the bare part, 51-00 the helmet (L1564-1566)

#: How the attack meets armor (§19): the hand-held weapon and the thrown missile take the
#: penetration bonus (L1539-1543); a sling, a short bow, any other fired missile (longbow,
#: crossbow, blow gun), a powder firearm and a beam weapon do not; unarmed blows never get through.
ATTACK_KINDS = ("melee_weapon", "unarmed", "thrown", "sling", "short_bow", "fired", "firearm", "beam")
ATTACK_KIND_LABELS = {
    "melee_weapon": "a melee weapon",
    "unarmed": "an unarmed blow",
    "thrown": "a thrown missile",
    "sling": "a sling",
    "short_bow": "a short bow",
    "fired": "a fired missile",
    "firearm": "a firearm",
    "beam": "a beam weapon",
}
BONUS_KINDS = ("melee_weapon", "thrown")
#: What each immunity type withstands whatever the Stamina (L1523-1531).
IMMUNE_TO: dict[str, tuple[str, ...]] = {
    "A": ("sling",),
    "B": ("sling", "short_bow", "thrown"),
    "C": ("sling", "short_bow", "thrown", "fired", "firearm"),
}
#: Firearms go through every armor but type C (L1533); a beam weapon is a firearm too (ruling 3).
FIREARMS = ("firearm", "beam")
CALLABLE_SEVERITIES = SEVERITY_LETTERS
KNOCKOUT_SKILLS = ("boxing", "blackjack")


def _location(value: Any, field_name: str = "location") -> str:
    if value not in LOCATIONS:
        raise refuse(field_name, f"A hit location is one of: {', '.join(LOCATIONS)}.", RULE_LOCATION)
    return str(value)


RULE_COVER_LOCATION = "timemaster-play.md §19 note to the GM (L1558): hit location against cover"


def behind_cover(location: str, covered: Any, roll: int | None = None) -> tuple[bool, str]:
    """The CM's option of L1558, hit location in missile fire: the "behind cover" modifier is not
    taken; a hit whose location lies behind the cover misses. ``covered`` names the locations the
    cover hides (the GM's, from what the target hides behind). (missed, the log's words)."""
    if location not in LOCATION_LABELS:
        raise refuse("location", "No such hit location.", RULE_COVER_LOCATION)
    if not isinstance(covered, (list, tuple)) or not all(c in LOCATION_LABELS for c in covered):
        raise refuse("covered_locations", "Name the hit locations the cover hides.", RULE_COVER_LOCATION)
    where = LOCATION_LABELS[location] + (f" (location roll {roll})" if roll is not None else "")
    if location in covered:
        return True, f"{where} is behind the cover: the shot misses"
    return False, f"{where} is not behind the cover"


def hit_location(roll: int) -> str:
    """The location a percent roll (1-100, 100 read for 00) hits on the chart (§19, L1489-1504)."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 100:
        raise refuse("location_roll", "A hit location roll is a percent from 1 to 100.", RULE_LOCATION)
    for low, high, key, _label in HIT_LOCATIONS:
        if low <= roll <= high:
            return key
    raise AssertionError("the chart covers 1-100")  # pragma: no cover


def check_armor(armor: Any) -> list[str]:
    """The armor keys worn, refused by name when one is unknown."""
    if armor is None:
        return []
    if not isinstance(armor, list | tuple) or not all(isinstance(a, str) and a in ARMOR for a in armor):
        raise refuse("armor", f"Armor is chosen from: {', '.join(ARMOR)}.", RULE_IMMUNITY)
    return list(dict.fromkeys(armor))


def covering(armor: list[str], location: str, covers: dict[str, Any] | None = None) -> list[str]:
    """The pieces worn over a location: the GM's ``covers`` (armor key -> locations) where given,
    else the usual coverage (ruling 1)."""
    location = _location(location)
    out = []
    for key in check_armor(armor):
        where = (covers or {}).get(key, ARMOR_COVERS[key])
        if location in where:
            out.append(key)
    return out


def armor_test(
    stamina: int, armor_key: str, attack_kind: str, penetration_bonus: int = 0
) -> tuple[bool, str]:
    """Does a hit that rolled ``stamina`` get through one piece? (penetrates, why) (§19).

    Unarmed blows never do (L1504). An immunity type withstands its classes whatever the roll
    (L1523-1531). Firearms go through A and B without a test (L1533). Anything else penetrates
    when the Stamina, plus the attacker's bonus for a melee weapon or a thrown missile, is at
    least the AR (L1506-1508, L1539-1543)."""
    if attack_kind not in ATTACK_KINDS:
        raise refuse("attack_kind", f"The attack is one of: {', '.join(ATTACK_KINDS)}.", RULE_PENETRATION)
    if armor_key not in ARMOR:
        raise refuse("armor", f"Armor is chosen from: {', '.join(ARMOR)}.", RULE_IMMUNITY)
    if isinstance(stamina, bool) or not isinstance(stamina, int) or stamina < 0:
        raise refuse("stamina", "Stamina lost is a whole number, 0 or more.", RULE_PENETRATION)
    if isinstance(penetration_bonus, bool) or not isinstance(penetration_bonus, int) or penetration_bonus < 0:
        raise refuse(
            "penetration_bonus", "The penetration bonus is a whole number, 0 or more.", RULE_PENETRATION
        )
    piece = ARMOR[armor_key]
    name, rating, immunity = piece["name"], piece["ar"], piece["immunity"]
    what = ATTACK_KIND_LABELS[attack_kind]
    if attack_kind == "unarmed":
        return False, f"{name} stops {what}"
    if attack_kind in IMMUNE_TO[immunity]:
        return False, f"{name} (type {immunity}) withstands {what}"
    if attack_kind == "firearm" or (attack_kind == "beam" and immunity != "C"):
        return True, f"{what} goes through {name} (type {immunity})"
    bonus = penetration_bonus if attack_kind in BONUS_KINDS else 0
    total = stamina + bonus
    sum_text = f"{stamina} + bonus {bonus} = {total}" if bonus else f"{stamina}"
    if total >= rating:
        return True, f"{sum_text} ≥ AR {rating}: through the {name.lower()}"
    return False, f"{sum_text} < AR {rating}: the {name.lower()} holds"


@dataclass(frozen=True)
class ArmorOutcome:
    """What one hit does once armor is counted: where, what the defender takes, and why."""

    location: str | None
    stamina: int
    wounds: int
    reasons: tuple[str, ...] = ()
    penetrated: bool | None = None
    crumples: str | None = None
    helmet_roll: int | None = None
    location_roll: int | None = None
    called: bool = False
    rules: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["reasons"] = list(self.reasons)
        data["rules"] = list(self.rules)
        data["location_label"] = LOCATION_LABELS.get(self.location or "")
        return data

    def summary(self) -> str:
        return "; ".join(self.reasons)


def armor_outcome(
    stamina: int,
    wounds: int,
    location: str,
    armor: list[str] | None,
    attack_kind: str,
    *,
    penetration_bonus: int = 0,
    crumpled: list[str] | None = None,
    helmet_roll: int | None = None,
    closed_helmet: bool = False,
    covers: dict[str, Any] | None = None,
    called: bool = False,
    location_roll: int | None = None,
    joint: bool = False,
) -> ArmorOutcome:
    """The Stamina and wounds a hit of ``stamina``/``wounds`` does at ``location`` (§19).

    * A bare location, or one whose armor is crumpled, takes it all (L1487, L1535-1537); so does
      a called shot at a joint of the armor, granted (``joint`` and ``called``, L1568-1570).
    * The head: Stamina always applies (L1562). Under armor that leaves part of the head bare
      (an open helmet, the body suit's face) unless ``closed_helmet``: ``helmet_roll`` 1-50 is
      the bare part, full damage; 51-100 hits the armor (L1564-1566). On the armor: penetrated,
      full damage; held, Stamina but no wounds.
    * Elsewhere: every piece over the location must be penetrated (ruling 2); then full damage
      and the armor there crumples; else no effect at all (L1508).
    """
    location = _location(location)
    if crumpled is not None and not all(c in LOCATIONS for c in crumpled):
        raise refuse("crumpled", f"Crumpled locations are among: {', '.join(LOCATIONS)}.", RULE_CRUMPLED)
    where = LOCATION_LABELS[location]
    head = "called " if called else ""
    first = f"{head}{where}" + (f" (location roll {location_roll})" if location_roll is not None else "")
    reasons = [first]
    rules = [RULE_CALLED if called else RULE_LOCATION]
    pieces = covering(armor or [], location, covers)
    keep: dict[str, Any] = {"location": location, "called": called, "location_roll": location_roll}
    if not pieces:
        reasons.append("no armor there: full damage")
        return ArmorOutcome(
            stamina=stamina, wounds=wounds, reasons=tuple(reasons), rules=tuple(rules), **keep
        )
    names = ", ".join(ARMOR[p]["name"].lower() for p in pieces)
    if joint and called:
        reasons.append(f"between the joints of the {names}: full damage")
        return ArmorOutcome(
            stamina=stamina, wounds=wounds, reasons=tuple(reasons), rules=tuple(rules), **keep
        )
    if location in (crumpled or []):
        reasons.append(f"the {names} there is crumpled: full damage")
        rules.append(RULE_CRUMPLED)
        return ArmorOutcome(
            stamina=stamina, wounds=wounds, reasons=tuple(reasons), rules=tuple(rules), **keep
        )
    if location == "head" and not closed_helmet and any(p in PARTIAL_ON_HEAD for p in pieces):
        if isinstance(helmet_roll, bool) or not isinstance(helmet_roll, int) or not 1 <= helmet_roll <= 100:
            raise refuse("helmet_roll", "A partial helmet needs a percent roll from 1 to 100.", RULE_HEAD)
        rules.append(RULE_HEAD)
        if helmet_roll <= HELMET_BARE_UP_TO:
            reasons.append(f"helmet roll {helmet_roll} (01-{HELMET_BARE_UP_TO}): the bare part, full damage")
            return ArmorOutcome(
                stamina=stamina,
                wounds=wounds,
                reasons=tuple(reasons),
                helmet_roll=helmet_roll,
                rules=tuple(rules),
                **keep,
            )
        reasons.append(f"helmet roll {helmet_roll} ({HELMET_BARE_UP_TO + 1}-00): on the {names}")
    results = [armor_test(stamina, piece, attack_kind, penetration_bonus) for piece in pieces]
    reasons += [why for _ok, why in results]
    rules.append(RULE_UNARMED if attack_kind == "unarmed" else RULE_PENETRATION)
    through = all(ok for ok, _why in results)
    roll_kept = helmet_roll if location == "head" and not closed_helmet else None
    if through:
        reasons.append(f"penetrated: full damage, the {names} there is crumpled from now on")
        rules.append(RULE_CRUMPLED)
        return ArmorOutcome(
            stamina=stamina,
            wounds=wounds,
            reasons=tuple(reasons),
            penetrated=True,
            crumples=location,
            helmet_roll=roll_kept,
            rules=tuple(rules),
            **keep,
        )
    if location == "head":
        reasons.append("a head hit: the Stamina still counts, no wounds")
        if RULE_HEAD not in rules:
            rules.append(RULE_HEAD)
        return ArmorOutcome(
            stamina=stamina,
            wounds=0,
            reasons=tuple(reasons),
            penetrated=False,
            helmet_roll=roll_kept,
            rules=tuple(rules),
            **keep,
        )
    reasons.append("not penetrated: no effect")
    return ArmorOutcome(
        stamina=0,
        wounds=0,
        reasons=tuple(reasons),
        penetrated=False,
        helmet_roll=roll_kept,
        rules=tuple(rules),
        **keep,
    )


# -- called shots (play §11, L978-990, L1403, L1568-1570) -----------------------------------------
@dataclass(frozen=True)
class CalledShot:
    """A called shot as declared: a location, a severity, or a knockout or kill."""

    location: str | None = None
    severity: str | None = None
    knockout: bool = False
    kill: bool = False
    joint: bool = False
    target: bool = False

    def declared(self) -> bool:
        return bool(self.location or self.severity or self.knockout or self.kill or self.target)

    def text(self) -> str:
        parts = []
        if self.location:
            parts.append(LOCATION_LABELS[self.location])
        if self.severity:
            parts.append(f'"{self.severity}"')
        if self.knockout:
            parts.append("knockout")
        if self.kill:
            parts.append("kill")
        if self.joint:
            parts.append("at an armor joint")
        if self.target:
            parts.append("the intended target")
        return "called " + ", ".join(parts)


def check_called(
    called: Any,
    *,
    form: str,
    results_key: str = "armed",
    attacker_skill: str | None = None,
    helpless: bool = False,
    surprised_or_from_behind: bool = False,
) -> CalledShot:
    """A called shot, refused by name where the rules forbid it (§11, §15, §28 rule 7):
    never with a talent (L984); a knockout only in melee with Boxing or Blackjack (L1403), the
    blackjack's only on a surprised defender or one whose back is turned (L2695); a kill only on
    a helpless defender (L988-990)."""
    if called is None:
        return CalledShot()
    if not isinstance(called, dict):
        raise refuse("called", "A called shot is an object.", RULE_CALLED)
    location = called.get("location") or None
    severity = called.get("severity") or None
    knockout = bool(called.get("knockout"))
    kill = bool(called.get("kill"))
    joint = bool(called.get("joint"))
    target = bool(called.get("target"))
    shot = CalledShot(
        _location(location, "called_location") if location else None,
        severity,
        knockout,
        kill,
        joint,
        target,
    )
    if joint and (form != "melee" or not location):
        raise refuse("called_joint", "A joint of the armor is called in melee, with a location.", RULE_CALLED)
    if not shot.declared():
        return shot
    if severity is not None and severity not in CALLABLE_SEVERITIES:
        raise refuse(
            "called_severity", f"A called severity is one of {', '.join(CALLABLE_SEVERITIES)}.", RULE_CALLED
        )
    if form == "paranormal":
        raise refuse("called_location", "No called shots with a paranormal talent.", RULE_CALLED)
    if knockout and kill:
        raise refuse("called_knockout", "Call a knockout or a kill, not both.", RULE_CALLED)
    if kill and not helpless:
        raise refuse("called_kill", "A kill can be called only on a helpless defender.", RULE_KILL)
    if knockout:
        if form != "melee" or attacker_skill not in KNOCKOUT_SKILLS:
            raise refuse(
                "called_knockout",
                "A knockout can be called only in melee, with the Boxing or Blackjack skill.",
                RULE_KNOCKOUT,
            )
        if attacker_skill == "blackjack" and not (surprised_or_from_behind or helpless):
            raise refuse(
                "called_knockout",
                "A blackjack knocks out only a surprised defender or one whose back is turned.",
                RULE_KNOCKOUT,
            )
    return shot


def called_result(code: str, shot: CalledShot) -> dict[str, Any]:
    """What a result code makes of a called shot (§11, L978-984): a C (or CK) grants it, the
    called severity replacing C; any other hit lands normally, at a random location (L1485)."""
    if not shot.declared():
        return {"granted": False, "letter": None, "location": None, "text": ""}
    granted = code.startswith("C")
    if not granted:
        return {
            "granted": False,
            "letter": None,
            "location": None,
            "text": f"{shot.text()}: not a C, the hit lands as rolled",
        }
    letter = shot.severity or "C"
    return {
        "granted": True,
        "letter": letter,
        "location": shot.location,
        "text": f"{shot.text()}: C grants it" + (f', read as "{letter}"' if letter != "C" else ""),
    }
