"""Provably fair server rolls: the campaign's seeds, the players' seeds, proofs and their release.

The derivation is characters/systems/fair_dice.py; docs/fair-dice.md explains the scheme to a
reader. Here: which seed a roll takes (the campaign's current one, made on first need), which lane
and counter, the players' seeds of the moment, rotation (reveals the server seed, starts a new
one) and the release of a seed's secret key once no secret roll under it is still the GM's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from campaigns.models import (
    Campaign,
    ClientSeed,
    DiceScope,
    Membership,
    Mission,
    Role,
    Roll,
    RollProof,
    RollSeed,
)
from campaigns.table import rolllog
from characters.systems import fair_dice
from characters.systems.dice import DiceResult, roll_kind


@dataclass
class Draw:
    seed: RollSeed
    lane: str
    counter: int
    client_seeds: list[str]
    rng: fair_dice.FairRandom


def _new_seed(campaign: Campaign, number: int) -> RollSeed:
    seed = RollSeed(campaign=campaign, number=number)
    seed.commitment = fair_dice.commitment(seed.server_seed)
    seed.secret_commitment = fair_dice.commitment(seed.secret_key)
    seed.save()
    return seed


def current_seed(campaign: Campaign, *, lock: bool = False) -> RollSeed:
    """The seed rolls are made under now (made on first need: its commitment is shown before any
    roll under it, on the dice page, since that page asks for it before offering a roll)."""
    # a seed restored without its server seed (archive/sections/fair_dice.py) is never rolled under
    rows = RollSeed.objects.filter(campaign=campaign, rotated_at__isnull=True).exclude(server_seed="")
    if lock:
        rows = rows.select_for_update()
    seed = rows.order_by("-number").first()
    if seed is None:
        last = RollSeed.objects.filter(campaign=campaign).order_by("-number").first()
        try:
            with transaction.atomic():
                seed = _new_seed(campaign, (last.number if last else 0) + 1)
        except IntegrityError:  # another request made it first: take theirs
            seed = rows.order_by("-number").first()
            if seed is None:
                raise
    return seed


def _new_scope(campaign: Campaign, label: str, closed_at=None) -> DiceScope:
    """An unsaved scope with its fresh secret key's commitment."""
    scope = DiceScope(campaign=campaign, label=label, closed_at=closed_at)
    scope.secret_commitment = fair_dice.commitment(scope.secret_key)
    return scope


def open_scope(campaign: Campaign, label: str) -> DiceScope:
    """The dice scope ``label`` of the campaign, made (with its secret key's commitment) on first
    need. A system opens a scope when the part of play starts (a Tempo conflict, at creation), so
    the commitment is shown to who sees it before any roll in it."""
    scope = DiceScope.objects.filter(campaign=campaign, label=label).first()
    if scope is None:
        scope = _new_scope(campaign, label)
        try:
            with transaction.atomic():
                scope.save()
        except IntegrityError:  # another request made it first: take theirs
            scope = DiceScope.objects.get(campaign=campaign, label=label)
    return scope


#: How a scope restored without its secret key goes on: its rolls take the scope ``<label>-r``.
RESTORED_SUFFIX = "-r"


def live_scope(campaign: Campaign, label: str) -> str:
    """The scope a roll of ``label`` is made in: ``label`` itself, or when that scope was restored
    from an archive without its secret key (archive/sections/fair_dice_scopes.py: the key was not
    released when the file was written), a scope of its own after it, ``<label>-r`` (its key fresh,
    its commitment shown from its start): the restored scope's rolls stay what they were, checked
    against the key they were made under, and no new roll takes a key nobody holds."""
    for _ in range(5):
        if not DiceScope.objects.filter(campaign=campaign, label=label, secret_key="").exists():
            break
        label = (label + RESTORED_SUFFIX)[-40:]
    return label


def open_scopes(campaign: Campaign, scopes: list[tuple[str, bool]]) -> None:
    """Open many scopes at once (an import): (label, closed) pairs; a label already open stays."""
    now = timezone.now()
    rows = [_new_scope(campaign, label, now if closed else None) for label, closed in scopes]
    DiceScope.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)


