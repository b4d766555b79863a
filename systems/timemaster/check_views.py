"""TIMEMASTER's part of the platform's dice page: the check panel (an agent's score read on the
Action Table), the chosen agent's condition and the GM's attack panel, given to the page through
the registry (SystemApp.dice_panels), and the view that rolls a check from the panel.

The page itself is the platform's (campaigns.views.dice_page); these functions only build the
panels' forms and roll the check through systems/timemaster/action_checks.py.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import require
from campaigns.views import dice_page
from characters.registry import DiceExtras
from systems.timemaster import action_checks as checks
from systems.timemaster.access import get_timemaster_campaign_for_user
from systems.timemaster.check_forms import CheckForm

#: The panels the dice page includes for a TIMEMASTER campaign, in this order.
PANELS = ("timemaster/_dice_check.html", "timemaster/_dice_condition.html", "timemaster/_attack_panel.html")


def check_form(campaign, membership, request, data=None) -> CheckForm | None:
    """The check form for the agent chosen (in ``data`` or the query), or None when the member
    has no agent to check."""
    if campaign.system != checks.SYSTEM or not membership.at_least("player"):
        return None
    agents = list(
        checks.checkable_agents(membership).only("id", "name", "system", "status", "build", "owner")
    )
    if not agents:
        return None
    chosen = (data or request.GET).get("check-character", "")
    agent = next((a for a in agents if str(a.pk) == chosen), agents[0])
    try:
        scores = checks.agent_scores(agent)
    except ValidationError:
        scores = []
    form = CheckForm(
        data,
        prefix="check",
        initial={"character": agent.pk},
        agents=agents,
        scores=scores,
        results_keys=list(checks.RESULTS_KEY_NAMES.items()),
        missions=campaign.missions.only("id", "title", "campaign"),
        can_roll_secret=membership.is_gm,
        reload_url=reverse("campaign-dice", args=[campaign.pk]),
    )
    form.agent = agent
    return form


def dice_panels(request, campaign, membership, given: dict[str, Any]) -> DiceExtras:
    """The dice page's TIMEMASTER panels (SystemApp.dice_panels): the check form and the GM's
    attack form, fresh unless the view that shows the page gave its own (bound, with errors)."""
    context = {
        "check_form": given.get("check_form") or check_form(campaign, membership, request),
        "attack_form": given.get("attack_form") or checks.attack_form(campaign, membership),
    }
    return DiceExtras(templates=PANELS, context=context)


@login_required
@require_POST
def dice_check(request, pk):
    """Roll a check of an agent's score (systems/timemaster/action_checks.py); it goes into the log."""
    campaign, membership = get_timemaster_campaign_for_user(request.user, pk)
    require(membership, "player")
    form = check_form(campaign, membership, request, request.POST)
    if form is None:
        raise PermissionDenied("You have no agent to roll a check for in this campaign.")
    last_check = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            agent = checks.agent_for_check(membership, data["character"])
            mission = campaign.missions.filter(pk=data["mission"]).first() if data["mission"] else None
            last_check = checks.roll_check(
                membership,
                agent,
                data["score"],
                kind=data["kind"],
                defense_column=data["defense_column"],
                results_key=data["results_key"],
                modifier=data["modifier"],
                secret=data.get("secret", False),
                mission=mission,
                purpose=data["purpose"],
            )
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
    status = 200 if last_check else 400
    return dice_page(request, campaign, membership, check_form=form, status=status, last_check=last_check)
