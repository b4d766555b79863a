"""Web pages of D6 encounters: the campaign's encounter list, and one encounter's page with the
GM's tracker (or the players' view) in a panel that htmx refreshes after every form.

Forms only collect input; ``event_from_form`` turns it into an engine event and the engine
checks it (``services.record_event``). Refusals are shown in the panel with status 400.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from characters import display_names
from characters.models import Character
from kernel.confirm import confirm_first
from systems.d6 import presenters, services
from systems.d6.access import get_campaign_for_user
from systems.d6.engine.tables import ACTIONS, INITIATIVE_METHODS, MOVE_UP_REASONS, NON_ACTION_ROLLS
from systems.d6.models import Encounter

POLL_SECONDS = 4
INT_FIELDS = {"actions": "Number of actions", "character_points": "Character Points"}
TEXT_FIELDS = (
    "participant",
    "action",
    "trait",
    "attribute",
    "penalty",
    "result",
    "reason",
    "member",
    "from",
    "code",
    "note",
)


def _campaign(request, pk, need="member"):
    return get_campaign_for_user(request.user, pk, need=need)


def _encounter(request, pk, encounter_pk, need="member"):
    campaign, membership = _campaign(request, pk, need)
    encounter = Encounter.objects.filter(campaign=campaign, pk=encounter_pk).first()
    if encounter is None:
        raise Http404("No such encounter.")
    return campaign, membership, encounter


def _errors(error: ValidationError) -> list[str]:
    return display_names.error_messages(error)


# -- list -----------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def encounter_list(request, pk):
    campaign, membership = _campaign(request, pk)
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        if not membership.is_gm:
            raise PermissionDenied("Only the game master of this campaign can do this.")
        try:
            encounter = services.create_encounter(
                campaign,
                request.user,
                name=request.POST.get("name", ""),
                method=request.POST.get("method") or None,
                optional_initiative_bonus=request.POST.get("optional_initiative_bonus") == "on",
            )
        except ValidationError as error:
            errors, status = _errors(error), 400
        else:
            messages.success(request, f"Encounter {encounter.name} created: add its participants.")
            return redirect("d6-encounter-detail", campaign.pk, encounter.pk)
    defaults = services.campaign_defaults(campaign)
    context = {
        "campaign": campaign,
        "membership": membership,
        "is_gm": membership.is_gm,
        "encounters": campaign.d6_encounters.all(),
        "methods": INITIATIVE_METHODS,
        "default_method": request.POST.get("method") or defaults["initiative_method"],
        "default_bonus": defaults["optional_initiative_bonus"],
        "errors": errors,
    }
    return render(request, "d6_encounters/list.html", context, status=status)


# -- one encounter --------------------------------------------------------------------------------
def _panel_context(request, campaign, membership, encounter, errors=()):
    context: dict[str, Any] = {
        "campaign": campaign,
        "membership": membership,
        "encounter": encounter,
        "is_gm": membership.is_gm,
        "errors": list(errors),
        "poll_seconds": POLL_SECONDS,
        "actions": [
            (key, a["name"], ", ".join(a["skills"])) for key, a in ACTIONS.items() if key != "waiting"
        ],
        "move_up_reasons": MOVE_UP_REASONS,
        "roll_kinds": NON_ACTION_ROLLS,
    }
    if encounter.status == Encounter.Status.SETUP:
        context["participants"] = presenters.setup_rows(encounter, membership.is_gm)
        if membership.is_gm:
            taken = encounter.participants.exclude(character=None).values_list("character_id", flat=True)
            context["available_characters"] = (
                Character.objects.filter(campaign=campaign, system="d6", status=Character.Status.ACTIVE)
                .exclude(pk__in=taken)
                .select_related("owner")
            )
        return context
    state = encounter.state
    if membership.is_gm:
        view = presenters.gm_view(encounter)
        context["view"] = view
        acting = view["acting_now"]
        context["acting"] = state["participants"][acting] if acting else None
        context["traits"] = presenters.traits_of(state, acting) if acting else []
        context["all_participants"] = [(pid, p["name"]) for pid, p in state["participants"].items()]
        context["waiting"] = [
            (pid, p["name"])
            for pid, p in view["participants"].items()
            if p["waiting"] and p["remaining"] and not p["incapacitated"]
        ]
        context["rolls_initiative"] = INITIATIVE_METHODS[state["method"]]["rolls"]
    else:
        keys = presenters.own_keys(encounter, request.user)
        view = presenters.player_view(encounter, keys)
        context["view"] = view
        acting = view["acting_now"]
        mine = acting if acting in keys and membership.role == "player" else None
        context["acting"] = state["participants"][mine] if mine else None
        context["traits"] = presenters.traits_of(state, mine) if mine else []
        context["waiting"] = [
            (pid, row["name"])
            for pid, row in ((r["id"], r) for r in view["order"])
            if row.get("mine") and row.get("waiting") and row.get("remaining") and not row["incapacitated"]
        ]
    return context


@login_required
def encounter_detail(request, pk, encounter_pk):
    campaign, membership, encounter = _encounter(request, pk, encounter_pk)
    return render(
        request, "d6_encounters/detail.html", _panel_context(request, campaign, membership, encounter)
    )


@login_required
def encounter_panel(request, pk, encounter_pk):
    campaign, membership, encounter = _encounter(request, pk, encounter_pk)
    return render(
        request, "d6_encounters/_panel.html", _panel_context(request, campaign, membership, encounter)
    )


def _answer(request, campaign, membership, encounter, errors=(), status=200) -> HttpResponse:
    """The panel for htmx, or the whole page otherwise (a plain form post redirects on success).
    After a refusal the forms keep what was typed (``posted``)."""
    encounter.refresh_from_db()
    context = _panel_context(request, campaign, membership, encounter, errors)
    if status != 200:
        context["posted"] = request.POST
    if request.htmx:
        return render(request, "d6_encounters/_panel.html", context, status=status)
    if status == 200:
        return redirect("d6-encounter-detail", campaign.pk, encounter.pk)
    return render(request, "d6_encounters/detail.html", context, status=status)


def npc_from_form(data) -> dict[str, Any]:
    """The NPC form as the engine's participant input. Extra skills are typed one per line as
    ``name, attribute, code``; the engine checks every code and names the field it refuses."""
    attributes = {
        "Perception": data.get("perception", "").strip(),
        "Reflexes": data.get("reflexes", "").strip(),
    }
    for number, line in enumerate(data.get("other_attributes", "").splitlines(), start=1):
        if line.strip():
            name, colon, code = line.partition(":")
            if not colon or not name.strip():
                raise ValidationError(
                    {
                        "other_attributes": [
                            f"Line {number}: write an attribute as name: code (like Strength: 3D)."
                        ]
                    }
                )
            attributes[name.strip()] = code.strip()
    skills: dict[str, Any] = {}
    for key, attribute in (("search", "Perception"), ("dodge", "Reflexes")):
        code = data.get(key, "").strip()
        if code:
            skills[key] = {"attribute": attribute, "code": code}
    for number, line in enumerate(data.get("other_skills", "").splitlines(), start=1):
        if not line.strip():
            continue
        parts = [part.strip() for part in line.split(",")]
        if len(parts) != 3 or not all(parts):
            raise ValidationError(
                {
                    "other_skills": [
                        f"Line {number}: write a skill as name, attribute, code "
                        "(like brawling, Reflexes, 4D)."
                    ]
                }
            )
        skills[parts[0]] = {"attribute": parts[1], "code": parts[2]}
    result: dict[str, Any] = {
        "kind": data.get("kind", "npc"),
        "name": data.get("name", ""),
        "attributes": attributes,
        "skills": skills,
        "goes_first": data.get("goes_first") == "on",
    }
    allotment = data.get("action_allotment", "").strip()
    if allotment:
        result["action_allotment"] = _int(allotment, "action_allotment", "Action allotment")
    members = [m.strip() for m in data.get("members", "").split(",") if m.strip()]
    if members:
        result["members"] = members
    return result


def _int(value: str, field: str, label: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationError({field: [f"{label} must be a whole number, not {value[:20]!r}."]}) from None


@login_required
@require_POST
def participant_add(request, pk, encounter_pk):
    campaign, membership, encounter = _encounter(request, pk, encounter_pk, need="gm")
    try:
        if request.POST.get("character"):
            services.add_character(encounter, request.POST["character"])
        else:
            services.add_npc(encounter, npc_from_form(request.POST))
    except ValidationError as error:
        return _answer(request, campaign, membership, encounter, _errors(error), 400)
    return _answer(request, campaign, membership, encounter)


@login_required
@require_POST
def participant_remove(request, pk, encounter_pk, participant_pk):
    campaign, membership, encounter = _encounter(request, pk, encounter_pk, need="gm")
    participant = encounter.participants.filter(pk=participant_pk).first()
    if participant is None:
        raise Http404("No such participant.")
    try:
        services.remove_participant(participant)
    except ValidationError as error:
        return _answer(request, campaign, membership, encounter, _errors(error), 400)
    return _answer(request, campaign, membership, encounter)


@login_required
@require_POST
def encounter_start(request, pk, encounter_pk):
    campaign, membership, encounter = _encounter(request, pk, encounter_pk, need="gm")
    try:
        services.start_encounter(encounter)
    except ValidationError as error:
        return _answer(request, campaign, membership, encounter, _errors(error), 400)
    return _answer(request, campaign, membership, encounter)


def event_from_form(data, state: dict[str, Any]) -> dict[str, Any]:
    """A posted form as an engine event: numbers read, empty fields left out, per-participant
    fields (``cp_<id>``, ``place_<id>``) and checkboxes gathered."""
    event: dict[str, Any] = {"type": data.get("type", "")}
    for field in TEXT_FIELDS:
        value = data.get(field, "").strip()
        if value:
            event[field] = value
    for field, label in INT_FIELDS.items():
        value = data.get(field, "").strip()
        if value:
            event[field] = _int(value, field, label)
    if "all_movement_costs_action" in data or event["type"] == "movement_rule":
        event["all_movement_costs_action"] = data.get("all_movement_costs_action") == "on"
    if event["type"] == "roll":
        event["roll_kind"] = data.get("roll_kind", "")
    ids = list((state.get("participants") or {}).keys())
    for list_field in ("situational", "first"):
        chosen = data.getlist(list_field)
        if chosen:
            event[list_field] = chosen
    spends = {}
    for pid in ids:
        value = data.get(f"cp_{pid}", "").strip()
        if value and value != "0":
            spends[pid] = _int(value, f"character_points.{pid}", "Character Points")
    if spends:
        event["character_points"] = spends
    if event["type"] == "set_order":
        places = {pid: _int(data.get(f"place_{pid}", ""), f"place_{pid}", "Place") for pid in ids}
        event["order"] = sorted(ids, key=lambda pid: places[pid])
    return event


@login_required
@require_POST
def encounter_event(request, pk, encounter_pk):
    campaign, membership, encounter = _encounter(request, pk, encounter_pk, need="player")
    if request.POST.get("type") == "end_scene":
        ask = confirm_first(
            request,
            question=f"End the scene {encounter.name}?",
            detail="The encounter is over for everyone; no more actions can be taken in it.",
            button="End the scene",
            cancel=reverse("d6-encounter-detail", args=[campaign.pk, encounter.pk]),
        )
        if ask:
            return ask
    try:
        event = event_from_form(request.POST, encounter.state or {})
        services.record_event(encounter, membership, event)
    except ValidationError as error:
        return _answer(request, campaign, membership, encounter, _errors(error), 400)
    return _answer(request, campaign, membership, encounter)
