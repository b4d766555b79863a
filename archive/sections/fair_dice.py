"""Provably fair dice (docs/fair-dice.md): the campaign's seeds, each with its commitments,
counters and the proofs of the rolls made under it (what recomputing each needs). Self-contained
and additive: a roll is named by its position in ``rolls`` (a section before this one), a seed by
its number; no database id anywhere.
A lane is kept verbatim: the dice were derived from that text.

A seed's server seed travels once it is revealed and its secret key once released, never before
(format version 4; issue 48, finding 5): with the seed in use a GM, or anyone holding the file,
could compute the next rolls before they are made. A seed in use travels as its commitments and
counters only: the restored campaign closes it and rolls on under a new seed, its rolls never to be
checked; a seed whose secret key was not out keeps its secret rolls unverifiable for good
(``notes`` says which, to the one who restores). Every proof that could be checked when the file was
written still can. An imported seed proves what the file says, not that its commitment was shown
on the server that wrote it.
"""

from __future__ import annotations

import json
import re

from archive import timestamps
from archive.problems import Checker, Problem, join, length_of
from campaigns.models import DiceScope, Roll, RollProof, RollSeed
from characters.systems import fair_dice

KEY = "fair_dice"
ROLLS = "rolls"
HEX64 = re.compile(r"^[0-9a-f]{64}$")
MAX_SEEDS = 10_000
MAX_PROOFS = 200_000  # per seed (the archive's record limits bound the whole)
MAX_CLIENT_SEEDS = 1000
MAX_RECORD_CHARS = 20_000


def export(campaign, refs) -> list[dict]:
    proofs: dict[int, list[dict]] = {}
    rows = (
        RollProof.objects.filter(roll__campaign=campaign, by_hand=False)
        .values_list("roll_id", "seed__number", "lane", "counter", "client_seeds", "record")
        .iterator(chunk_size=2000)
    )
    for roll, seed, lane, counter, client_seeds, record in rows:
        position = refs.position(ROLLS, roll)
        if position is not None:
            proof = {"roll": position, "lane": lane, "counter": counter, "client_seeds": client_seeds}
            if record:  # what the roll was when it was made (fair_dice.roll_record), verbatim
                proof["record"] = record
            proofs.setdefault(seed, []).append(proof)
    return [
        {
            "format": fair_dice.VERSION,
            "number": s.number,
            "server_seed": s.server_seed if s.rotated_at and s.server_seed else None,
            "commitment": s.commitment,
            "secret_key": s.secret_key if s.secret_released_at and s.secret_key else None,
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
        for key in ("commitment", "secret_commitment"):
            if not isinstance(seed.get(key), str) or not HEX64.match(seed[key]):
                check.add(join(path, key), "must be 64 lower-case hexadecimal digits.")
        for key in ("server_seed", "secret_key"):  # null: not revealed (released) when written
            if seed.get(key) is not None and (not isinstance(seed[key], str) or not HEX64.match(seed[key])):
                check.add(join(path, key), "must be 64 lower-case hexadecimal digits, or null.")
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
            record = proof.get("record", {})
            if not isinstance(record, dict) or len(json.dumps(record)) > MAX_RECORD_CHARS:
                check.add(
                    join(where, "record"), f"must be an object of at most {MAX_RECORD_CHARS} characters."
                )
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
    """The file's seeds. A server seed is kept once revealed, a secret key once released; else the
    row holds "" for good: fairness never rolls under a seed without its server seed (the seed in
    use when the file was written: the copy's rolls take a new one, fairness.current_seed) and
    never releases a key it does not hold."""
    made = []
    proofs = []
    for seed in data:
        rotated_at = timestamps.parse(seed.get("rotated_at"))
        released_at = timestamps.parse(seed.get("secret_released_at"))
        row = RollSeed.objects.create(
            campaign=campaign,
            number=seed["number"],
            server_seed=(seed.get("server_seed") or "") if rotated_at else "",
            commitment=seed["commitment"],
            secret_key=(seed.get("secret_key") or "") if released_at else "",
            secret_commitment=seed["secret_commitment"],
            next_open=seed.get("next_open", 0),
            next_secret=seed.get("next_secret", 0),
            rotated_at=rotated_at,
            secret_released_at=released_at if seed.get("secret_key") else None,
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
                        record=proof.get("record") or {},
                    )
                )
    timestamps.restore_created_at(RollSeed, made, [s.get("created_at") for s in data])
    RollProof.objects.bulk_create(proofs, batch_size=1000)


def notes(campaign) -> list[str]:
    """What a restore says about the dice (one line each, to the GM who restores): the seeds whose
    server seed did not travel (their rolls are never checked) and the seeds and scenes whose
    secret key did not (their secret rolls, the still sealed ones named, are never checked)."""
    lines = []
    for seed in RollSeed.objects.filter(campaign=campaign).order_by("number"):
        rolls = Roll.objects.filter(proof__seed=seed)
        if not seed.server_seed:
            lines.append(
                f"Fair dice: seed {seed.number} was in use when the archive was written; its server "
                f"seed stays with the server that wrote it, so its {rolls.count()} roll(s) can never be "
                "checked here. New rolls take a new seed. (Reveal the seed before exporting to keep "
                "them checkable.)"
            )
        elif not seed.secret_key:
            secret = rolls.exclude(proof__lane__startswith=fair_dice.OPEN).exclude(
                proof__lane__startswith=fair_dice.SECRET + ":"
            )
            lines.extend(_secret_lines(f"seed {seed.number}'s secret key", secret))
    for scope in DiceScope.objects.filter(campaign=campaign, secret_key="").order_by("label"):
        secret = Roll.objects.filter(
            campaign=campaign, proof__lane=fair_dice.scoped(fair_dice.SECRET, scope.label)
        )
        lines.extend(_secret_lines(f"the secret key of the scene {scope.label}", secret))
    return lines


def _secret_lines(what: str, secret) -> list[str]:
    total = secret.count()
    if not total:
        return []
    sealed = list(
        secret.filter(secret=True, revealed_at__isnull=True)
        .order_by("created_at", "id")
        .values_list("purpose", flat=True)
    )
    named = "; ".join(p or "(no purpose)" for p in sealed[:10]) + ("; ..." if len(sealed) > 10 else "")
    return [
        f"Fair dice: {what} was not released when the archive was written and did not travel with it: "
        f"its {total} secret roll(s) can never be checked"
        + (f"; {len(sealed)} of them stay sealed for good: {named}." if sealed else ".")
    ]
