"""The roll log's Merkle tree (characters/systems/merkle.py, RFC 9162 hashing): the cost of an
append at a campaign's size, and how the proofs grow (issue 48).

    .venv/bin/python bench/merkle.py                  # 200,000 leaves (about half a minute)
    .venv/bin/python bench/merkle.py --leaves 20000   # a quick look

Appends --leaves records of a roll's size (one leaf each, as a roll would be), timing the appends
in blocks of 10,000 (mean per append and the slowest block's mean), then the root, then for sizes
10, 100, ... up to --leaves the length of an inclusion proof (of the first leaf) and of a
consistency proof (from half the size), in hashes of 32 bytes. The head's signature (Ed25519) is
not timed here: the signed heads are not built yet. Figures only: nothing here fails on a time.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leaves", type=int, default=200_000)
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


if __name__ == "__main__":
    main()