def close_scope(campaign: Campaign, label: str) -> None:
    """The part of play is over: no roll is made in the scope again, so its secret key may come
    out once none of its secret rolls is still the GM's."""
    labels = [label]
    for _ in range(5):  # and the scopes it went on in after a restore (live_scope)
        labels.append((labels[-1] + RESTORED_SUFFIX)[-40:])
    DiceScope.objects.filter(campaign=campaign, label__in=labels, closed_at__isnull=True).update(
        closed_at=timezone.now()
    )
    release_secret_keys(campaign)


def _seeds_by_player(campaign: Campaign) -> dict[int, str | None]:
    """membership id -> the player's seed, None for a player who has none yet (one query)."""
    return dict(
        Membership.objects.filter(campaign=campaign, role=Role.PLAYER).values_list("id", "client_seed__seed")
    )


def players_seeds(campaign: Campaign) -> list[str]:
    """Every player's seed as it stands now (a player who never chose one gets a random one).

    Two requests may find the same player without a seed at once (a roll and the player opening
    the fair-dice page): each offers a random seed, the first stored stays (the membership has one
    seed: a conflict is ignored, not an error), and both read back the one that stayed."""
    have = _seeds_by_player(campaign)
    missing = [member_id for member_id, seed in have.items() if seed is None]
    if missing:
        ClientSeed.objects.bulk_create(
            [ClientSeed(membership_id=member_id, seed=fair_dice.new_seed_hex(8)) for member_id in missing],
            ignore_conflicts=True,
        )
        have.update(ClientSeed.objects.filter(membership_id__in=missing).values_list("membership_id", "seed"))
    return sorted(seed for seed in have.values() if seed is not None)


def draw(
    campaign: Campaign, *, secret: bool, announced: bool, mission: Mission | None, scope: str = ""
) -> Draw:
    """The next counter of the roll's lane under the current seed, and its dice stream. Call inside
    the roll's transaction: the seed row is locked until the roll is stored.

    ``scope``: the roll is seen by some members only (a Tempo conflict's rolls, by its
    participants): it is numbered within ``open:<scope>`` or ``secret:<scope>``, so the campaign's
    lanes show no gap to a member who does not see it; a scoped secret roll takes the scope's own
    secret key (open_scope). The scope is a random label (a Tempo conflict's ``dice_scope``) that
    counts nothing and is never a database id."""
    if not scope and (not secret or announced):
        # the campaign's open or secret lane: the seed's next counter, taken in one statement
        taken = _take_counter(campaign, fair_dice.SECRET if secret else fair_dice.OPEN)
        if taken is not None:
            seed, counter, client_seeds = taken
            lane = fair_dice.SECRET if secret else fair_dice.OPEN
            return _draw(seed, seed.secret_key, lane, counter, client_seeds)
    seed = current_seed(campaign, lock=True)
    secret_key = seed.secret_key
    if scope:
        scope = live_scope(campaign, scope)
    if scope and not (secret and not announced):
        lane = fair_dice.scoped(fair_dice.SECRET if secret else fair_dice.OPEN, scope)
        counter = RollProof.objects.filter(seed=seed, lane=lane).count()
        if secret:  # the scope's own secret key: the campaign's key coming out reveals nothing of it
            secret_key = open_scope(campaign, scope).secret_key
    elif not secret:
        lane, counter = fair_dice.OPEN, seed.next_open
        seed.next_open += 1
        seed.save(update_fields=["next_open"])
    elif announced:
        lane, counter = fair_dice.SECRET, seed.next_secret
        seed.next_secret += 1
        seed.save(update_fields=["next_secret"])
    else:
        # Numbered within its mission: no number counts another mission's unannounced rolls. The
        # mission is named by its place among the campaign's missions (fixed before the roll, seen
        # by every member, and no database id: the lane travels verbatim in the archive).
        lane = f"{fair_dice.HIDDEN}:{_mission_place(mission)}"
        counter = RollProof.objects.filter(seed=seed, lane=lane).count()
    return _draw(seed, secret_key, lane, counter, players_seeds(campaign))


def _draw(seed: RollSeed, secret_key: str, lane: str, counter: int, client_seeds: list[str]) -> Draw:
    key = fair_dice.roll_key(
        seed.server_seed, secret_key, lane, counter, fair_dice.client_digest(client_seeds)
    )
    return Draw(seed, lane, counter, client_seeds, fair_dice.FairRandom(key))


