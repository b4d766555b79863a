"""The dice log, secret rolls included (a campaign archive is the GM's).

A roll made in a D6 encounter names its encounter in ``detail.encounter``: in the archive that is
the encounter's position in ``d6_encounters`` (a section before this one), never its database id.
A file from before that section held the database id there; it imports as null (no encounter).
"""

from __future__ import annotations

from collections.abc import Iterator

from archive import references, timestamps
from archive.problems import Checker, Problem, join, length_of
from campaigns.models import Roll

KEY = "rolls"
REFERENCE = references.ROLL  # records point at this section's rows by key
ENCOUNTERS = "d6_encounters"
CONFLICT = "conflict"  # systems.tempo.services.CONFLICT_KEY (rolls come before conflicts)
MAX_ROLLS = 200_000
MAX_DICE = 1000


COLUMNS = (
    "id",
    "kind",
    "count",
    "modifier",
    "faces",
    "kept",
    "total",
    "purpose",
    "detail",
    "secret",
    "announced",
    "revealed_at",
    "mission_id",
    "character_id",
    "roller__username",
    "created_at",
)
CHUNK = 2000  # rows per database round trip: memory stays flat whatever the log's length
PROGRESS_EVERY = 5000


def export(campaign, refs) -> list[dict]:
    return list(export_rows(campaign, refs))


def ordered(campaign):
    return Roll.objects.filter(campaign=campaign).order_by("created_at", "id")


def export_rows(campaign, refs, progress=None) -> Iterator[dict]:
    """The rolls oldest first, read in chunks of CHUNK rows; ``progress(n)`` every PROGRESS_EVERY."""
    rows = ordered(campaign).values_list(*COLUMNS).iterator(chunk_size=CHUNK)
    position = -1
    for position, row in enumerate(rows):
        (
            pk,
            kind,
            count,
            modifier,
            faces,
            kept,
            total,
            purpose,
            detail,
            secret,
            announced,
            revealed_at,
            mission,
            character,
            roller,
            at,
        ) = row
        refs.remember(KEY, pk, position)
        yield {
            "kind": kind,
            "count": count,
            "modifier": modifier,
            "faces": faces,
            "kept": kept,
            "total": total,
            "purpose": purpose,
            "detail": _encounter_by(detail, lambda pk: refs.position(ENCOUNTERS, pk)),
            "secret": secret,
            "announced": announced,
            "revealed_at": timestamps.iso(revealed_at),
            "mission": refs.position("missions", mission),
            "character": refs.position("characters", character),
            "roller": roller,
            "created_at": timestamps.iso(at),
        }
        if progress is not None and (position + 1) % PROGRESS_EVERY == 0:
            progress(position + 1)
    if progress is not None:
        progress(position + 1)


def _encounter_by(detail, find):
    """``detail`` with its D6 encounter (an id or a position) turned into the other with ``find``.
    A Tempo conflict's roll names its conflict by database id (``conflict``): never carried in or
    out; the conflict's events name the roll (``log_roll``), and its import names it again."""
    if isinstance(detail, dict) and CONFLICT in detail:
        detail = {k: v for k, v in detail.items() if k != CONFLICT}
    if not isinstance(detail, dict) or "encounter" not in detail:
        return detail
    found = detail["encounter"]
    found = find(found) if isinstance(found, int) and not isinstance(found, bool) else None
    return {**detail, "encounter": found}


def _dice(check: Checker, roll: dict, key: str, path: str) -> None:
    value = roll.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_DICE:
        check.add(join(path, key), f"must be a list of at most {MAX_DICE} whole numbers.")
    elif any(isinstance(face, bool) or not isinstance(face, int) for face in value):
        check.add(join(path, key), "must hold whole numbers only.")


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_ROLLS):
        return check.problems
    counts = {name: length_of(document, name) for name in ("missions", "characters", ENCOUNTERS)}
    for index, roll in enumerate(data):
        path = join(KEY, index)
        if not check.obj(roll, path, ("kind", "total")):
            continue
        check.text(roll, "kind", path, Roll._meta.get_field("kind").max_length, blank=False)
        check.integer(roll, "count", path, minimum=0, maximum=32767)
        check.integer(roll, "modifier", path, minimum=-32768, maximum=32767)
        check.integer(roll, "total", path, minimum=-(2**31), maximum=2**31 - 1)
        _dice(check, roll, "faces", path)
        _dice(check, roll, "kept", path)
        check.text(roll, "purpose", path, Roll._meta.get_field("purpose").max_length)
        check.kind_of(roll, "detail", path, (dict,), "an object")
        if ENCOUNTERS in document and isinstance(roll.get("detail"), dict) and "encounter" in roll["detail"]:
            check.reference(
                roll["detail"],
                "encounter",
                join(path, "detail"),
                counts[ENCOUNTERS],
                "D6 encounters of the archive",
            )
        check.boolean(roll, "secret", path)
        check.boolean(roll, "announced", path)
        timestamps.check(check, roll, "revealed_at", path)
        check.reference(roll, "mission", path, counts["missions"], "missions of the archive")
        check.reference(roll, "character", path, counts["characters"], "characters of the archive")
        if roll.get("roller") is not None:
            check.text(roll, "roller", path, 150)
        timestamps.check(check, roll, "created_at", path)
    return check.problems


def _pk(row):
    return row.pk if row is not None else None


def load(campaign, data, refs) -> None:
    rows = Roll.objects.bulk_create(
        (
            Roll(
                campaign=campaign,
                mission=refs.row("missions", roll.get("mission")),
                character=refs.row("characters", roll.get("character")),
                roller=refs.user(roll.get("roller")),
                kind=roll["kind"],
                count=roll.get("count", 1),
                modifier=roll.get("modifier", 0),
                faces=roll.get("faces", []),
                kept=roll.get("kept", []),
                total=roll["total"],
                purpose=roll.get("purpose", ""),
                detail=_encounter_by(roll.get("detail") or {}, lambda p: _pk(refs.row(ENCOUNTERS, p))),
                secret=roll.get("secret", False),
                # An archive from before announced secret rolls: its secret rolls were wholly hidden.
                announced=roll.get("announced", False),
                revealed_at=timestamps.parse(roll.get("revealed_at")),
            )
            for roll in data
        ),
        batch_size=1000,
    )
    for position, row in enumerate(rows):
        refs.made(KEY, position, row)
    timestamps.restore_created_at(Roll, rows, [roll.get("created_at") for roll in data])
