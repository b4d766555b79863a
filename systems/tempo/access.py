"""The only way views and API endpoints fetch conflicts for a user (same contract as
campaigns/access.py): not a member of the campaign -> 404; a member who is neither the GM nor a
player with a character in the conflict -> 403."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns import access as campaign_access
from campaigns.access import get_membership
from campaigns.models import Role
from characters import access as character_access
from systems.tempo.models import Conflict

SYSTEM = "tempo"
NOT_INVOLVED = "Only the game master and the players whose agents take part see this conflict."


def get_campaign_for_user(user, campaign_id, need: str = "member"):
    """campaigns.access.get_campaign_for_user for this app's pages and endpoints: a campaign of
    another game system is 404 for every role, as if it did not exist."""
    return campaign_access.get_campaign_for_user(user, campaign_id, need, need_system=SYSTEM)


def get_agent_for_user(user, character_id, need: str = "view"):
    """characters.access.get_character_for_user for this app's pages and endpoints: a character
    of another game system is 404."""
    return character_access.get_character_for_user(user, character_id, need=need, need_system=SYSTEM)


def get_conflict_for_user(user, conflict_id, campaign_id=None, need: str = "view"):
    """(conflict, membership); ``need="gm"`` refuses everyone but the GM with 403."""
    not_found = Http404("No such conflict.")
    if not user.is_authenticated:
        raise not_found
    try:
        conflict_id = int(conflict_id)
    except (TypeError, ValueError):
        raise not_found from None
    conflict = Conflict.objects.select_related("campaign").filter(pk=conflict_id).first()
    if conflict is None or (campaign_id is not None and str(conflict.campaign_id) != str(campaign_id)):
        raise not_found
    membership = get_membership(user, conflict.campaign_id)
    if membership.role == Role.GM:
        return conflict, membership
    if need == "gm":
        raise PermissionDenied("Only the game master of this campaign can do this.")
    involved = membership.role == Role.PLAYER and conflict.participants.filter(character__owner=user).exists()
    if not involved:
        raise PermissionDenied(NOT_INVOLVED)
    return conflict, membership


def view_of(conflict: Conflict, membership, settings: dict) -> dict:
    """The state this member may see: the GM everything, players the engine's public view (the GM
    sides' raw rolls hidden unless the campaign reveals NPC rolls)."""
    from systems.tempo.engine import conflict as engine_conflict

    if membership.role == Role.GM:
        return conflict.state
    state = conflict.state
    reveal = (
        [k for k, s in state["sides"].items() if s["controlled_by"] == "gm"]
        if settings.get("reveal_npc_rolls")
        else []
    )
    view = engine_conflict.public_view(state, reveal)
    # The aspects the GM gave its own sides when setting up are GM-secret until play reveals them
    # (tempo-flashpoints.md, hidden information); aspects put on a side during play stay visible.
    for key, side in view["sides"].items():
        if side["controlled_by"] == "gm":
            secret = set((conflict.initial_state.get("sides", {}).get(key) or {}).get("aspects", []))
            side["aspects"] = [a for a in side["aspects"] if a not in secret]
    return view
