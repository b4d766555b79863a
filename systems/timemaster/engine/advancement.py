"""TIMEMASTER advancement: the ledger of Success Points, purchases, rank/grade and punishments.

timemaster-characters.md §6 (advancement), §9.5 (Times Visited), §10 items 19-35, and rulings
1-5 of rules/README.md. ``apply_entry(build, entry)`` folds one ledger entry into a NEW build;
``replay(creation_build, entries)`` folds a whole ledger, honouring reversals. Illegal entries are
refused with a RuleError naming what is wrong. The entry shapes are listed in ENTRY_SHAPES and in
the package README.

Bookkeeping lives in build["state"] (defaults in advancement_tables.STATE_DEFAULTS): the shop
window, which skills were bought or raised after which adventure, missions already awarded,
bonus points per session, offences, the standing held before a demotion, pending free picks.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, cast

from characters.systems.base import RuleError, RuleViolation, entry_kind, is_one_of, refuse, replay_ledger
from characters.systems.base import reversed_ids as base_reversed_ids
from characters.systems.wording import counted, is_are

from . import recovery
from . import regulations as regs
from .advancement_tables import (
    ABILITY_MAX,
    BONUS_SESSIONS_KEPT,
    BONUS_SP_MAX_PER_SESSION,
    BONUS_SP_STEP,
    CORPS_PRESENT_YEAR,
    PURCHASE_LABELS,
    RANK_NAMES,
    REPEATABLE_SKILL,
    SKILL_LEVELS,
    SKILL_RAISES,
    SP_COSTS,
    STATE_DEFAULTS,
    TALENT_CAP,
    UNAGED_FROM_RANK,
)
from .times_visited import check_visit, visit_record

RULE_SP = "timemaster-characters.md §6.1-§6.3, ruling 2"
RULE_SHOP = "timemaster-characters.md §6.4, §10 items 23-31"
RULE_RANK = "timemaster-characters.md §6.5, ruling 1"
RULE_DEMOTION = "timemaster-characters.md §6.6, ruling 3"

# Why a regular award carries the amount it does (see significance.close_mission).
REGULAR_REASONS = ("earned", "demoted", "timemaster_10", "mission_failed", "history_changed", "no_share")

ENTRY_SHAPES: dict[str, str] = {
    "sp_awarded": '{"type": "regular", "mission": id, "amount": int, "forgone": int, "reason": one of '
    'REGULAR_REASONS} or {"type": "bonus", "session": id, "amount": 10..50 step 10, '
    '"demoted_allowed": bool}',
    "sp_spent": '{"purchase": "new_skill"|"new_talent"|"ability_point"|"specialist_to_expert"|'
    '"expert_to_master", "skill"|"talent"|"ability": key, "cost": int, and for a further Historical '
    'Specialty "period": {"start_year": int, "end_year": int}, "cultures": [str, ...]}',
    "grade_advanced": '{"mission": id}',
    "free_choice_granted": '{"rank": str|None, "reason": str}',
    "free_choice_taken": '{"choice": "skill"|"talent", "skill"|"talent": key, "rank": str|None, '
    '"period"/"cultures" as in sp_spent}',
    "regulation_violation": '{"regulation": 1-8, "offence": int, "punishment": str, "mission": id, '
    '"note": str, "judiciary_override": bool, "reason": str}',
    "demotion": '{"ranks": int, "grades": int, "reason": str}',
    "banishment": '{"reason": str}',
    "times_visited_added": '{"parallel": str, "start_year": int, "end_year": int, "mission": id, '
    '"present_year": int, "place": str (optional)}',
    "mission_started": '{"mission": id}',
    "adventure_closed": '{"mission": id}',
    # an agent's condition in play: damage, death, rest, healing, sleep (recovery.py)
    **recovery.ENTRY_SHAPES,
    "reversal": '{"reverses": entry id, "reason": str} (folded by replay only)',
}
ENTRY_KINDS: tuple[str, ...] = tuple(ENTRY_SHAPES)
# A GM may reverse any entry except a reversal (re-enter the entry instead).
REVERSIBLE_KINDS: tuple[str, ...] = tuple(kind for kind in ENTRY_KINDS if kind != "reversal")


# -- catalogues (tables.py belongs to the creation engine; imported lazily) ---------------------
def _tables() -> ModuleType:
    from . import tables

    return tables


def _skill_catalogue() -> dict[str, dict[str, Any]]:
    return cast("dict[str, dict[str, Any]]", _tables().SKILLS)


def _talent_catalogue() -> dict[str, dict[str, Any]]:
    return cast("dict[str, dict[str, Any]]", _tables().TALENTS)


def _ability_codes() -> tuple[str, ...]:
    return tuple(_tables().ABILITY_CODES)


def base_skill_key(key: Any) -> str:
    """The Skills Chart key of a held skill. Every Historical Specialty is its own skill (§4.6): the
    automatic one is "historical_specialty", further ones "historical_specialty_2", "_3", ..."""
    if isinstance(key, str) and key.startswith(REPEATABLE_SKILL):
        return REPEATABLE_SKILL
    chart = getattr(_tables(), "SKILL_ALIASES", {}).get(key, key)
    if chart not in _skill_catalogue():
        raise refuse("skill", f"{key!r} is not a skill on the Skills Chart.", RULE_SHOP)
    return cast(str, chart)


def skill_name(key: str) -> str:
    name = _skill_catalogue()[base_skill_key(key)]["name"]
    suffix = key[len(REPEATABLE_SKILL) :].lstrip("_:") if key.startswith(REPEATABLE_SKILL) else ""
    return f"{name} ({suffix})" if suffix else name


def _next_specialty_key(skills: dict[str, Any]) -> str:
    number = 2
    while f"{REPEATABLE_SKILL}_{number}" in skills:
        number += 1
    return f"{REPEATABLE_SKILL}_{number}"


def _check_new_specialty(build: dict[str, Any], key: str, record: dict[str, Any]) -> None:
    """A further Historical Specialty names its period (at most 100 years) and at most two cultures,
    and differs from those held (§4.6, §10 item 30); the creation engine's check is the one rule."""
    from .skills import check_specialties

    trial = {**build["skills"], key: record}
    problems = [
        v
        for v in check_specialties(trial, build.get("background") or {})
        if v.field.startswith(f"skills.{key}")
    ]
    if problems:
        raise RuleError(problems)


