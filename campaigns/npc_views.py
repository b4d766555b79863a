"""Web pages for a campaign's NPCs.

The GM sees every NPC with its statistics and edits them; players and observers see only the
revealed NPCs' names and public descriptions (the queries and templates never load the rest).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from campaigns import npc_services
from campaigns.access import get_campaign_for_user, require
from campaigns.forms import NPCForm
from campaigns.models import NPC

PUBLIC_FIELDS = ("id", "campaign_id", "name", "public_description")


def _visible(request, membership):
    npcs = NPC.objects.visible_to(request.user, membership)
    return npcs if membership.is_gm else npcs.only(*PUBLIC_FIELDS)


def _add_errors(form: NPCForm, error: ValidationError) -> None:
    """Engine problems on the form field they name (``abilities.STR`` -> the Strength input,
    ``skills.boxing.level`` -> the row holding Boxing)."""
    for field, problems in error.message_dict.items():
        target = form.field_for_problem(field)
        for problem in problems:
            form.add_error(target, problem)


def _gm_rows(npcs) -> list[dict]:
    return [{"npc": npc, "derived": npc_services.derived(npc)} for npc in npcs]


@login_required
@require_http_methods(["GET", "POST"])
def npc_list(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    rules = npc_services.rules_for(campaign.system)
    form = None
    status = 200
    if request.method == "POST":
        require(membership, "gm")
        form = NPCForm(request.POST, rules=rules)
        if form.is_valid():
            try:
                npc = npc_services.create_npc(campaign, request.user, form.service_data())
            except ValidationError as error:
                _add_errors(form, error)
            else:
                messages.success(request, f"NPC “{npc.name}” created.")
                return redirect("npc-detail", campaign.pk, npc.pk)
        status = 400
    elif membership.is_gm:
        form = NPCForm(rules=rules, initial={"quick": True})
    npcs = _visible(request, membership)
    context = {
        "campaign": campaign,
        "membership": membership,
        "rows": _gm_rows(npcs) if membership.is_gm else [{"npc": npc} for npc in npcs],
        "form": form,
        "rules": rules if membership.is_gm else None,  # the system's columns, for the GM's list
    }
    return render(request, "campaigns/npc_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def npc_detail(request, pk, npc_pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    npc = _visible(request, membership).filter(pk=npc_pk).first()
    if npc is None:
        raise Http404("No such NPC.")
    form = None
    status = 200
    rules = None
    if membership.is_gm:
        rules = npc_services.rules_for(npc.system)
        form = NPCForm(initial=NPCForm.initial_for(npc), rules=rules, creating=False)
        if request.method == "POST":
            form = NPCForm(request.POST, rules=rules, creating=False)
            if form.is_valid():
                try:
                    npc_services.update_npc(npc, form.service_data())
                except ValidationError as error:
                    _add_errors(form, error)
                    npc.refresh_from_db()
                else:
                    messages.success(request, f"NPC “{npc.name}” saved.")
                    return redirect("npc-detail", campaign.pk, npc.pk)
            status = 400
    elif request.method == "POST":
        require(membership, "gm")
    context = {
        "campaign": campaign,
        "membership": membership,
        "npc": npc,
        "derived": npc_services.derived(npc) if membership.is_gm else None,
        "form": form,
        "rules": rules,  # the system's statistics part, for the GM
    }
    return render(request, "campaigns/npc_detail.html", context, status=status)


@login_required
@require_POST
def npc_reveal(request, pk, npc_pk):
    """Reveal the NPC to the players (revealed=1) or hide it again (revealed=0)."""
    campaign, _ = get_campaign_for_user(request.user, pk, need="gm")
    npc = campaign.npcs.filter(pk=npc_pk).first()
    if npc is None:
        raise Http404("No such NPC.")
    revealed = request.POST.get("revealed") == "1"
    npc_services.set_revealed(npc, revealed)
    messages.success(
        request, f"“{npc.name}” is now {'revealed to' if revealed else 'hidden from'} the players."
    )
    if request.POST.get("next") == "detail":
        return redirect("npc-detail", campaign.pk, npc.pk)
    return redirect("npc-list", campaign.pk)


@login_required
@require_POST
def npc_delete(request, pk, npc_pk):
    campaign, _ = get_campaign_for_user(request.user, pk, need="gm")
    deleted, _ = campaign.npcs.filter(pk=npc_pk).delete()
    if not deleted:
        raise Http404("No such NPC.")
    messages.success(request, "NPC deleted.")
    return redirect("npc-list", campaign.pk)
