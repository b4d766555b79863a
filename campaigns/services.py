"""Writes on campaigns that span models or have side effects."""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import (
    PAPER_CHOICES,
    Campaign,
    Invitation,
    Membership,
    Role,
)
from characters.systems import UnknownSystem, get_system


def settings_for(system_key: str, module: str, values) -> dict:
    """The campaign settings merged over the system's defaults, or ValidationError per field."""
    try:
        system = get_system(system_key)
    except UnknownSystem:
        raise ValidationError({"system": f"Unknown game system {system_key!r}."}) from None
    if system.modules and module not in system.modules:
        choices = ", ".join(system.modules)
        raise ValidationError({"module": f"{system.label} needs a module: one of {choices}."})
    if not system.modules and module:
        raise ValidationError({"module": f"{system.label} has no modules."})
    merged, problems = system.validate_settings(values)
    if problems:
        raise ValidationError({p.field: p.message for p in problems})
    return merged


@transaction.atomic
def create_campaign(
    user, *, name: str, system: str, module: str = "", description: str = "", settings=None, paper=None
):
    """A new campaign with ``user`` as its GM. ``paper`` ("letter" or "a4"; campaigns/paper.py reads
    it from the browser's region) is the paper it prints on; None keeps the model's default."""
    merged = settings_for(system, module, settings or {})
    if paper is not None and paper not in dict(PAPER_CHOICES):
        raise ValidationError({"paper": f"Paper must be one of: {', '.join(dict(PAPER_CHOICES))}."})
    extra = {"paper": paper} if paper is not None else {}
    campaign = Campaign.objects.create(
        name=name,
        system=system,
        module=module,
        description=description,
        settings=merged,
        created_by=user,
        **extra,
    )
    Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
    return campaign


def update_campaign_settings(campaign: Campaign, values) -> Campaign:
    current = dict(campaign.settings)
    if not isinstance(values, dict):
        raise ValidationError({"settings": "Settings must be an object."})
    current.update(values)
    campaign.settings = settings_for(campaign.system, campaign.module, current)
    campaign.save(update_fields=["settings"])
    return campaign


@transaction.atomic
def change_role(campaign: Campaign, membership_id: int, role: str) -> Membership:
    if role not in Role.values:
        raise ValidationError({"role": f"Role must be one of: {', '.join(Role.values)}."})
    member = Membership.objects.select_for_update().get(campaign=campaign, pk=membership_id)
    if member.role == Role.GM and role != Role.GM:
        _keep_one_gm(campaign, leaving=member)
    member.role = role
    member.save(update_fields=["role"])
    return member


@transaction.atomic
def remove_member(campaign: Campaign, membership_id: int) -> None:
    member = Membership.objects.select_for_update().get(campaign=campaign, pk=membership_id)
    if member.role == Role.GM:
        _keep_one_gm(campaign, leaving=member)
    member.delete()


def _keep_one_gm(campaign: Campaign, leaving: Membership) -> None:
    # Lock every GM row so two concurrent demotions cannot both pass this check.
    gms = list(Membership.objects.select_for_update().filter(campaign=campaign, role=Role.GM))
    if all(m.pk == leaving.pk for m in gms):
        raise ValidationError(
            {"role": "A campaign must keep at least one game master: make someone else GM first."}
        )


def create_invitation(campaign: Campaign, user, *, days: int = 7, max_uses: int | None = None) -> Invitation:
    return Invitation.objects.create(
        campaign=campaign,
        created_by=user,
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=max_uses,
    )


def revoke_invitation(invitation: Invitation) -> Invitation:
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


#: What an unknown, revoked, expired or used-up invitation code gets, on the page and in the API.
INVALID_INVITATION = (
    "This invitation link is not valid: it is unknown, was revoked, has expired or has been used up. "
    "Ask your game master for a new one."
)


@transaction.atomic
def accept_invitation(user, code: str) -> Membership:
    invitation = Invitation.objects.select_for_update().select_related("campaign").filter(code=code).first()
    if invitation is None:
        raise ValidationError({"code": INVALID_INVITATION})
    existing = Membership.objects.filter(campaign=invitation.campaign, user=user).first()
    if existing is not None:
        return existing
    if invitation.problem():
        # The same answer as an unknown code: a dead link says nothing of the campaign it was for.
        raise ValidationError({"code": INVALID_INVITATION})
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return Membership.objects.create(campaign=invitation.campaign, user=user, role=Role.PLAYER)
