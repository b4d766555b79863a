"""The only way views and API endpoints fetch characters for a user.

Same contract as campaigns/access.py: a user who may not see the character (not a member of its
campaign, or someone else's draft without being GM) gets 404, so its existence is not revealed; a
member who may see it but not do what is asked gets 403.

``characters`` may not import ``campaigns`` (the layers run sheets -> campaigns -> characters), so
memberships are reached through the ORM relation ``Character.campaign -> campaign.memberships``.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from characters.models import Character

# Role names as stored on campaigns.Membership.role.
GM, PLAYER, OBSERVER = "gm", "player", "observer"

#: need -> what it allows: "view" any visible character, "edit" a draft (its owner) or anything (GM),
#: "gm" only the campaign's game master.
NEEDS = ("view", "edit", "gm")

REFUSALS = {
    "edit": "Only the owner (while it is a draft) or the game master can change this character.",
    "gm": "Only the game master of this campaign can do this.",
}


def membership_model():
    campaign_model = Character._meta.get_field("campaign").related_model
    return campaign_model._meta.get_field("memberships").related_model


def membership_for(user, campaign_id):
    """The user's membership of a campaign, or None."""
    if not user.is_authenticated:
        return None
    return membership_model().objects.filter(user=user, campaign_id=campaign_id).first()


def can_edit(character: Character, user, membership) -> bool:
    if membership is None:
        return False
    if membership.role == GM:
        return True
    return membership.role == PLAYER and character.is_draft and character.owner_id == user.id


def can_see(character: Character, user, membership) -> bool:
    if membership is None:
        return False
    return not character.is_draft or character.owner_id == user.id or membership.role == GM


def get_character_for_user(
    user, character_id, need: str = "view", campaign_id=None, need_system: str | None = None
):
    """(character, membership) for a user allowed to ``need`` it; 404 if they may not see it,
    403 if they may see it but not do ``need``. ``campaign_id`` (from a nested URL) must match;
    a page of one game system passes ``need_system``: a character of another system is 404."""
    if need not in NEEDS:
        raise ValueError(f"unknown need {need!r}")
    not_found = Http404("No such character.")
    if not user.is_authenticated:
        raise not_found
    try:
        character_id = int(character_id)
    except (TypeError, ValueError):
        raise not_found from None
    character = Character.objects.select_related("campaign", "owner").filter(pk=character_id).first()
    if character is None:
        raise not_found
    if campaign_id is not None and str(character.campaign_id) != str(campaign_id):
        raise not_found
    if need_system is not None and character.system != need_system:
        raise not_found
    membership = membership_for(user, character.campaign_id)
    if not can_see(character, user, membership):
        raise not_found
    if need == "edit" and not can_edit(character, user, membership):
        raise PermissionDenied(REFUSALS["edit"])
    if need == "gm" and membership.role != GM:
        raise PermissionDenied(REFUSALS["gm"])
    return character, membership
