"""The GM's significance tally for one mission, the secret significance check, and the split.

timemaster-characters.md §6.1-§6.2 (pool, significance check), §7 (equipment ratings), §10 items
20-21, and rulings 2-4 of rules/README.md. A mission is a pure state machine:
``apply_event(state, event) -> new state``; ``close_mission(state, success, rng)`` rolls the check
and returns the whole outcome, with the ledger entries to write for every agent, which the caller
then records with the "close" event. Nothing here mutates its input.
"""

from __future__ import annotations

import copy
import random
from typing import Any, cast

from characters.systems import dice
from characters.systems.base import RuleError, RuleViolation, refuse
from characters.systems.wording import possessive

from .advancement_tables import (
    ADVENTURE_SIGNIFICANCE_MAX,
    ADVENTURE_SIGNIFICANCE_MIN,
    BODY_SUIT_CUTOFF_YEAR,
    SEP_ITEMS,
    TALLY_KINDS,
)

RULE = "timemaster-characters.md §6.1-§6.2, rulings 2 and 4"
AGENT_STATUSES = ("eligible", "demoted", "timemaster_10")
CHART_TEXT_MAX = 2000
CHART_DIFFERENCE_MAX = 1_000_000
EVENT_TYPES = (
    "set_significance",
    "set_mission_year",
    "set_chart",
    "add_agent",
    "set_agent_status",
    "remove_agent",
    "tally",
    "reverse_tally",
    "close",
    "publish",
)


def new_mission_state(
    mission: Any, significance: int | None = None, mission_year: int | None = None
) -> dict[str, Any]:
    """An open mission with an empty tally."""
    state: dict[str, Any] = {
        "mission": str(mission),
        "significance": None,
        "mission_year": None,
        "agents": [],
        "tally": [],
        "chart": [],
        "status": "open",
        "outcome": None,
        "published": False,
    }
    if significance is not None:
        state = apply_event(state, {"type": "set_significance", "significance": significance})
    if mission_year is not None:
        state = apply_event(state, {"type": "set_mission_year", "year": mission_year})
    return state


# -- the tally ---------------------------------------------------------------------------------
def equipment_rating(item: Any, mission_year: int | None, rating: Any = None) -> int:
    """An SEP item's significance (§7): fixed, dated (Body Suit: 750 before 5180 A.D., else 0),
    or entered by the GM for items the rules give no rating."""
    spec = SEP_ITEMS.get(item) if isinstance(item, str) else None
    if spec is None:
        raise refuse("item", f"{item!r} is not an item of the Standard Equipment Package.", RULE)
    if spec["significance"] is None:
        if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 1000:
            raise refuse(
                "rating", f"The rules give {spec['name']} no rating; enter one from 0 to 1000.", RULE
            )
        return rating
    if spec.get("dated"):
        if isinstance(mission_year, bool) or not isinstance(mission_year, int) or mission_year == 0:
            raise refuse(
                "mission_year",
                f"{possessive(spec['name'])} rating depends on the mission's year; set it first.",
                RULE,
            )
        return spec["significance"] if mission_year < BODY_SUIT_CUTOFF_YEAR else 0
    return cast(int, spec["significance"])


def _checked_tally_entry(state: dict[str, Any], entry: Any) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise refuse("entry", "A tally entry must be an object.")
    kind = entry.get("kind")
    if not isinstance(kind, str) or kind not in TALLY_KINDS:
        raise refuse("kind", f"Unknown mistake kind {kind!r}; choose one of: {', '.join(TALLY_KINDS)}.", RULE)
    entry = copy.deepcopy(entry)
    entry_id = entry.get("id")
    entry["id"] = str(len(state["tally"]) + 1) if entry_id in (None, "") else str(entry_id)
    if any(e["id"] == entry["id"] for e in state["tally"]):
        raise refuse("id", f"The tally already has an entry {entry['id']}.")
    if kind == "equipment_left_behind":
        given = entry.get("rating")
        rating = equipment_rating(entry.get("item"), state["mission_year"], given)
        if given is not None and given != rating:
            raise refuse(
                "rating", f"{SEP_ITEMS[entry['item']]['name']} is rated {rating} on this mission.", RULE
            )
        entry["rating"] = rating
    else:
        limits = TALLY_KINDS[kind]
        rating = entry.get("rating")
        if (
            isinstance(rating, bool)
            or not isinstance(rating, int)
            or not limits["min"] <= rating <= limits["max"]
        ):
            raise refuse(
                "rating",
                f"A {limits['label'].lower()} is rated {limits['min']} to {limits['max']}, not {rating!r}.",
                RULE,
            )
    description = entry.get("description", "")
    if not isinstance(description, str):
        raise refuse("description", "The description must be text.")
    return cast("dict[str, Any]", entry)


