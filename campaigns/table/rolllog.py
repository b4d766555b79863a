"""The roll log as a transparency log (issue 48; docs/fair-dice.md "The roll log").

Every roll is a leaf of append-only Merkle trees with RFC 9162's hashing (characters/systems/
merkle.py), one tree per audience, so that no reader's tree counts rolls the reader may not know
of (a single tree per campaign would show a player, by its size, how many unannounced or
other-scene rolls the GM made):

- ``gm``: every roll, whole (the GM sees every roll);
- ``table``: what every member sees when it happens: an open roll whole; an announced secret roll
  as a sealed leaf (a salted commitment to its record: members know it was made, not its result);
  a shared secret roll's opening (its record and the salt) when it is shared; an unannounced roll
  nothing until it is shared;
- ``scope:<label>``: the same for a dice scope's rolls (a Tempo conflict's: its participants and
  the GM), kept out of the table's tree.

A log keeps its frontier (``merkle.push``): an append writes the leaf and the perfect subtrees it
completes, reading nothing of the tree. Its heads are signed with the server's Ed25519 key when
first asked for at a size (``head``), so one head covers every roll made since the last one asked.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from campaigns.models import PARTIAL_ROLLS, LogLeaf, LogNode, Membership, Roll, RollLog, RollProof, TreeHead
from characters.systems import fair_dice, merkle

logger = logging.getLogger(__name__)

GM = "gm"
TABLE = "table"
SCOPE = "scope:"


# -- the server's key ------------------------------------------------------------------------------
@functools.cache
def signing_key() -> Ed25519PrivateKey:
    """settings.DICE_LOG_KEY (64 hex digits, the Ed25519 private key's seed), else the file
    settings.DICE_LOG_KEY_FILE, made (mode 0600) with a fresh key if it does not exist yet: normal on a
    new install, so it is logged at INFO (a WARNING would say something is wrong)."""
    if settings.DICE_LOG_KEY:
        return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(settings.DICE_LOG_KEY))
    path = Path(settings.DICE_LOG_KEY_FILE)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(os.urandom(32).hex() + "\n")
            logger.info("made a new key for the roll log's tree heads in %s", path)
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(path.read_text().strip()))


def public_key_hex() -> str:
    raw = signing_key().public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def key_view() -> dict[str, str]:
    return {"algorithm": "Ed25519", "public_key": public_key_hex()}


# -- appending -------------------------------------------------------------------------------------
def log_id(log: RollLog) -> str:
    return f"campaign-{log.campaign_id}/{log.audience}"


#: A leaf to append: (audience, leaf, roll id, salt of a sealed leaf or "").
Item = tuple[str, dict[str, Any], int, str]


def _locked(campaign_id: int, audiences: list[str]) -> dict[str, list[Any]]:
    """[id, size, frontier] of the campaign's logs of ``audiences``, locked until the transaction
    ends (made if new): one query when they exist."""
    q = connection.ops.quote_name
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    marks = ", ".join(["%s"] * len(audiences))
    sql = (
        f"SELECT {q('audience')}, {q('id')}, {q('size')}, {q('frontier')} FROM {q(RollLog._meta.db_table)}"
        f" WHERE {q('campaign_id')} = %s AND {q('audience')} IN ({marks}){lock}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [campaign_id, *audiences])
        found = cursor.fetchall()
    logs = {
        audience: [pk, size, json.loads(frontier) if isinstance(frontier, str) else frontier]
        for audience, pk, size, frontier in found
    }
    for audience in audiences:
        if audience not in logs:
            try:
                with transaction.atomic():
                    made = RollLog.objects.create(campaign_id=campaign_id, audience=audience)
            except IntegrityError:  # made by a roll in another transaction meanwhile
                made = RollLog.objects.select_for_update().get(campaign_id=campaign_id, audience=audience)
            logs[audience] = [made.pk, made.size, list(made.frontier)]
    return logs


def _push(campaign_id: int, items: list[Item]) -> None:
    """Append leaves to the campaign's logs: the logs locked, the leaf rows and the perfect
    subtrees they complete written in one insert each, the logs' sizes and frontiers in one update
    (on PostgreSQL the three writes are one statement).
    Nothing of the tree is read but its frontier. Plain SQL: this runs in every roll's request
    (bench/merkle.py measures it), and the ORM's statement building was most of its cost."""
    logs = _locked(campaign_id, [audience for audience, *_ in items])
    leaves: list[Any] = []
    nodes: list[Any] = []
    for audience, leaf, roll_id, salt in items:
        log = logs[audience]
        digest = merkle.leaf_hash(fair_dice.leaf_bytes(leaf))
        frontier, made = merkle.push([bytes.fromhex(h) for h in log[2]], log[1], digest)
        leaves.append((log[0], log[1], roll_id, leaf["type"], json.dumps(leaf), digest.hex(), salt))
        nodes += [(log[0], level, index, h.hex()) for level, index, h in made[1:]]
        log[1] += 1
        log[2] = [h.hex() for h in frontier]
    q = connection.ops.quote_name
    postgresql = connection.vendor == "postgresql"
    as_json = "CAST(%s AS jsonb)" if postgresql else "%s"
    writes: list[tuple[str, list[Any]]] = []
    columns = ", ".join(q(c) for c in ("log_id", "index", "roll_id", "kind", "data", "hash", "salt"))
    values = ", ".join([f"(%s, %s, %s, %s, {as_json}, %s, %s)"] * len(leaves))
    writes.append(
        (
            f"INSERT INTO {q(LogLeaf._meta.db_table)} ({columns}) VALUES {values}",
            [value for row in leaves for value in row],
        )
    )
    if nodes:
        columns = ", ".join(q(c) for c in ("log_id", "level", "index", "hash"))
        values = ", ".join(["(%s, %s, %s, %s)"] * len(nodes))
        writes.append(
            (
                f"INSERT INTO {q(LogNode._meta.db_table)} ({columns}) VALUES {values}",
                [value for row in nodes for value in row],
            )
        )
    # every log's size and frontier in one UPDATE (a roll appends to two logs)
    moved = list({log[0]: log for log in logs.values()}.values())
    sizes = " ".join("WHEN %s THEN CAST(%s AS integer)" for _ in moved)
    frontiers = " ".join(f"WHEN %s THEN {as_json}" for _ in moved)
    writes.append(
        (
            f"UPDATE {q(RollLog._meta.db_table)} SET {q('size')} = CASE {q('id')} {sizes} END,"
            f" {q('frontier')} = CASE {q('id')} {frontiers} END"
            f" WHERE {q('id')} IN ({', '.join(['%s'] * len(moved))})",
            [
                *(value for pk, size, _ in moved for value in (pk, size)),
                *(value for pk, _, frontier in moved for value in (pk, json.dumps(frontier))),
                *(pk for pk, _, _ in moved),
            ],
        )
    )
    if postgresql:
        # one statement: the inserts as data-modifying WITH queries of the logs' UPDATE
        sql = "WITH " + ", ".join(f"w{n} AS ({part})" for n, (part, _) in enumerate(writes[:-1]))
        writes = [(f"{sql} {writes[-1][0]}", [value for _, params in writes for value in params])]
    with connection.cursor() as cursor:
        for sql, params in writes:
            cursor.execute(sql, params)


def record_of(
    roll: Roll,
    *,
    lane: str,
    counter: int | None,
    seed: int | None,
    by_hand: bool = False,
    client_seeds: list[str] | None = None,
) -> dict[str, Any]:
    """The roll as it was made (fair_dice.roll_record), bound with its proof (``client_seeds``:
    the players' seeds its draw took, None for a roll no seed drew)."""
    return fair_dice.roll_record(
        kind=roll.kind,
        count=roll.count,
        modifier=roll.modifier,
        purpose=roll.purpose,
        faces=roll.faces,
        kept=roll.kept,
        total=roll.total,
        detail=roll.detail,
        secret=roll.secret,
        roller=roll.roller.username if roll.roller_id else None,
        character=roll.character.name if roll.character_id else None,
        lane=lane,
        counter=counter,
        seed=seed,
        by_hand=by_hand,
        client_seeds=client_seeds,
    )


def _record(roll: Roll, proof: RollProof | None) -> dict[str, Any]:
    if proof is not None and proof.record:
        return dict(proof.record)
    return record_of(
        roll,
        lane=proof.lane if proof is not None else "",
        counter=proof.counter if proof is not None else None,
        seed=proof.seed.number if proof is not None and proof.seed_id else None,
        by_hand=bool(proof is not None and proof.by_hand),
    )


def _seeds(proof: RollProof | None) -> list[str]:
    return list(proof.client_seeds) if proof is not None and not proof.by_hand else []


def seal_salt(roll: Roll) -> str:
    """The salt of a sealed roll's commitment: 32 bytes only the server can make (an HMAC under
    its SECRET_KEY of the roll's random id), kept with the leaf until the roll is shared."""
    return salted_hmac("dossier.rolllog.seal", str(roll.pk), algorithm="sha256").hexdigest()


def _audience(roll: Roll, proof: RollProof | None) -> str | None:
    """Who besides the GM sees ``roll`` happen: the table, a dice scope, or no one (None: an
    unannounced roll, or a roll a system shows some members only outside any dice scope)."""
    lane = proof.lane if proof is not None else ""
    label = fair_dice.lane_scope(lane)
    if label:
        return SCOPE + label
    if roll.secret and not roll.announced and roll.revealed_at is None:
        return None
    return None if _partial(roll) else TABLE


def _partial(roll: Roll) -> bool:
    """A roll a system shows some members only (campaigns.models.PARTIAL_ROLLS). Every rule is
    asked (each knows its own rolls by their detail), so the campaign's row is not read."""
    return any(rule(roll) for rule in PARTIAL_ROLLS.values())


def append(roll: Roll, proof: RollProof | None = None) -> None:
    """Append a roll just stored (with its proof, if it has one) to its campaign's logs: whole to
    the GM's; to its audience's whole, or sealed if its result is the GM's. Call in the roll's
    transaction, after its proof (``proof``: the roll's, None if it has none)."""
    record = _record(roll, proof)
    whole = fair_dice.roll_leaf(roll.pk, record)
    items: list[Item] = [(GM, whole, roll.pk, "")]
    audience = _audience(roll, proof)
    if audience is not None and roll.secret and roll.revealed_at is None:
        salt = seal_salt(roll)
        items.append(
            (
                audience,
                fair_dice.sealed_leaf(roll.pk, fair_dice.draw_of(record, _seeds(proof)), salt),
                roll.pk,
                salt,
            )
        )
    elif audience is not None:
        items.append((audience, whole, roll.pk, ""))
    _push(roll.campaign_id, items)


def shared(roll: Roll) -> None:
    """A secret roll's result was shared: append its opening to its audience's log (the table's,
    or its dice scope's): its record and the salt of its sealed leaf, if that log holds one."""
    proof = RollProof.objects.filter(roll=roll).select_related("seed").first()
    lane = proof.lane if proof is not None else ""
    label = fair_dice.lane_scope(lane)
    audience = SCOPE + label if label else TABLE
    if not label and _partial(roll):
        return
    sealed = LogLeaf.objects.filter(
        log__campaign_id=roll.campaign_id, log__audience=audience, roll_id=roll.pk, kind="sealed"
    ).first()
    salt = sealed.salt if sealed is not None else ""
    record = _record(roll, proof)
    leaf = fair_dice.shared_leaf(roll.pk, record, fair_dice.draw_of(record, _seeds(proof)), salt)
    _push(roll.campaign_id, [(audience, leaf, roll.pk, "")])


# -- heads and proofs ------------------------------------------------------------------------------
def head(log: RollLog) -> TreeHead:
    """The log's signed tree head at its present size: the one made when first asked for at this
    size, else a new one, signed now."""
    made = TreeHead.objects.filter(log=log, size=log.size).first()
    if made is not None:
        return made
    root = merkle.frontier_root([bytes.fromhex(h) for h in log.frontier]).hex()
    stamp = int(timezone.now().timestamp() * 1000)
    signature = signing_key().sign(fair_dice.head_message(log_id(log), log.size, root, stamp)).hex()
    made, _ = TreeHead.objects.get_or_create(
        log=log, size=log.size, defaults={"root": root, "timestamp": stamp, "signature": signature}
    )
    return made


def head_view(log: RollLog, made: TreeHead) -> dict[str, Any]:
    return {
        "log": log_id(log),
        "size": made.size,
        "root": made.root,
        "timestamp": made.timestamp,
        "signature": made.signature,
    }


def _nodes(log: RollLog, wanted: set[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    got: dict[tuple[int, int], bytes] = {}
    leaves = [index for level, index in wanted if level == 0]
    if leaves:
        for index, h in LogLeaf.objects.filter(log=log, index__in=leaves).values_list("index", "hash"):
            got[0, index] = bytes.fromhex(h)
    upper = [(level, index) for level, index in wanted if level > 0]
    by_level: dict[int, list[int]] = {}
    for level, index in upper:
        by_level.setdefault(level, []).append(index)
    for level, indices in by_level.items():
        rows = LogNode.objects.filter(log=log, level=level, index__in=indices).values_list("index", "hash")
        for index, h in rows:
            got[level, index] = bytes.fromhex(h)
    missing = wanted - got.keys()
    if missing:  # a node the log should hold is gone: the proof cannot be made (and will not check)
        got.update(dict.fromkeys(missing, b"\x00" * 32))
    return got


def audiences(membership: Membership, labels: set[str]) -> list[str]:
    """The logs a reader checks: the GM's for the GM; the table's and the dice scopes' whose rolls
    the reader sees (``labels``) for anyone else."""
    if membership.is_gm:
        return [GM]
    return [TABLE, *(SCOPE + label for label in sorted(labels))]


def logs_view(
    membership: Membership, roll_ids: list[int], labels: set[str], since: dict[str, int] | None = None
) -> list[dict[str, Any]]:
    """For each of the reader's logs: its signed head, the leaves naming the rolls ``roll_ids``
    (those of a proof document) with their inclusion proofs, and with ``since`` (audience -> the
    size of the head the reader kept) a consistency proof from that size."""
    out = []
    since = since or {}
    for audience in audiences(membership, labels):
        log, _ = RollLog.objects.get_or_create(campaign_id=membership.campaign_id, audience=audience)
        made = head(log)
        size = made.size
        rows = list(LogLeaf.objects.filter(log=log, roll_id__in=roll_ids, index__lt=size).order_by("index"))
        start = since.get(audience)
        consistency = [start] if start is not None and 0 < start < size else []
        wanted = merkle.needed(size, inclusion=[row.index for row in rows], consistency=consistency)
        nodes = _nodes(log, wanted) if wanted else {}
        view: dict[str, Any] = {
            "audience": audience,
            "started_at": log.started_at.isoformat(),
            "head": head_view(log, made),
            "signed_at": datetime.fromtimestamp(made.timestamp / 1000, tz=UTC).isoformat(),
            "leaves": [
                {
                    "index": row.index,
                    "leaf": row.data,
                    "proof": [h.hex() for h in merkle.inclusion_proof_of(row.index, size, nodes)],
                }
                for row in rows
            ],
        }
        if start is not None:
            proof = merkle.consistency_proof_of(start, size, nodes) if consistency else []
            view["consistency"] = {"from": start, "proof": [h.hex() for h in proof]}
        out.append(view)
    return out
