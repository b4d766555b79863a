"""Who may request and download which sheet. Views and the API get renders only through here.

- A character sheet: its owner and the campaign's GM (another member gets 403, a non-member 404).
- The party bundle: players get the players' copy (no GM-only pages); the GM gets the GM's copy.
  A copy that carries character documents (sheets/archival.py) is read only by who may export
  every one of them: the GM, or the player who owns them.
- GM-only kinds (the Time to Kill Fate Record Sheet): the GM only; anyone else gets 403 and no PDF
  when asking to print one, and 404 for one the GM printed (as for an id nobody holds).
- Blank sheets hold nothing private: any member.
- A Time to Kill mission run's Fate Record Sheet (its current turn's secret Fates): GM only, like
  every GM-only kind; the run must be one of the campaign's (another campaign's run is 404).
- A mission's after-action report and the campaign report: the GM's copy for the GM; a player's
  copy (published results only, their own awards and characters) for the member who asked for it.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.access import get_campaign_for_user, get_membership
from campaigns.models import Membership, Mission
from characters.access import get_character_for_user
from sheets.models import GM_ONLY_KINDS, SheetKind, SheetRender
from systems.time_to_kill.models import MissionRun

REFUSALS = {
    "gm_only": "Only the game master of this campaign can print this sheet.",
    "not_yours": "Only the character's owner or the game master can print this character's sheet.",
    "render": "This sheet was printed for someone else.",
}


def may_read(render: SheetRender, user, membership: Membership) -> bool:
    """Whether a member of the render's campaign may see its status and download it."""
    if membership.is_gm:
        return True
    if render.kind in GM_ONLY_KINDS or render.gm_copy:
        return False
    if render.kind == SheetKind.CHARACTER:
        return render.character is not None and render.character.owner_id == user.id
    if render.kind == SheetKind.PARTY_BUNDLE:
        # A player's bundle carries the documents of that player's own characters (sheets/archival.py).
        return membership.at_least("player") and _owns_all(user, render)
    if render.kind in (SheetKind.AFTER_ACTION, SheetKind.CAMPAIGN_REPORT):
        return render.requested_by_id == user.id  # a player's copy holds their own awards
    return render.kind == SheetKind.BLANK


def _owns_all(user, render: SheetRender) -> bool:
    from characters.models import Character
    from sheets.services import attached_characters

    attached = set(attached_characters(render))
    if not attached:
        return True
    owned = Character.objects.filter(pk__in=attached, owner_id=user.id).count()
    return owned == len(attached)


def get_render_for_user(user, render_id) -> tuple[SheetRender, Membership]:
    """The render, if the user may see it: 404 for a non-member, no such render, or a GM-only render
    or GM's copy asked for by anyone but the GM; else 403."""
    not_found = Http404("No such sheet.")
    try:
        render_id = int(render_id)
    except (TypeError, ValueError):
        raise not_found from None
    if not user.is_authenticated or not 0 < render_id < 2**63:
        raise not_found
    render = SheetRender.objects.select_related("campaign", "character", "run").filter(pk=render_id).first()
    if render is None:
        raise not_found
    membership = get_membership(user, render.campaign_id)
    if not may_read(render, user, membership):
        if render.kind in GM_ONLY_KINDS or render.gm_copy:
            # That the GM printed a GM-only sheet is the GM's: answered like an id nobody holds.
            raise not_found
        raise PermissionDenied(REFUSALS["render"])
    return render, membership


def check_request(user, campaign_id, kind: str, character_id=None):
    """(campaign, membership, character or None) for a user allowed to request ``kind``.

    For an after-action report, use ``mission_for_request`` as well.

    Access comes before validation: a non-member learns nothing, whatever else is wrong.
    """
    campaign, membership = get_campaign_for_user(user, campaign_id, need="member")
    character = None
    if kind in GM_ONLY_KINDS and not membership.is_gm:
        raise PermissionDenied(REFUSALS["gm_only"])
    if kind == SheetKind.PARTY_BUNDLE and not membership.at_least("player"):
        raise PermissionDenied("Observers cannot print the party bundle.")
    if kind == SheetKind.CHARACTER and character_id is not None:
        character, _ = get_character_for_user(user, character_id, need="view", campaign_id=campaign.pk)
        if not membership.is_gm and character.owner_id != user.id:
            raise PermissionDenied(REFUSALS["not_yours"])
    return campaign, membership, character


def mission_for_request(campaign, mission_id):
    """The campaign's mission for an after-action report; 404 for one of another campaign."""
    try:
        mission_id = int(mission_id)
    except (TypeError, ValueError):
        raise Http404("No such mission.") from None
    mission = (
        Mission.objects.filter(pk=mission_id, campaign=campaign).first() if 0 < mission_id < 2**63 else None
    )
    if mission is None:
        raise Http404("No such mission.")
    return mission


def run_for_request(campaign, run_id) -> MissionRun:
    """The campaign's Time to Kill mission run for a filled Fate Record Sheet; 404 for another's.

    Call after ``check_request``: the Fate Record Sheet is GM-only, so only the GM gets this far."""
    try:
        run_id = int(run_id)
    except (TypeError, ValueError):
        raise Http404("No such mission run.") from None
    run = (
        MissionRun.objects.select_related("ninja").filter(pk=run_id, campaign=campaign).first()
        if 0 < run_id < 2**63
        else None
    )
    if run is None:
        raise Http404("No such mission run.")
    return run
