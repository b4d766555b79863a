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
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from campaigns.access import require
from campaigns.views import dice_page
from characters.registry import DiceExtras
from systems.timemaster import action_checks as checks
from systems.timemaster import fight_states
from systems.timemaster.access import get_timemaster_campaign_for_user
from systems.timemaster.check_forms import CheckForm

#: The panels the dice page includes for a TIMEMASTER campaign, in this order.
PANELS = (
    "timemaster/_dice_check.html",
    "timemaster/_dice_condition.html",
    "timemaster/_attack_panel.html",
    "timemaster/_fight_panel.html",
)


def check_form(campaign, membership, request, data=None) -> CheckForm | None:
    """The check form for the agent chosen (in ``data`` or the query), or None when the member
    has no agent to check. Choosing another agent reloads the form with what was entered in the
    query (issue 44): every value the new agent's form takes is kept (``_kept_values``)."""
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
        specific=(data or request.GET).get("check-kind") == "specific",
    )
    form.agent = agent
    if data is None:
        _keep_entered(form, request.GET)
    return form


def _keep_entered(form: CheckForm, query) -> None:
    """Carry what the user had entered over a reload for another agent: each value that the new
    agent's form accepts becomes its initial value (a score the new agent lacks is dropped, and
    the form says so beside the score). Never bound: a reload shows no errors."""
    kept: dict[str, Any] = {}
    for name, field in form.fields.items():
        key = form.add_prefix(name)
        if name == "character" or key not in query:
            continue
        try:
            kept[name] = field.clean(query.get(key))
        except ValidationError:
            if name == "score" and query.get(key):
                form.dropped_score = query.get(key)
    if "secret" in form.fields and form.add_prefix("purpose") in query:
        # a reload from the form itself: an unticked box is absent from the query, not unknown
        kept.setdefault("secret", False)
    form.initial.update(kept)
    if getattr(form, "dropped_score", None):
        # the form's help is shown as HTML (_form.html): the agent's name is escaped here
        form.fields["score"].help_text = format_html(
            "{} has no {}: choose the score to check.", form.agent.name, _score_words(form.dropped_score)
        )


def _score_words(key: str) -> str:
    """A score key ("skill:pistol") in words for the note beside the score ("Pistol skill")."""
    kind, _, name = key.partition(":")
    words = name.replace("_", " ").strip().capitalize() or "such score"
    return {"skill": f"{words} skill", "talent": f"{words} talent"}.get(kind, words)


def dice_panels(request, campaign, membership, given: dict[str, Any]) -> DiceExtras:
    """The dice page's TIMEMASTER panels (SystemApp.dice_panels): the check form and the GM's
    attack form, fresh unless the view that shows the page gave its own (bound, with errors)."""
    context = {
        "check_form": given.get("check_form") or check_form(campaign, membership, request),
        "attack_form": given.get("attack_form") or checks.attack_form(campaign, membership),
        "hold_form": given.get("hold_form") or checks.hold_form(campaign, membership),
        "last_hold": given.get("last_hold"),
        "special_form": given.get("special_form") or checks.special_form(campaign, membership),
        "last_special": given.get("last_special"),
    }
    if campaign.system == checks.SYSTEM and membership.is_gm:  # the fight: the GM's alone
        context["fight"] = {**fight_states.fight(campaign.pk), "npcs": fight_states.npcs_in_fight(campaign)}
    shown = (("check_form", "check-heading", "Check"), ("attack_form", "attack-heading", "Attack"))
    jumps = [(target, label) for key, target, label in shown if context.get(key)]
    if context.get("fight"):
        jumps.append(("fight-heading", "Fight"))
    return DiceExtras(templates=PANELS, context=context, jumps=tuple(jumps))


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
                defense_column=data.get("defense_column"),
                results_key=data.get("results_key") or "ability",
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
