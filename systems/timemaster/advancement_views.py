"""Pages of TIMEMASTER advancement: the shop, the free pick on a new rank, and the GM's pages for
regulation violations and bonus Success Points. Thin: access through characters.access, writes
through systems.timemaster.advancement_services, rules in the engine."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from characters import access
from characters.services import revert_entry
from kernel.confirm import confirm_first, confirmed
from systems.timemaster import advancement_services as adv
from systems.timemaster.advancement_forms import (
    BonusForm,
    BuyForm,
    FreePickForm,
    ViolationForm,
    attach_errors,
)

UNDO_KEY = "shop_undo_entry"
UNDO_REASON = "Undone by the buyer right after buying."
SPEND_REFUSAL = "Only the agent's player or the game master can spend its Success Points."


def _agent(request, pk, need="view"):
    character, membership = access.get_character_for_user(request.user, pk, need=need, need_system=adv.SYSTEM)
    if not adv.has_advancement(character):
        raise Http404("This character has no Success Points.")
    return character, membership


def _posted(request):
    """The POST data (even when empty, so an empty form is refused rather than shown again)."""
    return request.POST if request.method == "POST" else None


def _initial(character) -> dict:
    """The revision the form was shown at: a stale form is refused (409), not applied twice."""
    return {"revision": character.revision}


def _session_of(request, character) -> str:
    """The session a bonus award names at first: the one the link gave (ending a play session
    links here with it), else the campaign's latest play session (issue 50); the GM may still type
    any other id, as before play sessions."""
    from systems.timemaster.play_sessions import session_label

    given = request.GET.get("session", "")[:60]
    if given:
        return given
    latest = character.campaign.play_sessions.order_by("-number").first()
    return session_label(latest) if latest else ""


def _context(character, membership, request, **extra):
    return {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "is_gm": membership.role == access.GM,
        "can_spend": adv.can_spend(character, membership),
        "standing": adv.standing(character),
        **extra,
    }


# -- the shop ------------------------------------------------------------------------------------
def _undoable(request, character):
    """The purchase this user just made on this character, while it can still be undone: the last
    entry on the ledger, an sp_spent they recorded, not reverted."""
    pk = request.session.get(UNDO_KEY)
    last = character.entries.order_by("-id").first() if pk else None
    if last is None or last.pk != pk or last.kind != "sp_spent" or last.recorded_by_id != request.user.pk:
        return None
    return last


def _shop_response(request, character, membership, form=None, status=200):
    context = _context(
        character,
        membership,
        request,
        offer=adv.shop(character),
        form=form,
        undo=_undoable(request, character),
    )
    return render(request, "characters/advancement/shop.html", context, status=status)


@login_required
def shop(request, pk):
    character, membership = _agent(request, pk)
    return _shop_response(request, character, membership)


class _DryRun(Exception):
    """Rolls back a purchase tried only to see whether the shop would take it."""


@login_required
@require_POST
def shop_buy(request, pk):
    character, membership = _agent(request, pk)
    if not adv.can_spend(character, membership):
        raise PermissionDenied(SPEND_REFUSAL)
    form = BuyForm(request.POST)
    if not form.is_valid():
        return _shop_response(request, character, membership, form=form, status=400)
    label = adv.PURCHASE_LABELS[form.cleaned_data["purchase"]]
    dry_run = not confirmed(request)  # a purchase the shop refuses is refused before asking
    try:
        with transaction.atomic():
            row = adv.buy(
                character,
                request.user,
                form.cleaned_data["purchase"],
                revision=form.cleaned_data["revision"],
                **form.target(),
            )
            if dry_run:
                raise _DryRun
    except _DryRun:
        character.refresh_from_db()
        return confirm_first(
            request,
            question=f"Buy {label} for {character.name}?",
            detail="The Success Points are spent at once; you can undo the purchase right after.",
            button="Buy",
            cancel=reverse("character-shop", args=[character.pk]),
        )
    except adv.RevisionConflict as conflict:
        form.add_error(None, str(conflict))
        return _shop_response(request, character, membership, form=form, status=409)
    except ValidationError as error:
        attach_errors(form, error)
        return _shop_response(request, character, membership, form=form, status=400)
    request.session[UNDO_KEY] = row.pk  # the shop offers to undo this purchase, until the next one
    messages.success(
        request,
        f"Bought: {label}. {character.build['success_points']} Success Points left.",
    )
    return redirect("character-shop", character.pk)


@login_required
@require_POST
def shop_undo(request, pk):
    """Undo the purchase just made, through the ledger's reversal (a new entry; nothing is erased)."""
    character, membership = _agent(request, pk)
    if not adv.can_spend(character, membership):
        raise PermissionDenied(SPEND_REFUSAL)
    entry = _undoable(request, character)
    if entry is None or str(entry.pk) != request.POST.get("entry", ""):
        messages.error(request, "Only the last purchase you made can be undone, right after buying it.")
        return redirect("character-shop", character.pk)
    try:
        revert_entry(entry, request.user, UNDO_REASON)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        request.session.pop(UNDO_KEY, None)
        messages.success(request, "The purchase was undone; its Success Points are back.")
    return redirect("character-shop", character.pk)


