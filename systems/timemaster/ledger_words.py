"""TIMEMASTER's advancement history in sentences a player reads ("Awarded 385 Success Points for The
Lost Dispatch."), from an entry's kind and payload (issue 30, finding 10).

Registered as SystemApp.ledger_sentence; the history page keeps the payload one click away. Only
the payload and the mission's title are read: never the entry's own reason (a correction's reason
can be the GM's alone). An award says the agent's own points and nothing of the mission's pool:
the pool is the GM's (docs/secrets.md, "What an award reveals"), even where an entry written before
2026-12-07 still carries it.
"""

from __future__ import annotations

from typing import Any

from systems.timemaster.engine.advancement import skill_name
from systems.timemaster.engine.advancement_tables import PUNISHMENTS
from systems.timemaster.engine.tables import ABILITY_NAMES, ARMOR, TALENTS
from systems.timemaster.engine.years import year_label

#: Why a regular award is what it is, as the end of a sentence (significance.close_mission).
WHY_LESS = {
    "demoted": "the agent is below the standing held before a demotion",
    "timemaster_10": "a Timemaster/10 earns no more",
    "mission_failed": "the mission was not completed as briefed",
    "history_changed": "history changed",
    "no_share": "nothing was left to share",
}


def _points(amount: Any) -> str:
    return f"{amount} Success Point{'' if amount == 1 else 's'}"


def _skill(key: Any) -> str:
    try:
        return skill_name(str(key))
    except Exception:  # noqa: BLE001 - a key the chart no longer has still gets a readable line
        return str(key).replace("_", " ")


def _talent(key: Any) -> str:
    talent = TALENTS.get(str(key))
    return talent["name"] if talent else str(key).replace("_", " ")


def _standing(value: Any) -> str:
    if isinstance(value, dict) and "rank" in value:
        return f"{value['rank']}/{value.get('grade', 0)}"
    return "?"


def _spent(payload: dict[str, Any]) -> str:
    purchase, cost = payload.get("purchase"), payload.get("cost")
    if purchase == "new_skill":
        what = f"a new skill, {_skill(payload.get('skill'))}"
    elif purchase == "new_talent":
        what = f"a new talent, {_talent(payload.get('talent'))}"
    elif purchase == "ability_point":
        ability = str(payload.get("ability", ""))
        what = f"a point of {ABILITY_NAMES.get(ability, ability)}"
    elif purchase == "specialist_to_expert":
        what = f"{_skill(payload.get('skill'))} from Specialist to Expert"
    elif purchase == "expert_to_master":
        what = f"{_skill(payload.get('skill'))} from Expert to Master"
    else:
        what = str(purchase or "a purchase").replace("_", " ")
    return f"Spent {_points(cost)} on {what}." if cost is not None else f"Bought {what}."


