"""Web pages of Tempo play: the roll panel of an agent's page, and the conflict tracker (htmx).

Objects come through the access helpers; the rules and the writes are in the engine and in
systems/tempo/services.py.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.models import Role, Roll
from campaigns.table import fairness
from characters.models import Character
from characters.systems import get_system
from kernel.confirm import confirm_first
from systems.tempo import access, services
from systems.tempo.access import get_campaign_for_user
from systems.tempo.forms import SPEND_CHOICES, ConflictForm, FateGainForm, TempoRollForm
from systems.tempo.models import Conflict

RECENT_ROLLS = 5


# -- the roll panel --------------------------------------------------------------------------------
def _tempo_agent(request, pk):
    character, membership = access.get_agent_for_user(request.user, pk)
    if character.is_draft:
        raise Http404("No such Tempo agent.")
    campaign_membership = membership
    if not services.may_roll_for(character, campaign_membership):
        raise PermissionDenied("Only the agent's player or the game master rolls for this agent.")
    return character, membership


def panel_context(character, membership, user, form=None, last_roll=None, fate_form=None):
    """What the roll panel shows (also used by the character page's template tag)."""
    system = get_system("tempo")
    sheet = system.sheet(character.build).fields
    derived = system.derive(character.build)
    recent = list(
        Roll.objects.visible_to(user, membership)
        .filter(character=character)
        .filter(services.tempo_rolls())[:RECENT_ROLLS]
    )
    return {
        "character": character,
        "membership": membership,
        "can_roll": services.may_roll_for(character, membership),
        "is_gm": membership.role == Role.GM,
        "form": form or TempoRollForm(sheet=sheet, substitutions=derived["substitutions"]),
        "fate_form": fate_form or FateGainForm(),
        "fate_points": character.build.get("fate_points", 0),
        "last_roll": last_roll,
        "recent_rolls": recent,
    }


@login_required
@require_http_methods(["GET", "POST"])
def roll_panel(request, pk):
    character, membership = _tempo_agent(request, pk)
    status, form, last_roll = 200, None, None
    if request.method == "POST":
        system = get_system("tempo")
        derived = system.derive(character.build)
        sheet = system.sheet(character.build).fields
        form = TempoRollForm(request.POST, sheet=sheet, substitutions=derived["substitutions"])
        status = 400
        if form.is_valid():
            role, engine_request, instead_of, purpose = form.as_request()
            try:
                last_roll, _ = services.roll_for_character(
                    membership, character, role, engine_request, instead_of=instead_of, purpose=purpose
                )
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    for problem in problems:
                        name = TempoRollForm.field_for(field)
                        form.add_error(name if name in form.fields else None, problem)
            else:
                status = 200
                form = TempoRollForm(
                    sheet=sheet, substitutions=derived["substitutions"], initial={"role": role}
                )
                if not request.htmx:
                    messages.success(request, f"Rolled {last_roll.total}: {last_roll.detail['band_name']}.")
                    return redirect("character-detail", character.pk)
    context = panel_context(character, membership, request.user, form=form, last_roll=last_roll)
    # htmx GET: the panel fetches itself after a roll from the page's popovers ("sheet-rolled"),
    # with the agent card's fate points beside it (out of band)
    context["sheet_rolled"] = request.method == "GET" and bool(request.htmx)
    template = "tempo_conflicts/_roll_panel.html" if request.htmx else "tempo_conflicts/roll_page.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def fate_gain(request, pk):
    character, membership = access.get_agent_for_user(request.user, pk, need="gm")
    if character.is_draft:
        raise Http404("No such Tempo agent.")
    form = FateGainForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            services.gain_fate_point(
                membership, character, form.cleaned_data["reason"], form.cleaned_data["note"]
            )
        except ValidationError as error:
            for problems in error.message_dict.values():
                for problem in problems:
                    form.add_error(None, problem)
        else:
            status, form = 200, None
            if not request.htmx:
                messages.success(request, f"{character.name} gains a fate point.")
                return redirect("character-detail", character.pk)
    context = panel_context(character, membership, request.user, fate_form=form)
    context["fate_changed"] = status == 200
    template = "tempo_conflicts/_roll_panel.html" if request.htmx else "tempo_conflicts/roll_page.html"
    return render(request, template, context, status=status)


# -- conflicts -------------------------------------------------------------------------------------
def _tempo_campaign(request, pk, need="member"):
    return get_campaign_for_user(request.user, pk, need=need)


def _agents(campaign):
    return Character.objects.filter(campaign=campaign, system="tempo").exclude(status=Character.Status.DRAFT)


@login_required
def conflict_list(request, pk):
    campaign, membership = _tempo_campaign(request, pk)
    if membership.role == Role.OBSERVER:
        raise PermissionDenied(access.NOT_INVOLVED)
    conflicts = Conflict.objects.visible_to(request.user, membership)
    is_gm = membership.role == Role.GM
    context = {
        "campaign": campaign,
        "membership": membership,
        "conflicts": conflicts,
        "is_gm": is_gm,
        "refresh_rule": services.refresh_rule(services.campaign_settings(campaign)) if is_gm else "",
    }
    return render(request, "tempo_conflicts/list.html", context)


@login_required
@require_POST
def fate_refresh(request, pk):
    """The GM's "refresh fate points" button on the conflicts page: every active agent gets the
    campaign's refresh; the message lists each agent's fate points before and after."""
    campaign, membership = _tempo_campaign(request, pk, need="gm")
    try:
        result = services.refresh_fate_points(membership)
    except ValidationError as error:
        for problems in error.message_dict.values():
            for problem in problems:
                messages.error(request, problem)
        return redirect("tempo-conflict-list", campaign.pk)
    if result.changes:
        moved = "; ".join(f"{c.character.name} {c.before} → {c.after}" for c in result.changes)
        messages.success(request, f"Fate points refreshed ({result.rule}): {moved}.")
    elif result.fate_refresh == 0:
        messages.info(request, "No agent gained fate points: this campaign's fate point refresh is 0.")
    elif not result.unchanged:
        messages.info(request, "This campaign has no active agents to refresh.")
    if result.unchanged and result.fate_refresh > 0:
        kept = "; ".join(f"{c.character.name} {c.before}" for c in result.unchanged)
        messages.info(request, f"Already at or above the refresh level, unchanged: {kept}.")
    return redirect("tempo-conflict-list", campaign.pk)


@login_required
@require_http_methods(["GET", "POST"])
def conflict_new(request, pk):
    campaign, membership = _tempo_campaign(request, pk, need="gm")
    form = ConflictForm(request.POST or None, agents=_agents(campaign))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                conflict = services.create_conflict(membership, form.as_data())
            except ValidationError as error:
                for problems in error.message_dict.values():
                    for problem in problems:
                        form.add_error(None, problem)
            else:
                messages.success(request, f"Conflict “{conflict.title}” starts at Even.")
                return redirect("tempo-conflict-detail", conflict.pk)
    context = {"campaign": campaign, "membership": membership, "form": form}
    return render(request, "tempo_conflicts/new.html", context, status=status)


def tracker_context(conflict, membership, user, errors=()):
    settings = services.campaign_settings(conflict.campaign)
    state = access.view_of(conflict, membership, settings)
    from systems.tempo.engine import conflict as engine_conflict

    participants = list(conflict.participants.select_related("character"))
    mine = services.sides_of(conflict, user) if membership.role == Role.PLAYER else set()
    is_gm = membership.role == Role.GM
    sides = []
    for row in engine_conflict.tracker(state)["sides"]:
        people = [p for p in participants if p.side == row["key"]]
        agents = [
            {
                "pk": p.character.pk,
                "name": p.character.name,
                "roles": get_system("tempo").derive(p.character.build)["roles"],
            }
            for p in people
            if p.character_id
        ]
        sides.append(
            {
                **row,
                "people": people,
                "agents": agents,
                "mine": row["key"] in mine,
                "holds": state["tempo"]["holder"] == row["key"],
                **(_roll_defaults(state, row, agents) if is_gm else {}),
            }
        )
    events = [
        {"event": e, "summary": services.reader_summary(e, state), "totals": _totals(state, e.seq)}
        for e in conflict.events.select_related("recorded_by")
    ]
    return {
        "conflict": conflict,
        "campaign": conflict.campaign,
        "membership": membership,
        "is_gm": is_gm,
        "state": state,
        "track": engine_conflict.tracker(state),
        "sides": sides,
        "events": list(reversed(events)),
        "errors": errors,
        "spend_choices": [
            (v, label)
            for v, label in SPEND_CHOICES
            if v.split(":")[0]
            in {
                "edge": ["edge"],
                "advantage": ["advantage", "edge"],
                "decisive": ["decisive", "advantage", "edge"],
            }.get(state["tempo"]["level"], [])
        ],
        "can_spend": state["tempo"]["holder"] is not None and (is_gm or state["tempo"]["holder"] in mine),
        "mine": mine,
        "levels": ["even", "edge", "advantage", "decisive"],
    }


def _totals(state: dict, seq: int) -> list[str]:
    """Each side's total in a round, as this member may see it (GM sides' hidden from players)."""
    log = state["log"]
    record = log[seq - 1] if 0 < seq <= len(log) else None
    if not record or record.get("type") != "roll":
        return []
    out = []
    for key in state["order"]:
        total, extra = record["totals"][key], record["superiority"].get(key, 0)
        shown = "hidden" if total is None else f"{total}{f' +{extra} superiority' if extra else ''}"
        out.append(f"{state['sides'][key]['name']} {shown}")
    return out


@login_required
def conflict_detail(request, pk):
    conflict, membership = access.get_conflict_for_user(request.user, pk)
    context = tracker_context(conflict, membership, request.user)
    if not request.htmx:  # the conflict's own secret key, committed before any of its rolls
        context["dice_scope"] = fairness.open_scope(conflict.campaign, conflict.dice_scope)
    template = "tempo_conflicts/_tracker.html" if request.htmx else "tempo_conflicts/detail.html"
    return render(request, template, context)


def _int(value, field):
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationError(
            {field: [f"{field.replace('_', ' ').capitalize()} must be a whole number."]}
        ) from None


def _roll_defaults(state: dict, side: dict, agents: list[dict]) -> dict:
    """What the GM's round form starts with for a side, so that nothing rolls at a rating nobody
    chose (a new-user walk rolled both sides at 0): a side with characters, its first character's
    best-rated role; the rating, the one this side last rolled with (the GM's own view of the log),
    else nothing, and a side of NPCs only must be given one."""
    best = None
    for agent in agents:
        for role in agent["roles"]:
            if role.get("rank") and (best is None or role["modifier"] > best[1]):
                best = (f"{agent['pk']}:{role['key']}", role["modifier"])
        if best is not None:
            break
    rating = None
    for record in reversed(state.get("log") or []):
        result = (record.get("results") or {}).get(side["key"]) if record.get("type") == "roll" else None
        if (
            isinstance(result, dict)
            and result.get("role") == side["name"]
            and isinstance(result.get("rating"), int)
        ):
            rating = result["rating"]
            break
    return {"default_who": best[0] if best else "", "default_rating": rating}


def event_from_post(post, order) -> dict:
    """The tracker's forms as an engine event (the API takes the same shape as JSON)."""
    kind = post.get("type", "")
    event: dict = {"type": kind}
    if kind == "roll":
        sides = {}
        for key in order:
            spec = {}
            for name in ("bonus_dice", "penalty_dice", "rating"):
                value = _int(post.get(f"{key}_{name}"), f"{key}_{name}")
                if value is not None:
                    spec[name] = value
            who = post.get(f"{key}_who", "")
            if who:
                character, _, role = who.partition(":")
                spec["character"] = _int(character, f"{key}_who")
                spec["role"] = role
            sides[key] = spec
        event["sides"] = sides
    elif kind == "spend":
        tier, _, benefit = post.get("benefit", "").partition(":")
        event.update(side=post.get("side"), tier=tier, benefit=benefit)
        for name in ("aspect", "note", "goal"):
            if post.get(name):
                event[name] = post[name]
    elif kind in ("concede",):
        event.update(side=post.get("side"), terms=post.get("terms", ""))
    elif kind == "refuse_concession":
        event["side"] = post.get("side")
    elif kind in ("veto_concession", "end"):
        event["reason"] = post.get("reason", "")
    elif kind == "set_superiority":
        event.update(side=post.get("side"), values=[_int(post.get("value"), "value") or 0])
    elif kind == "set_cap":
        event.update(side=post.get("side"), max_level=post.get("max_level"))
    return event


@login_required
@require_POST
def conflict_event(request, pk):
    conflict, membership = access.get_conflict_for_user(request.user, pk)
    if request.POST.get("type") == "end":
        ask = confirm_first(
            request,
            question="End the conflict?",
            detail="The conflict is over for everyone; no more exchanges can be recorded in it.",
            button="End the conflict",
            cancel=reverse("tempo-conflict-detail", args=[conflict.pk]),
        )
        if ask:
            return ask
    errors: list[str] = []
    status = 200
    try:
        event = event_from_post(request.POST, conflict.state["order"])
        services.add_event(membership, conflict, event)
    except ValidationError as error:
        status = 400
        errors = [m for problems in error.message_dict.values() for m in problems]
    if not request.htmx:
        for message in errors:
            messages.error(request, message)
        return redirect("tempo-conflict-detail", conflict.pk)
    context = tracker_context(conflict, membership, request.user, errors=errors)
    return render(request, "tempo_conflicts/_tracker.html", context, status=status)
