"""Web pages of Time to Kill mission runs: the campaign's runs (and the GM's form to start one), the
GM console, the player's view, the htmx panel both refresh, and the replayable history.

The GM console is drawn from the engine's gm_view; every other member's page only from the engine's
player_view, so nothing secret can reach a player's HTML.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.models import Mission, Role
from characters.models import Character
from kernel.confirm import confirm_first
from systems.time_to_kill import access, services
from systems.time_to_kill.access import get_campaign_for_user
from systems.time_to_kill.engine.mission import available_actions
from systems.time_to_kill.engine.tables import ABILITIES, FATES, GM, MAX_LONG_TEXT, OUTCOMES, STEPS
from systems.time_to_kill.engine.visibility import fate_record_sheet, player_view
from systems.time_to_kill.models import MissionRun

TARGET_LABEL = {"bag": "in the bag", "in_sight": "in sight", "out": "taken"}
POLL_SECONDS = 3


def _outcome_label(outcome: str) -> str:
    return services.ABANDONED_LABEL if outcome == services.ABANDONED else OUTCOMES.get(outcome, "")


# -- starting a run ----------------------------------------------------------------------------
class StartRunForm(forms.Form):
    ninja = forms.ModelChoiceField(queryset=Character.objects.none(), label="Ninja")
    title = forms.CharField(label="Title", max_length=200, required=False)
    mission = forms.ModelChoiceField(
        queryset=Mission.objects.none(), label="Campaign mission (optional)", required=False
    )
    mission_stones = forms.IntegerField(
        label="Stones in the bag", min_value=1, max_value=200, help_text="The target stone is added on top."
    )
    brief = forms.CharField(
        label="Brief (told to the player)",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=MAX_LONG_TEXT,
        required=False,
    )
    victory_conditions = forms.CharField(
        label="Victory conditions (told to the player)",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=MAX_LONG_TEXT,
        required=False,
    )
    escape_required = forms.BooleanField(label="Escape is part of victory", required=False)
    gm_notes = forms.CharField(
        label="GM notes (never shown to players)",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=MAX_LONG_TEXT,
        required=False,
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ninja"].queryset = Character.objects.filter(campaign=campaign, status="active")
        self.fields["mission"].queryset = Mission.objects.filter(campaign=campaign)
        self.fields["mission_stones"].initial = (campaign.settings or {}).get("mission_stones", 25)


@login_required
@require_http_methods(["GET", "POST"])
def run_list(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    is_gm = membership.role == Role.GM
    form = StartRunForm(campaign=campaign) if is_gm else None
    status = 200
    if request.method == "POST":
        campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
        form = StartRunForm(request.POST, campaign=campaign)
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                run = services.start_run(
                    membership,
                    ninja=data["ninja"].pk,
                    title=data["title"],
                    mission=data["mission"].pk if data["mission"] else None,
                    mission_stones=data["mission_stones"],
                    briefing={key: data[key] for key in services.BRIEFING_FIELDS},
                )
            except ValidationError as error:
                for field, messages_ in error.message_dict.items():
                    for message in messages_:
                        form.add_error(field if field in form.fields else None, message)
            else:
                return redirect("ttk-run", run.pk)
    runs = MissionRun.objects.filter(campaign=campaign).select_related("ninja", "mission")
    rows = [
        {"run": run, "side": access.side_of(run, membership), "outcome": _outcome_label(run.outcome)}
        for run in runs
    ]
    context = {"campaign": campaign, "membership": membership, "rows": rows, "form": form, "is_gm": is_gm}
    return render(request, "ttk_missions/run_list.html", context, status=status)


# -- action forms from the engine's available_actions ------------------------------------------
def _choice_label(name: str, value, state_view: dict) -> str:
    if name in ("fate", "fates"):
        return FATES[value]["label"]
    if name == "ability":
        rating = next((a["current"] for a in state_view["ninja"]["abilities"] if a["key"] == value), "")
        return f"{ABILITIES[value]['name']} ({rating})"
    return str(value)


BOOL_LABELS = {
    "rushed": "Rushed (no stone leaves at the end of the turn; a Fate drops next turn)",
    "objective": "Go for the objective (the target is in sight)",
}
TEXT_LABELS = {
    "justification": "Why this Fate improves (optional)",
    "text": "Scene (no numbers)",
    "description": "What the ninja does (optional)",
}


def action_forms(actions: list[dict], state_view: dict) -> list[dict]:
    """One small form per open event, its fields drawn from the engine's option specs."""
    out = []
    for action in actions:
        fields = []
        for name, spec in action["options"].items():
            field_id = f"{action['type']}-{name}"
            if "choices" in spec and set(spec["choices"]) <= {False, True}:
                if True in spec["choices"]:
                    fields.append(
                        {
                            "kind": "checkbox",
                            "name": name,
                            "id": field_id,
                            "label": BOOL_LABELS.get(name, name),
                        }
                    )
            elif "choices" in spec:
                options = [(value, _choice_label(name, value, state_view)) for value in spec["choices"]]
                label = "Fate" if name == "fate" else "Ability" if name == "ability" else name
                fields.append(
                    {"kind": "select", "name": name, "id": field_id, "label": label, "options": options}
                )
            elif "subset_of" in spec:
                options = [(value, _choice_label(name, value, state_view)) for value in spec["subset_of"]]
                fields.append(
                    {
                        "kind": "checkboxes",
                        "name": name,
                        "id": field_id,
                        "label": "Fates the action faces",
                        "options": options,
                    }
                )
            elif "permutation_of" in spec:
                values = sorted(set(spec["permutation_of"]), key="-0+".index)
                # Each select starts on the die rolled in its place (the dice in the order rolled, one
                # per key), so the placement as it comes is one the engine accepts; the GM rearranges.
                rolled = list(spec["permutation_of"])
                for index, key in enumerate(spec["keys"]):
                    fields.append(
                        {
                            "kind": "select",
                            "name": f"{name}__{key}",
                            "id": f"{field_id}-{key}",
                            "label": FATES[key]["label"],
                            "options": [(v, v) for v in values],
                            "initial": rolled[index] if index < len(rolled) else None,
                        }
                    )
            elif spec.get("text"):
                fields.append(
                    {
                        "kind": "text",
                        "name": name,
                        "id": field_id,
                        "label": TEXT_LABELS.get(name, name),
                        "max_length": spec.get("max_length", MAX_LONG_TEXT),
                    }
                )
        out.append({"type": action["type"], "label": action["label"], "fields": fields})
    return out


