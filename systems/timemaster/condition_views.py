"""The character page's condition form: one condition change recorded as a ledger entry."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaigns.views import safe_next
from characters import access
from systems.timemaster import advancement_services as adv
from systems.timemaster import condition_services as cond
from systems.timemaster.condition_forms import ConditionEntryForm


@login_required
@require_POST
def record_condition(request, pk):
    character, membership = access.get_character_for_user(request.user, pk, need_system=adv.SYSTEM)
    if not adv.has_advancement(character):
        raise Http404("A draft has no condition yet.")
    kinds = [kind for kind in cond.KINDS if cond.can_record(character, membership, kind)]
    if not kinds:
        raise PermissionDenied("Only the game master or the agent's player can record this.")
    talents = character.build.get("talents") or []
    form = ConditionEntryForm(request.POST, kinds=kinds, talents=talents, prefix="condition")
    if not form.is_valid():
        for field, problems in form.errors.items():
            for problem in problems:
                messages.error(
                    request, f"{form.fields[field].label if field in form.fields else ''}: {problem}"
                )
        return _back(request, character)
    kind = form.cleaned_data["kind"]
    try:
        cond.record(
            character,
            membership,
            kind,
            form.entry_fields(),
            revision=form.cleaned_data.get("revision"),
            reason=form.cleaned_data.get("reason") or "",
        )
    except ValidationError as error:
        for problems in error.message_dict.values():
            for problem in problems:
                messages.error(request, problem)
    else:
        messages.success(request, f"{cond.LABELS[kind]}: recorded.")
    return _back(request, character)


def _back(request, character):
    """To the dice page when the form was shown there (a ``next`` on this site), else the agent."""
    back = safe_next(request)
    return redirect(back) if back else redirect("character-detail", character.pk)
