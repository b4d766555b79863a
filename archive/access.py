"""Who may export and import what. Built on campaigns/access.py and characters/access.py, so a
non-member gets 404 and a member without the right gets 403, as everywhere else."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from campaigns.access import get_campaign_for_user
from campaigns.models import Role
from characters.access import get_character_for_user

OWN_CHARACTERS_ONLY = "Players export their own characters; the game master exports any."


def character_for_export(user, character_id, campaign_id=None):
    """A character the user may export: their own, or any of a campaign they run."""
    character, membership = get_character_for_user(user, character_id, need="view", campaign_id=campaign_id)
    if membership.role != Role.GM and character.owner_id != user.pk:
        raise PermissionDenied(OWN_CHARACTERS_ONLY)
    return character, membership


def campaign_for_gm(user, campaign_id):
    """Whole-campaign export and importing characters into a campaign are the GM's."""
    return get_campaign_for_user(user, campaign_id, need="gm")
