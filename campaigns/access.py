"""The only way views and API endpoints fetch campaigns and their records for a user.

A user who is not a member gets 404 (the campaign's existence is not revealed); a member whose
role is below what the action needs gets 403. A page or endpoint of one game system asks with
``need_system=``: a campaign of another system is 404 for every role, as if it did not exist.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.models import Campaign, Membership, Role
from kernel import zones

NEEDS = {
    "member": Role.OBSERVER,
    "observer": Role.OBSERVER,
    "player": Role.PLAYER,
    "gm": Role.GM,
}

REFUSALS = {
    Role.PLAYER: "Observers cannot do this; it needs a player or the game master.",
    Role.GM: "Only the game master of this campaign can do this.",
}


def get_membership(user, campaign_id) -> Membership:
    """The user's membership of the campaign, or 404 if there is none."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    try:
        campaign_id = int(campaign_id)
    except (TypeError, ValueError):
        raise Http404("No such campaign.") from None
    membership = (
        Membership.objects.select_related("campaign").filter(user=user, campaign_id=campaign_id).first()
    )
    if membership is None:
        raise Http404("No such campaign.")
    zones.show_times_in(membership.campaign.zone)
    return membership


def require(membership: Membership, need: str) -> None:
    role = NEEDS[need]
    if not membership.at_least(role):
        raise PermissionDenied(REFUSALS.get(role, "You are not allowed to do that."))


def get_campaign_for_user(
    user, campaign_id, need: str = "member", need_system: str | None = None
) -> tuple[Campaign, Membership]:
    membership = get_membership(user, campaign_id)
    if need_system is not None and membership.campaign.system != need_system:
        raise Http404("No such campaign.")
    require(membership, need)
    return membership.campaign, membership
