"""The only way views and API endpoints fetch mission runs for a user.

Same contract as campaigns/access.py: not a member of the run's campaign -> 404; a member without
the right -> 403. ``side_of`` says which side of the screen a member plays on a run.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns import access as campaign_access
from campaigns.access import get_membership
from campaigns.models import Role
from systems.time_to_kill.models import MissionRun

SYSTEM = "time_to_kill"
GM, PLAYER = "gm", "player"
NEEDS = ("view", "gm", "move")


def get_campaign_for_user(user, campaign_id, need: str = "member"):
    """campaigns.access.get_campaign_for_user for this app's pages and endpoints: a campaign of
    another game system is 404 for every role, as if it did not exist."""
    return campaign_access.get_campaign_for_user(user, campaign_id, need, need_system=SYSTEM)


def side_of(run: MissionRun, membership) -> str | None:
    """ "gm" for the campaign's GM, "player" for the ninja's owner, None for everyone else."""
    if membership.role == Role.GM:
        return GM
    if membership.role == Role.PLAYER and run.ninja.owner_id == membership.user_id:
        return PLAYER
    return None


def get_run_for_user(user, run_id, need: str = "view"):
    """(run, membership) for a user allowed to ``need`` it: "view" any member (players' view only),
    "gm" the campaign's GM, "move" the GM or the ninja's owner."""
    if need not in NEEDS:
        raise ValueError(f"unknown need {need!r}")
    not_found = Http404("No such mission run.")
    if not user.is_authenticated:
        raise not_found
    try:
        run_id = int(run_id)
    except (TypeError, ValueError):
        raise not_found from None
    run = MissionRun.objects.select_related("campaign", "ninja", "mission").filter(pk=run_id).first()
    if run is None:
        raise not_found
    try:
        membership = get_membership(user, run.campaign_id)
    except Http404:
        raise not_found from None
    if need == "gm" and membership.role != Role.GM:
        raise PermissionDenied("Only the game master of this campaign can do this.")
    if need == "move" and side_of(run, membership) is None:
        raise PermissionDenied("Only the game master and the ninja's player can move in this mission.")
    return run, membership
