"""Making a roll: the server's dice with their proof (fair dice), the roll log's leaf and the
live event, in one transaction; a secret roll shared; dice entered by hand. Every system's roll
goes through record_roll."""

from __future__ import annotations

import functools
import random

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import (
    Membership,
    Mission,
    Roll,
    RollProof,
)
from campaigns.table import fairness, live, rolllog, webhooks
from characters.systems.dice import ROLLER_KINDS, roll_kind

OWN_CHARACTERS_ONLY = "A player attaches rolls to their own characters only; the game master to any."


def _atomic(func):
    """``transaction.atomic`` with the caller's say on the savepoint: ``savepoint=False`` when the
    caller's own transaction holds the write whole (any failure rolls all of it back, as
    click-to-roll's does), so a nested block costs no SAVEPOINT and RELEASE round trips."""

    @functools.wraps(func)
    def inner(*args, savepoint: bool = True, **kwargs):
        with transaction.atomic(savepoint=savepoint):
            return func(*args, **kwargs)

    return inner


@_atomic
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
    by_hand: bool = False,
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
    them, and it is proved with that draw. ``by_hand``: the dice were rolled at the table
    (enter_roll_by_hand gives them as ``rng``): marked so, not verifiable. ``savepoint=False``: in
    a transaction of the caller's that a failure ends whole (no savepoint around the roll)."""
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
    proof = None
    if draw is not None:
        proof = fairness.prove(made, draw)
    elif by_hand:
        proof = RollProof.objects.create(roll=made, by_hand=True)
    rolllog.append(made, proof)  # a leaf of the campaign's roll logs (issue 48)
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
    for shown in (locked, *companions):
        rolllog.shared(shown)  # its opening joins the log of those it is shared with
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
    roll = record_roll(membership, kind=kind, rng=given, by_hand=True, **fields)
    if given.used != len(given.faces):
        raise ValidationError(
            {"faces": f"Too many dice: this roll takes {given.used}, not {len(given.faces)}."}
        )
    return roll