def event_from_post(post, actions: list[dict]) -> dict:
    """The event the form describes, read by the option specs of the event it names."""
    kind = post.get("type", "")
    action = next((a for a in actions if a["type"] == kind), None)
    event = {"type": kind}
    if action is None:
        return event  # the engine refuses it with a clear message
    for name, spec in action["options"].items():
        if "choices" in spec and set(spec["choices"]) <= {False, True}:
            event[name] = post.get(name) in ("on", "true", "1")
        elif "choices" in spec:
            if name in post:
                event[name] = post.get(name)
        elif "subset_of" in spec:
            event[name] = post.getlist(name)
        elif "permutation_of" in spec:
            event[name] = {key: post.get(f"{name}__{key}", "") for key in spec["keys"]}
        elif spec.get("text"):
            event[name] = post.get(name, "")
    return event


# -- the run page and its panel ----------------------------------------------------------------
def _gm_context(run: MissionRun) -> dict:
    view = services.gm_state(run)
    sheet = view["fate_record_sheet"]
    seen_by_player = player_view(run.state, run.ninja_id_in_engine)
    return {
        "ninja": seen_by_player["ninja"],
        "view": view,
        "sheet": sheet,
        "target": TARGET_LABEL[view["bag"]["target"]],
        "forms": action_forms(view["available_actions"]["gm"], seen_by_player),
        "player_waiting": [a["label"] for a in view["available_actions"]["player"]],
        "log": list(reversed(view["log"])),
        "outcome_label": OUTCOMES.get(view["outcome"] or "", ""),
        "step": STEPS[view["step"]],
    }


def _player_context(run: MissionRun, side: str | None) -> dict:
    view = services.player_state(run)
    forms_ = action_forms(view["available_actions"], view) if side == access.PLAYER else []
    return {"view": view, "forms": forms_, "log": list(reversed(view["log"]))}


def _panel_context(request, run, membership, error: str = "") -> dict:
    side = access.side_of(run, membership)
    context = {
        "run": run,
        "campaign": run.campaign,
        "membership": membership,
        "side": side,
        "error": error,
        "poll_seconds": POLL_SECONDS,
        "your_move": side is not None and services.whose_side(run) == side,
        "abandoned": run.outcome == services.ABANDONED,
        "abandoned_label": services.ABANDONED_LABEL,
    }
    context.update(_gm_context(run) if side == access.GM else _player_context(run, side))
    if context["abandoned"]:
        context.update(forms=[], player_waiting=[], your_move=False)
    return context