#: The counter column of each of the campaign's own lanes.
_COUNTERS = {fair_dice.OPEN: "next_open", fair_dice.SECRET: "next_secret"}
#: The seed's columns a draw reads (the rest of the row stays unread: deferred, read if asked).
_DRAW_FIELDS = ("id", "campaign_id", "number", "server_seed", "secret_key")


def _take_counter(campaign: Campaign, lane: str) -> tuple[RollSeed, int, list[str]] | None:
    """The current seed's next counter of the open or secret lane, and the players' seeds, in one
    statement: the counter moved on in the seed's row (locked so until the roll's transaction ends,
    as ``current_seed(lock=True)`` locks it), the row's fields a draw needs and every player's seed
    returned by it (a player without a seed yet is given one, as ``players_seeds`` does). None when
    there is no seed to roll under yet (made on first need): ``draw`` then goes the long way, as
    before. Call inside the roll's transaction."""
    q = connection.ops.quote_name
    counter = q(_COUNTERS[lane])
    seeds, members, client = (q(model._meta.db_table) for model in (RollSeed, Membership, ClientSeed))
    if connection.vendor == "postgresql":
        pairs = "json_agg(json_build_array(m.id, c.seed))"
    elif connection.vendor == "sqlite" and connection.features.can_return_columns_from_insert:
        pairs = "json_group_array(json_array(m.id, c.seed))"  # RETURNING: SQLite 3.35 and later
    else:  # pragma: no cover - the project runs on these two
        return None
    current = f"{q('campaign_id')} = %s AND {q('rotated_at')} IS NULL AND {q('server_seed')} <> ''"
    sql = (
        f"UPDATE {seeds} SET {counter} = {counter} + 1"
        # the newest seed in use; the condition again on the row itself, so that a seed rotated
        # while this statement waited for its lock is not taken (no row: the long way)
        f" WHERE {q('id')} = (SELECT {q('id')} FROM {seeds} WHERE {current}"
        f" ORDER BY {q('number')} DESC LIMIT 1) AND {current}"
        f" RETURNING {', '.join(q(name) for name in _DRAW_FIELDS)}, {counter} - 1,"
        f" (SELECT {pairs} FROM {members} m LEFT OUTER JOIN {client} c"
        f" ON c.{q('membership_id')} = m.{q('id')}"
        f" WHERE m.{q('campaign_id')} = %s AND m.{q('role')} = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [campaign.pk, campaign.pk, campaign.pk, Role.PLAYER.value])
        row = cursor.fetchone()
    if row is None:
        return None
    *fields, taken, pairs = row
    players = json.loads(pairs) if isinstance(pairs, str) else (pairs or [])
    if any(player_seed is None for _, player_seed in players):
        client_seeds = players_seeds(campaign)  # a player without one yet gets one, as before
    else:
        client_seeds = sorted(player_seed for _, player_seed in players)
    return RollSeed.from_db(connection.alias, list(_DRAW_FIELDS), fields), taken, client_seeds


def _mission_place(mission: Mission | None) -> str:
    if mission is None:
        return "campaign"
    return f"mission-{Mission.objects.filter(campaign_id=mission.campaign_id, pk__lt=mission.pk).count() + 1}"


def prove(roll: Roll, made: Draw) -> RollProof:
    return RollProof.objects.create(
        roll=roll,
        seed=made.seed,
        lane=made.lane,
        counter=made.counter,
        client_seeds=made.client_seeds,
        record=rolllog.record_of(
            roll,
            lane=made.lane,
            counter=made.counter,
            seed=made.seed.number,
            client_seeds=list(made.client_seeds),
        ),
    )


@dataclass
class Drawn:
    """One draw a dice source made: whose roll it was (as the engine named it) and which of the
    source's rolls, the dice, and the draw (seed, lane, counter) ``prove`` ties to its row."""

    owner: str
    roll: int
    count: int
    result: DiceResult
    made: Draw


class FairDraws(random.Random):
    """A dice source for an engine that asks for whole draws of the dice roller's kinds: the
    engine calls ``start_roll(owner)`` before a roll and ``draw(kind, count)`` for each draw of it.
    Every draw is made on the campaign's fair dice under a counter of its own (the secret lane when
    ``secret_of(owner)``), so each is stored as one row with one proof; ``take`` hands a roll's
    draws to the system that stores them. Any other number the engine asks for (a tie-break, which
    is no die) comes from ``other``. Use inside the transaction that stores the rows."""

    def __init__(self, campaign: Campaign, other: random.Random, secret_of: Callable[[str], bool]) -> None:
        super().__init__(0)
        self.campaign, self.other, self.secret_of = campaign, other, secret_of
        self.owner, self.rolls = "", 0
        self.drawn: list[Drawn] = []

    def start_roll(self, owner: str) -> None:
        self.owner, self.rolls = owner, self.rolls + 1

    def draw(self, kind: str, count: int) -> tuple[int, ...]:
        made = draw(self.campaign, secret=self.secret_of(self.owner), announced=True, mission=None)
        result = roll_kind(made.rng, kind, count)
        self.drawn.append(Drawn(self.owner, self.rolls, count, result, made))
        return tuple(result.faces)

    def take(self, owner: str) -> list[Drawn]:
        """The draws of ``owner``'s earliest roll not taken yet (none if its dice were given)."""
        rolls = [d.roll for d in self.drawn if d.owner == owner]
        if not rolls:
            return []
        taken = [d for d in self.drawn if d.roll == rolls[0]]
        self.drawn = [d for d in self.drawn if d.roll != rolls[0]]
        return taken

    def randint(self, a: int, b: int) -> int:
        return self.other.randint(a, b)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        return self.other.randrange(start, stop, step)

    def choice(self, seq: Any) -> Any:
        return self.other.choice(seq)

    def random(self) -> float:
        return self.other.random()


def set_client_seed(membership: Membership, seed: str) -> ClientSeed:
    """A player's seed; from the next roll on, every roll takes it."""
    if membership.role != Role.PLAYER:
        raise PermissionDenied("Only players set a seed for the dice.")
    seed = seed.strip()
    if not seed or len(seed) > fair_dice.MAX_CLIENT_SEED or not seed.isprintable():
        raise ValidationError(
            {"seed": f"A seed is 1 to {fair_dice.MAX_CLIENT_SEED} printable characters, no tabs or breaks."}
        )
    row, _ = ClientSeed.objects.update_or_create(membership=membership, defaults={"seed": seed})
    return row


@transaction.atomic
def rotate(membership: Membership) -> RollSeed:
    """Reveal the current seed (end of a session or mission) and start the next one; releases the
    secret keys that may now be released."""
    if not membership.is_gm:
        raise PermissionDenied("Only the game master rotates the dice seed.")
    campaign = membership.campaign
    seed = current_seed(campaign, lock=True)
    seed.rotated_at = timezone.now()
    seed.save(update_fields=["rotated_at"])
    _new_seed(campaign, seed.number + 1)
    release_secret_keys(campaign)
    seed.refresh_from_db()
    return seed


#: The lanes of a scope's secret rolls: their dice need the scope's key, not the seed's.
SCOPED_SECRET = models.Q(proof__lane__startswith=fair_dice.SECRET + ":")


def release_secret_keys(campaign: Campaign) -> list[RollSeed]:
    """Release the secret key of every rotated seed under which no secret roll is still the GM's,
    and of every closed dice scope none of whose secret rolls is.

    Whether a key is out must say nothing a player may not know: the condition is read off what
    every member sees (the announced secret rolls still sealed; a mission closed and not published,
    which may hold an unannounced significance check whether or not it does), and the key stays in
    while any roll under the seed is sealed at all, so no hidden result is ever released. A scope's
    secret rolls (a conflict's, which only its participants know of) need the scope's key, not the
    seed's, so they are no part of the seed's condition; a scope's key comes out on a condition its
    own members see."""
    # a key restored from an archive without it ("") never comes out: nobody holds it
    for scope in DiceScope.objects.filter(
        campaign=campaign, closed_at__isnull=False, secret_released_at__isnull=True
    ).exclude(secret_key=""):
        lane = fair_dice.scoped(fair_dice.SECRET, scope.label)
        if not Roll.objects.filter(
            campaign=campaign, proof__lane=lane, secret=True, revealed_at__isnull=True
        ).exists():
            scope.secret_released_at = timezone.now()
            scope.save(update_fields=["secret_released_at"])
    if Mission.objects.filter(campaign=campaign, closed_at__isnull=False, published_at__isnull=True).exists():
        return []
    released = []
    for seed in RollSeed.objects.filter(
        campaign=campaign, rotated_at__isnull=False, secret_released_at__isnull=True
    ).exclude(secret_key=""):
        sealed = Roll.objects.filter(proof__seed=seed, secret=True, revealed_at__isnull=True)
        if sealed.exclude(SCOPED_SECRET).exists():
            continue
        seed.secret_released_at = timezone.now()
        seed.save(update_fields=["secret_released_at"])
        released.append(seed)
    return released


def seed_state(seed: RollSeed) -> str:
    """Where a seed stands, in the words each roll's verdict uses (fair_dice.waits_for)."""
    if not seed.server_seed:
        return (
            "Restored from an archive written while it was in use: its server seed stayed with the "
            "server that wrote it, so its rolls can never be checked."
        )
    if seed.rotated_at is None:
        return f"In use: its rolls can be checked once it is revealed ({fair_dice.WHEN_REVEALED})."
    if not seed.secret_key:
        return (
            "Revealed: its open rolls can be checked. Its secret key was not released when the "
            "campaign's archive was written and did not travel with it: its secret rolls can never be "
            "checked."
        )
    if seed.secret_released_at is None:
        return (
            "Revealed: its open rolls can be checked. Its secret rolls wait for its secret key: "
            f"{fair_dice.WHEN_KEY_OUT}."
        )
    return "Revealed, secret key out: every roll under it can be checked."


#: How many seeds, those whose news came out last, the dice pages' "new to check" counts.
NEWS_SEEDS = 3


def checkable_news(campaign: Campaign, user, membership: Membership) -> list[dict[str, Any]]:
    """The rolls this reader can check now, by seed: ``seed`` (its number), ``rolls`` (how many)
    and ``since`` (when the last of what they waited for came out), newest first. The page keeps
    the newest ``since`` it showed in the reader's browser and marks what came out after it.
    Counted from the rolls the reader sees, less those sealed for them: a secret roll the reader
    cannot see counts nowhere, and when a key comes out is read off what every member sees."""
    # The seeds whose news came out last (a reveal, a key): a reader's "new" is about them, and the
    # count reads their rolls only, so it costs what a session's play holds, not the campaign's age
    # (issue 43: the dice page at 200,000 rolls; a count over every roll grew with them).
    latest = Greatest("rotated_at", Coalesce("secret_released_at", "rotated_at"))
    seed_ids = list(
        RollSeed.objects.filter(campaign=campaign, rotated_at__isnull=False)
        .order_by(latest.desc(), "-number")
        .values_list("id", flat=True)[:NEWS_SEEDS]
    )
    if not seed_ids:
        return []
    rows = (
        Roll.objects.visible_to(user, membership)
        .filter(proof__seed_id__in=seed_ids, proof__by_hand=False)
        .values(
            "proof__seed__number", "proof__seed__rotated_at", "proof__seed__secret_released_at", "proof__lane"
        )
    )
    if not membership.is_gm:
        rows = rows.exclude(secret=True, revealed_at__isnull=True)
    rows = rows.annotate(rolls=models.Count("id")).order_by()
    scene_keys = dict(
        DiceScope.objects.filter(campaign=campaign, secret_released_at__isnull=False).values_list(
            "label", "secret_released_at"
        )
    )
    counted: dict[tuple[int, Any], int] = {}
    for row in rows:
        lane, since = row["proof__lane"], row["proof__seed__rotated_at"]
        if not fair_dice.is_open(lane):
            label = fair_dice.lane_scope(lane) if lane.startswith(fair_dice.SECRET + ":") else None
            key_out = scene_keys.get(label) if label else row["proof__seed__secret_released_at"]
            if key_out is None:
                continue  # still waits for its key
            since = max(since, key_out)
        bucket = (row["proof__seed__number"], since)
        counted[bucket] = counted.get(bucket, 0) + row["rolls"]
    return [
        {"seed": number, "rolls": rolls, "since": since.isoformat()}
        for (number, since), rolls in sorted(counted.items(), key=lambda item: item[0][1], reverse=True)
    ]


def seed_view(seed: RollSeed) -> dict[str, Any]:
    """A seed as every member may see it: commitments always, the seeds once released."""
    return {
        "number": seed.number,
        "commitment": seed.commitment,
        "secret_commitment": seed.secret_commitment,
        "created_at": seed.created_at.isoformat(),
        "rotated_at": seed.rotated_at.isoformat() if seed.rotated_at else None,
        "server_seed": (seed.server_seed or None) if seed.rotated_at else None,
        "secret_key": (seed.secret_key or None) if seed.secret_released_at else None,
    }


def scope_view(scope: DiceScope) -> dict[str, Any]:
    """A dice scope as its members see it: the commitment always, the key once released."""
    return {
        "label": scope.label,
        "secret_commitment": scope.secret_commitment,
        "created_at": scope.created_at.isoformat(),
        "closed_at": scope.closed_at.isoformat() if scope.closed_at else None,
        "secret_key": (scope.secret_key or None) if scope.secret_released_at else None,
    }


def proof_view(roll: Roll, proof: RollProof | None, sealed: bool) -> dict[str, Any] | None:
    """What recomputing ``roll`` needs, as this reader may see it (None for a sealed roll: its
    lane's counter is part of what the GM keeps)."""
    if sealed:
        return None
    if proof is None:
        return {"verifiable": False, "by_hand": False}
    if proof.by_hand:
        return {"verifiable": False, "by_hand": True}
    view = {
        "verifiable": True,
        "by_hand": False,
        "seed": proof.seed.number if proof.seed else None,
        "lane": proof.lane,
        "counter": proof.counter,
        "client_seeds": list(proof.client_seeds),
    }
    if proof.record:
        view["record"] = proof.record
    return view


def _unproven_in_time_of(campaign: Campaign, number: int) -> models.Q:
    """The rolls no seed made (entered by hand, or made without the fair dice: before them, or by
    scripted dice) while seed ``number`` was the one in use: from the reveal of the seed before it
    (the first seed: from the start) to its own reveal (while in use: to now). The page checking a
    seed lists them with the reason they cannot be checked, instead of leaving them out."""
    unproven = models.Q(proof__isnull=True) | models.Q(proof__by_hand=True)
    seeds = RollSeed.objects.filter(campaign=campaign)
    this = seeds.filter(number=number).first()
    if this is None:
        return models.Q(pk__in=[])
    before = seeds.filter(number__lt=number, rotated_at__isnull=False).order_by("-number").first()
    if before is not None:
        unproven &= models.Q(created_at__gte=before.rotated_at)
    if this.rotated_at is not None:
        unproven &= models.Q(created_at__lt=this.rotated_at)
    return unproven


def proof_document(
    campaign: Campaign,
    user,
    membership: Membership,
    seed: int | None = None,
    since: dict[str, int] | None = None,
) -> dict[str, Any]:
    """Everything a reader needs to recompute the rolls they may see (the format
    scripts/verify_rolls.py reads); with ``seed``, that seed and the rolls made under it only (the
    page checks one seed at a time, so a long campaign's log is never sent whole). ``logs``: the
    reader's roll logs (rolllog.logs_view), each with its signed head, the leaves of these rolls
    with their inclusion proofs, and with ``since`` (audience -> a head's size the reader kept) a
    consistency proof from it; ``log_key``: the key the heads are signed with."""
    rolls = (
        Roll.objects.visible_to(user, membership).select_related("proof__seed").order_by("created_at", "id")
    )
    if seed is not None:
        rolls = rolls.filter(
            models.Q(proof__seed__campaign=campaign, proof__seed__number=seed)
            | _unproven_in_time_of(campaign, seed)
        )
    rolls = rolls.select_related("roller")
    entries = []
    labels: set[str] = set()
    for roll in rolls:
        sealed = roll.sealed_for(membership)
        proof = getattr(roll, "proof", None)
        entry: dict[str, Any] = {"id": roll.pk, "created_at": roll.created_at.isoformat(), "sealed": sealed}
        if not sealed:
            entry.update(
                kind=roll.kind,
                count=roll.count,
                modifier=roll.modifier,
                faces=list(roll.faces),
                kept=list(roll.kept),
                total=roll.total,
                purpose=roll.purpose,
                reading=fair_dice.reading(roll.detail),
                secret=roll.secret,
                roller=roll.roller.username if roll.roller_id else None,
            )
        entry["proof"] = proof_view(roll, proof, sealed)
        label = fair_dice.lane_scope(entry["proof"].get("lane") or "") if entry["proof"] else None
        if label:
            labels.add(label)
        entries.append(entry)
    seed_rows = RollSeed.objects.filter(campaign=campaign).order_by("number")
    if seed is not None:
        seed_rows = seed_rows.filter(number=seed)
    seeds = [seed_view(s) for s in seed_rows]
    # The dice scopes of the rolls this reader sees (a conflict they take part in): never a scope
    # the reader sees no roll of.
    scopes = [scope_view(s) for s in DiceScope.objects.filter(campaign=campaign, label__in=labels)]
    document = {"format": fair_dice.VERSION, "seeds": seeds, "scopes": scopes, "rolls": entries}
    document["log_key"] = rolllog.key_view()
    document["logs"] = rolllog.logs_view(membership, [e["id"] for e in entries], labels, since)
    if membership.is_gm:
        # The GM sees every roll: each lane's counters are checked for gaps, the hidden lanes'
        # too, and a mission lane's number against the campaign's missions (fair_dice.counter_gaps).
        document.update(complete=True, missions=Mission.objects.filter(campaign=campaign).count())
    return document


def verify_document(
    document: dict[str, Any], kept: dict[str, dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Every roll of a proof document with its verdict: "verified", "pending" (with what it waits
    for: fair_dice.waits_for), "by hand", "not verifiable", "sealed" or "failed" with the reason
    (an undeclared lane and a counter gap included: fair_dice.declared, fair_dice.counter_gaps)."""
    seeds = {s["number"]: s for s in document.get("seeds", [])}
    scopes = {s["label"]: s for s in document.get("scopes", [])}
    gaps = fair_dice.counter_gaps(document)
    # the roll logs: a roll not in them, or not what they say, fails (fair_dice.check_logs; the
    # log's own problems, a rewritten log, are fair_dice.check_logs's second answer)
    off_log, _ = fair_dice.check_logs(document, kept)
    seen: set[tuple[Any, str, int]] = set()
    verdicts = []
    for index, entry in enumerate(document.get("rolls", [])):
        proof = entry.get("proof")
        if entry.get("sealed"):
            verdict, reason = "sealed", fair_dice.why_not(entry)
        elif not proof or not proof.get("verifiable"):
            verdict = "by hand" if proof and proof.get("by_hand") else "not verifiable"
            reason = fair_dice.why_not(entry)
        else:
            seed = seeds.get(proof["seed"])
            key = (proof["seed"], proof["lane"], proof["counter"])
            holder = fair_dice.keys_for(proof["lane"], seed or {}, scopes)
            if seed is None:
                verdict, reason = "failed", "its seed is not in the document"
            elif holder is None or not fair_dice.declared(proof["lane"], scopes, document.get("missions")):
                verdict, reason = "failed", fair_dice.undeclared_reason(proof["lane"])
            elif key in seen:
                verdict, reason = "failed", "another roll took the same counter"
            elif index in gaps:
                verdict, reason = "failed", gaps[index]
            elif waiting := fair_dice.waits_for(proof["seed"], proof["lane"], seed, holder):
                bound = fair_dice.record_problem(entry, proof)  # checked before the dice can be
                verdict, reason = ("failed", bound) if bound else ("pending", waiting)
            else:
                problem = fair_dice.check_roll({**entry, **proof}, seed, scopes)
                problem = problem or fair_dice.record_problem(entry, proof)
                verdict, reason = ("failed", problem) if problem else ("verified", "")
            seen.add(key)
        if index in off_log and verdict != "failed":
            verdict, reason = "failed", off_log[index]
        verdicts.append({"id": entry.get("id"), "verdict": verdict, "reason": reason})
    return verdicts
