"""Who may request and download which sheet. Views and the API get renders only through here.

- A character sheet: its owner and the campaign's GM (another member gets 403, a non-member 404).
- The party bundle: players get the players' copy (no GM-only pages); the GM gets the GM's copy.
  A copy that carries character documents (sheets/archival.py) is read only by who may export
  every one of them: the GM, or the player who owns them.
- GM-only kinds (a system's kind declared with readers "gm"): the GM only; anyone else gets 403
  and no PDF when asking to print one, and 404 for one the GM printed (as for an id nobody holds).
- Blank sheets hold nothing private: any member.
- A system kind printed from one of the campaign's records (its ``target``: a mission, a mission
  run): the record must be the campaign's (another campaign's is 404, like one nobody holds).
- The campaign report and every other system kind: the GM's copy for the GM; a player's copy
  (what the system shows that player: published results, their own awards and characters) for
  the member who asked for it.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404

from campaigns.access import get_campaign_for_user, get_membership
from campaigns.models import Membership, Role
from campaigns.table import live
from characters import registry
from characters.access import get_character_for_user
from sheets import kinds
from sheets.models import SheetKind, SheetRender

REFUSALS = {
    "gm_only": "Only the game master of this campaign can print this sheet.",
    "not_yours": "Only the character's owner or the game master can print this character's sheet.",
    "render": "This sheet was printed for someone else.",
}


def may_read(render: SheetRender, user, membership: Membership) -> bool:
    """Whether a member of the render's campaign may see its status and download it."""
    if membership.is_gm:
        return True
    if kinds.gm_only(render.kind) or render.gm_copy:
        return False
    if render.kind == SheetKind.CHARACTER:
        return render.character is not None and render.character.owner_id == user.id
    if render.kind == SheetKind.PARTY_BUNDLE:
        # A player's bundle carries the documents of that player's own characters (sheets/archival.py).
        return membership.at_least("player") and _owns_all(user, render)
    if render.kind in (SheetKind.CAMPAIGN_REPORT, SheetKind.CHRONICLE) or kinds.spec(render.kind) is not None:
        return render.requested_by_id == user.id  # a player's copy holds what is theirs
    return render.kind == SheetKind.BLANK


def readers(render: SheetRender) -> list[int]:
    """The users told on the live feed that this render moved (issue 44: "sheet finished"): the
    members who may read it (may_read) among the GMs, who asked for it and the character's
    owner. Each is sent an event of their own (LiveEvent.recipient): no one else learns of it."""
    asked = [render.requested_by_id, render.character.owner_id if render.character_id else None]
    members = (
        Membership.objects.filter(campaign_id=render.campaign_id)
        .filter(Q(role=Role.GM) | Q(user_id__in=[pk for pk in asked if pk is not None]))
        .select_related("user", "campaign")
    )
    return [m.user_id for m in members if may_read(render, m.user, m)]


def tell_readers(sender, render_id: int, asked: bool = False, **kwargs) -> None:
    """sheets.models.render_moved, sent by the worker and by request_render: the render moved
    (done, failed, or ``asked`` for). A live event for each member who may read it
    (sheets.access.readers), in the caller's transaction, naming the render and, for a character's
    sheet, the character (its page's print box). The worker writes it; the web processes' hub
    brings it to open pages (Redis pub/sub, or its poll of the newest event: docs/live.md)."""
    render = SheetRender.objects.select_related("character").filter(pk=render_id).first()
    if render is None:
        return
    told = readers(render)
    if not asked:  # a render just asked for has no page open on it yet: only the print box waits
        live.publish_ready(render.campaign_id, live.topic_of("sheet-render", render.pk), told)
    if render.character_id:
        live.publish_ready(render.campaign_id, live.topic_of("character-sheet", render.character_id), told)


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
    render = SheetRender.objects.select_related("campaign", "character").filter(pk=render_id).first()
    if render is None:
        raise not_found
    membership = get_membership(user, render.campaign_id)
    if not may_read(render, user, membership):
        if kinds.gm_only(render.kind) or render.gm_copy:
            # That the GM printed a GM-only sheet is the GM's: answered like an id nobody holds.
            raise not_found
        raise PermissionDenied(REFUSALS["render"])
    return render, membership


def check_request(user, campaign_id, kind: str, character_id=None):
    """(campaign, membership, character or None) for a user allowed to request ``kind``.

    For a system kind printed from a record, use ``target_for_request`` as well.

    Access comes before validation: a non-member learns nothing, whatever else is wrong.
    """
    campaign, membership = get_campaign_for_user(user, campaign_id, need="member")
    character = None
    if kinds.gm_only(kind) and not membership.is_gm:
        raise PermissionDenied(REFUSALS["gm_only"])
    if kind == SheetKind.PARTY_BUNDLE and not membership.at_least("player"):
        raise PermissionDenied("Observers cannot print the party bundle.")
    if kind == SheetKind.CHARACTER and character_id is not None:
        character, _ = get_character_for_user(user, character_id, need="view", campaign_id=campaign.pk)
        if not membership.is_gm and character.owner_id != user.id:
            raise PermissionDenied(REFUSALS["not_yours"])
    return campaign, membership, character


def target_for_request(campaign, kind: str, target_id):
    """The campaign's record a system kind prints from (its SheetKindSpec.target: a mission, a
    mission run), found by the kind's ``find``; 404 for one of another campaign or nobody's.

    Call after ``check_request``: a GM-only kind's record is looked up for the GM only."""
    spec = kinds.spec(kind)
    if spec is None or not spec.target:
        raise Http404("This sheet is not printed from a record.")
    not_found = Http404(f"No such {spec.target_label or spec.target}.")
    try:
        target_id = int(target_id)
    except (TypeError, ValueError):
        raise not_found from None
    target = registry.call(spec.find, campaign, target_id) if 0 < target_id < 2**63 else None
    if target is None:
        raise not_found
    return target
