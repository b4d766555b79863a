"""Pages of provably fair dice (docs/fair-dice.md): the seeds and their commitments, a player's
own seed, the GM's rotation, a roll entered by hand, and checking every roll in the browser
(static/js/fair-dice.js, our own SHA-256: crypto.subtle is missing on a plain-http LAN address)."""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms.utils import ErrorDict
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import get_campaign_for_user, require
from campaigns.models import ClientSeed, RollSeed, Webhook, WebhookKind
from campaigns.table import fairness, rolling, webhooks
from characters.models import Character
from characters.systems import fair_dice
from characters.systems.dice import ROLLER_KINDS


class SeedForm(forms.Form):
    seed = forms.CharField(
        max_length=fair_dice.MAX_CLIENT_SEED,
        label="Your seed",
        help_text="Any text up to 64 characters; every roll from now on takes it.",
    )


class ByHandForm(forms.Form):
    kind = forms.ChoiceField(choices=[(k, ROLLER_KINDS[k]["label"]) for k in rolling.HAND_FACES])
    count = forms.IntegerField(
        min_value=0, max_value=30, initial=1, help_text="Dice (extra dice for 3d6 kinds)."
    )
    modifier = forms.IntegerField(min_value=-1000, max_value=1000, initial=0)
    faces = forms.CharField(
        max_length=200,
        label="Dice as rolled",
        help_text="Separated by spaces, e.g. 3 5 6 (a d10 reads 1-10; percentile dice: tens then ones, 0-9).",
    )
    purpose = forms.CharField(max_length=200, required=False)
    character = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, choices=())

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [("", "—")] + [(c.pk, c.name) for c in characters]

    def clean_faces(self) -> list[int]:
        try:
            return [int(part) for part in self.cleaned_data["faces"].replace(",", " ").split()]
        except ValueError:
            raise forms.ValidationError("Give the dice as whole numbers separated by spaces.") from None


def _characters(request, campaign, membership):
    mine = Character.objects.visible_to(request.user).filter(campaign=campaign)
    return mine if membership.is_gm else mine.filter(owner=request.user)


def _checked_seed(request, campaign, current: RollSeed) -> int:
    """The seed the page checks: ?seed=N, else the last one revealed, else the one in use."""
    asked = request.GET.get("seed", "")
    if (
        asked.isdigit()
        and len(asked) < 10
        and RollSeed.objects.filter(campaign=campaign, number=int(asked)).exists()
    ):
        return int(asked)
    revealed = (
        RollSeed.objects.filter(campaign=campaign, rotated_at__isnull=False).order_by("-number").first()
    )
    return revealed.number if revealed else current.number


def _page(request, campaign, membership, *, seed_form=None, hand_form=None, status=200):
    current = fairness.current_seed(campaign)
    checked = _checked_seed(request, campaign, current)
    own = None
    if membership.role == "player":
        fairness.players_seeds(campaign)
        own = ClientSeed.objects.filter(membership=membership).first()
    context = {
        "campaign": campaign,
        "membership": membership,
        "current": current,
        "seeds": [
            (seed, fairness.seed_state(seed))
            for seed in RollSeed.objects.filter(campaign=campaign).order_by("-number")
        ],
        "fair_news": fairness.checkable_news(campaign, request.user, membership),
        "when_revealed": fair_dice.WHEN_REVEALED,
        "when_key_out": fair_dice.WHEN_KEY_OUT,
        "own_seed": own,
        "seed_form": seed_form or SeedForm(initial={"seed": own.seed if own else ""}),
        "hand_form": hand_form or ByHandForm(characters=_characters(request, campaign, membership)),
        "checked": checked,
        "document": fairness.proof_document(campaign, request.user, membership, seed=checked),
        "log_api": reverse("api-fair-dice", args=[campaign.pk]),
    }
    return render(request, "campaigns/fair_dice.html", context, status=status)


