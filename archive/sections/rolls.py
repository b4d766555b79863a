"""The dice log, secret rolls included (a campaign archive is the GM's).

A roll made in a system's play record may name that record in its ``detail``: a system section
that sets ``ROLL_DETAIL`` (the detail key) and comes before this one has the record's position
there in the archive, never its database id; a file from before that section held the database id
there, and it imports as null. A detail key a section names in ``ROLL_DETAIL_DROPPED`` holds a
database id that is never carried in or out (the record's own events name the roll, and its
import names it again).
"""

from __future__ import annotations

from collections.abc import Iterator

from archive import references, timestamps
from archive.problems import Checker, Problem, join, length_of
from campaigns.models import Roll

KEY = "rolls"
REFERENCE = references.ROLL  # records point at this section's rows by key
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


def _named_records() -> tuple[list[tuple[str, str, str]], tuple[str, ...]]:
    """(detail key, section key, what its records are called) of every system section a roll's
    detail names by position, and the detail keys dropped on the way in and out."""
    from archive.sections import roll_details

    named, dropped = [], []
    for section in roll_details():
        if getattr(section, "ROLL_DETAIL", ""):
            label = getattr(section, "LABEL", section.KEY.replace("_", " "))
            named.append((section.ROLL_DETAIL, section.KEY, label))
        if getattr(section, "ROLL_DETAIL_DROPPED", ""):
            dropped.append(section.ROLL_DETAIL_DROPPED)
    return named, tuple(dropped)


def _detail_by(detail, named, dropped, find):
    """``detail`` with each record it names (an id or a position) turned into the other with
    ``find(section key, value)``, and the dropped keys left out."""
    if not isinstance(detail, dict):
        return detail
    if any(name in detail for name in dropped):
        detail = {k: v for k, v in detail.items() if k not in dropped}
    for name, section, _ in named:
        if name in detail:
            found = detail[name]
            found = find(section, found) if isinstance(found, int) and not isinstance(found, bool) else None
            detail = {**detail, name: found}
    return detail


def export_rows(campaign, refs, progress=None) -> Iterator[dict]:
    """The rolls oldest first, read in chunks of CHUNK rows; ``progress(n)`` every PROGRESS_EVERY."""
    named, dropped = _named_records()
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
            "detail": _detail_by(detail, named, dropped, refs.position),
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
    named, _ = _named_records()
    counts = {name: length_of(document, name) for name in ("missions", "characters")}
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
        for name, section, label in named:
            if section in document and isinstance(roll.get("detail"), dict) and name in roll["detail"]:
                check.reference(
                    roll["detail"],
                    name,
                    join(path, "detail"),
                    length_of(document, section),
                    f"{label} of the archive",
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
    named, dropped = _named_records()
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
                detail=_detail_by(
                    roll.get("detail") or {}, named, dropped, lambda section, p: _pk(refs.row(section, p))
                ),
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
