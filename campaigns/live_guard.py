"""What an open live stream must still be after it opened (issue 47): signed in, and read.

A stream's session is checked when it opens (campaigns/live_asgi.py, campaigns/live_views.py) and
then by the hub once per LIVE_HEARTBEAT_SECONDS for every stream of the process: a session that
was logged out, expired or deleted, whose user changed their password (the session's hash no
longer matches) or was deactivated, ends each of its streams at the next check. The check is
Django's own (``auth.get_user`` on the session, as at login): one reading per distinct session,
not per stream.
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

from django.conf import settings


def signed_in(sessions: dict[str, int]) -> set[str]:
    """The session keys, of those given (each with the id of the user its streams were opened
    for), whose session still signs that same user in."""
    from django.contrib.auth import get_user

    from campaigns import live

    live.keep_connection()
    engine = import_module(settings.SESSION_ENGINE)
    kept: set[str] = set()
    for key, user_id in sessions.items():
        user = get_user(SimpleNamespace(session=engine.SessionStore(key)))
        if user.is_authenticated and user.pk == user_id:
            kept.add(key)
    return kept


def too_many() -> str:
    """The 429's words, which the page shows (static/js/live.js)."""
    return (
        f"Too many open pages of this campaign's live table: at most {settings.LIVE_STREAMS_PER_SESSION} "
        f"in one browser and {settings.LIVE_STREAMS_PER_USER} for one account. Close a tab or two; "
        "this page reconnects by itself."
    )


def outbox_size(outbox: list[str]) -> int:
    """What a stream holds for its reader and has not sent yet, in characters."""
    return sum(len(text) for text in outbox)
