"""Web pages of characters: a campaign's character list, the creation wizard, the character page
(everything the paper sheet shows) and its advancement history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.views.decorators.http import require_http_methods, require_POST

from characters import access, builder, registry, services
from characters.forms import ReasonForm
from characters.models import AdvancementEntry, Character
from characters.rolls import roll_specs as sheet_roll_specs
from kernel.keyset import keyset_page

# Each installed system's web builder module (its steps and their pages; the flow is
# characters/builder.py), from the registry its app filled in AppConfig.ready().
WIZARDS = registry.Wizards()


def new_label(system: str) -> str:
    app = registry.get(system)
    return app.new_label if app else "New character"


def _membership_or_404(user, campaign_id):
    membership = access.membership_for(user, campaign_id)
    if membership is None:
        raise Http404("No such campaign.")
    return membership


@login_required
def character_list(request, pk):
    membership = _membership_or_404(request.user, pk)
    campaign = membership.campaign
    characters = Character.objects.visible_to(request.user).filter(campaign=campaign).select_related("owner")
    context = {
        "campaign": campaign,
        "membership": membership,
        "characters": characters,
        "can_create": membership.role != access.OBSERVER and campaign.system in WIZARDS,
        "new_label": new_label(campaign.system),
    }
    return render(request, "characters/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def character_new(request, pk):
    membership = _membership_or_404(request.user, pk)
    if membership.role == access.OBSERVER:
        raise PermissionDenied("Observers cannot create characters.")
    campaign = membership.campaign
    if campaign.system not in WIZARDS:
        raise Http404("This system has no web wizard yet.")
    if request.method == "GET":
        context = {"campaign": campaign, "membership": membership, "new_label": new_label(campaign.system)}
        return render(request, "characters/new.html", context)
    draft = services.create_draft(campaign, request.user, is_gm=membership.role == access.GM)
    return redirect("character-wizard-step", draft.pk, builder.step_keys(WIZARDS[campaign.system])[0])


@login_required
def character_detail(request, pk):
    character, membership = access.get_character_for_user(request.user, pk)
    system = services.system_of(character)
    context = {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "can_edit": access.can_edit(character, request.user, membership),
        "is_gm": membership.role == access.GM,
    }
    if character.is_draft:
        wizard = WIZARDS.get(character.system)
        context["resume_url"] = builder.resume_url(character) if wizard else None
        return render(request, "characters/draft.html", context)
    context["sheet"] = system.sheet(character.build).fields
    # The rolls this reader may make from the page (the sheet_rolls template tag draws them).
    context["roll_specs"] = sheet_roll_specs(character, membership)
    context["derived"] = system.derive(character.build)
    context["sheet_template"] = select_template(
        [f"characters/_sheet_{character.system}.html", "characters/_sheet_generic.html"]
    ).template.name
    return render(request, "characters/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def character_wizard(request, pk, step):
    character, membership = access.get_character_for_user(request.user, pk, need="edit")
    wizard = WIZARDS.get(character.system)
    if wizard is not None and step not in builder.step_keys(wizard):
        return unknown_step(request, wizard, step)
    if not character.is_draft:
        messages.info(request, f"{character.name} is finalized; it changes only through its ledger.")
        return redirect("character-detail", character.pk)
    if wizard is None:
        raise Http404("This system has no web wizard yet.")
    return builder.wizard_step(request, character, membership, step)


def unknown_step(request, wizard, step: str):
    """Every builder answers a step name it does not have the same way, GET or POST: 404, naming
    the steps it does have (the caller may already edit this character, so nothing is revealed)."""
    message = (
        f"This builder has no step called {step!r}. Its steps are: {', '.join(builder.step_keys(wizard))}."
    )
    return render(request, "error.html", {"title": "No such step", "message": message}, status=404)


HISTORY_PER_PAGE = 50


@login_required
def character_history(request, pk):
    character, membership = access.get_character_for_user(request.user, pk)
    # Newest first, a page at a time, by position: an agent played for years has a ledger of
    # thousands; the page reads 51 entries down the primary key from where it stands, with no count
    # and no OFFSET, so it costs the same at any length and depth (issue 22).
    # Which of these were reverted (their reversals may sit on any page) is read with the page, each
    # entry's reversal found by its index: one query for the page, none after it (issue 43).
    newest_first = character.entries.with_reverted_mark().select_related("recorded_by", "mission")
    page = keyset_page(newest_first, request.GET, HISTORY_PER_PAGE)
    context = {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "entries": [{"entry": entry, "reversed": entry.is_reverted} for entry in page],
        "page": page,
        "is_gm": membership.role == access.GM,
        "reason_form": ReasonForm(),
    }
    return render(request, "characters/history.html", context)


@login_required
@require_POST
def entry_revert(request, pk, entry_pk):
    character, _ = access.get_character_for_user(request.user, pk, need="gm")
    entry = get_object_or_404(AdvancementEntry, character=character, pk=entry_pk)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say why this entry is reverted.")
        return redirect("character-history", character.pk)
    try:
        services.revert_entry(entry, request.user, form.cleaned_data["reason"])
    except ValidationError as error:
        for field_messages in error.message_dict.values():
            for message in field_messages:
                messages.error(request, message)
    else:
        messages.success(request, f"Entry {entry.pk} ({entry.kind}) was reverted.")
    return redirect("character-history", character.pk)
