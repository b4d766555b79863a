"""Special results of a hit: the Knockdown's DEX check, a wound to the weapon arm or hand, holds
and strangling (timemaster-play.md §5.2-§5.3, §15, §16; seed L4077, L4097, L1334-1346,
L1554-1560, L2661; §29 ambiguity 40: the K's DEX check is a general check).

Pure: the rolls are passed in. Each function gives what happens and a line for the log.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from characters.systems.base import refuse

RULE_KNOCKDOWN = "timemaster-play.md §5.2-§5.3, §16 (L4077, L4097), §29 ambiguity 40"
RULE_HAND = "timemaster-play.md §16 hits to an arm or hand (L1554-1560)"
RULE_HOLD = "timemaster-play.md §15 unskilled hold (L1334-1342)"
RULE_STRANGLE = "timemaster-play.md §15 strangling (L1344-1346); characters Wrestling (L2661)"
HOLD_SKILLS = ("wrestling",)  # a Wrestler may call a strangle (L2661); anyone may call a hold


def _percent(roll: Any, field: str) -> int:
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 100:
        raise refuse(field, "A general check is a percent roll from 1 to 100.")
    return roll


def _score(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise refuse(field, "A score is a whole number, 0 or more.")
    return value


@dataclass(frozen=True)
class Check:
    """A general check (roll <= score) and what it means."""

    name: str
    score: int
    roll: int
    passed: bool
    text: str
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def knockdown(
    results_key: str, dexterity: int | None = None, roll: int | None = None
) -> tuple[str, Check | None]:
    """A K: down and 5 ft back, the round's remaining actions lost (L4077, L4097); on the Armed
    key a general DEX check keeps what is held in the hands (L4077, §29 ambiguity 40)."""
    effect = "knocked down and 5 ft back, the other actions of this round lost"
    if results_key != "armed":
        return effect, None
    dex, die = _score(dexterity, "dexterity"), _percent(roll, "roll")
    passed = die <= dex
    outcome = "keeps what is held" if passed else "drops what is held"
    return effect, Check("DEX", dex, die, passed, f"DEX check {die} vs {dex}: {outcome}", RULE_KNOCKDOWN)


def weapon_hand(letter: str, results_key: str, dexterity: int, willpower: int, roll: int) -> Check:
    """A wound to an arm or hand that holds a weapon (L1554-1560): short of a crippling (armed C)
    wound, a general DEX check or the weapon drops; a crippling one, a general WPR check or the
    limb is useless (again each round until treated, Ignore Pain, or a box healed)."""
    die = _percent(roll, "roll")
    if letter == "C" and results_key == "armed":
        wpr = _score(willpower, "willpower")
        passed = die <= wpr
        outcome = "can still use the limb" if passed else "cannot use the limb (check again each round)"
        return Check(
            "WPR", wpr, die, passed, f"crippled limb: WPR check {die} vs {wpr}: {outcome}", RULE_HAND
        )
    dex = _score(dexterity, "dexterity")
    passed = die <= dex
    outcome = "keeps the weapon" if passed else "drops the weapon"
    return Check("DEX", dex, die, passed, f"weapon hand hit: DEX check {die} vs {dex}: {outcome}", RULE_HAND)


def hold_damage(round_number: int, die: int) -> int:
    """Stamina a hold takes in a round after the first: 1d10 (L1340). The first round's C damage
    is the attack's own."""
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 2:
        raise refuse("round", "A hold's later rounds are round 2 and on; round 1 is the attack.", RULE_HOLD)
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 10:
        raise refuse("die", "A d10 reads 1 to 10.", RULE_HOLD)
    return die


def strangle_check(current_stamina: int, roll: int) -> Check:
    """End of every strangling round: a general check vs current Stamina; a failure knocks the
    defender out, current Stamina 0 (L1346)."""
    sta, die = _score(current_stamina, "current_stamina"), _percent(roll, "roll")
    passed = die <= sta
    outcome = "stays conscious" if passed else "falls unconscious, current Stamina 0"
    return Check(
        "current STA",
        sta,
        die,
        passed,
        f"strangle check {die} vs current Stamina {sta}: {outcome}",
        RULE_STRANGLE,
    )


# -- what lasts in a fight: holds, strangles, knockdowns (play §15, §5.2-§5.3) ------------------------
RULE_DOWN = "timemaster-play.md §5.2-§5.3 (L4077, L4097), §15 melee modifiers (L1360, L1369-1373)"
RULE_HOLD_BROKEN = "timemaster-play.md §15 unskilled hold (L1338-1342)"
STATE_KINDS = ("hold", "strangle", "down")


