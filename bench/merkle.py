"""The roll log's Merkle tree (characters/systems/merkle.py, RFC 9162 hashing; campaigns/table/rolllog.py
stores it): the cost of an append at a campaign's size, of a head's signature, and how the proofs
grow (issue 48).

    .venv/bin/python bench/merkle.py                  # 200,000 leaves (seeding the stored logs: minutes)
    .venv/bin/python bench/merkle.py --leaves 20000   # a quick look
    .venv/bin/python bench/merkle.py --database-url postgres://postgres@127.0.0.1:5432/dossier_merkle

In memory: appends --leaves records of a roll's size (one leaf each, as a roll would be), timing
the appends in blocks of 10,000 (mean per append and the slowest block's mean), then the root,
then for sizes 10, 100, ... up to --leaves the length of an inclusion proof (of the first leaf)
and of a consistency proof (from half the size), in hashes of 32 bytes.

Stored (a temporary SQLite file unless --database-url): a campaign whose GM's and table's logs
already hold --leaves rolls (seeded directly, with their perfect subtrees), then --appends rolls
appended as the roll-recording service appends them (rolllog.append: a leaf in each of the two
logs, each a leaf row, the subtrees it completes and the log's frontier; the roll rows are made
beforehand, outside the timing), each timed inside its transaction (the commit is the roll's
own, which the append's few rows join); then a head's signature
(Ed25519) timed apart, and a document's log part (the head, inclusion proofs of 50 rolls and a
consistency proof) read off the stored subtrees. Figures only: nothing here fails on a time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from characters.systems import merkle  # noqa: E402


def record(i: int) -> bytes:
    return json.dumps(
        {
            "v": "dossier-roll/1",
            "kind": "d10",
            "count": 2,
            "modifier": 1,
            "purpose": f"roll {i}",
            "faces": [i % 10 + 1, 7],
            "kept": [i % 10 + 1, 7],
            "total": i % 10 + 9,
            "lane": "open",
            "counter": i,
            "seed": 1,
            "reading": {},
            "roller": "player",
            "character": "Ana",
            "secret": False,
            "by_hand": False,
        },
        sort_keys=True,
        separators=(",", ":"),
    ).encode()


def stored(leaves: int, appends: int, database_url: str | None) -> None:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="dossier-bench-merkle-") as var_dir:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from pages import setup_django

        setup_django(var_dir, debug=True, database_url=database_url)
        _stored(leaves, appends)


def _stored(leaves: int, appends: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from campaigns import services
    from campaigns.models import LogLeaf, LogNode, Membership, Roll, RollLog, TreeHead
    from campaigns.table import rolling, rolllog
    from characters.systems import fair_dice

    gm = get_user_model().objects.create_user("merkle-gm", password="merkle-bench-password")
    campaign = services.create_campaign(gm, name="Merkle campaign", system="timemaster")
    membership = Membership.objects.get(campaign=campaign, user=gm)
    began = time.perf_counter()
    for audience in (rolllog.GM, rolllog.TABLE):  # the backlog, seeded directly
        log = RollLog.objects.create(campaign=campaign, audience=audience)
        frontier: list[bytes] = []
        rows, nodes = [], []
        for i in range(leaves):
            leaf = fair_dice.roll_leaf(10**12 + i, json.loads(record(i)))
            digest = merkle.leaf_hash(fair_dice.leaf_bytes(leaf))
            frontier, made = merkle.push(frontier, i, digest)
            rows.append(
                LogLeaf(log=log, index=i, roll_id=10**12 + i, kind="roll", data=leaf, hash=digest.hex())
            )
            nodes += [LogNode(log=log, level=lv, index=ix, hash=h.hex()) for lv, ix, h in made[1:]]
        LogLeaf.objects.bulk_create(rows, batch_size=5000)
        LogNode.objects.bulk_create(nodes, batch_size=5000)
        log.size, log.frontier = leaves, [h.hex() for h in frontier]
        log.save()
    print(
        f"stored: {leaves:,} rolls in the GM's and the table's logs,"
        f" seeded in {time.perf_counter() - began:.0f} s"
    )
    with transaction.atomic():
        made_rolls = [
            rolling.record_roll(membership, kind="d10", count=2, purpose=f"appended {i}")
            for i in range(appends)
        ]
    # they were appended as they were made: the logs go back to the seeded size, to time the appends alone
    ids = [r.pk for r in made_rolls]
    rolls = list(Roll.objects.filter(pk__in=ids).select_related("roller", "character", "proof__seed"))
    rolls.sort(key=lambda r: ids.index(r.pk))
    _reset(campaign, leaves)
    timings, cpus, counts, statements = [], [], [], [0]

    def count(execute, sql, params, many, context):  # the statements an append sends
        statements[-1] += 1
        return execute(sql, params, many, context)

    for roll in rolls:
        statements.append(0)
        with transaction.atomic():  # the roll's transaction; its commit is the roll's, not timed
            began, cpu = time.perf_counter(), time.process_time()
            with connection.execute_wrapper(count):
                rolllog.append(roll, roll.proof)
            timings.append(time.perf_counter() - began)
            cpus.append(time.process_time() - cpu)
            counts.append(statements.pop())
    timings.sort()
    cpus.sort()
    mean = sum(timings) / len(timings)
    print(
        f"stored append at {leaves:,} rolls (both logs, before the roll's commit): mean {mean * 1000:.3f} ms,"
        f" median {timings[len(timings) // 2] * 1000:.3f} ms, slowest {timings[-1] * 1000:.3f} ms"
        f" over {len(timings)} rolls; CPU time (this process, SQLite in it) mean"
        f" {sum(cpus) / len(cpus) * 1000:.3f} ms, median {cpus[len(cpus) // 2] * 1000:.3f} ms;"
        f" {sum(counts) / len(counts):.1f} queries an append"
    )
    table = RollLog.objects.get(campaign=campaign, audience=rolllog.TABLE)
    key = rolllog.signing_key()
    root = merkle.frontier_root([bytes.fromhex(h) for h in table.frontier]).hex()
    began = time.perf_counter()
    for n in range(200):
        key.sign(fair_dice.head_message(rolllog.log_id(table), table.size, root, n))
    sign_ms = (time.perf_counter() - began) / 200 * 1000
    TreeHead.objects.filter(log=table).delete()
    began = time.perf_counter()
    rolllog.head(table)
    head_ms = (time.perf_counter() - began) * 1000
    print(
        f"head signature (Ed25519): {sign_ms:.3f} ms; a new head (root, signature, stored): {head_ms:.3f} ms"
    )
    began = time.perf_counter()
    view = rolllog.logs_view(membership, ids[:50], set(), {rolllog.GM: leaves // 2})
    doc_ms = (time.perf_counter() - began) * 1000
    proofs = view[0]["leaves"]
    print(
        f"log part of a document (head, 50 inclusion proofs of {len(proofs[0]['proof'])} hashes,"
        f" a consistency proof of {len(view[0]['consistency']['proof'])}): {doc_ms:.1f} ms"
    )


def _reset(campaign, leaves: int) -> None:
    """The logs back to their seeded size: rows past it gone, the frontier of the seeded tree."""
    from campaigns.models import LogLeaf, LogNode, RollLog, TreeHead

    for log in RollLog.objects.filter(campaign=campaign):
        LogLeaf.objects.filter(log=log, index__gte=leaves).delete()
        for level in range(40):
            LogNode.objects.filter(log=log, level=level, index__gte=leaves >> level).delete()
        TreeHead.objects.filter(log=log).delete()
        frontier: list[bytes] = []
        start = 0
        for level in reversed(range(leaves.bit_length())):
            if leaves & (1 << level):
                index = start >> level
                row = (
                    LogLeaf.objects.get(log=log, index=index)
                    if level == 0
                    else LogNode.objects.get(log=log, level=level, index=index)
                )
                frontier.append(bytes.fromhex(row.hash))
                start += 1 << level
        log.size, log.frontier = leaves, [h.hex() for h in frontier]
        log.save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leaves", type=int, default=200_000)
    parser.add_argument("--appends", type=int, default=500)
    parser.add_argument("--database-url", default=None, help="default: a temporary SQLite file")
    parser.add_argument("--memory-only", action="store_true", help="the in-memory tree only")
    args = parser.parse_args()
    log = merkle.Log()
    block, means = 10_000, []
    data = [record(i) for i in range(args.leaves)]
    for start in range(0, args.leaves, block):
        chunk = data[start : start + block]
        began = time.perf_counter()
        for item in chunk:
            log.append(item)
        means.append((time.perf_counter() - began) / len(chunk))
    began = time.perf_counter()
    top = log.root()
    root_ms = (time.perf_counter() - began) * 1000
    print(
        f"{args.leaves:,} appends: mean {sum(means) / len(means) * 1e6:.1f} µs, "
        f"slowest block of {block:,}: {max(means) * 1e6:.1f} µs an append"
    )
    print(f"root of {args.leaves:,}: {root_ms:.3f} ms ({top.hex()[:16]}...)")
    size = 10
    while size <= args.leaves:
        leaves = log.leaves[:size]
        inclusion = merkle.inclusion_proof(0, leaves)
        consistency = merkle.consistency_proof(size // 2, leaves)
        print(
            f"size {size:>9,}: inclusion proof {len(inclusion):>2} hashes, consistency proof "
            f"{len(consistency):>2} hashes"
        )
        size *= 10
    if not args.memory_only:
        stored(args.leaves, args.appends, args.database_url)


if __name__ == "__main__":
    main()
