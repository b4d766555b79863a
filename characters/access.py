"""The only way views and API endpoints fetch characters for a user.

Same contract as campaigns/access.py: a user who may not see the character (not a member of its
campaign, or someone else's draft without being GM) gets 404, so its existence is not revealed; a
member who may see it but not do what is asked gets 403.

``characters`` may not import ``campaigns`` (the layers run sheets -> campaigns -> characters), so
memberships are reached through the ORM relation ``Character.campaign -> campaign.memberships``.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import F, FilteredRelation, Q
from django.http import Http404

from characters.models import Character
from kernel import zones

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
    membership = membership_model().objects.filter(user=user, campaign_id=campaign_id).first()
    if membership is not None:
        membership.user = user  # the user in hand (a roll's record names them): not read again
    return membership


#: The membership's fields read with the character (get_character_for_user).
MEMBERSHIP_FIELDS = ("id", "role", "joined_at")


def _membership_of(character: Character, user):
    """The user's membership read with the character (its campaign and the user in hand, not read
    again), or None."""
    values = {name: getattr(character, f"_mine_{name}") for name in MEMBERSHIP_FIELDS}
    if values["id"] is None:
        return None
    values.update(campaign_id=character.campaign_id, user_id=user.pk)
    model = membership_model()
    names = [field.attname for field in model._meta.concrete_fields if field.attname in values]
    membership = model.from_db(character._state.db, names, [values[name] for name in names])
    membership.campaign = character.campaign
    membership.user = user  # the user in hand (a roll's record names them): not read again
    return membership


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
    user,
    character_id,
    need: str = "view",
    campaign_id=None,
    need_system: str | None = None,
    defer: tuple[str, ...] = (),
    lock: bool = False,
):
    """(character, membership) for a user allowed to ``need`` it; 404 if they may not see it,
    403 if they may see it but not do ``need``. ``campaign_id`` (from a nested URL) must match;
    a page of one game system passes ``need_system``: a character of another system is 404.
    ``defer``: fields the caller does not read (a build's JSON it reads locked, in its own
    transaction, as click-to-roll does): left unread, as Django's ``defer``. ``lock``: the
    character's row is locked until the caller's transaction ends (``select_for_update``), so a
    write of the caller's reads it once (click-to-roll)."""
    if need not in NEEDS:
        raise ValueError(f"unknown need {need!r}")
    not_found = Http404("No such character.")
    if not user.is_authenticated:
        raise not_found
    try:
        character_id = int(character_id)
    except (TypeError, ValueError):
        raise not_found from None
    # The character, its campaign, its owner and the user's membership of the campaign: one query
    # (the membership joined on the campaign and this user: at most one row, one_membership_per_user).
    rows = (
        Character.objects.select_related("campaign", "owner")
        .annotate(
            _mine=FilteredRelation("campaign__memberships", condition=Q(campaign__memberships__user=user.pk))
        )
        .annotate(**{f"_mine_{name}": F(f"_mine__{name}") for name in MEMBERSHIP_FIELDS})
        .filter(pk=character_id)
    )
    if lock:
        rows = rows.select_for_update(of=("self",))
    character = (rows.defer(*defer) if defer else rows).first()
    if character is None:
        raise not_found
    if campaign_id is not None and str(character.campaign_id) != str(campaign_id):
        raise not_found
    if need_system is not None and character.system != need_system:
        raise not_found
    membership = _membership_of(character, user)
    if not can_see(character, user, membership):
        raise not_found
    if need == "edit" and not can_edit(character, user, membership):
        raise PermissionDenied(REFUSALS["edit"])
    if need == "gm" and membership.role != GM:
        raise PermissionDenied(REFUSALS["gm"])
    zones.show_times_in(character.campaign.zone)
    return character, membership