def _round(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise refuse(field, "A round of the fight is a whole number, 1 or more.")
    return value


def next_hold_round(kind: str, rounds_held: int) -> int:
    """The hold's round a later round resolves: round 1 was the attack that made it (L1340), so
    with ``rounds_held`` rounds resolved the next is ``rounds_held + 1``."""
    if kind not in ("hold", "strangle"):
        raise refuse("kind", "Only a hold or a strangle has later rounds.", RULE_HOLD)
    return _round(rounds_held, "rounds_held") + 1


def state_text(kind: str, since_round: int, rounds_held: int = 1) -> tuple[str, str]:
    """What a lasting state means at the table, and its rule: a hold lasts without a check until
    the held defender wins initiative and hits the holder, or anyone hits the holder (L1338-1342);
    a strangle also checks current Stamina at each round's end (L1346); a knocked-down defender
    loses the rest of that round's actions (L4077, L4097) and stays on the ground until he gets up:
    attacking from the ground is -40, getting up first -20 (L1360, L1369-1373)."""
    since = _round(since_round, "since_round")
    if kind == "down":
        return (
            f"knocked down in round {since}: the rest of that round's actions lost; on the ground "
            "until getting up (an attack from the ground -40, getting up first -20)",
            RULE_DOWN,
        )
    after = next_hold_round(kind, rounds_held)
    what = "strangle (a current-Stamina check at each round's end)" if kind == "strangle" else "hold"
    return (
        f"{what} since round {since}, {rounds_held} round{'s' if rounds_held != 1 else ''} of it "
        f"resolved; next: round {after} of it, 1d10 Stamina; broken when the held one wins "
        "initiative and hits the holder, or anyone hits the holder",
        RULE_STRANGLE if kind == "strangle" else RULE_HOLD,
    )


# -- special damage (play §18, L1455-1475; §29 ambiguities 8 and 9) ----------------------------------
RULE_FIRE = "timemaster-play.md §18 fire and smoke (L1459)"
RULE_FALL = "timemaster-play.md §18 falling (L1461), §29 ambiguity 9"
RULE_CATASTROPHE = "timemaster-play.md §18 catastrophes (L1463-1465), §29 ambiguities 8-9"
RULE_EXPOSURE = "timemaster-play.md §18 exposure (L1467)"
RULE_POISON = "timemaster-play.md §18 poison (L1473-1475)"
WOUNDS_PER_ROUND = {"fire": 3, "smoke": 2}  # L1459
FALL_BASE, FALL_DEADLY_FEET, FALL_SAFE_FEET = 90, 100, 10  # L1461
CATASTROPHE_BASE = 100  # L1463
EXPOSURE_STRIKE, EXPOSURE_COLUMN = 99, 5  # L1467
SPECIAL_KINDS = ("fall", "catastrophe", "fire", "smoke", "exposure", "poison")


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse(field, f"{field.replace('_', ' ').capitalize()} is a whole number from {low} to {high}.")
    return value


def fall(feet: int) -> dict[str, Any]:
    """A fall of more than 10 ft is a missile attack on the faller with SN 90 + feet (he may spend
    Luck); under 100 ft it never does worse than C; 100 ft or more kills, a PC's Luck check against
    death aside (L1461)."""
    feet = _whole(feet, "feet", FALL_SAFE_FEET + 1, 100_000)
    return {
        "strike_number": FALL_BASE + feet,
        "deadly": feet >= FALL_DEADLY_FEET,
        "text": f"a fall of {feet} ft: strike number {FALL_BASE} + {feet} = {FALL_BASE + feet}",
        "rule": RULE_FALL,
    }


def burning(kind: str, rounds: int) -> int:
    """Wounds from fire (3 a round until put out) or smoke (2 a round breathed) (L1459)."""
    if kind not in WOUNDS_PER_ROUND:
        raise refuse("kind", "Fire or smoke.", RULE_FIRE)
    return WOUNDS_PER_ROUND[kind] * _whole(rounds, "rounds", 1, 10_000)


def poison_check(current_stamina: int, roll: int) -> Check:
    """Contact with a poison: a general check vs current Stamina; a failure kills (or does what the
    scenario says); a PC still makes his Luck check against death (L1473-1475)."""
    sta, die = _score(current_stamina, "current_stamina"), _percent(roll, "roll")
    passed = die <= sta
    outcome = "unaffected" if passed else "the poison kills (Luck check against death for an agent)"
    return Check(
        "current STA",
        sta,
        die,
        passed,
        f"poison check {die} vs current Stamina {sta}: {outcome}",
        RULE_POISON,
    )