@login_required
def fair_dice_page(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    return _page(request, campaign, membership)


#: The stand-alone verifier (standard library plus ``cryptography``), as the project ships it.
VERIFIER = Path(settings.BASE_DIR) / "scripts" / "verify_rolls.py"
VERIFIER_NAME = "dossier-verify-rolls.py"


@login_required
def fair_dice_verifier(request, pk):
    """The stand-alone verifier, for a member to check this campaign's proofs on their own machine
    with nothing of the server's but the documents it downloads."""
    get_campaign_for_user(request.user, pk)
    return FileResponse(
        VERIFIER.open("rb"), as_attachment=True, filename=VERIFIER_NAME, content_type="text/x-python"
    )


@login_required
@require_POST
def fair_dice_seed(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    require(membership, "player")
    form = SeedForm(request.POST)
    if form.is_valid():
        try:
            fairness.set_client_seed(membership, form.cleaned_data["seed"])
        except ValidationError as error:
            for problem in error.message_dict.get("seed", []):
                form.add_error("seed", problem)
        else:
            messages.success(request, "Your seed is set: every roll from now on takes it.")
            return redirect("campaign-dice-fair", campaign.pk)
    return _page(request, campaign, membership, seed_form=form, status=400)


@login_required
@require_POST
def fair_dice_rotate(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    require(membership, "gm")
    rotated = fairness.rotate(membership)
    messages.success(
        request,
        f"Seed {rotated.number} is revealed; rolls now take seed {rotated.number + 1}. "
        f"Seed {rotated.number}: {fairness.seed_state(rotated)}",
    )
    return redirect("campaign-dice-fair", campaign.pk)


@login_required
@require_POST
def dice_by_hand(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    require(membership, "player")
    characters = _characters(request, campaign, membership)
    form = ByHandForm(request.POST, characters=characters)
    if form.is_valid():
        data = dict(form.cleaned_data)
        character = characters.filter(pk=data.pop("character")).first() if data["character"] else None
        data.pop("character", None)
        try:
            rolling.enter_roll_by_hand(membership, character=character, **data)
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        except PermissionDenied as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "The roll is in the log, marked entered by hand.")
            return redirect("campaign-dice-fair", campaign.pk)
    return _page(request, campaign, membership, hand_form=form, status=400)


# --- the GM's chat webhooks (campaigns/table/webhooks.py, docs/webhooks.md), on the settings page ---------
class WebhookForm(forms.Form):
    url = forms.URLField(max_length=500, label="Webhook URL", assume_scheme="https")
    kind = forms.ChoiceField(choices=WebhookKind.choices, label="Format")


def webhook_card(campaign, form=None) -> dict:
    """The settings page's webhook card: the hooks and the form to add one."""
    return {
        "webhooks": campaign.webhooks.order_by("id"),
        "webhook_form": form or WebhookForm(prefix="webhook"),
    }


#: Where a refused add keeps the webhook form's typed values and errors for the settings page it
#: redirects to (one campaign's, read once).
KEPT_FORM_KEY = "webhook-form-{pk}"
KEPT_VALUE_LIMIT = 1000  # a typed value kept in the session: more than the form accepts anyway


def keep_refused_form(request, campaign, form: WebhookForm) -> None:
    """Keep what the GM typed and why it was refused, so the page a reload or bookmark reaches (the
    settings page, by GET) shows the form as it was posted."""
    names = [form.add_prefix(name) for name in form.fields]
    errors = form.errors.get_json_data()
    request.session[KEPT_FORM_KEY.format(pk=campaign.pk)] = {
        "data": {name: str(form.data.get(name, ""))[:KEPT_VALUE_LIMIT] for name in names},
        "errors": {field: [error["message"] for error in found] for field, found in errors.items()},
    }


def kept_refused_form(request, campaign) -> WebhookForm | None:
    """The form a refused add kept (keep_refused_form), once: its values and its errors as they were,
    without checking the address again."""
    kept = request.session.pop(KEPT_FORM_KEY.format(pk=campaign.pk), None)
    if not isinstance(kept, dict):
        return None
    form = WebhookForm(kept.get("data") or {}, prefix="webhook")
    form.cleaned_data, form._errors = {}, ErrorDict()  # bound, its errors given: no second lookup
    for field, problems in (kept.get("errors") or {}).items():
        for problem in problems:
            form.add_error(field if field in form.fields else None, problem)
    return form


@login_required
@require_POST
def webhook_add(request, pk):
    """Add a chat webhook. Refused (a bad or private address, a host that cannot be found), it adds
    nothing and goes back to the settings page with the form's values and errors kept, so the page
    the browser then shows can be reloaded or bookmarked (issue 44, finding 8)."""
    campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
    form = WebhookForm(request.POST, prefix="webhook")
    if form.is_valid():
        try:
            webhooks.create_hook(membership, **form.cleaned_data)
        except ValidationError as error:
            for problem in error.message_dict.get("url", []) + error.message_dict.get("kind", []):
                form.add_error("url", problem)
        else:
            messages.success(request, "Webhook added: public rolls and published results go there.")
            return redirect("campaign-settings", campaign.pk)
    keep_refused_form(request, campaign, form)
    return redirect(reverse("campaign-settings", args=[campaign.pk]) + "#webhooks-title")


@login_required
@require_POST
def webhook_change(request, pk, hook_pk, action):
    campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
    hook = get_object_or_404(Webhook, campaign=campaign, pk=hook_pk)
    if action not in ("enable", "remove"):
        raise Http404("No such action: enable or remove.")
    if action == "remove":
        hook.delete()
        messages.success(request, "Webhook removed.")
    else:
        try:
            webhooks.check_url(hook.url)
        except ValidationError as error:
            messages.error(request, " ".join(error.message_dict["url"]))
        else:
            hook.enabled, hook.failures, hook.disabled_reason, hook.last_error = True, 0, "", ""
            hook.save(update_fields=["enabled", "failures", "disabled_reason", "last_error"])
            messages.success(request, "Webhook turned on again.")
    return redirect("campaign-settings", campaign.pk)