# -- state -------------------------------------------------------------------------------------
def state_of(build: dict[str, Any]) -> dict[str, Any]:
    """The advancement bookkeeping with every default filled in (a fresh copy)."""
    merged = copy.deepcopy(STATE_DEFAULTS)
    merged.update(copy.deepcopy(build.get("state") or {}))
    return merged


def _working_copy(build: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(build)
    new["state"] = state_of(build)
    return _with_defaults(new)


# What a build accumulates over a campaign's life that a spend in the shop neither writes nor
# replaces (_sp_spent touches Success Points, abilities, skills, talents and their state keys).
# A shop trial shares these with the build instead of copying them: shop_offer tries about 80
# purchases, and an agent played for years has a long list of missions, offences and visits.
_GROWN_STATE = (
    "missions_closed",
    "missions_awarded",
    "qualifying_missions",
    "missions_advanced",
    "ranks_rewarded",
    "pending_free_choices",
    "offence_log",
)
_GROWN_BUILD = ("times_visited",)


def _shop_trial_copy(build: dict[str, Any]) -> dict[str, Any]:
    """A working copy for trying one sp_spent entry whose result is thrown away: like
    _working_copy, except that the grown parts above are the build's own objects, not copies."""
    state = build.get("state") or {}
    shared = {id(state[key]): state[key] for key in _GROWN_STATE if key in state}
    shared.update({id(build[key]): build[key] for key in _GROWN_BUILD if key in build})
    new = copy.deepcopy(build, shared)
    merged = copy.deepcopy(STATE_DEFAULTS)
    merged.update(new.get("state") or {})
    new["state"] = merged
    return _with_defaults(new)


def _with_defaults(new: dict[str, Any]) -> dict[str, Any]:
    new.setdefault("success_points", 0)
    new.setdefault("skills", {})
    new.setdefault("talents", [])
    new.setdefault("times_visited", [])
    return new


def _id(entry: dict[str, Any], field: str = "mission", required: bool = True) -> str | None:
    value = entry.get(field)
    if value is None or value == "" or isinstance(value, bool):
        if required:
            raise refuse(field, f"The entry must name its {field}.")
        return None
    return str(value)


def _whole(entry: dict[str, Any], field: str, minimum: int = 0, default: Any = None) -> int:
    value = entry.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise refuse(
            field, f"{field.replace('_', ' ').capitalize()} must be a whole number, {minimum} or more."
        )
    return value


def _text(entry: dict[str, Any], field: str) -> str:
    value = entry.get(field)
    if not isinstance(value, str) or not value.strip():
        raise refuse(field, f"The entry needs a {field}.")
    return value


# -- status ------------------------------------------------------------------------------------
def agent_status(build: dict[str, Any]) -> str:
    """ "banished", "timemaster_10", "demoted" (below the standing held before a demotion) or
    "eligible" for regular Success Points (§6.1, rulings 1 and 3)."""
    if (build.get("state") or {}).get("banished"):
        return "banished"
    if regs.at_top(regs.position_of(build)):
        return "timemaster_10"
    if regs.is_demoted(build):
        return "demoted"
    return "eligible"


def advancement_summary(build: dict[str, Any]) -> dict[str, Any]:
    """Every computed advancement value the sheet and pages show (derive() merges this)."""
    state = state_of(build)
    position = regs.position_of(build)
    mark = state["demoted_from"]
    return {
        "rank_grade": regs.position_label(position),
        "rank_number": position[0] + 1,
        "unaged": position[0] >= RANK_NAMES.index(UNAGED_FROM_RANK),  # §6.5: Lifer and above
        "at_top": regs.at_top(position),
        "status": agent_status(build),
        "demoted": regs.is_demoted(build),
        "demoted_from": regs.rank_grade_label(mark["rank"], mark["grade"]) if mark else None,
        "offences": state["offences"],
        "next_punishment": regs.punishment_preview(build),
        "banished": state["banished"],
        "shop_open": state["shop_open"],
        "adventures_closed": state["adventures_closed"],
        "pending_free_choices": state["pending_free_choices"],
        "sp_earned_regular": state["sp_earned_regular"],
        "sp_earned_bonus": state["sp_earned_bonus"],
        "sp_spent": state["sp_spent"],
        "sp_forgone": state["sp_forgone"],
    }


# -- awards ------------------------------------------------------------------------------------
def _sp_awarded(build: dict[str, Any], entry: dict[str, Any]) -> None:
    kind = entry.get("type")
    if kind == "regular":
        _regular_award(build, entry)
    elif kind == "bonus":
        _bonus_award(build, entry)
    else:
        raise refuse("type", 'A Success Point award is either "regular" or "bonus".', RULE_SP)


def _regular_award(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """One mission's regular points (§6.1, rulings 1-3); close_mission writes these entries."""
    state = build["state"]
    mission = _id(entry)
    amount = _whole(entry, "amount")
    forgone = _whole(entry, "forgone", default=0)
    reason = entry.get("reason", "earned")
    if reason not in REGULAR_REASONS:
        raise refuse("reason", f"Unknown award reason {reason!r}.", RULE_SP)
    if mission in state["missions_awarded"]:
        raise refuse(
            "mission", f"Regular Success Points for mission {mission} were already awarded.", RULE_SP
        )
    status = agent_status(build)
    if reason == "earned":
        if amount <= 0 or forgone:
            raise refuse("amount", "An earned award must be more than 0 with nothing forgone.", RULE_SP)
        if status == "timemaster_10":
            raise refuse("amount", "A Timemaster/10 earns no more Success Points.", RULE_RANK)
        if status == "demoted":
            raise refuse(
                "amount",
                "This agent is below the rank/grade held before a demotion and earns no regular points.",
                RULE_DEMOTION,
            )
    elif reason == "demoted":
        if status != "demoted":
            raise refuse(
                "reason", "This agent is not below a former rank/grade, so nothing is forgone.", RULE_DEMOTION
            )
        if amount or forgone <= 0:
            raise refuse(
                "amount", "A demoted agent is awarded 0; the share goes in 'forgone'.", RULE_DEMOTION
            )
    elif reason == "timemaster_10":
        if status != "timemaster_10":
            raise refuse("reason", "This agent is not Timemaster/10.", RULE_RANK)
        if amount:
            raise refuse("amount", "A Timemaster/10 earns no more Success Points.", RULE_RANK)
    elif amount or forgone:
        raise refuse(
            "amount", "No points are earned when the mission failed, history changed or the share is 0."
        )
    build["success_points"] += amount
    state["sp_earned_regular"] += amount
    state["sp_forgone"] += forgone
    state["missions_awarded"].append(mission)
    if reason in ("earned", "demoted"):
        state["qualifying_missions"].append(mission)


def _bonus_award(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """Bonus points per session: multiples of 10, at most 50 (ruling 2); none at Timemaster/10
    (ruling 1); none to demoted agents unless the campaign allows it (§11 ambiguity 12)."""
    state = build["state"]
    session = _id(entry, "session")
    amount = entry.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0 or amount % BONUS_SP_STEP:
        raise refuse(
            "amount", f"Bonus Success Points come in multiples of {BONUS_SP_STEP}, more than 0.", RULE_SP
        )
    sessions = _bonus_sessions(state)
    already = dict(sessions).get(session, 0)
    if already + amount > BONUS_SP_MAX_PER_SESSION:
        raise refuse(
            "amount",
            f"At most {BONUS_SP_MAX_PER_SESSION} bonus points per session; this agent already has "
            f"{already} for session {session}.",
            RULE_SP,
        )
    status = agent_status(build)
    if status == "timemaster_10":
        raise refuse("amount", "A Timemaster/10 earns no more Success Points.", RULE_RANK)
    if status == "demoted" and not entry.get("demoted_allowed"):
        raise refuse(
            "amount",
            "This agent is below the rank/grade held before a demotion; no bonus points in this campaign.",
            RULE_DEMOTION,
        )
    build["success_points"] += amount
    state["sp_earned_bonus"] += amount
    state["bonus_sessions"] = kept_bonus_sessions(sessions, str(session), already + amount)


def _bonus_sessions(state: dict[str, Any]) -> list[list[Any]]:
    """The remembered per-session bonus totals; a build stored before they were bounded (a map of
    every session, archive format 1) is read as that map, trimmed on this award."""
    if "bonus_by_session" in state:
        old = state.pop("bonus_by_session") or {}
        return [[str(key), value] for key, value in old.items()][-BONUS_SESSIONS_KEPT:]
    return [list(pair) for pair in state.get("bonus_sessions") or []]


def kept_bonus_sessions(sessions: list[list[Any]], session: str, total: int) -> list[list[Any]]:
    """``sessions`` with ``session`` now at ``total`` and moved last, the oldest dropped past
    BONUS_SESSIONS_KEPT: the bonus bookkeeping stays the same size whatever the agent's age."""
    kept = [pair for pair in sessions if pair[0] != session]
    kept.append([session, total])
    return kept[-BONUS_SESSIONS_KEPT:]


def bonus_sessions_of(awards: Iterable[tuple[Any, int]]) -> tuple[dict[str, int], list[list[Any]]]:
    """From the bonus awards a ledger keeps, in order ((session, amount), reversed ones left out):
    every session's total, and the ``bonus_sessions`` the replayed build holds. For upgrading
    builds stored in the old shape (a data migration, the archive's format 1 -> 2 step)."""
    totals: dict[str, int] = {}
    kept: list[list[Any]] = []
    for session, amount in awards:
        key = str(session)
        totals[key] = totals.get(key, 0) + amount
        # as _bonus_award: a session no longer remembered starts again from 0
        kept = kept_bonus_sessions(kept, key, dict(kept).get(key, 0) + amount)
    return totals, kept


# -- rank and grade ----------------------------------------------------------------------------
def _grade_advanced(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """One grade for a mission that earned regular points (or would have, for a demoted agent,
    ruling 3); the tenth step is a new rank, with one free skill or talent the first time each
    rank is reached (§6.5, §11 ambiguity 8)."""
    state = build["state"]
    mission = _id(entry)
    if mission not in state["qualifying_missions"]:
        raise refuse("mission", f"Mission {mission} earned this agent no regular Success Points.", RULE_RANK)
    if mission in state["missions_advanced"]:
        raise refuse("mission", f"Mission {mission} already advanced this agent's grade.", RULE_RANK)
    before = regs.position_of(build)
    after = regs.next_position(before)
    build["rank"], build["grade"] = RANK_NAMES[after[0]], after[1]
    state["missions_advanced"].append(mission)
    new_rank = RANK_NAMES[after[0]]
    if after[0] != before[0] and new_rank not in state["ranks_rewarded"]:
        state["ranks_rewarded"].append(new_rank)
        state["pending_free_choices"].append({"rank": new_rank, "reason": "promotion"})
    regs.clear_demotion_if_regained(build)


def _free_choice_granted(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """A GM grants a free pick outside the automatic one (e.g. on regaining a rank)."""
    rank = entry.get("rank") or build["rank"]
    regs.rank_index(rank)
    build["state"]["pending_free_choices"].append({"rank": rank, "reason": _text(entry, "reason")})


def _free_choice_taken(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """Take a pending free pick: a skill at Specialist or a talent, no cost (§6.5)."""
    pending = build["state"]["pending_free_choices"]
    if not pending:
        raise refuse("choice", "This agent has no free skill or talent to take.", RULE_RANK)
    wanted = entry.get("rank")
    index = next((i for i, p in enumerate(pending) if wanted in (None, p["rank"])), None)
    if index is None:
        raise refuse("rank", f"No free pick is pending for rank {wanted}.", RULE_RANK)
    choice = entry.get("choice")
    if choice == "skill":
        _acquire_skill(build, entry, source="rank")
    elif choice == "talent":
        _acquire_talent(build, entry)
    else:
        raise refuse("choice", 'The free pick is either a "skill" or a "talent".', RULE_RANK)
    pending.pop(index)


# -- purchases ---------------------------------------------------------------------------------
def _acquire_skill(build: dict[str, Any], entry: dict[str, Any], source: str) -> None:
    """A new skill at Specialist (§6.4 note 3), with its prerequisite (§10 item 28)."""
    catalogue = _skill_catalogue()
    key: Any = getattr(_tables(), "SKILL_ALIASES", {}).get(entry.get("skill"), entry.get("skill"))
    chart = key
    if key not in catalogue:
        raise refuse("skill", f"{key!r} is not a skill on the Skills Chart.", RULE_SHOP)
    skills = build["skills"]
    record: dict[str, Any] = {"level": "specialist", "source": source}
    if key == REPEATABLE_SKILL:
        key = _next_specialty_key(skills)
        record["period"] = copy.deepcopy(entry.get("period"))
        record["cultures"] = copy.deepcopy(entry.get("cultures", []))
        _check_new_specialty(build, key, record)
    elif key in skills:
        raise refuse(f"skills.{key}", f"This agent already has {catalogue[key]['name']}.", RULE_SHOP)
    prerequisite = catalogue[chart].get("prerequisite")
    if prerequisite and not any(_level_at_least(skills, k, level) for k, level in prerequisite):
        needs = " or ".join(f"{catalogue[k]['name']} at {level.capitalize()}" for k, level in prerequisite)
        raise refuse(f"skills.{key}", f"{catalogue[chart]['name']} needs {needs} first.", RULE_SHOP)
    skills[key] = record
    build["state"]["skills_acquired_in"][key] = build["state"]["adventures_closed"]


def _level_at_least(skills: dict[str, Any], key: str, level: str) -> bool:
    held = skills.get(key)
    return held is not None and SKILL_LEVELS.index(held["level"]) >= SKILL_LEVELS.index(level)


def _acquire_talent(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """A new human talent, at most eight in all (§5.1, §10 item 18)."""
    catalogue = _talent_catalogue()
    key = entry.get("talent")
    if key not in catalogue:
        raise refuse("talent", f"{key!r} is not a paranormal talent.", RULE_SHOP)
    if catalogue[key].get("demorean"):
        raise refuse(
            "talent", f"{catalogue[key]['name']} is a Demorean talent; agents cannot learn it.", RULE_SHOP
        )
    if key in build["talents"]:
        raise refuse("talents", f"This agent already has {catalogue[key]['name']}.", RULE_SHOP)
    if len(build["talents"]) >= TALENT_CAP:
        raise refuse("talents", f"An agent can hold at most {TALENT_CAP} paranormal talents.", RULE_SHOP)
    build["talents"].append(key)


def _raise_skill(build: dict[str, Any], entry: dict[str, Any], purchase: str) -> None:
    """One level up: not a skill acquired after this same adventure, at most one level per skill
    per adventure, never above Master, never for skills without levels (§6.4 notes 3-4)."""
    state = build["state"]
    key: Any = entry.get("skill")  # a held skill's key once base_skill_key accepts it
    base_skill_key(key)
    held = build["skills"].get(key)
    if held is None:
        raise refuse(f"skills.{key}", f"This agent does not have {skill_name(key)}.", RULE_SHOP)
    if not _skill_catalogue()[base_skill_key(key)].get("has_levels", True):
        raise refuse(f"skills.{key}", f"{skill_name(key)} has no levels to raise.", RULE_SHOP)
    needed, reached = SKILL_RAISES[purchase]
    if held["level"] != needed:
        raise refuse(
            f"skills.{key}",
            f"{skill_name(key)} is at {held['level'].capitalize()}; this purchase raises "
            f"{needed.capitalize()} to {reached.capitalize()}.",
            RULE_SHOP,
        )
    now = state["adventures_closed"]
    if state["skills_acquired_in"].get(key) == now:
        raise refuse(
            f"skills.{key}",
            f"{skill_name(key)} was acquired after this adventure; it can be raised after the next one.",
            RULE_SHOP,
        )
    if state["skills_raised_in"].get(key) == now:
        raise refuse(
            f"skills.{key}", f"{skill_name(key)} already went up a level after this adventure.", RULE_SHOP
        )
    held["level"] = reached
    state["skills_raised_in"][key] = now


def _raise_ability(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """One Ability point, never above 80 (§6.4 note 1)."""
    code = entry.get("ability")
    if code not in _ability_codes():
        raise refuse("ability", f"{code!r} is not an Ability code.", RULE_SHOP)
    value = build["abilities"][code]
    if value >= ABILITY_MAX:
        raise refuse(
            f"abilities.{code}", f"{code} is already {value}; Abilities stop at {ABILITY_MAX}.", RULE_SHOP
        )
    build["abilities"][code] = value + 1


def _sp_spent(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """Spend banked points in the shop window after an adventure (§6.4, §10 items 19, 23)."""
    state = build["state"]
    purchase: Any = entry.get("purchase")
    if not is_one_of(purchase, SP_COSTS):
        raise refuse(
            "purchase", f"Unknown purchase {purchase!r}; choose one of: {', '.join(SP_COSTS)}.", RULE_SHOP
        )
    cost = SP_COSTS[purchase]
    if "cost" in entry and entry["cost"] != cost:
        raise refuse("cost", f"{PURCHASE_LABELS[purchase]} costs {cost} Success Points, not {entry['cost']}.")
    if not state["shop_open"]:
        raise refuse("purchase", "Success Points can be spent only after an adventure closes.", RULE_SHOP)
    if build["success_points"] < cost:
        banked = build["success_points"]
        raise refuse(
            "success_points",
            f"{PURCHASE_LABELS[purchase]} costs {cost}; "
            f"only {counted(banked, 'point')} {is_are(banked)} banked.",
            RULE_SHOP,
        )
    if purchase == "new_skill":
        _acquire_skill(build, entry, source="purchase")
    elif purchase == "new_talent":
        _acquire_talent(build, entry)
    elif purchase == "ability_point":
        _raise_ability(build, entry)
    else:
        _raise_skill(build, entry, purchase)
    build["success_points"] -= cost
    state["sp_spent"] += cost


# -- punishments -------------------------------------------------------------------------------
def _regulation_violation(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """A violation with its ladder punishment (§6.6); a stored offence number must still match."""
    state = build["state"]
    number = entry.get("regulation")
    regs.regulation_name(number)
    offence = state["offences"] + 1
    if "offence" in entry and entry["offence"] != offence:
        raise refuse(
            "offence",
            f"This violation was recorded as offence {entry['offence']}, but it is now offence {offence}.",
            RULE_DEMOTION,
        )
    punishment: Any = entry.get("punishment")  # checked by regs.check_punishment
    regs.check_punishment(offence, punishment, bool(entry.get("judiciary_override")), entry.get("reason"))
    regs.apply_punishment(build, punishment)
    state["offences"] = offence
    state["offence_log"].append({"regulation": number, "offence": offence, "punishment": punishment})


def _demotion(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """A demotion ordered by the judiciary outside the ladder (§6.6); the former standing is kept."""
    ranks, grades = regs.check_demotion_payload(entry)
    regs.apply_demotion(build, ranks=ranks, grades=grades)


def _banishment(build: dict[str, Any], entry: dict[str, Any]) -> None:
    _text(entry, "reason")
    build["state"]["banished"] = True


# -- missions and time travel ------------------------------------------------------------------
def _mission_started(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """A mission begins: the shop window closes (§6.4: shopping only at an adventure's end)."""
    state = build["state"]
    mission = _id(entry)
    if mission in state["missions_closed"]:
        raise refuse("mission", f"Mission {mission} is already over for this agent.")
    if state["current_mission"] not in (None, mission):
        raise refuse("mission", f"This agent is still on mission {state['current_mission']}.")
    state["current_mission"] = mission
    state["shop_open"] = False


def _adventure_closed(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """An adventure ends: the shop window opens until the next mission starts (§6.4)."""
    state = build["state"]
    mission = _id(entry)
    if mission in state["missions_closed"]:
        raise refuse("mission", f"Mission {mission} was already closed for this agent.")
    if state["current_mission"] not in (None, mission):
        raise refuse("mission", f"This agent is on mission {state['current_mission']}, not {mission}.")
    state["missions_closed"].append(mission)
    state["adventures_closed"] += 1
    state["current_mission"] = None
    state["shop_open"] = True


def _times_visited_added(build: dict[str, Any], entry: dict[str, Any]) -> None:
    """A row of the Times Visited table, refused on a loop trap (§9.5, ruling 5)."""
    present = entry.get("present_year", CORPS_PRESENT_YEAR)
    check_visit(build, entry.get("parallel"), entry.get("start_year"), entry.get("end_year"), present)
    build["times_visited"].append(
        visit_record(
            entry["parallel"],
            entry["start_year"],
            entry["end_year"],
            entry.get("mission"),
            entry.get("place", ""),
        )
    )


_HANDLERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "sp_awarded": _sp_awarded,
    "sp_spent": _sp_spent,
    "grade_advanced": _grade_advanced,
    "free_choice_granted": _free_choice_granted,
    "free_choice_taken": _free_choice_taken,
    "regulation_violation": _regulation_violation,
    "demotion": _demotion,
    "banishment": _banishment,
    "times_visited_added": _times_visited_added,
    "mission_started": _mission_started,
    "adventure_closed": _adventure_closed,
    **recovery.HANDLERS,
}


def apply_entry(build: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """Fold one ledger entry into a NEW build (the input is never changed)."""
    return _apply(build, entry, _working_copy)


def _apply(
    build: dict[str, Any], entry: dict[str, Any], working_copy: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    if not isinstance(build, dict):
        raise refuse("build", "A build must be an object.")
    kind = entry_kind(entry)
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise refuse("kind", f"Unknown ledger entry kind {kind!r}.")
    new = working_copy(build)
    if new["state"]["banished"]:
        raise refuse("banished", "This agent has been banished to a prison Parallel; the record is closed.")
    regs.position_of(new)
    handler(new, entry)
    return new


# -- the ledger --------------------------------------------------------------------------------
def _irreversible(target_id: str, target: dict[str, Any]) -> str | None:
    if target.get("kind") not in REVERSIBLE_KINDS:
        return f"Entry {target_id} ({target.get('kind')}) cannot be reversed."
    return None


def _no_earlier_entry(reversal_id: str, target: Any) -> str:
    return f"Reversal {reversal_id} names no earlier entry ({target!r})."


def reversed_ids(entries: list[dict[str, Any]]) -> set[str]:
    """Ids of entries undone by a later reversal; refuses malformed reversals."""
    return base_reversed_ids(entries, _irreversible, _no_earlier_entry)


def replay(creation_build: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The current build: the creation build with every entry folded in order, skipping
    reversals and the entries they reverse. When a reversal leaves a later entry illegal, the
    replay is refused with a RuleError naming that later entry (field "ledger.<id>")."""
    return replay_ledger(creation_build, entries, apply_entry, reversed_ids)


def check_reversal(
    creation_build: dict[str, Any], entries: list[dict[str, Any]], reversal: dict[str, Any]
) -> dict[str, Any]:
    """The build after appending ``reversal``; raises RuleError (naming the entry that breaks)
    when the reversal cannot be accepted."""
    return replay(creation_build, [*entries, reversal])


# -- the shop ----------------------------------------------------------------------------------
def _trial(build: dict[str, Any], entry: dict[str, Any]) -> tuple[bool, str | None]:
    """Whether the shop would take ``entry`` (an sp_spent), and why not."""
    try:
        _apply(build, entry, _shop_trial_copy)
    except RuleError as error:
        return False, " ".join(v.message for v in error.violations)
    return True, None


def spend_entry(build: dict[str, Any], purchase: str, **target: Any) -> dict[str, Any]:
    """A checked sp_spent entry (target: skill=, talent=, ability=, period=)."""
    entry = {"kind": "sp_spent", "purchase": purchase, "cost": SP_COSTS.get(purchase), **target}
    apply_entry(build, entry)
    return entry


def shop_offer(build: dict[str, Any]) -> dict[str, Any]:
    """What the agent can buy right now, at what cost, and why anything else is refused."""
    state = state_of(build)
    offer: dict[str, Any] = {
        "open": state["shop_open"] and not state["banished"],
        "balance": build.get("success_points", 0),
        "closed_reason": None,
        "costs": dict(SP_COSTS),
        "abilities": [],
        "new_skills": [],
        "raises": [],
        "new_talents": [],
        "free_choices": copy.deepcopy(state["pending_free_choices"]),
    }
    if state["banished"]:
        offer["closed_reason"] = "This agent has been banished."
    elif not state["shop_open"]:
        offer["closed_reason"] = "The shop opens when an adventure closes, until the next mission starts."

    def item(purchase: str, **target: Any) -> dict[str, Any]:
        allowed, reason = _trial(build, {"kind": "sp_spent", "purchase": purchase, **target})
        return {
            "purchase": purchase,
            **target,
            "cost": SP_COSTS[purchase],
            "allowed": allowed,
            "reason": reason,
        }

    for code in _ability_codes():
        offer["abilities"].append(
            {**item("ability_point", ability=code), "current": build["abilities"][code]}
        )
    for key, skill in _skill_catalogue().items():
        if key in build.get("skills", {}) and key != REPEATABLE_SKILL:
            continue
        # a further specialty is tried with a stand-in period; the player names the real one
        extra = (
            {"period": {"start_year": 1, "end_year": 1}, "cultures": ["?"]} if key == REPEATABLE_SKILL else {}
        )
        line = item("new_skill", skill=key, **extra)
        line.pop("period", None)
        line.pop("cultures", None)
        offer["new_skills"].append({**line, "name": skill["name"], "needs_period": key == REPEATABLE_SKILL})
    for key, held in build.get("skills", {}).items():
        for purchase, (needed, reached) in SKILL_RAISES.items():
            if held.get("level") == needed:
                line = item(purchase, skill=key)
                offer["raises"].append({**line, "name": skill_name(key), "from": needed, "to": reached})
    for key, talent in _talent_catalogue().items():
        if talent.get("demorean") or key in build.get("talents", []):
            continue
        offer["new_talents"].append({**item("new_talent", talent=key), "name": talent["name"]})
    return offer


# -- entry builders for the Django side --------------------------------------------------------
def bonus_sp_entry(
    build: dict[str, Any], amount: int, session: Any, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A checked bonus award; the campaign setting decides whether demoted agents may get it."""
    entry = {"kind": "sp_awarded", "type": "bonus", "amount": amount, "session": session}
    if (settings or {}).get("bonus_sp_for_demoted_agents"):
        entry["demoted_allowed"] = True
    apply_entry(build, entry)
    return entry


def times_visited_entry(
    build: dict[str, Any],
    parallel: str,
    start_year: int,
    end_year: int,
    mission: Any = None,
    present_year: int | None = None,
    place: str = "",
) -> tuple[dict[str, Any], list[RuleViolation]]:
    """A checked Times Visited entry and the other-Parallel warnings to show the GM."""
    present = CORPS_PRESENT_YEAR if present_year is None else present_year
    warnings = check_visit(build, parallel, start_year, end_year, present)
    entry = {
        "kind": "times_visited_added",
        "parallel": parallel,
        "start_year": start_year,
        "end_year": end_year,
        "mission": mission,
        "present_year": present,
    }
    if place:
        entry["place"] = str(place)  # printed on the sheet's Times Visited row
    return entry, warnings