# -- the free pick on a new rank ---------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def free_pick(request, pk):
    character, membership = _agent(request, pk)
    if not adv.can_spend(character, membership):
        raise PermissionDenied("Only the agent's player or the game master can take its free pick.")
    options = adv.free_pick_options(character)
    form = FreePickForm(_posted(request), options=options, initial=_initial(character))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                adv.take_free_choice(
                    character, request.user, revision=form.cleaned_data["revision"], **form.choice()
                )
            except adv.RevisionConflict as conflict:
                form.add_error(None, str(conflict))
                status = 409
            except ValidationError as error:
                attach_errors(
                    form, error, {"choice": "pick", "skill": "pick", "talent": "pick", "rank": "pick"}
                )
            else:
                messages.success(request, "The free pick was taken.")
                return redirect("character-detail", character.pk)
    context = _context(character, membership, request, options=options, form=form)
    return render(request, "characters/advancement/free_pick.html", context, status=status)


# -- the GM's pages ----------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def violation(request, pk):
    character, membership = _agent(request, pk, need="gm")
    missions = character.campaign.missions.order_by("-id")
    form = ViolationForm(_posted(request), missions=missions, initial=_initial(character))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                adv.record_violation(
                    character,
                    request.user,
                    data["regulation"],
                    punishment=data["punishment"] or None,
                    mission=data["mission"],
                    note=data["note"],
                    judiciary_override=data["judiciary_override"],
                    reason=data["reason"],
                    revision=data["revision"],
                )
            except adv.RevisionConflict as conflict:
                form.add_error(None, str(conflict))
                status = 409
            except ValidationError as error:
                attach_errors(form, error)
            else:
                messages.success(request, "The violation and its punishment are in the ledger.")
                return redirect("character-detail", character.pk)
    context = _context(character, membership, request, options=adv.violation_options(character), form=form)
    return render(request, "characters/advancement/violation.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def bonus(request, pk):
    character, membership = _agent(request, pk, need="gm")
    form = BonusForm(
        _posted(request), initial={**_initial(character), "session": _session_of(request, character)}
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                adv.award_bonus(
                    character, request.user, data["amount"], data["session"], revision=data["revision"]
                )
            except adv.RevisionConflict as conflict:
                form.add_error(None, str(conflict))
                status = 409
            except ValidationError as error:
                attach_errors(form, error)
            else:
                messages.success(request, f"{data['amount']} bonus Success Points awarded.")
                return redirect("character-detail", character.pk)
    context = _context(character, membership, request, form=form)
    return render(request, "characters/advancement/bonus.html", context, status=status)
