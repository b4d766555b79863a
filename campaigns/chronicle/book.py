"""The campaign's chronicle as a book (issue 50, part 6): one chapter per play session, then the
characters' standing, for one reader. (campaigns/chronicle/recap.py is the recap and the timeline.)

What a chapter holds is what that reader's session page shows (campaigns/chronicle/play_sessions.py and
campaigns/chronicle/notes.py), read with the same querysets: the notes they may read, the happenings of the
record and the roll log's lines as the log draws them for them (a sealed roll without its result).
So the GM's copy and a player's copy differ exactly as their pages do, and a player's copy is the
same whatever the GM hid. The record is frozen into the render's snapshot (sheets/services.py), so
the PDF is made from plain words and numbers: nothing in it reads the database again.

The book opens with the reader's timeline (part 4), read by the same functions as their timeline
page (``recap.calendar`` and ``recap.system_tracks``, campaigns/chronicle/views.py): the
sessions and missions by month, newest first, a player's without the missions whose result is not
published, then the tracks the campaign's system adds, drawn for print for the reader's audience
(``charts.for_print``, as the campaign report prints its charts). The chapters follow in session
order.
"""

from __future__ import annotations

from typing import Any

import nh3
from django.utils import timezone

from campaigns import charts
from campaigns.chronicle import notes, play_sessions, recap
from campaigns.models import Campaign, Membership, Note, PlaySession
from campaigns.table.log_words import roll_words
from characters import registry
from characters.models import AdvancementEntry, Character

#: At most this many rolls are listed per chapter, as the session page's first page shows them
#: (the dice log has them all). It was the 300 the API lists: at 100 sessions of 500 rolls that made
#: a 227-page book and 15 ms of the print request a chapter (bench/chronicle.py --render, stop 57).
MAX_ROLLS = play_sessions.ROLLS_PER_PAGE
#: At most this many sessions are printed (the newest); a longer campaign prints its last ones.
MAX_SESSIONS = 200

#: The notes' tags without links: on paper a link is only its words.
_PRINT_TAGS = notes.ALLOWED_TAGS - {"a"}


def _printed(html: str) -> str:
    """A note's HTML (already sanitised for the reader) with its links turned into their words."""
    return nh3.clean(
        html,
        tags=_PRINT_TAGS,
        attributes={k: v for k, v in notes.ALLOWED_ATTRIBUTES.items() if k != "a"},
        strip_comments=True,
    )


def _roll_line(roll, campaign: Campaign, membership: Membership) -> str:
    """A roll log line in words, as the log shows it to this reader (campaigns/_roll_line.html)."""
    who = roll.roller.username if roll.roller_id else "—"
    at = timezone.localtime(roll.created_at).strftime("%H:%M")
    if roll.sealed and not membership.is_gm:
        text = f"{at} {who} made a secret roll: the game master has the result"
    else:
        faces = " ".join(str(face) for face in roll.faces or [])
        text = f"{at} {who} rolled {roll_words(roll, campaign.system)}: {faces} → {roll.total}"
        if roll.purpose:
            text += f", {roll.purpose}"
    if roll.character_id:
        text += f" ({roll.character.name})"
    if roll.mission_id:
        text += f" [{roll.mission.title}]"
    if roll.secret:
        text += " · secret" if roll.sealed else " · secret, shared"
    return text


def _chapter(session: PlaySession, campaign: Campaign, user, membership: Membership, readable) -> dict:
    rolls = list(play_sessions.rolls(session, user, membership)[: MAX_ROLLS + 1])
    return {
        "number": session.number,
        "title": session.title,
        "date": session.date.isoformat(),
        "open": session.is_open,
        "attendees": play_sessions.attendee_names(session),
        "notes": [
            {
                "title": note.title,
                "author": note.author.username if note.author_id else "",
                "visibility": note.get_visibility_display(),
                "html": _printed(html),
            }
            for note, html in readable
        ],
        "happenings": [h.text for h in play_sessions.happenings(session, user, membership)],
        "rolls": [_roll_line(roll, campaign, membership) for roll in rolls[:MAX_ROLLS]],
        "more_rolls": len(rolls) > MAX_ROLLS,
    }


def _standing(campaign: Campaign, user) -> list[dict[str, Any]]:
    """The characters this reader may see, each with its status, revision and last ledger line."""
    app = registry.get(campaign.system)
    out = []
    characters = (
        Character.objects.visible_to(user)
        .filter(campaign=campaign)
        .exclude(status=Character.Status.DRAFT)
        .select_related("owner")
        .order_by("name", "id")
    )
    for character in characters:
        last = (
            AdvancementEntry.objects.filter(character=character)
            .select_related("mission")
            .order_by("-created_at", "-id")
            .first()
        )
        sentence = ""
        if last is not None:
            mission = last.mission.title if last.mission_id else ""
            sentence = (
                app.entry_sentence(last.kind, last.payload, mission) if app else ""
            ) or last.kind.replace("_", " ")
        out.append(
            {
                "name": character.name,
                "player": character.owner.username,
                "status": character.get_status_display(),
                "revision": character.revision,
                "last": sentence,
            }
        )
    return out


def _timeline(campaign: Campaign, user, membership: Membership) -> dict[str, Any]:
    """The reader's timeline page as plain data: its calendar, then the system's tracks."""
    audience = "gm" if membership.is_gm else "player"
    font = charts.print_font(campaign.system)
    return {
        "months": [
            {
                "label": month.label,
                "moments": [
                    {
                        "date": moment.date.isoformat(),
                        "day": f"{moment.date.day} {moment.date:%b}",
                        "kind": "Session" if moment.kind == "session" else "Mission",
                        "text": moment.text,
                        "detail": moment.detail,
                        "gm_only": moment.gm_only,
                    }
                    for moment in month.moments
                ],
            }
            for month in recap.calendar(campaign, user, membership)
        ],
        "tracks": [
            charts.for_print(chart, audience, font)
            for chart in recap.system_tracks(campaign, user, membership)
        ],
    }


def record(campaign: Campaign, user, membership: Membership) -> dict[str, Any] | None:
    """The chronicle's fields for this reader, or None when the campaign has no play session yet.
    Its times are the group's (the campaign's time zone), from a page or the API alike."""
    with timezone.override(campaign.zone):
        return _record(campaign, user, membership)


def _record(campaign: Campaign, user, membership: Membership) -> dict[str, Any] | None:
    sessions = list(campaign.play_sessions.prefetch_related("attendees").order_by("-number")[:MAX_SESSIONS])
    if not sessions:
        return None
    sessions.reverse()
    readable = list(
        Note.objects.visible_to(user, membership)
        .filter(play_session__in=sessions)
        .select_related("author")
        .order_by("created_at", "id")
    )
    # On paper a mention is only its words (_printed drops the links), so the notes are rendered
    # without looking up what they mention: the same words, and no read of any record per chapter
    # (that lookup was a third of the record's time at 100 sessions: bench/chronicle.py).
    rendered: dict[int, list] = {}
    for note in readable:
        rendered.setdefault(note.play_session_id, []).append((note, notes.render(note.body, {})))
    chapters = [
        _chapter(
            session,
            campaign,
            user,
            membership,
            rendered.get(session.pk, []),
        )
        for session in sessions
    ]
    return {
        "title": campaign.name,
        "system_name": campaign.get_system_display(),
        "gm_copy": membership.is_gm,
        "timeline": _timeline(campaign, user, membership),
        "chapters": chapters,
        "characters": _standing(campaign, user),
    }
