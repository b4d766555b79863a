"""The campaign's play sessions (issue 50, format version 5): each session by its number, with its
title, date, start and end, who was there (usernames) and its notes (author by username,
visibility, title, Markdown body). No server ids: a note's ``[[mentions]]`` are names, found again
on import among the campaign's restored characters, NPCs and missions.

A player's private notes are theirs alone and stay out of the GM's archive; shared and GM-only
notes travel. What a session's page gathers (rolls, ledger, missions, prints) is not stored with
it: it is read again from the restored record between the session's start and end.
"""

from __future__ import annotations

from typing import Any

from archive import timestamps
from archive.problems import ArchiveRefused, Checker, Problem, join
from campaigns.chronicle import (
    notes as note_text,  # not "notes": a section's notes() tells the restore's warnings
)
from campaigns.models import Note, NoteVisibility, PlaySession

KEY = "play_sessions"
MAX_SESSIONS = 10_000
MAX_NOTES = 1_000  # per session
#: The visibilities an archive carries (a private note stays its author's).
CARRIED = (NoteVisibility.SHARED, NoteVisibility.GM)


def export(campaign, refs) -> list[dict]:
    sessions = (
        PlaySession.objects.filter(campaign=campaign)
        .select_related("started_by")
        .prefetch_related("attendees")
        .order_by("number")
    )
    by_session: dict[int, list[Note]] = {}
    for note in (
        Note.objects.filter(campaign=campaign, visibility__in=CARRIED)
        .select_related("author")
        .order_by("created_at", "id")
    ):
        by_session.setdefault(note.play_session_id, []).append(note)
    return [
        {
            "number": s.number,
            "title": s.title,
            "date": s.date.isoformat(),
            "started_at": timestamps.iso(s.started_at),
            "ended_at": timestamps.iso(s.ended_at),
            "started_by": s.started_by.username if s.started_by else None,
            "attendees": sorted(user.username for user in s.attendees.all()),
            "notes": [
                {
                    "author": n.author.username if n.author else None,
                    "visibility": n.visibility,
                    "title": n.title,
                    "body": n.body,
                    "created_at": timestamps.iso(n.created_at),
                    "updated_at": timestamps.iso(n.updated_at),
                }
                for n in by_session.get(s.pk, [])
            ],
        }
        for s in sessions
    ]


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_SESSIONS):
        return check.problems
    numbers: set[int] = set()
    open_sessions = 0
    for index, session in enumerate(data):
        path = join(KEY, index)
        if not check.obj(session, path, ("number", "date", "started_at")):
            continue
        check.integer(session, "number", path, minimum=1, maximum=2**31 - 1)
        number = session.get("number")
        if isinstance(number, int) and not isinstance(number, bool):
            if number in numbers:
                check.add(join(path, "number"), "is given to two sessions.")
            numbers.add(number)
        check.text(session, "title", path, PlaySession._meta.get_field("title").max_length)
        if not _date(session.get("date")):
            check.add(join(path, "date"), "must be a date such as 2026-01-31.")
        if timestamps.parse(session.get("started_at")) is None:
            check.add(join(path, "started_at"), "must be a date and time such as 2026-01-31T20:15:00Z.")
        timestamps.check(check, session, "ended_at", path)
        if session.get("ended_at") is None:
            open_sessions += 1
        if session.get("started_by") is not None:
            check.text(session, "started_by", path, 150)
        attendees = session.get("attendees", [])
        if check.array(attendees, join(path, "attendees"), 1000):
            for position, name in enumerate(attendees):
                if not isinstance(name, str) or not 0 < len(name) <= 150:
                    check.add(join(join(path, "attendees"), position), "must be a username.")
        _validate_notes(check, session.get("notes", []), join(path, "notes"))
    if open_sessions > 1:
        check.add(KEY, "holds more than one session under way (without ended_at).")
    return check.problems


def _validate_notes(check: Checker, data: Any, path: str) -> None:
    if not check.array(data, path, MAX_NOTES):
        return
    for index, note in enumerate(data):
        where = join(path, index)
        if not check.obj(note, where, ("body", "visibility")):
            continue
        check.choice(note, "visibility", where, [value for value in CARRIED])
        check.text(note, "title", where, Note._meta.get_field("title").max_length)
        check.text(note, "body", where, Note._meta.get_field("body").max_length, blank=False)
        if note.get("author") is not None:
            check.text(note, "author", where, 150)
        timestamps.check(check, note, "created_at", where)
        timestamps.check(check, note, "updated_at", where)


def _date(value: Any):
    import datetime

    if not isinstance(value, str):
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        return None


def usernames(data: Any) -> set[str]:
    names: set[str] = set()
    for session in data if isinstance(data, list) else []:
        if not isinstance(session, dict):
            continue
        names.add(session.get("started_by"))
        names |= {name for name in session.get("attendees") or [] if isinstance(name, str)}
        names |= {n.get("author") for n in session.get("notes") or [] if isinstance(n, dict)}
    return {name for name in names if isinstance(name, str)}


def load(campaign, data, refs) -> None:
    problems: list[Problem] = []
    made_notes: list[tuple[Note, dict]] = []
    for index, item in enumerate(data):
        session = PlaySession(
            campaign=campaign,
            number=item["number"],
            title=item.get("title", ""),
            date=_date(item["date"]),
            started_at=timestamps.parse(item["started_at"]),
            ended_at=timestamps.parse(item.get("ended_at")),
            started_by=refs.user(item.get("started_by")),
        )
        session.save()
        people = [refs.user(name) for name in item.get("attendees") or []]
        session.attendees.set([person for person in people if person is not None])
        for entry in item.get("notes") or []:
            author = refs.user(entry.get("author"))
            note = Note(
                campaign=campaign,
                play_session=session,
                author=author,
                visibility=entry["visibility"],
                title=entry.get("title", ""),
                body=entry["body"],
            )
            note.save()
            made_notes.append((note, entry))
        if not session.started_at:
            problems.append(Problem(join(join(KEY, index), "started_at"), "is not a date and time."))
    if problems:
        raise ArchiveRefused(problems)
    for note, _ in made_notes:
        note_text.keep_mentions(note)
    stamps = [(note.pk, entry.get("created_at"), entry.get("updated_at")) for note, entry in made_notes]
    _restore(stamps)


def _restore(stamps: list[tuple[int, Any, Any]]) -> None:
    """Put back each note's created_at and updated_at (auto_now stamps the import's moment)."""
    for pk, created, updated in stamps:
        values = {}
        if timestamps.parse(created) is not None:
            values["created_at"] = timestamps.parse(created)
        if timestamps.parse(updated) is not None:
            values["updated_at"] = timestamps.parse(updated)
        if values:
            Note.objects.filter(pk=pk).update(**values)
