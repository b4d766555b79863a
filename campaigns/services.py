"""Writes on campaigns that span models or have side effects."""

from __future__ import annotations

import random
from datetime import timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns import fairness, live, webhooks
from campaigns.models import (
    PAPER_CHOICES,
    Campaign,
    Invitation,
    Membership,
    Mission,
    Role,
    Roll,
    RollProof,
)
from characters.systems import UnknownSystem, get_system
from characters.systems.dice import ROLLER_KINDS, roll_kind


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


OWN_CHARACTERS_ONLY = "A player attaches rolls to their own characters only; the game master to any."


@transaction.atomic
def record_roll(
    membership: Membership,
    *,
    kind: str,
    count: int = 1,
    modifier: int = 0,
    purpose: str = "",
    secret: bool = False,
    secret_by_rule: bool = False,
    announced: bool = True,
    mission: Mission | None = None,
    character=None,
    rng=None,
    detail=None,
    scope: str = "",
    draw: fairness.Draw | None = None,
) -> Roll:
    """Roll dice and append the result to the campaign's log.

    ``detail`` is a dict stored with the roll, or a function of the dice result that returns it
    (a check reads its margin and result off the rolled number). ``secret_by_rule``: the rules
    make this roll the GM's whoever asks for it (a secret check, timemaster-characters.md §4.2), so
    a player may make it and gets no result. ``announced=False`` keeps a secret roll out of
    everyone else's log until the GM reveals it (the significance check). ``scope``: the roll is
    seen by some members only; the fair dice number it within that scope (fairness.draw).
    ``draw``: a fair draw the caller made in this transaction (fairness.draw), when the roll's
    reading goes on to take more dice from the same stream after the roll's own (a TIMEMASTER
    attack's damage and hit location): the roll's dice come first, as every checker recomputes
    them, and it is proved with that draw."""
    secret = secret or secret_by_rule
    if secret and not secret_by_rule and not membership.is_gm:
        raise PermissionDenied("Only the game master can roll in secret.")
    if character is not None and not membership.is_gm and character.owner_id != membership.user_id:
        raise ValidationError({"character": OWN_CHARACTERS_ONLY})
    spec = ROLLER_KINDS.get(kind)
    if spec is None:
        raise ValidationError(
            {"kind": f"Unknown dice kind {kind!r}: choose one of {', '.join(ROLLER_KINDS)}."}
        )
    if not spec["min_count"] <= count <= spec["max_count"]:
        raise ValidationError(
            {"count": f"{spec['label']} takes a count from {spec['min_count']} to {spec['max_count']}."}
        )
    announced = announced or not secret
    if draw is not None:
        rng = draw.rng
    elif rng is None:
        draw = fairness.draw(
            membership.campaign, secret=secret, announced=announced, mission=mission, scope=scope
        )
        rng = draw.rng
    result = roll_kind(rng, kind, count, modifier)
    made = Roll.objects.create(
        campaign=membership.campaign,
        mission=mission,
        character=character,
        roller=membership.user,
        kind=kind,
        count=count,
        modifier=modifier,
        faces=list(result.faces),
        kept=list(result.kept or result.faces),
        total=result.total,
        purpose=purpose,
        secret=secret,
        announced=announced,
        detail=(detail(result) if callable(detail) else detail) or {},
    )
    if draw is not None:
        fairness.prove(made, draw)
    webhooks.after_commit_roll(made)
    live.publish_roll(made)
    return made