def sentence(kind: str, payload: dict[str, Any], mission: str) -> str:
    """One entry as a sentence; "" for a kind this module does not know (the page shows its name)."""
    p = payload or {}
    for_mission = f" for {mission}" if mission else ""
    if kind == "sp_awarded" and p.get("type") == "bonus":
        return f"Awarded {_points(p.get('amount'))} as a bonus."
    if kind == "sp_awarded":
        amount = p.get("amount", 0)
        if not amount:
            why = WHY_LESS.get(str(p.get("reason")), "")
            return f"No Success Points{for_mission}" + (f": {why}." if why else ".")
        text = f"Awarded {_points(amount)}{for_mission}"
        if p.get("forgone"):
            why = WHY_LESS.get(str(p.get("reason")), "")
            text += f"; {p['forgone']} forgone" + (f" because {why}" if why else "")
        return text + "."
    if kind == "sp_spent":
        return _spent(p)
    if kind == "grade_advanced":
        return f"Advanced one grade{' after ' + mission if mission else ''}."
    if kind == "mission_started":
        return f"Sent on {mission}." if mission else "Sent on a mission."
    if kind == "adventure_closed":
        return f"{mission} is over: the adventure is closed." if mission else "An adventure is closed."
    if kind == "times_visited_added":
        start, end = p.get("start_year"), p.get("end_year")
        years = ""
        if isinstance(start, int):
            years = year_label(start) if end in (None, start) else f"{year_label(start)} to {year_label(end)}"
        where = ", ".join(str(x) for x in (p.get("place"), years) if x)
        return (
            f"Visited {where or 'another time'}"
            + (f" in Parallel {p['parallel']}" if p.get("parallel") else "")
            + "."
        )
    if kind == "free_choice_granted":
        return (
            "Offered a free pick of a skill or talent"
            + (f" on reaching {p['rank']}" if p.get("rank") else "")
            + "."
        )
    if kind == "free_choice_taken":
        name = _talent(p.get("talent")) if p.get("choice") == "talent" else _skill(p.get("skill"))
        return f"Took {name} as a free pick."
    if kind == "regulation_violation":
        punishment = PUNISHMENTS.get(str(p.get("punishment")), {}).get("label", "")
        text = f"Broke Regulation {p.get('regulation')}{for_mission}"
        return text + (f": {punishment[:1].lower() + punishment[1:]}." if punishment else ".")
    if kind == "demotion":
        return f"Demoted from {_standing(p.get('standing_before'))} to {_standing(p.get('standing_after'))}."
    if kind == "banishment":
        return "Banished from the Time Corps."
    if kind == "reversal":
        return f"Entry #{p.get('reverses')} was reversed." if p.get("reverses") else "An entry was reversed."
    return _condition_sentence(kind, p)


#: A fatal blow's cause in words (systems.timemaster.engine.recovery.FATAL_CAUSES).
FATAL_CAUSE_WORDS = {
    "killing_shot": "a killing shot",
    "fall_100_ft": "a fall of 100 feet or more",
    "poison": "poison",
    "spacecraft": "a spacecraft's weapon",
    "other": "a fatal blow",
}


def _condition_sentence(kind: str, p: dict[str, Any]) -> str:
    """The play entries of an agent's condition (systems.timemaster.engine.recovery.ENTRY_SHAPES)."""
    if kind == "damage_taken":
        parts = [f"{p.get('stamina', 0)} Stamina"]
        if p.get("wounds"):
            parts.append(f"{p['wounds']} wound{'' if p['wounds'] == 1 else 's'}")
        if p.get("willpower"):
            parts.append(f"{p['willpower']} Willpower")
        source = f" from {p['source']}" if p.get("source") else ""
        return f"Took {' and '.join(parts)} of damage{source}."
    if kind == "fatal_blow":
        return f"Struck down by {FATAL_CAUSE_WORDS.get(str(p.get('cause')), 'a fatal blow')}."
    if kind == "armor_worn":
        worn = [ARMOR[a]["name"].lower() for a in p.get("armor") or [] if a in ARMOR]
        return f"Wears {', '.join(worn)}." if worn else "Wears no armor."
    if kind == "death_check":
        return f"Made the Luck check against death (rolled {p.get('roll')})."
    if kind == "luck_spent":
        return f"Spent {p.get('points')} Luck."
    if kind == "came_to":
        return "Came to."
    if kind == "critical_treated":
        how = "with medical care" if p.get("how") == "medical" else "by ignoring the pain"
        return f"Kept going through a critical wound {how}."
    if kind == "stamina_rested":
        return f"Rested {p.get('rounds')} round{'' if p.get('rounds') == 1 else 's'} to get Stamina back."
    if kind == "wounds_healed":
        days, medical = p.get("days", 0), p.get("medical_days", 0)
        care = f", {medical} of them with medical care" if medical else ""
        return f"Healed in bed for {days} day{'' if days == 1 else 's'}{care}."
    if kind == "willpower_slept":
        return f"Slept {p.get('hours')} hour{'' if p.get('hours') == 1 else 's'} to get Willpower back."
    if kind == "talent_used":
        extra = f", with {p['extra_willpower']} extra Willpower" if p.get("extra_willpower") else ""
        return f"Used {_talent(p.get('talent'))}{extra}."
    return ""
