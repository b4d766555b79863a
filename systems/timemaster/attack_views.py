"""The dice page's attack panel (GM only): one attack resolved with the engine's column.

The page itself is the platform's (campaigns.views); this view only reads the panel's form,
resolves the attack through systems.timemaster.attacks and shows the dice page again with the
result and the log (timemaster-play.md §4, §5.2-§5.3).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.views import dice_page
from systems.timemaster import action_checks as checks
from systems.timemaster import attacks, fight_states
from systems.timemaster.access import get_timemaster_campaign_for_user


@login_required
@require_POST
def dice_attack(request, pk):
    """Resolve one attack from the dice page; the roll and its column's reasons go into the log."""
    campaign, membership = get_timemaster_campaign_for_user(request.user, pk, need="gm")
    form = checks.attack_form(campaign, membership, request.POST)
    last_attack = None
    if form is not None and form.is_valid():
        try:
            attack = attacks.attack_from(form.attack_fields(), membership, campaign)
            last_attack, _ = attacks.resolve(membership, attack)
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
    status = 200 if last_attack else 400
    return dice_page(
        request,
        campaign,
        membership,
        # after an attack, a fresh form that keeps the attacker, defender, armor, mission and
        # purpose for the round's next attack (AttackForm.kept); after a refusal, the form as sent
        attack_form=checks.attack_form(campaign, membership, initial=form.kept()) if last_attack else form,
        status=status,
        last_attack=last_attack,
    )


@login_required
@require_POST
def dice_hold(request, pk):
    """A later round of a hold or strangle from the dice page (attacks.hold_round)."""
    campaign, membership = get_timemaster_campaign_for_user(request.user, pk, need="gm")
    form = checks.hold_form(campaign, membership, request.POST)
    last_hold = None
    if form is not None and form.is_valid():
        try:
            last_hold, _ = attacks.hold_round(
                membership, **attacks.hold_from(dict(form.cleaned_data), membership, campaign)
            )
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
    return dice_page(
        request,
        campaign,
        membership,
        hold_form=None if last_hold else form,
        status=200 if last_hold else 400,
        last_hold=last_hold,
    )


@login_required
@require_POST
def dice_special(request, pk):
    """A fall, catastrophe, exposure, fire, smoke or poison from the dice page (attacks.special_damage)."""
    campaign, membership = get_timemaster_campaign_for_user(request.user, pk, need="gm")
    form = checks.special_form(campaign, membership, request.POST)
    done, last_special = False, None
    if form is not None and form.is_valid():
        try:
            last_special, _ = attacks.special_damage(
                membership, **attacks.special_from(dict(form.cleaned_data), membership, campaign)
            )
            done = True
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
    return dice_page(
        request,
        campaign,
        membership,
        special_form=None if done else form,
        status=200 if done else 400,
        last_special=last_special,
    )


@login_required
@require_POST
def dice_fight_state(request, pk, state_pk, action):
    """End a kept hold or knockdown, take an ended one up again, or revert one made by mistake
    (systems.timemaster.fight_states); back to the dice page's fight panel."""
    campaign, membership = get_timemaster_campaign_for_user(request.user, pk, need="gm")
    change = {"end": fight_states.end, "reopen": fight_states.reopen, "revert": fight_states.revert}[action]
    try:
        change(membership, state_pk)
    except ValidationError as error:
        for problems in error.message_dict.values():
            for problem in problems:
                messages.error(request, problem)
    else:
        messages.success(request, FIGHT_DONE[action])
    return redirect(f"{reverse('campaign-dice', args=[campaign.pk])}#fight-panel")


FIGHT_DONE = {
    "end": "Ended.",
    "reopen": "It lasts again.",
    "revert": "Reverted: it never was.",
}