@transaction.atomic
def reveal_roll(membership: Membership, roll: Roll) -> Roll:
    """Share a secret roll's result with the table (the GM only; once)."""
    if not membership.is_gm:
        raise PermissionDenied("Only the game master can share a secret roll's result.")
    locked = Roll.objects.select_for_update().get(pk=roll.pk, campaign_id=membership.campaign_id)
    if not locked.secret:
        raise ValidationError({"roll": "This roll is not secret: everyone already sees its result."})
    if locked.revealed_at is not None:
        raise ValidationError({"roll": "This roll's result is already shared."})
    locked.revealed_at = timezone.now()
    locked.save(update_fields=["revealed_at"], _allow_update=True)
    # the rolls made for it (a TIMEMASTER missile attack's defense die, named in its detail's
    # ``with_rolls``): its result tells theirs, and a sealed one would hold the seed's key back
    named = locked.detail.get("with_rolls") if isinstance(locked.detail, dict) else None
    named = named if isinstance(named, list) else []
    ids = [pk for pk in named if isinstance(pk, int) and not isinstance(pk, bool)]
    companions: list[Roll] = []
    if ids:
        companions = list(
            Roll.objects.select_for_update().filter(
                campaign_id=membership.campaign_id, pk__in=ids, secret=True, revealed_at__isnull=True
            )
        )
    for companion in companions:
        companion.revealed_at = locked.revealed_at
        companion.save(update_fields=["revealed_at"], _allow_update=True)
    fairness.release_secret_keys(membership.campaign)
    live.publish_roll(locked, revealed=True)
    for companion in companions:
        live.publish_roll(companion, revealed=True)
    return locked


#: The faces a hand-entered roll gives, as the log shows them (a d10 reads 1-10; percentile and
#: three-d10 rolls give each die 0-9, tens first).
HAND_FACES = {
    "d6": (1, 6),
    "d10": (1, 10),
    "percent": (0, 9),
    "d1000": (0, 9),
    "fudge": (-1, 1),
    "3d6_bonus": (1, 6),
    "3d6_penalty": (1, 6),
    "d6_wild": (1, 6),
}


class _GivenFaces(random.Random):
    """The faces a group rolled on the table, fed to the dice roller in order (so totals, kept
    dice and percent readings come out as for a server roll)."""

    def __init__(self, kind: str, faces: list[int]) -> None:
        super().__init__(0)
        self.kind, self.faces, self.used = kind, faces, 0

    def _next(self) -> int:
        low, high = HAND_FACES[self.kind]
        if self.used >= len(self.faces):
            raise ValidationError({"faces": f"Too few dice: this roll takes more than {len(self.faces)}."})
        face = self.faces[self.used]
        if isinstance(face, bool) or not isinstance(face, int) or not low <= face <= high:
            raise ValidationError(
                {"faces": f"Die {self.used + 1} must be a whole number from {low} to {high}."}
            )
        self.used += 1
        return face

    def randint(self, a: int, b: int) -> int:
        face = self._next()
        return 0 if self.kind == "d10" and face == 10 else face

    def choice(self, seq):
        return self._next()


SECRET_BY_HAND = (
    "A secret roll's dice are never typed by a player: the server rolls them (leave the faces out), "
    "or the game master enters them."
)


@transaction.atomic
def enter_roll_by_hand(membership: Membership, *, kind: str, faces: list[int], **fields) -> Roll:
    """A roll made with physical dice: the faces as rolled, stored with its total and marked
    entered by hand (not verifiable: no seed made it)."""
    if kind not in HAND_FACES:
        raise ValidationError({"kind": f"Unknown dice kind {kind!r}: choose one of {', '.join(HAND_FACES)}."})
    if (fields.get("secret_by_rule") or fields.get("secret")) and not membership.is_gm:
        # A check the rules keep secret is rolled by the server (or typed by the GM): a player who
        # typed its dice would choose, and know, its result (issue 48, finding 4).
        raise ValidationError({"faces": SECRET_BY_HAND})
    given = _GivenFaces(kind, list(faces))
    roll = record_roll(membership, kind=kind, rng=given, **fields)
    if given.used != len(given.faces):
        raise ValidationError(
            {"faces": f"Too many dice: this roll takes {given.used}, not {len(given.faces)}."}
        )
    RollProof.objects.create(roll=roll, by_hand=True)
    return roll
