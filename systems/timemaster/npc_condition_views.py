"""The GM's NPC page: revert one change to an NPC's condition (systems.timemaster.npc_condition_services)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from systems.timemaster import npc_condition_services as npc_cond
from systems.timemaster.access import get_timemaster_campaign_for_user


@login_required
@require_POST
def npc_condition_revert(request, pk, npc_pk, entry_pk):
    campaign, membership = get_timemaster_campaign_for_user(request.user, pk, need="gm")
    npc = campaign.npcs.filter(pk=npc_pk).first()
    if npc is None:
        raise Http404("No such NPC.")
    try:
        npc_cond.revert(npc, membership, entry_pk)
    except ValidationError as error:
        for problems in error.message_dict.values():
            for problem in problems:
                messages.error(request, problem)
    else:
        messages.success(request, "The change is reverted.")
    if request.POST.get("back") == "fight":  # from the dice page's fight panel: back there
        return redirect(f"{reverse('campaign-dice', args=[campaign.pk])}#fight-panel")
    return redirect("npc-detail", campaign.pk, npc.pk)
