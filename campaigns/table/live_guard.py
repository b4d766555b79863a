"""What an open live stream must still be after it opened (issue 47): signed in, and read.

A stream's session is checked when it opens (campaigns/table/live_asgi.py, campaigns/table/live_views.py) and
then by the hub once per LIVE_HEARTBEAT_SECONDS for every stream of the process: a session that
was logged out, expired or deleted, whose user changed their password (the session's hash no
longer matches) or was deactivated, ends each of its streams at the next check. The check is
Django's own (``auth.get_user`` on the session, as at login): one reading per distinct session,
not per stream. With the database's session engine and the model backend (this project's), the
sessions that still sign their user in are first found in bulk, two queries per heartbeat for all of
them (``_kept_in_bulk``: the same tests as ``get_user``'s success, nothing looser); any other session
then goes through ``get_user`` itself, so an ended one is answered, and flushed, by Django as before.
At 2,000 open streams the reading one by one was two queries per session every heartbeat: a fifth
of the busy server's samples in bench/live.py.
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.conf import settings


def signed_in(sessions: dict[str, int]) -> set[str]:
    """The session keys, of those given (each with the id of the user its streams were opened
    for), whose session still signs that same user in."""
    from django.contrib.auth import get_user

    from campaigns.table import live

    live.keep_connection()
    engine = import_module(settings.SESSION_ENGINE)
    kept = _kept_in_bulk(engine.SessionStore, sessions)
    for key, user_id in sessions.items():
        if key in kept:
            continue
        user = get_user(SimpleNamespace(session=engine.SessionStore(key)))
        if user.is_authenticated and user.pk == user_id:
            kept.add(key)
    return kept


#: Sessions read in one query at most.
CHUNK = 500


def _kept_in_bulk(store_class, sessions: dict[str, int]) -> set[str]:
    """The sessions that ``get_user`` would answer with their stream's user without changing them:
    stored and not expired, naming that user and a configured backend whose ``get_user`` is the
    model backend's, the user found and allowed to authenticate by that backend, and the session's
    hash equal to the user's. Read in two queries (the sessions, their users); empty for a session
    engine other than the database's, where each session is read by ``get_user`` alone."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
        load_backend,
    )
    from django.contrib.auth.backends import ModelBackend
    from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
    from django.core.exceptions import ValidationError
    from django.utils import timezone
    from django.utils.crypto import constant_time_compare

    if store_class is not DatabaseStore or not sessions:
        return set()
    user_model = get_user_model()
    keys = list(sessions)
    found: dict[str, tuple[Any, str, str]] = {}  # session key -> (user id, backend, hash)
    for start in range(0, len(keys), CHUNK):
        rows = DatabaseStore.get_model_class().objects.filter(
            session_key__in=keys[start : start + CHUNK], expire_date__gt=timezone.now()
        )
        for key, data in rows.values_list("session_key", "session_data"):
            decoded = DatabaseStore(key).decode(data)
            try:
                user_id = user_model._meta.pk.to_python(decoded[SESSION_KEY])
                found[key] = (user_id, decoded[BACKEND_SESSION_KEY], decoded.get(HASH_SESSION_KEY) or "")
            except (KeyError, ValidationError):
                continue
    wanted = {user_id for key, (user_id, _, _) in found.items() if user_id == sessions[key]}
    users = user_model._default_manager.in_bulk(list(wanted)) if wanted else {}
    kept: set[str] = set()
    backends: dict[str, Any] = {}
    for key, (user_id, backend_path, session_hash) in found.items():
        user = users.get(user_id)
        if user is None or user_id != sessions[key] or backend_path not in settings.AUTHENTICATION_BACKENDS:
            continue
        backend = backends.get(backend_path) or backends.setdefault(backend_path, load_backend(backend_path))
        if type(backend).get_user is not ModelBackend.get_user or not backend.user_can_authenticate(user):
            continue
        if session_hash and constant_time_compare(session_hash, user.get_session_auth_hash()):
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
