"""Provably fair dice (docs/fair-dice.md): the campaign's seeds, each with its commitments,
counters and the proofs of the rolls made under it (what recomputing each needs). Self-contained
and additive: a roll is named by its position in ``rolls`` (a section before this one), a seed by
its number; no database id anywhere.
A lane is kept verbatim: the dice were derived from that text.

The archive is the GM's, so every seed travels whole (a seed in use and a secret key not yet
released included): the imported campaign goes on rolling under them and keeps their counters.
An imported seed proves what the file says, not that its commitment was shown on the server that
wrote it.
"""

from __future__ import annotations

import re

from archive import timestamps
from archive.problems import Checker, Problem, join, length_of
from campaigns.models import Roll, RollProof, RollSeed
from characters.systems import fair_dice

KEY = "fair_dice"
ROLLS = "rolls"
HEX64 = re.compile(r"^[0-9a-f]{64}$")
MAX_SEEDS = 10_000
MAX_PROOFS = 200_000  # per seed (the archive's record limits bound the whole)
MAX_CLIENT_SEEDS = 1000


def export(campaign, refs) -> list[dict]:
    proofs: dict[int, list[dict]] = {}
    rows = (
        RollProof.objects.filter(roll__campaign=campaign, by_hand=False)
        .values_list("roll_id", "seed__number", "lane", "counter", "client_seeds")
        .iterator(chunk_size=2000)
    )
    for roll, seed, lane, counter, client_seeds in rows:
        position = refs.position(ROLLS, roll)
        if position is not None:
            proofs.setdefault(seed, []).append(
                {"roll": position, "lane": lane, "counter": counter, "client_seeds": client_seeds}
            )
    return [
        {
            "format": fair_dice.VERSION,
            "number": s.number,
            "server_seed": s.server_seed,
            "commitment": s.commitment,
            "secret_key": s.secret_key,
            "secret_commitment": s.secret_commitment,
            "next_open": s.next_open,
            "next_secret": s.next_secret,
            "created_at": timestamps.iso(s.created_at),
            "rotated_at": timestamps.iso(s.rotated_at),
            "secret_released_at": timestamps.iso(s.secret_released_at),
            "proofs": sorted(proofs.get(s.number, []), key=lambda p: p["roll"]),
        }
        for s in RollSeed.objects.filter(campaign=campaign).order_by("number")
    ]


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_SEEDS):
        return check.problems
    numbers: set[int] = set()
    rolls = length_of(document, ROLLS)
    taken: set[int] = set()
    for index, seed in enumerate(data):
        path = join(KEY, index)
        if not check.obj(
            seed, path, ("number", "server_seed", "commitment", "secret_key", "secret_commitment")
        ):
            continue
        check.choice(seed, "format", path, (fair_dice.VERSION,))
        check.integer(seed, "number", path, minimum=1, maximum=2**31 - 1)
        if seed.get("number") in numbers:
            check.add(join(path, "number"), "is given to two seeds.")
        if isinstance(seed.get("number"), int):
            numbers.add(seed["number"])
        for key in ("server_seed", "commitment", "secret_key", "secret_commitment"):
            if not isinstance(seed.get(key), str) or not HEX64.match(seed[key]):
                check.add(join(path, key), "must be 64 lower-case hexadecimal digits.")
        for key in ("next_open", "next_secret"):
            check.integer(seed, key, path, minimum=0, maximum=2**31 - 1)
        for key in ("created_at", "rotated_at", "secret_released_at"):
            timestamps.check(check, seed, key, path)
        if not check.array(seed.get("proofs", []), join(path, "proofs"), MAX_PROOFS):
            continue
        for at, proof in enumerate(seed.get("proofs", [])):
            where = join(join(path, "proofs"), at)
            if not check.obj(proof, where, ("roll", "lane", "counter")):
                continue
            if proof.get("roll") is None:
                check.add(join(where, "roll"), "must be the position of one of the rolls of the archive.")
            check.reference(proof, "roll", where, rolls, "rolls of the archive")
            if proof.get("roll") in taken:
                check.add(join(where, "roll"), "has two proofs.")
            if isinstance(proof.get("roll"), int):
                taken.add(proof["roll"])
            check.text(proof, "lane", where, RollProof._meta.get_field("lane").max_length, blank=False)
            check.integer(proof, "counter", where, minimum=0, maximum=2**31 - 1)
            seeds = proof.get("client_seeds", [])
            if (
                not isinstance(seeds, list)
                or len(seeds) > MAX_CLIENT_SEEDS
                or not all(isinstance(s, str) and len(s) <= fair_dice.MAX_CLIENT_SEED for s in seeds)
            ):
                check.add(
                    join(where, "client_seeds"),
                    f"must be a list of at most {MAX_CLIENT_SEEDS} texts of up to "
                    f"{fair_dice.MAX_CLIENT_SEED} characters.",
                )
    return check.problems


def load(campaign, data, refs) -> None:
    made = []
    proofs = []
    for seed in data:
        row = RollSeed.objects.create(
            campaign=campaign,
            number=seed["number"],
            server_seed=seed["server_seed"],
            commitment=seed["commitment"],
            secret_key=seed["secret_key"],
            secret_commitment=seed["secret_commitment"],
            next_open=seed.get("next_open", 0),
            next_secret=seed.get("next_secret", 0),
            rotated_at=timestamps.parse(seed.get("rotated_at")),
            secret_released_at=timestamps.parse(seed.get("secret_released_at")),
        )
        made.append(row)
        for proof in seed.get("proofs", []):
            roll: Roll | None = refs.row(ROLLS, proof["roll"])
            if roll is not None:
                proofs.append(
                    RollProof(
                        roll=roll,
                        seed=row,
                        lane=proof["lane"],
                        counter=proof["counter"],
                        client_seeds=proof.get("client_seeds", []),
                    )
                )
    timestamps.restore_created_at(RollSeed, made, [s.get("created_at") for s in data])
    RollProof.objects.bulk_create(proofs, batch_size=1000)