def reversed_tally_ids(tally: list[dict[str, Any]]) -> set[str]:
    return {e["reverses"] for e in tally if e.get("kind") == "reversal"}


def counting_entries(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Tally entries that count: not reversals, not reversed."""
    undone = reversed_tally_ids(state["tally"])
    return [e for e in state["tally"] if e.get("kind") != "reversal" and e["id"] not in undone]


def mistakes_total(state: dict[str, Any]) -> int:
    """Every counting mistake, equipment left behind included (ruling 4)."""
    return sum(e["rating"] for e in counting_entries(state))


def mistakes_by_kind(state: dict[str, Any]) -> dict[str, int]:
    totals = dict.fromkeys(TALLY_KINDS, 0)
    for entry in counting_entries(state):
        totals[entry["kind"]] += entry["rating"]
    return totals


# -- the Historical Changes Chart --------------------------------------------------------------
def validate_chart(chart: Any) -> list[RuleViolation]:
    """Lines {"low": int, "high": int | None (open end), "text": str}: 0 <= low <= high, no overlaps."""
    if not isinstance(chart, list):
        return [RuleViolation("chart", "The Historical Changes Chart must be a list of lines.", RULE)]
    problems: list[RuleViolation] = []
    spans: list[tuple[int, float, int]] = []
    for number, line in enumerate(chart, start=1):
        where = f"chart.{number}"
        if not isinstance(line, dict):
            problems.append(RuleViolation(where, f"Line {number} must have low, high and text."))
            continue
        low, high, text = line.get("low"), line.get("high"), line.get("text")
        if isinstance(low, bool) or not isinstance(low, int) or not 0 <= low <= CHART_DIFFERENCE_MAX:
            problems.append(
                RuleViolation(f"{where}.low", f"Line {number}: the lowest difference must be 0 or more.")
            )
            continue
        if high is not None and (
            isinstance(high, bool) or not isinstance(high, int) or high > CHART_DIFFERENCE_MAX
        ):
            problems.append(
                RuleViolation(f"{where}.high", f"Line {number}: the highest difference must be a number.")
            )
            continue
        if high is not None and high < low:
            problems.append(
                RuleViolation(f"{where}.high", f"Line {number} ends ({high}) below its start ({low}).")
            )
            continue
        if not isinstance(text, str) or not text.strip() or len(text) > CHART_TEXT_MAX:
            problems.append(
                RuleViolation(
                    f"{where}.text", f"Line {number} needs a text of at most {CHART_TEXT_MAX} characters."
                )
            )
        spans.append((low, float("inf") if high is None else high, number))
    spans.sort()
    reach: tuple[float, int] | None = None  # the furthest end seen so far, and its line
    for low, high, number in spans:
        if reach is not None and low <= reach[0]:
            problems.append(
                RuleViolation(f"chart.{number}", f"Line {number} overlaps line {reach[1]}.", RULE)
            )
        if reach is None or high > reach[0]:
            reach = (high, number)
    return problems


def chart_line(chart: list[dict[str, Any]], difference: int) -> dict[str, Any] | None:
    for line in chart:
        high = line.get("high")
        if line["low"] <= difference and (high is None or difference <= high):
            return copy.deepcopy(line)
    return None


# -- the check and the split -------------------------------------------------------------------
def significance_check(total: int, roll: int) -> dict[str, Any]:
    """§6.2, ruling 4: a roll (1-1000) at or below the mistakes total means history changed;
    the difference is total - roll. With no mistakes the check can never fail."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 1000:
        raise refuse("roll", f"A significance roll reads 1 to 1000, not {roll!r}.", RULE)
    changed = roll <= total
    return {
        "roll": roll,
        "mistakes_total": total,
        "history_changed": changed,
        "difference": total - roll if changed else None,
    }


def split_pool(pool: int, agents: int) -> tuple[int, int]:
    """Equal shares rounded down, and the remainder that nobody is awarded (ruling 2)."""
    if agents <= 0:
        raise refuse("agents", "Nobody took part in the mission.", RULE)
    share = max(0, pool) // agents
    return share, max(0, pool) - share * agents


# -- events ------------------------------------------------------------------------------------
def _agent(state: dict[str, Any], agent: Any) -> dict[str, Any] | None:
    return next((a for a in state["agents"] if a["id"] == str(agent)), None)


def _status(value: Any) -> str:
    if value not in AGENT_STATUSES:
        if value == "banished":
            raise refuse("status", "A banished agent cannot take part in missions.")
        raise refuse("status", f"Unknown agent status {value!r}; one of: {', '.join(AGENT_STATUSES)}.")
    return cast(str, value)


def apply_event(state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """Fold one GM event into a NEW mission state. Event shapes: see EVENT_TYPES and the README."""
    if not isinstance(event, dict) or event.get("type") not in EVENT_TYPES:
        raise refuse("type", f"Unknown mission event {event!r}.")
    kind = event["type"]
    new = copy.deepcopy(state)
    if kind == "publish":
        if new["status"] != "closed":
            raise refuse("status", "Only a closed mission's result can be published.")
        new["published"] = True
        return new
    if new["status"] != "open":
        raise refuse("status", f"Mission {new['mission']} is closed; its record can no longer change.")
    if kind == "set_significance":
        value = event.get("significance")
        low, high = ADVENTURE_SIGNIFICANCE_MIN, ADVENTURE_SIGNIFICANCE_MAX
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise refuse("significance", f"An adventure's significance runs from {low} to {high}.", RULE)
        new["significance"] = value
    elif kind == "set_mission_year":
        year = event.get("year")
        if isinstance(year, bool) or not isinstance(year, int) or year == 0:
            raise refuse("year", "The mission's year is a whole number, negative for B.C., never 0.")
        new["mission_year"] = year
        if any(e.get("item") == "body_suit" for e in counting_entries(new)):
            raise refuse("year", "Reverse the Body Suit entry before changing the year it was rated by.")
    elif kind == "set_chart":
        problems = validate_chart(event.get("chart"))
        if problems:
            raise RuleError(problems)
        new["chart"] = copy.deepcopy(event["chart"])
    elif kind == "add_agent":
        if _agent(new, event.get("agent")) is not None or event.get("agent") in (None, ""):
            raise refuse("agent", f"Agent {event.get('agent')!r} is missing or already on this mission.")
        new["agents"].append({"id": str(event["agent"]), "status": _status(event.get("status", "eligible"))})
    elif kind in ("set_agent_status", "remove_agent"):
        agent = _agent(new, event.get("agent"))
        if agent is None:
            raise refuse("agent", f"Agent {event.get('agent')!r} is not on this mission.")
        if kind == "remove_agent":
            new["agents"].remove(agent)
        else:
            agent["status"] = _status(event.get("status"))
    elif kind == "tally":
        new["tally"].append(_checked_tally_entry(new, event.get("entry")))
    elif kind == "reverse_tally":
        target = str(event.get("reverses"))
        if target not in {e["id"] for e in counting_entries(new)}:
            raise refuse("reverses", f"There is no counting tally entry {target} to reverse.")
        reason = event.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise refuse("reason", "A reversal needs a reason.")
        entry_id = str(event.get("id") or f"{len(new['tally']) + 1}")
        if any(e["id"] == entry_id for e in new["tally"]):
            raise refuse("id", f"The tally already has an entry {entry_id}.")
        new["tally"].append({"id": entry_id, "kind": "reversal", "reverses": target, "reason": reason})
    elif kind == "close":
        outcome = event.get("outcome")
        if not isinstance(outcome, dict) or outcome.get("mission") != new["mission"]:
            raise refuse("outcome", "Close the mission with the outcome close_mission returned for it.")
        if (
            outcome.get("mistakes_total") != mistakes_total(new)
            or outcome.get("significance") != new["significance"]
        ):
            raise refuse(
                "outcome", "The tally changed after this outcome was worked out; close the mission again."
            )
        new["status"] = "closed"
        new["outcome"] = copy.deepcopy(outcome)
    return new


def public_view(state: dict[str, Any]) -> dict[str, Any]:
    """What players may see: the tally, roll and result stay hidden until the GM publishes."""
    if state["published"]:
        return copy.deepcopy(state)
    return {
        "mission": state["mission"],
        "agents": copy.deepcopy(state["agents"]),
        "status": state["status"],
        "published": False,
    }


# -- closing -----------------------------------------------------------------------------------
def resolve_mission(
    state: dict[str, Any], success: bool, roll: int | None, faces: tuple[int, ...] = ()
) -> dict[str, Any]:
    """The whole outcome for a given roll (None when the mission failed: no check is made)."""
    if state["status"] != "open":
        raise refuse("status", f"Mission {state['mission']} is already closed.")
    problems = []
    if state["significance"] is None:
        problems.append(
            RuleViolation("significance", "Set the adventure's significance before closing.", RULE)
        )
    if not state["agents"]:
        problems.append(RuleViolation("agents", "Add the agents who took part before closing.", RULE))
    if not isinstance(success, bool):
        problems.append(RuleViolation("success", "Say whether the mission succeeded (true or false)."))
    if problems:
        raise RuleError(problems)
    total = mistakes_total(state)
    check: dict[str, Any] | None = None
    if success:
        if roll is None:
            raise refuse("roll", "A successful mission needs its significance roll.", RULE)
        check = significance_check(total, roll)
        check["faces"] = list(faces)
        check["chart_line"] = (
            chart_line(state["chart"], check["difference"]) if check["history_changed"] else None
        )
    verdict = (
        "mission_failed"
        if not success
        else ("history_changed" if cast("dict[str, Any]", check)["history_changed"] else "history_intact")
    )
    pool = max(0, state["significance"] - total) if verdict == "history_intact" else 0
    share, remainder = split_pool(pool, len(state["agents"]))
    awards, ledger = [], {}
    for agent in state["agents"]:
        award = _award(verdict, share, agent["status"])
        awards.append({"agent": agent["id"], **award})
        ledger[agent["id"]] = _ledger_entries(state["mission"], award)
    return {
        "mission": state["mission"],
        "success": success,
        "significance": state["significance"],
        "mistakes_total": total,
        "mistakes_by_kind": mistakes_by_kind(state),
        "check": check,
        "verdict": verdict,
        "pool": pool,
        "agents_count": len(state["agents"]),
        "share": share,
        "remainder": remainder,
        "awards": awards,
        "ledger": ledger,
    }


def _award(verdict: str, share: int, status: str) -> dict[str, Any]:
    """One agent's regular award (§6.1; rulings 1-3): shares of demoted agents and of
    Timemaster/10 are forgone, not passed to the others."""
    if verdict != "history_intact":
        reason, amount, forgone = verdict, 0, 0
    elif share == 0:
        reason, amount, forgone = "no_share", 0, 0
    elif status == "eligible":
        reason, amount, forgone = "earned", share, 0
    else:
        reason, amount, forgone = status, 0, share
    return {
        "status": status,
        "reason": reason,
        "regular": amount,
        "forgone": forgone,
        "grade_advances": reason in ("earned", "demoted"),
    }


#: The mission's figures an award entry carried until 2026-12-07, which stay on the outcome (the
#: GM's) and out of the agents' ledgers (docs/secrets.md, "What an award reveals").
MISSION_FIGURES = ("pool", "share", "remainder_not_awarded")


def award_without_mission_figures(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """A ledger entry's payload as the ledger keeps it: a regular award without the mission's
    figures (an older archive's entries still hold them); any other entry as it is."""
    if kind != "sp_awarded" or not any(key in payload for key in MISSION_FIGURES):
        return payload
    return {key: value for key, value in payload.items() if key not in MISSION_FIGURES}


def _ledger_entries(mission: str, award: dict[str, Any]) -> list[dict[str, Any]]:
    """An agent's ledger entries for the mission: the award alone. The pool, the share and the
    remainder stay on the outcome (the GM's): the ledger is what the agent's player reads, and
    docs/secrets.md keeps those figures from players (what the award itself reveals is said there)."""
    entries = [
        {
            "kind": "sp_awarded",
            "type": "regular",
            "mission": mission,
            "amount": award["regular"],
            "forgone": award["forgone"],
            "reason": award["reason"],
        }
    ]
    if award["grade_advances"]:
        entries.append({"kind": "grade_advanced", "mission": mission})
    entries.append({"kind": "adventure_closed", "mission": mission})
    return entries


def close_mission(
    state: dict[str, Any], success: bool, rng: random.Random, builds: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Roll the secret significance check (three d10, 000 = 1000) if the mission succeeded and
    return the outcome. ``builds`` (agent id -> build), when given, refreshes every agent's
    status from the builds first (advancement.agent_status)."""
    if builds is not None:
        from .advancement import agent_status

        state = copy.deepcopy(state)
        for agent in state["agents"]:
            if agent["id"] not in {str(k) for k in builds}:
                raise refuse("agents", f"No build was given for agent {agent['id']}.")
            build = next(b for k, b in builds.items() if str(k) == agent["id"])
            agent["status"] = _status(agent_status(build))
    if success is True and state["status"] == "open":
        result = dice.d1000(rng)
        return resolve_mission(state, success, result.total, result.faces)
    return resolve_mission(state, success, None)


def sep_catalogue(mission_year: int | None = None) -> list[dict[str, Any]]:
    """The SEP items with their ratings for a mission year (for the tally form)."""
    items = []
    for key, spec in SEP_ITEMS.items():
        rating = spec["significance"]
        if spec.get("dated") and mission_year is not None:
            rating = rating if mission_year < BODY_SUIT_CUTOFF_YEAR else 0
        items.append(
            {"item": key, "name": spec["name"], "significance": rating, "dated": bool(spec.get("dated"))}
        )
    return items
