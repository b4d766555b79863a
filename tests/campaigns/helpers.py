"""Helpers the campaign tests share (one copy, imported where needed)."""

from __future__ import annotations

from campaigns.chronicle import notes
from campaigns.models import Note, NoteVisibility


def write_note(world, author, session, body, visibility=NoteVisibility.SHARED, title=""):
    """A note on ``session`` by the world's user ``author``, written through the service (mentions
    read, the search index and the live channel told), as a page would write it."""
    note = Note(
        campaign=world.campaign,
        play_session=session,
        author=world.users[author],
        visibility=visibility,
        title=title,
        body=body,
    )
    return notes.save_note(note)