def _panel_template(side) -> str:
    return "ttk_missions/_gm_panel.html" if side == access.GM else "ttk_missions/_player_panel.html"


@login_required
def run_page(request, pk):
    run, membership = access.get_run_for_user(request.user, pk)
    context = _panel_context(request, run, membership)
    context["panel_template"] = _panel_template(context["side"])
    return render(request, "ttk_missions/run.html", context)


@login_required
def run_panel(request, pk):
    """The panel alone, for htmx polling: 204 (nothing to swap) while the run has not moved."""
    run, membership = access.get_run_for_user(request.user, pk)
    if request.GET.get("after") == str(run.event_count) and run.status == MissionRun.Status.RUNNING:
        return HttpResponse(status=204)
    context = _panel_context(request, run, membership)
    return render(request, _panel_template(context["side"]), context)


@login_required
@require_POST
def run_move(request, pk):
    run, membership = access.get_run_for_user(request.user, pk, need="move")
    side = access.side_of(run, membership)
    who = GM if side == access.GM else run.ninja_id_in_engine
    event = event_from_post(request.POST, available_actions(run.state, who))
    error, status = "", 200
    try:
        services.post_event(run, request.user, side, event, expected_count=request.POST.get("after"))
    except services.StaleMove as stale:
        error, status = " ".join(stale.messages), 409
        run.refresh_from_db()
    except ValidationError as refusal:
        error, status = " ".join(f"{m}" for m in refusal.messages), 400
    if not request.htmx and status == 200:
        return redirect("ttk-run", run.pk)
    context = _panel_context(request, run, membership, error=error)
    if request.htmx:
        return render(request, _panel_template(side), context, status=status)
    context["panel_template"] = _panel_template(side)
    return render(request, "ttk_missions/run.html", context, status=status)


@login_required
@require_POST
def run_abandon(request, pk):
    run, membership = access.get_run_for_user(request.user, pk, need="gm")
    ask = confirm_first(
        request,
        question=f"Abandon {run.title}?",
        detail="The ninja gets no result and is free for another mission.",
        button="Abandon the mission",
        cancel=reverse("ttk-run", args=[run.pk]),
    )
    if ask:
        return ask
    try:
        services.abandon_run(run, membership)
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    else:
        messages.success(request, f"{run.title} was abandoned; {run.ninja.name} is free for another mission.")
    return redirect("ttk-run", run.pk)


# -- history -----------------------------------------------------------------------------------
def _words(value: Any) -> str:
    """An event's parameter as a GM reads it: yes/no, not True/False; words, not codes."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{_words(k)} {_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value)
    return str(value).replace("_", " ")


@login_required
def run_history(request, pk):
    """Every event with its dice (the GM) or its public lines (everyone else); ?at=N replays the
    log to just after event N and shows the mission as it stood then (from each side's own view)."""
    run, membership = access.get_run_for_user(request.user, pk)
    side = access.side_of(run, membership)
    is_gm = side == access.GM
    events = list(run.events.select_related("actor").order_by("seq"))
    at = request.GET.get("at")
    replayed, error = None, ""
    if at not in (None, ""):
        try:
            count = int(at)
            if not 0 <= count <= len(events):
                raise ValueError
        except ValueError:
            error = f"'at' is an event number from 0 to {len(events)}."
        else:
            state = services.state_after(run, count, events)
            if is_gm:
                replayed = {"count": count, "gm": True, "sheet": fate_record_sheet(state), "state": state}
            else:
                replayed = {"count": count, "gm": False, "view": player_view(state, run.ninja_id_in_engine)}
    rows = []
    for row in events:
        item = {"row": row, "type": row.event["type"].replace("_", " "), "log": row.public_log}
        if is_gm:
            results = row.event.get("results") or {}
            item.update(
                gm_log=row.gm_log,
                params={
                    _words(k): _words(v) for k, v in row.event.items() if k not in ("type", "by", "results")
                },
                results=results,
            )
        else:
            roll = (row.event.get("results") or {}).get("roll")
            item["roll"] = roll  # the action d6 is rolled in the open; the Fate dice are not
            drawn = (row.event.get("results") or {}).get("drawn")
            item["drawn"] = drawn
        rows.append(item)
    context = {
        "run": run,
        "campaign": run.campaign,
        "membership": membership,
        "is_gm": is_gm,
        "rows": rows,
        "replayed": replayed,
        "error": error,
        "outcome_label": _outcome_label(run.outcome),
    }
    return render(request, "ttk_missions/history.html", context, status=400 if error else 200)
