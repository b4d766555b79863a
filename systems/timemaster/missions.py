"""TIMEMASTER missions: destination, significance tally, closing, publishing's awards and corrections.

The rules are the engine's (systems/timemaster/engine/significance.py, times_visited.py,
advancement.py; timemaster-characters.md §6.1-§6.2, §7, §9.5 and rulings 2-5). This module only
turns the stored rows into engine states and events, asks the engine, and writes what it returns:
tally rows, the secret significance roll, the outcome and every agent's ledger entries. It is
TIMEMASTER's mission rules for the platform (SystemApp.missions, read by campaigns.missions: the
plan fields, ``clean_plan``, ``check_plan``, ``start``, ``publish``, ``verdict_label``), and the
tally, closing and the after-action record of its own pages and API. Each public function is one
transaction; functions that change a mission lock its row first (campaigns.missions.lock).

Closing fixes the whole outcome on the mission (roll, verdict, chart line, pool, split, each
agent's award) but writes nothing to the agents' ledgers: a player reads their agent's page,
history, the API and the shop, so the awards go there only when the GM publishes (ruling 4).
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.missions import announce, lock, visible_tally
from campaigns.models import NPC, Membership, Mission, SignificanceEntry
from campaigns.table.rolling import record_roll
from characters import services as character_services
from characters.models import AdvancementEntry, Character
from characters.systems import RuleError
from characters.systems.wording import possessive
from systems.timemaster.engine import advancement, significance, times_visited
from systems.timemaster.engine.advancement_tables import CORPS_PRESENT_YEAR, SEP_ITEMS, TALLY_KINDS

SYSTEM = "timemaster"
NON_FIELD = "non_field_errors"
#: The Mission fields TIMEMASTER plans: fixed once the mission starts.
PLAN_FIELDS = ("parallel", "place", "start_year", "end_year", "agents")
#: The fields that stay open until the mission closes.
OPEN_FIELDS = ("significance_rating", "historical_changes_chart")

VERDICT_LABELS = {
    "history_intact": "History intact",
    "history_changed": "History changed",
    "mission_failed": "Mission not completed as briefed",
}
RESULT_STATUS = {
    "success": Mission.Status.COMPLETED,
    "failure": Mission.Status.FAILED,
    "aborted": Mission.Status.ABORTED,
}


def _error(field: str, message: str) -> ValidationError:
    return ValidationError({field: [message]})


def _rule_error(error: RuleError, prefix: str = "") -> ValidationError:
    return character_services.violations_error(error.violations, prefix)


def require_timemaster(mission_or_campaign) -> None:
    campaign = getattr(mission_or_campaign, "campaign", mission_or_campaign)
    if campaign.system != SYSTEM:
        raise _error(NON_FIELD, "Significance tallies are kept for TIMEMASTER campaigns only.")


def present_year(campaign) -> int:
    """The Time Barrier for this campaign (a campaign setting, default 7192; §9.5)."""
    value = (campaign.settings or {}).get("corps_present_year", CORPS_PRESENT_YEAR)
    return value if isinstance(value, int) and not isinstance(value, bool) else CORPS_PRESENT_YEAR


# -- the engine state from the rows -------------------------------------------------------------
def _engine_tally_event(entry: SignificanceEntry) -> dict:
    if entry.kind == SignificanceEntry.Kind.REVERSAL:
        return {
            "type": "reverse_tally",
            "id": str(entry.pk),
            "reverses": str(entry.reverses_id),
            "reason": entry.reason or "reversed",
        }
    body: dict[str, Any] = {
        "id": str(entry.pk),
        "kind": entry.kind,
        "rating": entry.rating,
        "description": entry.description,
    }
    if entry.kind == SignificanceEntry.Kind.EQUIPMENT_LEFT_BEHIND:
        body["item"] = entry.equipment_item
    return {"type": "tally", "entry": body}


def engine_state(
    mission: Mission,
    entries: list[SignificanceEntry] | None = None,
    agents: list[Character] | None = None,
    **overrides: Any,
) -> dict:
    """The engine's open mission state for these rows (``overrides``: significance, year, chart).

    Raises RuleError when the engine refuses any of it (a chart that overlaps, a year that would
    change a Body Suit's rating already counted ...)."""
    significance_value = overrides.get("significance", mission.significance_rating)
    year = overrides.get("year", mission.start_year)
    chart = overrides.get("chart", mission.historical_changes_chart)
    state = significance.new_mission_state(mission.pk)
    if significance_value is not None:
        state = significance.apply_event(
            state, {"type": "set_significance", "significance": significance_value}
        )
    if year is not None:
        state = significance.apply_event(state, {"type": "set_mission_year", "year": year})
    state = significance.apply_event(state, {"type": "set_chart", "chart": chart or []})
    for agent in agents if agents is not None else mission.agents.all():
        state = significance.apply_event(state, {"type": "add_agent", "agent": agent.pk})
    for entry in entries if entries is not None else mission.tally_entries.all():
        state = significance.apply_event(state, _engine_tally_event(entry))
    return state


def _engine_row(entry: SignificanceEntry) -> dict:
    """A stored row as the engine's tally line."""
    if entry.kind == SignificanceEntry.Kind.REVERSAL:
        return {"id": str(entry.pk), "kind": "reversal", "reverses": str(entry.reverses_id)}
    return {"id": str(entry.pk), "kind": entry.kind, "rating": entry.rating}


def tally_summary(entries: list[SignificanceEntry]) -> dict:
    """Totals for the pages: the mistakes total, the total per kind, the reversed entry ids."""
    state = {"tally": [_engine_row(e) for e in entries]}
    return {
        "mistakes_total": significance.mistakes_total(state),
        "by_kind": significance.mistakes_by_kind(state),
        "reversed": {int(i) for i in significance.reversed_tally_ids(state["tally"])},
    }


def sep_catalogue(mission: Mission) -> list[dict]:
    return significance.sep_catalogue(mission.start_year)


# -- planning (the platform's create_mission and update_mission call clean_plan, check_plan) ----
def eligible_agents(campaign):
    """Finalized agents of the campaign who may be sent on a mission."""
    return Character.objects.filter(campaign=campaign, system=SYSTEM, status=Character.Status.ACTIVE)


def clean_plan(campaign, data: dict) -> dict:
    """Check the planning fields the engine knows about; returns them normalised."""
    errors: dict[str, list[str]] = {}
    clean = dict(data)
    parallel = data.get("parallel")
    if parallel not in (None, ""):
        try:
            clean["parallel"] = times_visited.normalise_parallel(parallel)
        except RuleError as error:
            errors["parallel"] = [v.message for v in error.violations]
    for field in ("start_year", "end_year"):
        year = data.get(field)
        if year == 0:
            errors[field] = ["There is no year 0: 1 B.C. is followed by 1 A.D."]
    start, end = data.get("start_year"), data.get("end_year")
    if start and end and times_visited.to_astronomical(start) > times_visited.to_astronomical(end):
        errors["end_year"] = ["The mission ends before it starts."]
    if end and times_visited.to_astronomical(end) > times_visited.to_astronomical(present_year(campaign)):
        errors["end_year"] = [f"No mission goes past the Time Barrier ({present_year(campaign)} A.D.)."]
    if "historical_changes_chart" in data:
        chart = data["historical_changes_chart"]
        problems = significance.validate_chart(chart if chart is not None else [])
        for problem in problems:  # the engine's "chart.2.high" names the line and the part
            where = "historical_changes_chart" + problem.field[len("chart") :]
            errors.setdefault(where, []).append(problem.message)
        clean["historical_changes_chart"] = chart or []
    agents = data.get("agents")
    if agents is not None:
        wrong = [
            a
            for a in agents
            if a.campaign_id != campaign.pk or a.system != SYSTEM or a.status != Character.Status.ACTIVE
        ]
        if wrong:
            errors["agents"] = [f"{a.name} is not a finalized agent of this campaign." for a in wrong]
    if errors:
        raise ValidationError(errors)
    return clean


def check_plan(mission: Mission, entries, agents, **overrides) -> None:
    """The engine's refusal of this plan as a ValidationError (a chart that overlaps, a year that
    would change a rating already counted ...)."""
    try:
        engine_state(mission, entries, agents, **overrides)
    except RuleError as error:
        raise _rule_error(error) from None


# -- starting: Times Visited and the loop trap ---------------------------------------------------
_MISSION_REF = re.compile(r"\bmission (\d+)\b")


def _name_missions(message: str, campaign) -> str:
    """The engine names an earlier visit by mission id; add the mission's title for people."""
    ids = {int(m) for m in _MISSION_REF.findall(message)}
    titles = dict(Mission.objects.filter(campaign=campaign, pk__in=ids).values_list("pk", "title"))
    return _MISSION_REF.sub(
        lambda m: f"mission “{titles[int(m.group(1))]}”" if int(m.group(1)) in titles else m.group(0),
        message,
    )


def start(locked: Mission, by) -> list[str]:
    """Send the agents of the locked, planned mission (campaigns.missions.start_mission starts it):
    each gets mission_started and a Times Visited row through the ledger.

    A trip into a span the agent already lived on the same Parallel is refused (loop trap, ruling 5)
    with the earlier visit named; overlaps on other Parallels come back as warnings."""
    missing = {
        "parallel": "Set the Parallel the agents travel to.",
        "start_year": "Set the year the agents arrive.",
        "end_year": "Set the year the agents leave.",
    }
    errors = {f: [m] for f, m in missing.items() if getattr(locked, f) in (None, "")}
    agents = list(locked.agents.order_by("pk"))
    if not agents:
        errors["agents"] = ["Choose the agents who go on this mission."]
    if errors:
        raise ValidationError(errors)
    _require_published_before(locked, agents)
    warnings: list[str] = []
    mission_id = str(locked.pk)
    for agent in agents:
        agent = Character.objects.select_for_update().get(pk=agent.pk)
        try:
            visit, notes = advancement.times_visited_entry(
                agent.build,
                locked.parallel,
                locked.start_year,
                locked.end_year,
                mission=mission_id,
                present_year=present_year(locked.campaign),
                place=locked.place,
            )
        except RuleError as error:
            raise ValidationError(
                {
                    "agents": [
                        f"{agent.name}: {_name_missions(v.message, locked.campaign)}"
                        for v in error.violations
                    ]
                }
            ) from None
        warnings += [f"{agent.name}: {_name_missions(n.message, locked.campaign)}" for n in notes]
        _append(agent, {"kind": "mission_started", "mission": mission_id}, by, locked)
        _append(agent, visit, by, locked)
    return warnings


def _require_published_before(mission: Mission, agents: list[Character]) -> None:
    """An agent's adventure ends on the ledger only when its result is published, so an agent of a
    closed, unpublished mission cannot be sent again yet; say which mission to publish."""
    waiting = (
        Mission.objects.filter(
            agents__in=agents, status__in=Mission.CLOSED_STATUSES, published_at__isnull=True
        )
        .exclude(pk=mission.pk)
        .values_list("agents", "title")
        .order_by("pk")
    )
    names = {a.pk: a.name for a in agents}
    problems = [
        f"{names[agent]}: the result of mission “{title}” is not published yet; publish it before "
        "sending this agent again."
        for agent, title in waiting
        if agent in names
    ]
    if problems:
        raise ValidationError({"agents": problems})


def _append(agent: Character, entry: dict, by, mission: Mission) -> AdvancementEntry:
    try:
        return character_services.append_entry(agent, entry, by, mission=mission)
    except ValidationError as error:
        messages = [m for ms in error.message_dict.values() for m in ms]
        text = _name_missions(" ".join(messages), mission.campaign)
        raise _error("agents", f"{agent.name}: {text}") from None


# -- the tally ----------------------------------------------------------------------------------
@transaction.atomic
def record_mistake(mission: Mission, by, data: dict) -> SignificanceEntry:
    """Add a mistake to the tally (kind, description, rating; an NPC death may take the NPC's
    rating, equipment left behind takes the item's, ruling 4). Refused once the mission is closed."""
    locked = lock(mission)
    require_timemaster(locked)
    if locked.is_closed:
        raise _error(
            "status", "The mission is closed: correct its tally by reversing an entry, not by adding one."
        )
    kind = data.get("kind")
    if kind not in TALLY_KINDS:
        raise _error(
            "kind", f"Choose a kind of mistake: {', '.join(k['label'] for k in TALLY_KINDS.values())}."
        )
    npc = data.get("npc")
    item = data.get("equipment_item") or ""
    rating = data.get("rating")
    if npc is not None:
        if not isinstance(npc, NPC) or npc.campaign_id != locked.campaign_id:
            raise _error("npc", "That NPC is not in this campaign.")
        if kind != "npc_death":
            raise _error("npc", "Link an NPC only to an NPC death.")
        if rating is None:
            rating = npc.significance_rating
    if kind == "equipment_left_behind":
        if item not in SEP_ITEMS:
            raise _error("equipment_item", "Choose the item of the Standard Equipment Package left behind.")
    elif item:
        raise _error("equipment_item", "Name an item only for equipment left behind.")
    elif rating is None:
        raise _error("rating", "Give the mistake's significance rating.")
    entries = list(locked.tally_entries.all())
    state = engine_state(locked, entries, [])
    body = {"kind": kind, "rating": rating, "description": data.get("description") or "", "id": "new"}
    if item:
        body["item"] = item
    try:
        checked = significance.apply_event(state, {"type": "tally", "entry": body})["tally"][-1]
    except RuleError as error:
        raise _rule_error(error) from None
    return SignificanceEntry.objects.create(
        mission=locked,
        kind=kind,
        description=body["description"],
        rating=checked["rating"],
        npc=npc,
        equipment_item=item,
        shown_to_players=bool(data.get("shown_to_players", True)),
        recorded_by=by,
    )


@transaction.atomic
def reverse_mistake(mission: Mission, entry_id: int, by, reason: str) -> SignificanceEntry:
    """Undo a tally entry with a reversing entry. After closing this is the only correction: the
    outcome is worked out again with the same roll; once published, agents whose award changes
    get their award and grade entries reverted and written anew, all in this one transaction."""
    locked = lock(mission)
    require_timemaster(locked)
    target = locked.tally_entries.filter(pk=entry_id).first()
    if target is None:
        raise _error("entry", "This mission's tally has no such entry.")
    if not isinstance(reason, str) or not reason.strip():
        raise _error("reason", "Say why this entry is reversed.")
    entries = list(locked.tally_entries.all())
    state = engine_state(locked, entries, [])
    try:
        significance.apply_event(
            state, {"type": "reverse_tally", "reverses": str(target.pk), "reason": reason, "id": "new"}
        )
    except RuleError as error:
        raise _rule_error(error, "") from None
    row = SignificanceEntry.objects.create(
        mission=locked,
        kind=SignificanceEntry.Kind.REVERSAL,
        reverses=target,
        reason=reason.strip()[:500],
        after_close=locked.is_closed,
        shown_to_players=target.shown_to_players,
        recorded_by=by,
    )
    if locked.is_closed:
        _recompute_after_correction(locked, [*entries, row], by, reason.strip())
    return row


# -- closing ------------------------------------------------------------------------------------
def _agent_statuses(state: dict, agents: list[Character]) -> dict:
    """Each agent's standing now (eligible, demoted, Timemaster/10; banished is refused)."""
    for agent in agents:
        status = advancement.agent_status(agent.build)
        if status == "banished":
            raise _error("agents", f"{agent.name} has been banished and cannot take part in a mission.")
        state = significance.apply_event(
            state, {"type": "set_agent_status", "agent": agent.pk, "status": status}
        )
    return state


@transaction.atomic
def close_mission(membership: Membership, mission: Mission, result: str, rng=None) -> Mission:
    """Close a started mission as "success", "failure" or "aborted", in one transaction.

    On success the secret significance check is rolled into the dice log (three d10 read 001-1000,
    secret); the engine gives the verdict, the chart line, the pool, the equal split with its
    remainder, and each agent's award and ledger entries. All of it is stored on the mission for
    the GM; the agents' ledgers stay untouched until publish_mission writes those entries."""
    if not membership.is_gm:
        raise _error(NON_FIELD, "Only the game master can close a mission.")
    if result not in RESULT_STATUS:
        raise _error("result", "Say whether the mission succeeded, failed or was aborted.")
    locked = lock(mission)
    require_timemaster(locked)
    if locked.is_closed:
        raise _error("status", "This mission is already closed.")
    if locked.status != Mission.Status.ACTIVE:
        raise _error("status", "Start the mission (send the agents) before closing it.")
    # Players see it closed, its result not yet published. Told before the check is rolled, so the
    # event is the same whether or not a secret roll follows it (tests/secrets: the worlds).
    announce(locked)
    agents = list(Character.objects.select_for_update(of=("self",)).filter(missions=locked).order_by("pk"))
    entries = list(locked.tally_entries.all())
    try:
        state = _agent_statuses(engine_state(locked, entries, agents), agents)
        success = result == "success"
        if success:
            significance.resolve_mission(state, False, None)  # everything but the roll checked first
            roll = record_roll(
                membership,
                kind="d1000",
                purpose=f"Significance check: {locked.title}"[:200],
                secret=True,
                # Only a successful mission rolls it: announcing it would publish the result.
                announced=False,
                mission=locked,
                rng=rng,
            )
            outcome = significance.resolve_mission(state, True, roll.total, tuple(roll.faces))
        else:
            roll = None
            outcome = significance.resolve_mission(state, False, None)
        significance.apply_event(state, {"type": "close", "outcome": outcome})
    except RuleError as error:
        raise _rule_error(error) from None
    locked.status = RESULT_STATUS[result]
    locked.success = success
    locked.outcome = outcome
    locked.check_roll = roll
    locked.closed_at = timezone.now()
    locked.closed_by = membership.user
    locked.save()
    mission.refresh_from_db()
    return locked


def _recompute_after_correction(mission: Mission, entries: list[SignificanceEntry], by, reason: str) -> None:
    """Work the closed mission's outcome out again (same roll, same standings). Before publishing
    that is all: the ledgers get the new outcome at publish. After publishing, every agent whose
    award changes gets the old award and grade entries reverted and the new ones written."""
    old = mission.outcome
    agents = list(Character.objects.select_for_update(of=("self",)).filter(missions=mission).order_by("pk"))
    state = engine_state(mission, entries, agents)
    statuses = {a["agent"]: a["status"] for a in old["awards"]}
    for agent in agents:
        state = significance.apply_event(
            state, {"type": "set_agent_status", "agent": agent.pk, "status": statuses[str(agent.pk)]}
        )
    check = old.get("check") or {}
    try:
        new = significance.resolve_mission(
            state, old["success"], check.get("roll"), tuple(check.get("faces") or ())
        )
    except RuleError as error:
        raise _rule_error(error) from None
    new_awards = {a["agent"]: a for a in new["awards"]}
    reawarded = False
    for agent in agents if mission.is_published else []:
        before = next(a for a in old["awards"] if a["agent"] == str(agent.pk))
        after = new_awards[str(agent.pk)]
        if (before["regular"], before["forgone"], before["grade_advances"], before["reason"]) == (
            after["regular"],
            after["forgone"],
            after["grade_advances"],
            after["reason"],
        ):
            continue
        _reaward(mission, agent, new["ledger"][str(agent.pk)], by, reason)
        reawarded = True
    if reawarded:  # the players' records show the corrected awards (nothing else of it)
        announce(mission)
    mission.previous_outcomes = [*mission.previous_outcomes, old]
    mission.outcome = new
    mission.save(update_fields=["outcome", "previous_outcomes"])


#: What a correction after closing writes into each agent's ledger, the same whatever the GM's
#: reason (docs/secrets.md): the reason is on the tally's reversal line, which the GM sees.
CORRECTION_REASON = (
    "The game master corrected this mission's tally after closing; the award was worked out again."
)


def _reaward(mission: Mission, agent: Character, ledger: list[dict], by, reason: str) -> None:
    live = (
        AdvancementEntry.objects.filter(
            character=agent,
            mission=mission,
            kind__in=("sp_awarded", "grade_advanced"),
            reversed_by__isnull=True,
        )
        .exclude(kind="sp_awarded", payload__type="bonus")
        .order_by("-id")
    )
    # The GM's reason stays on the tally's reversal line: a hidden line's reason (or the fact that
    # a hidden line was reversed) must not reach the players through their agents' ledgers.
    why = CORRECTION_REASON
    for entry in live:  # the grade step first, then the award it rests on
        try:
            character_services.revert_entry(entry, by, why)
        except ValidationError as error:
            messages = " ".join(m for ms in error.message_dict.values() for m in ms)
            raise _error(
                "entry", f"{possessive(agent.name)} ledger cannot take this correction: {messages}"
            ) from None
    for entry in ledger:
        if entry["kind"] == "adventure_closed":
            continue
        _append(agent, entry, by, mission)


def publish(locked: Mission, by) -> None:
    """Write the stored outcome to the agents of the locked, closed mission as the platform's
    publish_mission publishes it: each agent's ledger entries (award, grade step, adventure
    closed). A refusal for any agent refuses the whole publication."""
    agents = list(Character.objects.select_for_update(of=("self",)).filter(missions=locked).order_by("pk"))
    ledger = (locked.outcome or {}).get("ledger") or {}
    # A mission closed before awards waited for publishing already wrote them: never twice.
    done = set(
        AdvancementEntry.objects.filter(
            mission=locked, kind="adventure_closed", character__in=agents, reversed_by__isnull=True
        ).values_list("character_id", flat=True)
    )
    for agent in agents:
        if agent.pk in done:
            continue
        for entry in ledger.get(str(agent.pk), []):
            _append(agent, entry, by, locked)


# -- what each reader sees ----------------------------------------------------------------------
def verdict_label(outcome: dict) -> str:
    return VERDICT_LABELS.get((outcome or {}).get("verdict"), "")


def after_action(mission: Mission, user, is_gm: bool) -> dict | None:
    """The published record: None before publishing (for players). Players get the verdict, the
    chart line when history changed, the roll, the tally lines they may see with their total and
    the awards of their own agents; nothing in it is worked out from a line they cannot see."""
    if not mission.is_published and not is_gm:
        return None
    outcome = mission.outcome or {}
    agents = list(mission.agents.all())
    mine = {a.pk for a in agents if is_gm or a.owner_id == user.pk}
    names = {str(a.pk): a.name for a in agents}
    awards = [
        {
            "agent": int(a["agent"]),
            "name": names.get(a["agent"], "?"),
            "regular": a["regular"],
            "forgone": a["forgone"],
            "reason": a["reason"],
            "grade_advances": a["grade_advances"],
        }
        for a in outcome.get("awards", [])
        if int(a["agent"]) in mine
    ]
    entries = visible_tally(list(mission.tally_entries.all()), is_gm)
    check = outcome.get("check") or {}
    return {
        "published": mission.is_published,
        "verdict": outcome.get("verdict"),
        "verdict_label": verdict_label(outcome),
        "history_changed": outcome.get("verdict") == "history_changed",
        "chart_line": (check.get("chart_line") or {}).get("text") if check else None,
        "roll": check.get("roll"),
        # The GM's: the mission's total. A player's: the total of the lines the player sees, the
        # only total published to players (the whole one less the shown lines is the hidden ones).
        "mistakes_total": outcome.get("mistakes_total")
        if is_gm
        else tally_summary(entries)["mistakes_total"],
        "awards": awards,
        "tally": entries,
    }
