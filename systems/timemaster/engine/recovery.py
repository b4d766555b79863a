"""An agent's body over time: damage, unconsciousness, death and the Luck check against it, the
critical state, rest, bedrest and Medical care, sleep, and what current Stamina allows.

Each change is a pure function ``build -> (new build, events)`` and a ledger entry kind
(``ENTRY_SHAPES``, folded by ``advancement.apply_entry``), so the GM can audit and revert it.
Dice the rules give the CM in secret (minutes unconscious, days in a coma) are never part of an
entry: the Django side rolls them as secret rolls; the entries carry only what everyone sees.

timemaster-play.md §12 (Willpower and sleep), §16 (damage, wounds, death, critical wounds),
§16.1 (Luck against death, Luck spent), §17 (recovery and healing), §29 ambiguities 3, 11-13,
37; timemaster-characters.md §9.2-§9.4 and skills 46 (Distance Running) and 60 (Swimming).
Seed lines (L...) are of ../shared/seeds/002_02af72a61b7d5f0b.txt.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from characters.systems.base import Build, SettingSpec, refuse

from . import action_table
from .armor import LOCATIONS
from .condition import STATE_FLAGS, condition_of, use_talent, with_condition
from .formulas import is_critically_wounded, stamina_recovery_rate, wound_count
from .play_tables import (
    COMA_DAYS_DIE,
    HEALING_PER_DAY,
    HEALING_PER_DAY_MEDICAL,
    MAX_LUCK_PER_MISSILE_DEFENSE,
    RUN_REST_HOURS,
    STAMINA_ON_COMING_TO,
    SWIM_LUCK_CHECKS_AT_HOURS,
    SWIM_MILES_PER_COLUMN,
    UNCONSCIOUS_MINUTES_DIE,
    UNKNOWN_LIMIT,
    UNSKILLED_RUN_MINUTES,
    UNSKILLED_SWIM_MILES,
    WILLPOWER_PER_HOUR_OF_SLEEP,
)
from .tables import ARMOR, CRITICAL_WOUND_BOXES_LEFT, SKILL_LEVELS

RULE_DAMAGE = "timemaster-play.md §16 (L1411-1419)"
RULE_UNCONSCIOUS = "timemaster-play.md §16 (L1425-1427), §29 ambiguities 12-13"
RULE_DEATH = "timemaster-play.md §16, §16.1 (L625, L1429), §29 ambiguity 37"
RULE_CRITICAL = "timemaster-play.md §16 (L1431-1435), §29 ambiguity 11"
RULE_LUCK_SPENT = "timemaster-play.md §16.1 (L627, L947)"
RULE_REST = "timemaster-play.md §17, §3.5 (L1445-1451)"
RULE_HEALING = "timemaster-play.md §17 (L1453, L3183, L3187), §29 ambiguity 3"
RULE_SLEEP = "timemaster-play.md §12 (L3297)"
RULE_RUNNING = "timemaster-characters.md §4 skill 46 (L3007-3009)"
RULE_SWIMMING = "timemaster-characters.md §4 skill 60 (L3235-3243)"
RULE_CRUMPLED = "timemaster-play.md §19 crumpled armor (L1535-1537)"

FATAL_CAUSES = ("killing_shot", "fall_100_ft", "poison", "spacecraft", "other")
CRITICAL_TREATMENTS = ("medical", "ignore_pain")

PLAY_SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        name="critical_check_willpower",
        label="The critically wounded agent's Willpower check is made against",
        kind="choice",
        default="current",
        choices=("current", "ability"),
        meaning="Which Willpower a critically wounded agent tests to keep going.",
        help="The rules do not say which Willpower; the reading is current Willpower, as for a "
        "doctor treating himself.",
        rule="timemaster-play.md §16, §29 ambiguity 11",
    ),
)


# -- small helpers -----------------------------------------------------------------------------------
def _count(value: Any, field: str, low: int = 0, what: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= UNKNOWN_LIMIT:
        raise refuse(
            field,
            f"{what or field.replace('_', ' ').capitalize()} must be a whole number "
            f"from {low} to {UNKNOWN_LIMIT}.",
        )
    return value


def _abilities(build: Build) -> dict[str, int]:
    abilities = build.get("abilities")
    if not isinstance(abilities, dict):
        raise refuse("abilities", "This agent has no Abilities.")
    return abilities


def _alive(condition: dict[str, Any], doing: str) -> None:
    if condition["dead"]:
        raise refuse("condition.dead", f"This agent is dead; {doing} no longer applies.", RULE_DEATH)
    if condition["death_check_due"]:
        raise refuse(
            "condition.death_check_due",
            f"The Luck check against death comes first; then {doing}.",
            RULE_DEATH,
        )


def _boxes(build: Build) -> int:
    return wound_count(_abilities(build)["STA"])


# -- damage and death (play §16) ---------------------------------------------------------------------
def take_damage(
    build: Build, stamina: int, wounds: int, willpower: int = 0, crumple: str | None = None
) -> tuple[Build, dict[str, Any]]:
    """Stamina off current Stamina (never below 0), wound boxes marked (never more than the
    boxes), Willpower off current Willpower (Demoralize, §5.3). At 0 Stamina the agent passes
    out; with no box left he dies unless his Luck check succeeds (the check is due now); at 3 or
    fewer boxes left he is critically wounded and makes a Willpower check at once. ``crumple``
    names the hit location where this hit penetrated the armor: worthless there from now on
    (§19, L1535-1537)."""
    stamina = _count(stamina, "stamina", what="Stamina lost")
    wounds = _count(wounds, "wounds", what="Wounds")
    willpower = _count(willpower, "willpower", what="Willpower lost")
    c = condition_of(build)
    _alive(c, "damage")
    boxes = _boxes(build)
    sta = _abilities(build)["STA"]
    was_critical = is_critically_wounded(sta, c["wounds_marked"])
    marked = min(boxes, c["wounds_marked"] + wounds)
    current = max(0, c["current_stamina"] - stamina)
    events: dict[str, Any] = {
        "stamina_lost": c["current_stamina"] - current,
        "stamina_beyond_zero": stamina - (c["current_stamina"] - current),
        "wounds_marked": marked - c["wounds_marked"],
        "wounds_beyond_boxes": c["wounds_marked"] + wounds - marked,
        "willpower_lost": min(willpower, c["current_willpower"]),
        "knocked_out": current == 0 and not c["unconscious"],
        "death_check_due": marked == boxes and boxes > 0 and (wounds > 0),
        "became_critical": False,
    }
    changes: dict[str, Any] = {
        "current_stamina": current,
        "wounds_marked": marked,
        "current_willpower": c["current_willpower"] - events["willpower_lost"],
    }
    if crumple is not None:
        if crumple not in LOCATIONS:
            raise refuse(
                "crumple", f"Armor crumples at a hit location: {', '.join(LOCATIONS)}.", RULE_CRUMPLED
            )
        if crumple not in c["crumpled"]:
            changes["crumpled"] = [*c["crumpled"], crumple]
        events["crumpled"] = crumple
    if current == 0:
        changes["unconscious"] = True
    if events["death_check_due"]:
        changes["death_check_due"] = True
    elif not was_critical and is_critically_wounded(sta, marked):
        events["became_critical"] = True
    return with_condition(build, **changes), events


def fatal_blow(build: Build, cause: str) -> tuple[Build, dict[str, Any]]:
    """A rule says the agent dies (a killing called shot on a helpless agent, a fall of 100 ft or
    more, poison, a destroyed spacecraft): every box is marked and the Luck check is due (§16.1)."""
    if cause not in FATAL_CAUSES:
        raise refuse("cause", f"The cause is one of: {', '.join(FATAL_CAUSES)}.", RULE_DEATH)
    c = condition_of(build)
    _alive(c, "a fatal blow")
    new = with_condition(
        build, wounds_marked=_boxes(build), current_stamina=0, unconscious=True, death_check_due=True
    )
    return new, {"cause": cause, "death_check_due": True}


def wear_armor(build: Build, armor: Any) -> tuple[Build, dict[str, Any]]:
    """The armor the agent wears from now on (keys of the armor guide, §19, L1510-1533); a fresh
    suit is whole again, so the crumpled locations are cleared (L1535-1537)."""
    if not isinstance(armor, list | tuple) or not all(isinstance(a, str) and a in ARMOR for a in armor):
        raise refuse("armor", f"Armor is chosen from: {', '.join(ARMOR)}.", RULE_CRUMPLED)
    worn = list(dict.fromkeys(armor))
    return with_condition(build, armor=worn, crumpled=[]), {"armor": worn}


def luck_check_against_death(build: Build, roll: int) -> tuple[Build, dict[str, Any]]:
    """The PC's general Luck check when no box is left (§16, §16.1, L1429): on a success he falls
    into a coma, one box unmarked, current Stamina 0, unconscious for 1d10 days the CM rolls in
    secret (he heals normally and cannot be woken); on a failure he is dead."""
    c = condition_of(build)
    if c["dead"]:
        raise refuse("condition.dead", "This agent is already dead.", RULE_DEATH)
    if not c["death_check_due"]:
        raise refuse(
            "death_check", "No Luck check against death is due: a wound box is still free.", RULE_DEATH
        )
    luck = _abilities(build)["LUCK"]
    result = action_table.general_check(luck, roll)
    if result.success:
        new = with_condition(
            build,
            death_check_due=False,
            coma=True,
            unconscious=True,
            current_stamina=0,
            wounds_marked=_boxes(build) - 1,
        )
        return new, {"luck": luck, "roll": roll, "survived": True, "coma_days_die": COMA_DAYS_DIE}
    new = with_condition(build, death_check_due=False, dead=True, unconscious=False, coma=False)
    return new, {"luck": luck, "roll": roll, "survived": False}


def spend_luck(build: Build, points: int) -> tuple[Build, dict[str, Any]]:
    """Luck a PC spends on a missile defense: 1 or 2 points off the LUCK score for good, hit or
    miss (§16.1, L627, L947); never more than he has."""
    if (
        isinstance(points, bool)
        or not isinstance(points, int)
        or not 1 <= points <= MAX_LUCK_PER_MISSILE_DEFENSE
    ):
        raise refuse(
            "points",
            f"Luck spent on one missile attack is 1 or {MAX_LUCK_PER_MISSILE_DEFENSE} points.",
            RULE_LUCK_SPENT,
        )
    luck = _abilities(build)["LUCK"]
    if points > luck:
        raise refuse("points", f"This agent has only {luck} Luck left.", RULE_LUCK_SPENT)
    new = copy.deepcopy(build)
    new["abilities"]["LUCK"] = luck - points
    return new, {"luck_before": luck, "luck_after": luck - points}


def come_to(build: Build) -> tuple[Build, dict[str, Any]]:
    """Waking (cold water, a shake, the minutes or the coma's days run out): +1 current Stamina
    (§16, L1427; §29 ambiguity 13: also when waking by himself)."""
    c = condition_of(build)
    _alive(c, "coming to")
    if not c["unconscious"]:
        raise refuse("condition.unconscious", "This agent is not unconscious.", RULE_UNCONSCIOUS)
    sta = _abilities(build)["STA"]
    current = min(sta, c["current_stamina"] + STAMINA_ON_COMING_TO)
    new = with_condition(build, unconscious=False, coma=False, current_stamina=current)
    return new, {"current_stamina": current, "from_coma": c["coma"]}


def treat_critical(build: Build, how: str) -> tuple[Build, dict[str, Any]]:
    """Two rounds of Medical treatment or a successful Ignore Pain end the per-round Willpower
    checks of a critically wounded agent (§16, L1435)."""
    if how not in CRITICAL_TREATMENTS:
        raise refuse("how", f"Treated by one of: {', '.join(CRITICAL_TREATMENTS)}.", RULE_CRITICAL)
    c = condition_of(build)
    _alive(c, "treatment")
    if not is_critically_wounded(_abilities(build)["STA"], c["wounds_marked"]):
        raise refuse("condition.wounds_marked", "This agent is not critically wounded.", RULE_CRITICAL)
    return with_condition(build, critical_treated=True), {"how": how}


# -- recovery over time (play §12, §17) --------------------------------------------------------------
def rest(build: Build, rounds: int) -> tuple[Build, dict[str, Any]]:
    """Rounds of rest (no action, not attacked): each gives back the recovery rate, the column of
    the original STA, never above STA (§17, §3.5). No recovery while unconscious (§29 ambiguity 12)."""
    rounds = _count(rounds, "rounds", low=1, what="Rounds of rest")
    c = condition_of(build)
    _alive(c, "rest")
    if c["unconscious"]:
        raise refuse(
            "condition.unconscious",
            "An unconscious agent does not recover Stamina by rest; wake him first.",
            RULE_UNCONSCIOUS,
        )
    sta = _abilities(build)["STA"]
    rate = stamina_recovery_rate(sta)
    wanted = c["current_stamina"] + rate * rounds
    current = min(sta, wanted)
    new = with_condition(build, current_stamina=current)
    return new, {"rate": rate, "recovered": current - c["current_stamina"], "beyond_cap": wanted - current}


def heal(build: Build, days: int, medical_days: int = 0) -> tuple[Build, dict[str, Any]]:
    """Days of bedrest: 2 boxes a day, 4 on a day of care by a character with Medical skill who
    passed his general check (§17, §29 ambiguity 3: "instead of one" read as doubling 2 to 4).
    Never below 0 boxes; an agent in a coma heals normally (L1429)."""
    days = _count(days, "days", low=1, what="Days of bedrest")
    medical_days = _count(medical_days, "medical_days", what="Days of Medical care")
    if medical_days > days:
        raise refuse(
            "medical_days",
            f"Medical care on {medical_days} days, but only {days} days of bedrest.",
            RULE_HEALING,
        )
    c = condition_of(build)
    _alive(c, "healing")
    wanted = HEALING_PER_DAY * (days - medical_days) + HEALING_PER_DAY_MEDICAL * medical_days
    healed = min(wanted, c["wounds_marked"])
    marked = c["wounds_marked"] - healed
    changes: dict[str, Any] = {"wounds_marked": marked}
    if not is_critically_wounded(_abilities(build)["STA"], marked):
        changes["critical_treated"] = False  # the state is over; a new one needs new treatment
    return with_condition(build, **changes), {"healed": healed, "beyond_cap": wanted - healed}


def sleep(build: Build, hours: int) -> tuple[Build, dict[str, Any]]:
    """Hours of uninterrupted sleep: +10 current Willpower each, never above WPR (§12, L3297)."""
    hours = _count(hours, "hours", low=1, what="Hours of sleep")
    c = condition_of(build)
    if c["dead"]:
        raise refuse("condition.dead", "This agent is dead.", RULE_DEATH)
    wpr = _abilities(build)["WPR"]
    wanted = c["current_willpower"] + WILLPOWER_PER_HOUR_OF_SLEEP * hours
    current = min(wpr, wanted)
    new = with_condition(build, current_willpower=current)
    return new, {"recovered": current - c["current_willpower"], "beyond_cap": wanted - current}


def pay_for_talent(build: Build, talent: str, extra_willpower: int = 0) -> tuple[Build, dict[str, Any]]:
    """A talent's Willpower cost (and up to 20 extra points), paid in the declaration step whether
    the talent works or not; never below 21 (timemaster-play.md §12, L3291-3297;
    timemaster-characters.md §10 rule 17)."""
    c = condition_of(build)
    _alive(c, "using a talent")
    if c["unconscious"]:
        raise refuse("condition.unconscious", "An unconscious agent uses no talent.", RULE_UNCONSCIOUS)
    if not isinstance(talent, str):
        raise refuse("talent", "Name the talent.")
    new = use_talent(build, talent, extra_willpower)
    paid = c["current_willpower"] - condition_of(new)["current_willpower"]
    return new, {"willpower_paid": paid}


# -- read-outs ---------------------------------------------------------------------------------------
def critical_state(build: Build, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """Whether the agent is critically wounded and must make the Willpower check before each
    declaration step, and the score of that check (campaign setting, §29 ambiguity 11)."""
    c = condition_of(build)
    abilities = _abilities(build)
    critical = is_critically_wounded(abilities["STA"], c["wounds_marked"]) and not c["dead"]
    which = (settings if isinstance(settings, dict) else {}).get("critical_check_willpower", "current")
    score = abilities["WPR"] if which == "ability" else c["current_willpower"]
    return {
        "critically_wounded": critical,
        "boxes_left": _boxes(build) - c["wounds_marked"],
        "critical_at_or_below": CRITICAL_WOUND_BOXES_LEFT,
        "treated": c["critical_treated"],
        "checks_due": critical and not c["critical_treated"] and not c["unconscious"],
        "check_score": score,
        "check_against": which,
    }


def distance_running(build: Build) -> dict[str, Any]:
    """Distance Running on current Stamina: score = current STA + the skill level's modifier; its
    column gives both miles per hour and hours before 8 hours' rest. Without the skill: at most
    30 minutes of running, then 8 hours' sleep (characters §4 skill 46, L3007-3009)."""
    c = condition_of(build)
    held = (build.get("skills") or {}).get("distance_running")
    if not isinstance(held, dict) or held.get("level") not in SKILL_LEVELS:
        return {"skilled": False, "max_minutes": UNSKILLED_RUN_MINUTES, "rest_hours": RUN_REST_HOURS}
    score = c["current_stamina"] + SKILL_LEVELS[held["level"]]
    column = action_table.column_for_score(score)
    return {"skilled": True, "score": score, "mph": column, "hours": column, "rest_hours": RUN_REST_HOURS}


def swimming(build: Build) -> dict[str, Any]:
    """Swimming on current Stamina: 3 x the column of current STA miles per 24 hours, Luck checks
    at 24 and 48 hours; without the skill one mile, then rest (characters §4 skill 60, L3235-3243)."""
    c = condition_of(build)
    held = (build.get("skills") or {}).get("swimming")
    if not isinstance(held, dict):
        return {"skilled": False, "max_miles": UNSKILLED_SWIM_MILES}
    column = action_table.column_for_score(c["current_stamina"])
    return {
        "skilled": True,
        "column": column,
        "miles_per_day": SWIM_MILES_PER_COLUMN * column,
        "luck_checks_at_hours": list(SWIM_LUCK_CHECKS_AT_HOURS),
    }


def condition_summary(build: Build, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page and the sheet show of the agent's body now."""
    c = condition_of(build)
    abilities = _abilities(build)
    boxes = _boxes(build)
    if c["dead"]:
        status = "dead"
    elif c["death_check_due"]:
        status = "dying"
    elif c["coma"]:
        status = "coma"
    elif c["unconscious"]:
        status = "unconscious"
    else:
        status = "conscious"
    return {
        "status": status,
        "current_stamina": c["current_stamina"],
        "stamina": abilities["STA"],
        "current_willpower": c["current_willpower"],
        "willpower": abilities["WPR"],
        "luck": abilities["LUCK"],
        "wounds": boxes,
        "wounds_marked": c["wounds_marked"],
        "wounds_left": boxes - c["wounds_marked"],
        "recovery_rate": stamina_recovery_rate(abilities["STA"]),
        "critical": critical_state(build, settings),
        "distance_running": distance_running(build),
        "swimming": swimming(build),
        **{flag: c[flag] for flag in STATE_FLAGS},
        "crumpled": c["crumpled"],
        "unconscious_minutes_die": UNCONSCIOUS_MINUTES_DIE,
    }


def is_dead(build: Build) -> bool | None:
    """True once the Luck check against death failed; None for a build no play entry touched."""
    stored = build.get("condition")
    if not isinstance(stored, dict) or "dead" not in stored:
        return None
    return bool(stored["dead"])


# -- ledger entries ----------------------------------------------------------------------------------
ENTRY_SHAPES: dict[str, str] = {
    "damage_taken": '{"stamina": int, "wounds": int, "willpower": int (optional), '
    '"crumple": hit location (optional), "source": str (optional)}',
    "fatal_blow": '{"cause": one of FATAL_CAUSES}',
    "armor_worn": '{"armor": [armor key, ...]} (clears crumpled locations)',
    "death_check": '{"roll": 1..100} (a general check vs LUCK)',
    "luck_spent": '{"points": 1|2}',
    "came_to": "{}",
    "critical_treated": '{"how": "medical"|"ignore_pain"}',
    "stamina_rested": '{"rounds": int}',
    "wounds_healed": '{"days": int, "medical_days": int}',
    "willpower_slept": '{"hours": int}',
    "talent_used": '{"talent": key, "extra_willpower": 0..20}',
}


def _fold(
    function: Callable[..., tuple[Build, dict[str, Any]]], *names: str, **defaults: Any
) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    """A ledger handler: call ``function`` with the entry's fields and write its build in place."""

    def handler(build: dict[str, Any], entry: dict[str, Any]) -> None:
        arguments = [entry.get(name, defaults.get(name)) for name in names]
        new, _events = function(build, *arguments)
        build.clear()
        build.update(new)

    return handler


HANDLERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "damage_taken": _fold(take_damage, "stamina", "wounds", "willpower", "crumple", willpower=0),
    "fatal_blow": _fold(fatal_blow, "cause"),
    "armor_worn": _fold(wear_armor, "armor"),
    "death_check": _fold(luck_check_against_death, "roll"),
    "luck_spent": _fold(spend_luck, "points"),
    "came_to": _fold(come_to),
    "critical_treated": _fold(treat_critical, "how"),
    "stamina_rested": _fold(rest, "rounds"),
    "wounds_healed": _fold(heal, "days", "medical_days", medical_days=0),
    "willpower_slept": _fold(sleep, "hours"),
    "talent_used": _fold(pay_for_talent, "talent", "extra_willpower", extra_willpower=0),
}
FUNCTIONS: dict[str, tuple[Callable[..., tuple[Build, dict[str, Any]]], tuple[str, ...]]] = {
    "damage_taken": (take_damage, ("stamina", "wounds", "willpower", "crumple")),
    "fatal_blow": (fatal_blow, ("cause",)),
    "armor_worn": (wear_armor, ("armor",)),
    "death_check": (luck_check_against_death, ("roll",)),
    "luck_spent": (spend_luck, ("points",)),
    "came_to": (come_to, ()),
    "critical_treated": (treat_critical, ("how",)),
    "stamina_rested": (rest, ("rounds",)),
    "wounds_healed": (heal, ("days", "medical_days")),
    "willpower_slept": (sleep, ("hours",)),
    "talent_used": (pay_for_talent, ("talent", "extra_willpower")),
}
ENTRY_KINDS: tuple[str, ...] = tuple(ENTRY_SHAPES)
OPTIONAL_FIELDS = ("willpower", "medical_days", "extra_willpower", "crumple")  # default 0 (crumple: none)


def refuse_an_empty_rest(kind: str, events: dict[str, Any]) -> None:
    """Rest at full Stamina gives back nothing (§17: current STA never above the score, L460): a
    new entry of it is refused, so the ledger gets no revision that changes nothing. Only new
    entries are checked; a fold of entries already kept never refuses one."""
    if kind == "stamina_rested" and events.get("recovered") == 0:
        raise refuse(
            "rounds",
            "Nothing to recover: current Stamina is already at the Stamina score, so rest changes nothing.",
            RULE_REST,
        )


def play_entry(build: Build, kind: str, **fields: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A checked play entry and the events it causes (what the service rolls or shows next)."""
    if kind not in FUNCTIONS:
        raise refuse("kind", f"Unknown play entry {kind!r}; one of: {', '.join(ENTRY_KINDS)}.")
    function, names = FUNCTIONS[kind]
    unknown = sorted(set(fields) - set(names) - {"source"})
    if unknown:
        raise refuse(unknown[0], f"{kind} takes: {', '.join(names) or 'nothing'}.")
    # a missing required value reaches the function as None, which refuses it by name
    arguments = {name: fields.get(name) for name in names if name in fields or name not in OPTIONAL_FIELDS}
    _new, events = function(build, **arguments)
    refuse_an_empty_rest(kind, events)
    entry = {"kind": kind, **arguments}
    source = fields.get("source")
    if source:
        if not isinstance(source, str):
            raise refuse("source", "The source is text.")
        entry["source"] = source.strip()[:200]
    return entry, events
