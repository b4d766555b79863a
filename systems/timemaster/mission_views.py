"""Web pages for TIMEMASTER missions: plan, tally, close, publish, after-action record, audit.

The GM sees and changes everything. Players and observers see a mission's title, briefing,
destination and agents; the significance, the chart, the tally, the roll and the result reach them
only through the after-action record, and only once the GM has published it (ruling 4).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import charts, missions
from campaigns.models import NPC, Mission, SignificanceEntry
from campaigns.table import live
from characters.models import AdvancementEntry, Character
from characters.systems import RuleError
from kernel.confirm import confirm_first
from systems.timemaster import missions as tm_missions
from systems.timemaster.access import get_timemaster_campaign_for_user
from systems.timemaster.engine import counterfactual
from systems.timemaster.mission_forms import (
    SEP_NAMES,
    AuditFilterForm,
    CloseForm,
    MissionForm,
    MistakeForm,
    ReverseForm,
)

AWARD_REASONS = {
    "earned": "Earned",
    "demoted": "Forgone: below the standing held before a demotion",
    "timemaster_10": "Forgone: Timemaster/10 earns no more",
    "mission_failed": "None: not completed as briefed",
    "history_changed": "None: history changed",
    "no_share": "None: nothing left to share",
}


# -- helpers ------------------------------------------------------------------------------------
def _campaign(request, pk, need="member"):
    return get_timemaster_campaign_for_user(request.user, pk, need=need)


def _mission(campaign, mission_pk) -> Mission:
    mission = campaign.missions.filter(pk=mission_pk).first()
    if mission is None:
        raise Http404("No such mission.")
    return mission


def public_status(mission: Mission, is_gm: bool) -> str:
    """Players see "Closed" until the result is published: success or failure is part of it."""
    return mission.get_status_display() if is_gm else mission.players_status_label


def _errors_to_form(form, error: ValidationError) -> None:
    for field, problems in error.message_dict.items():
        target = field.split(".")[0]
        for problem in problems:
            form.add_error(target if target in form.fields else None, problem)


def _tally_rows(entries: list[SignificanceEntry]) -> tuple[list[dict], dict]:
    summary = tm_missions.tally_summary(entries)
    labels = dict(SignificanceEntry.Kind.choices)
    summary["by_kind_labels"] = [(labels[kind], total) for kind, total in summary["by_kind"].items()]
    by_id = {e.pk: e for e in entries}
    rows = []
    for row in missions.numbered_tally(entries):
        entry = row["entry"]
        rows.append(
            {
                **row,
                "reverses": by_id.get(entry.reverses_id),
                "item_name": SEP_NAMES.get(entry.equipment_item, ""),
            }
        )
    return rows, summary


def _entries(mission: Mission) -> list[SignificanceEntry]:
    return list(mission.tally_entries.select_related("recorded_by", "npc"))


def _mistake_form(campaign, mission, data=None) -> MistakeForm:
    npcs = NPC.objects.filter(campaign=campaign, system=tm_missions.SYSTEM).only(
        "id", "name", "significance_rating"
    )
    return MistakeForm(data, npcs=npcs, catalogue=tm_missions.sep_catalogue(mission), prefix="mistake")


def _awards(mission: Mission, names: dict[str, str]) -> list[dict]:
    return [
        {
            **award,
            "name": names.get(award["agent"], "?"),
            "reason_label": AWARD_REASONS.get(award["reason"], ""),
        }
        for award in (mission.outcome or {}).get("awards", [])
    ]


def _tally_context(campaign, membership, mission, form=None) -> dict:
    rows, summary = _tally_rows(_entries(mission))
    return {
        "campaign": campaign,
        "membership": membership,
        "mission": mission,
        "rows": rows,
        "summary": summary,
        "mistake_form": form or _mistake_form(campaign, mission),
        "reverse_form": ReverseForm(),
        "kinds": dict(SignificanceEntry.Kind.choices),
    }


# -- list, create, edit ---------------------------------------------------------------------------
@login_required
@require_GET
def mission_list(request, pk):
    campaign, membership = _campaign(request, pk)
    queryset = campaign.missions.prefetch_related(
        Prefetch("agents", queryset=Character.objects.only("id", "name", "owner_id"))
    )
    rows = []
    if membership.is_gm:
        queryset = queryset.prefetch_related(
            Prefetch(
                "tally_entries",
                queryset=SignificanceEntry.objects.only("id", "kind", "rating", "reverses_id", "mission_id"),
            )
        )
    for mission in queryset:
        row = {"mission": mission, "status": public_status(mission, membership.is_gm)}
        if membership.is_gm:
            row["mistakes_total"] = tm_missions.tally_summary(list(mission.tally_entries.all()))[
                "mistakes_total"
            ]
            row["verdict"] = tm_missions.verdict_label(mission.outcome)
        rows.append(row)
    return render(
        request,
        "campaigns/mission_list.html",
        {
            "campaign": campaign,
            "membership": membership,
            "rows": rows,
            "missions": [row["mission"] for row in rows],  # their live topics
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def mission_create(request, pk):
    campaign, membership = _campaign(request, pk, need="gm")
    agents = tm_missions.eligible_agents(campaign).select_related("owner")
    form = MissionForm(request.POST or None, agents=agents)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                mission = missions.create_mission(campaign, form.service_data())
            except ValidationError as error:
                _errors_to_form(form, error)
            else:
                messages.success(request, f"Mission “{mission.title}” planned.")
                return redirect("missions-detail", campaign.pk, mission.pk)
        status = 400
    context = {"campaign": campaign, "membership": membership, "form": form, "mission": None}
    return render(request, "campaigns/mission_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def mission_edit(request, pk, mission_pk):
    campaign, membership = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    agents = tm_missions.eligible_agents(campaign).select_related("owner")
    if mission.status != Mission.Status.PLANNED:
        agents = mission.agents.select_related("owner")
    form = MissionForm(
        request.POST or None, agents=agents, mission=mission, initial=MissionForm.initial_for(mission)
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                missions.update_mission(mission, form.service_data())
            except ValidationError as error:
                _errors_to_form(form, error)
            else:
                messages.success(request, "Mission saved.")
                return redirect("missions-detail", campaign.pk, mission.pk)
        status = 400
    context = {"campaign": campaign, "membership": membership, "form": form, "mission": mission}
    return render(request, "campaigns/mission_form.html", context, status=status)


@login_required
@require_POST
def mission_delete(request, pk, mission_pk):
    campaign, _ = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    ask = confirm_first(
        request,
        question=f"Delete the mission {mission.title}?",
        detail="The mission and its briefing are removed; this cannot be undone.",
        button="Delete mission",
        cancel=reverse("missions-detail", args=[campaign.pk, mission.pk]),
    )
    if ask:
        return ask
    try:
        missions.delete_mission(mission)
    except ValidationError as error:
        for message in missions.violation_messages(error):
            messages.error(request, message)
        return redirect("missions-detail", campaign.pk, mission.pk)
    messages.success(request, "Mission deleted.")
    return redirect("missions-list", campaign.pk)


# -- detail and the GM's actions ------------------------------------------------------------------
@login_required
@require_GET
def mission_detail(request, pk, mission_pk):
    campaign, membership = _campaign(request, pk)
    mission = _mission(campaign, mission_pk)
    return _detail(request, campaign, membership, mission)


#: A closing problem -> the field of the edit form that fixes it (issue 30: the error points there).
MISSION_ROLLS = 20  # the latest rolls of a mission on its page
CLOSE_FIXES = {"significance": ("significance_rating", "Set the significance rating")}


def _detail(request, campaign, membership, mission, close_form=None, close_errors=(), status=200):
    agents = list(mission.agents.select_related("owner"))
    context = {
        "campaign": campaign,
        "membership": membership,
        "mission": mission,
        "agents": agents,
        "status_label": public_status(mission, membership.is_gm),
        # the mission's rolls as the log shows them to this reader; the live feed adds new ones
        "rolls": live.log_lines(request.user, membership).filter(mission=mission)[:MISSION_ROLLS],
    }
    if membership.is_gm:
        names = {str(a.pk): a.name for a in agents}
        context.update(_tally_context(campaign, membership, mission))
        context.update(
            close_form=close_form or CloseForm(),
            close_errors=close_errors,
            awards=_awards(mission, names),
            verdict=tm_missions.verdict_label(mission.outcome),
            chart=mission.historical_changes_chart,
        )
    return render(request, "campaigns/mission_detail.html", context, status=status)


def _close_errors(campaign, mission, error: ValidationError) -> list[dict]:
    """Each problem that stopped the close, with a link to the field that fixes it where there is one."""
    by_field = error.message_dict if hasattr(error, "message_dict") else {"": error.messages}
    edit = reverse("missions-edit", args=[campaign.pk, mission.pk])
    errors = []
    for field, problems in by_field.items():
        fix = CLOSE_FIXES.get(field.split(".")[0])
        for message in problems:
            errors.append(
                {
                    "message": message,
                    "url": f"{edit}#id_{fix[0]}" if fix else "",
                    "fix": fix[1] if fix else "",
                }
            )
    return errors


def _back(request, campaign, mission, error: ValidationError | None = None, done: str = ""):
    if error is not None:
        for message in missions.violation_messages(error):
            messages.error(request, message)
    elif done:
        messages.success(request, done)
    return redirect("missions-detail", campaign.pk, mission.pk)


@login_required
@require_POST
def mission_start(request, pk, mission_pk):
    campaign, _ = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    try:
        warnings = missions.start_mission(mission, request.user)
    except ValidationError as error:
        return _back(request, campaign, mission, error)
    for warning in warnings:
        messages.warning(request, warning)
    return _back(request, campaign, mission, done="The agents are on their way: Times Visited recorded.")


@login_required
@require_POST
def mission_tally(request, pk, mission_pk):
    """Record a mistake. With htmx the tally section comes back; otherwise the detail page."""
    campaign, membership = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    form = _mistake_form(campaign, mission, request.POST)
    status = 200
    if form.is_valid():
        try:
            tm_missions.record_mistake(mission, request.user, form.service_data())
        except ValidationError as error:
            _errors_to_form(form, error)
            status = 400
        else:
            form = None
    else:
        status = 400
    if request.htmx:
        context = _tally_context(campaign, membership, mission, form)
        if status == 400:
            context["mistake_form"] = form
        # htmx swaps 2xx answers only: a refused entry still comes back as the section with its errors
        response = render(request, "campaigns/mission_tally.html", context)
        response["HX-Retarget"] = "#tally"
        return response
    if status == 400:
        for field, problems in form.errors.items():
            for problem in problems:
                messages.error(
                    request, f"{form.fields[field].label if field in form.fields else 'Mistake'}: {problem}"
                )
        return redirect("missions-detail", campaign.pk, mission.pk)
    return _back(request, campaign, mission, done="Mistake recorded.")


@login_required
@require_POST
def mission_reverse(request, pk, mission_pk, entry_pk):
    campaign, membership = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    form = ReverseForm(request.POST)
    if not form.is_valid():
        return _back(
            request, campaign, mission, ValidationError({"reason": ["Say why this entry is reversed."]})
        )
    try:
        tm_missions.reverse_mistake(mission, entry_pk, request.user, form.cleaned_data["reason"])
    except ValidationError as error:
        return _back(request, campaign, mission, error)
    note = " The outcome and the agents' awards were worked out again." if mission.is_closed else ""
    return _back(request, campaign, mission, done=f"Entry reversed.{note}")


@login_required
@require_POST
def mission_entry_shown(request, pk, mission_pk, entry_pk):
    campaign, _ = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    shown = request.POST.get("shown") == "1"
    try:
        missions.set_entry_shown(mission, entry_pk, shown)
    except ValidationError as error:
        return _back(request, campaign, mission, error)
    return _back(request, campaign, mission, done="Shown to players." if shown else "Hidden from players.")


@login_required
@require_POST
def mission_close(request, pk, mission_pk):
    campaign, membership = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    form = CloseForm(request.POST)
    if not form.is_valid():
        return _back(request, campaign, mission, ValidationError({"result": ["Say how the mission ended."]}))
    try:
        closed = tm_missions.close_mission(membership, mission, form.cleaned_data["result"])
    except ValidationError as error:
        if mission.status != Mission.Status.ACTIVE:
            return _back(request, campaign, mission, error)  # no close form to show it in
        # Shown in the close form, each with a link to the field that fixes it, not as a flash.
        errors = _close_errors(campaign, mission, error)
        return _detail(request, campaign, membership, mission, form, errors, status=400)
    return _back(
        request,
        campaign,
        mission,
        done=f"Mission closed: {tm_missions.verdict_label(closed.outcome)}. "
        "The agents' records change only when you publish.",
    )


@login_required
@require_POST
def mission_publish(request, pk, mission_pk):
    campaign, _ = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    ask = confirm_first(
        request,
        question=f"Publish the result of {mission.title}?",
        detail="The awards go onto the agents' records and the players can read the after-action record. "
        "If you correct the tally later, the awards are worked out again and the players see that "
        "their awards were corrected (not why).",
        button="Publish the result",
        cancel=reverse("missions-detail", args=[campaign.pk, mission.pk]),
    )
    if ask:
        return ask
    try:
        missions.publish_mission(mission, request.user)
    except ValidationError as error:
        return _back(request, campaign, mission, error)
    return _back(
        request,
        campaign,
        mission,
        done="Result published: the awards are on the agents' records and the players can read "
        "the after-action record.",
    )


# -- after-action record and audit ---------------------------------------------------------------
@login_required
@require_GET
def mission_report(request, pk, mission_pk):
    campaign, membership = _campaign(request, pk)
    mission = _mission(campaign, mission_pk)
    record = tm_missions.after_action(mission, request.user, membership.is_gm)
    rows = []
    if record:
        rows, _ = _tally_rows(record["tally"])
        for award in record["awards"]:
            award["reason_label"] = AWARD_REASONS.get(award["reason"], "")
    agents = {a.pk: a for a in mission.agents.all()} if record else {}
    for award in record["awards"] if record else []:
        build = agents[award["agent"]].build
        award["rank_grade"] = f"{build.get('rank', '?')}/{build.get('grade', '?')}"
    context = {
        "campaign": campaign,
        "membership": membership,
        "mission": mission,
        "record": record,
        "rows": rows,
        "kinds": dict(SignificanceEntry.Kind.choices),
        # The GM's picture for the GM; a player's holds only the published verdict and the lines
        # shown to players (systems/timemaster/charts.py), and nothing before publishing.
        "charts": [
            charts.for_page(chart, "gm" if membership.is_gm else "player")
            for chart in charts.mission_charts(mission, request.user, membership.is_gm)
        ]
        if record
        else [],
    }
    return render(request, "campaigns/mission_report.html", context)


@login_required
@require_GET
def mission_audit(request, pk, mission_pk):
    """Everything about one mission for the GM: tally with who and when, the roll, the verdict,
    the awards and every ledger entry the mission wrote."""
    campaign, membership = _campaign(request, pk, need="gm")
    mission = _mission(campaign, mission_pk)
    agents = list(mission.agents.all())
    entries = _entries(mission)
    rows, summary = _tally_rows(entries)
    ledger = (
        AdvancementEntry.objects.filter(mission=mission)
        .select_related("character", "recorded_by", "reverses")
        .order_by("id")
    )
    context = {
        "campaign": campaign,
        "membership": membership,
        "mission": mission,
        "rows": rows,
        "summary": summary,
        "kinds": dict(SignificanceEntry.Kind.choices),
        "outcome": mission.outcome,
        "previous_outcomes": [
            {**old, "verdict_label": tm_missions.verdict_label(old)}
            for old in mission.previous_outcomes or []
        ],
        "verdict": tm_missions.verdict_label(mission.outcome),
        "awards": _awards(mission, {str(a.pk): a.name for a in agents}),
        "roll": mission.check_roll,
        "ledger": ledger,
        "which_mattered": _which_mattered(mission, entries, {str(a.pk): a.name for a in agents}),
        "charts": [
            charts.for_page(chart, "gm") for chart in charts.mission_charts(mission, request.user, True)
        ],
    }
    return render(request, "campaigns/mission_audit.html", context)


def _which_mattered(mission: Mission, entries: list[SignificanceEntry], names: dict[str, str]) -> dict | None:
    """The closed mission worked out again without each tally line, and the fewest lines whose
    removal would have kept history intact (engine: counterfactual.py; nothing of it is stored)."""
    outcome = mission.outcome or {}
    if not mission.is_closed or not outcome:
        return None
    tally = [
        {"id": str(e.pk), "kind": "reversal", "reverses": str(e.reverses_id)}
        if e.kind == SignificanceEntry.Kind.REVERSAL
        else {"id": str(e.pk), "kind": e.kind, "rating": e.rating}
        for e in entries
    ]
    labels = dict(SignificanceEntry.Kind.choices)
    # a GM reads a line by the tally's own number (1..n on the same page), never by database id
    number = {str(row["entry"].pk): row["number"] for row in missions.numbered_tally(entries)}
    try:
        worked_out = counterfactual.without_each_line(outcome, tally)
        rescue = counterfactual.smallest_rescue(outcome, tally)
    except RuleError:  # an outcome stored before the tally it rests on was complete: say nothing
        return None
    lines = []
    for row in worked_out:
        lines.append(
            {
                **row,
                "number": number.get(row["line"]),
                "kind_label": labels.get(row["kind"], row["kind"]),
                "verdict_label": tm_missions.verdict_label(row),
                "award_text": ", ".join(
                    f"{names.get(a['agent'], '?')} {a['regular']}" for a in row["awards"]
                ),
            }
        )
    if rescue is not None:
        rescue = {
            **rescue,
            "numbers": [number.get(line) for line in rescue["lines"]],
            "verdict_label": tm_missions.verdict_label(rescue),
        }
    check = outcome.get("check") or {}
    return {
        "lines": lines,
        "rescue": rescue,
        "to_change": counterfactual.to_other_verdict(outcome.get("mistakes_total", 0), check.get("roll")),
        "history_changed": outcome.get("verdict") == "history_changed",
        "checked": check.get("roll") is not None,
    }


@login_required
@require_GET
def campaign_mission_audit(request, pk):
    """Every mission of the campaign side by side: pool, mistakes total, verdict and awards,
    filtered by agent and by the date it closed."""
    campaign, membership = _campaign(request, pk, need="gm")
    all_agents = Character.objects.filter(campaign=campaign, system=tm_missions.SYSTEM).exclude(
        status=Character.Status.DRAFT
    )
    form = AuditFilterForm(request.GET or None, agents=all_agents)
    queryset = campaign.missions.prefetch_related(
        Prefetch("agents", queryset=Character.objects.only("id", "name")),
        Prefetch(
            "tally_entries",
            queryset=SignificanceEntry.objects.only("id", "kind", "rating", "reverses_id", "mission_id"),
        ),
    ).select_related("check_roll")
    status = 200
    if form.is_bound and not form.is_valid():
        status = 400
    elif form.is_bound:
        data = form.cleaned_data
        if data.get("agent"):
            queryset = queryset.filter(agents=data["agent"])
        if data.get("closed_from"):
            queryset = queryset.filter(closed_at__date__gte=data["closed_from"])
        if data.get("closed_to"):
            queryset = queryset.filter(closed_at__date__lte=data["closed_to"])
    rows = []
    for mission in queryset:
        outcome = mission.outcome or {}
        names = {str(a.pk): a.name for a in mission.agents.all()}
        rows.append(
            {
                "mission": mission,
                "mistakes_total": tm_missions.tally_summary(list(mission.tally_entries.all()))[
                    "mistakes_total"
                ],
                "pool": outcome.get("pool"),
                "remainder": outcome.get("remainder"),
                "verdict": tm_missions.verdict_label(outcome),
                "awards": _awards(mission, names),
                "agents": list(mission.agents.all()),
            }
        )
    context = {"campaign": campaign, "membership": membership, "form": form, "rows": rows}
    return render(request, "campaigns/mission_campaign_audit.html", context, status=status)
