"""The live feed's own ASGI route, in front of Django (config/asgi.py).

Django serves every request under ASGI inside a "thread-sensitive context": the first sync
middleware (sessions, CSRF, the request log: most of them) gets a thread of its own for that
request, and keeps it until the request ends. A live feed's request never ends while the page is
open, so 2,000 open pages held 2,000 threads (and about 0.9 GB) in bench/live.py. This route
answers GET /campaigns/<id>/live/ itself, before Django's middleware: it reads the session from
its cookie (Django's session engine and ``auth.get_user``, so the same login and the same checks
of the session against the password), checks the Host as Django does, and then streams exactly
what campaigns/table/live_views.py streams (the same functions: ``_start``, ``live.render_batch``, the
hub). Every other request, and this one under WSGI or the test client, goes to Django.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import threading
from http.cookies import SimpleCookie
from types import SimpleNamespace
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import Http404, HttpRequest
from django.http.request import split_domain_port, validate_host

LIVE_PATH = re.compile(r"^/campaigns/([0-9]{1,18})/live/$")
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


class LiveFeedRoute:
    def __init__(self, django_app) -> None:
        self.django_app = django_app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            found = LIVE_PATH.match(scope["path"])
            if found:
                await self.feed(int(found.group(1)), scope, receive, send)
                return
        await self.django_app(scope, receive, send)

    async def feed(self, campaign_pk: int, scope, receive, send) -> None:
        headers = {
            name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]
        }
        domain, _ = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            await _answer(send, 400, "Bad Request: the Host header is not one this site answers to.")
            return
        cookies = SimpleCookie()
        with contextlib.suppress(Exception):
            cookies.load(headers.get("cookie", ""))
        cookie = {key: morsel.value for key, morsel in cookies.items()}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        cursor = headers.get("last-event-id") or (query.get("after") or [None])[0]
        try:
            request, user, campaign_id, seq = await sync_to_async(_open, thread_sensitive=False)(
                cookie, campaign_pk, cursor
            )
        except Http404:
            await _answer(send, 404, "No such campaign.")
            return
        from campaigns.table import live_guard
        from campaigns.table.live_hub import hub

        slot = await hub.admit(user.pk, request.session.session_key or "")
        if slot is None:
            await _answer(send, 429, live_guard.too_many())
            return
        try:
            await self.stream(request, user, campaign_id, seq, receive, send)
        finally:
            hub.release(slot)

    async def stream(self, request, user, campaign_id: int, seq: int, receive, send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        # A reader who stops reading (send() waits on a full socket) is closed by the hub once
        # LIVE_OUTBOX_CHARS wait for them (campaigns/table/live_hub.py, Hub.drop): the connection ends
        # here even while a send is stuck, and the browser reconnects from its last event id.
        behind = asyncio.Event()
        stream = _stream(request, user, campaign_id, seq, request.session.session_key or "", behind.set)
        pump = asyncio.ensure_future(_pump(stream, send))
        gone = asyncio.ensure_future(_disconnected(receive))
        dropped = asyncio.ensure_future(behind.wait())
        server_stops = _stop_event()
        stopping = asyncio.ensure_future(server_stops.wait())
        try:
            await asyncio.wait({pump, gone, dropped, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if dropped.done() and not pump.done():
                # Its last message says why, if the socket takes it in a moment; else it is cut.
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    await asyncio.wait_for(asyncio.shield(pump), 1.0)
        finally:
            _STOP_EVENTS.pop(server_stops, None)
            for task in (pump, gone, dropped, stopping):
                task.cancel()
            for task in (pump, gone, dropped, stopping):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            await stream.aclose()
        ended = pump.done() and not pump.cancelled() and pump.exception() is None
        # (``gone`` cancelled above: the reader had not left)
        if ended or (server_stops.is_set() and gone.cancelled()):
            # The stream ended by itself (the member left, the session ended): the response's end,
            # given a moment only, for a socket nobody reads takes nothing more in.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    send({"type": "http.response.body", "body": b"", "more_body": False}), 1.0
                )


#: Each open stream's "the server stops" event and its loop (set from a signal handler).
_STOP_EVENTS: dict[asyncio.Event, asyncio.AbstractEventLoop] = {}
_HANDLERS_SET = threading.Lock()
_handlers_installed = False


def _stop_event() -> asyncio.Event:
    """An event set when the server is asked to stop (SIGINT, SIGTERM: Ctrl-C on `make run`).

    The server (uvicorn) waits for open responses before it stops, and cancels them with an ERROR
    and a traceback after its graceful timeout; a live feed never ends by itself. So each stream
    ends its response cleanly at once when the server is asked to stop. The server's own signal
    handler still runs (it is called from ours), and the EventSource reconnects to whatever answers
    next."""
    global _handlers_installed
    event = asyncio.Event()
    _STOP_EVENTS[event] = asyncio.get_running_loop()
    with _HANDLERS_SET:
        if not _handlers_installed and threading.current_thread() is threading.main_thread():
            _handlers_installed = True
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous = signal.getsignal(sig)
                if callable(previous):
                    signal.signal(sig, _chained(previous))
    return event


def _chained(previous):
    def handler(signum, frame):
        for event, loop in list(_STOP_EVENTS.items()):
            with contextlib.suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(event.set)
        previous(signum, frame)

    return handler


def _open(cookie: dict[str, str], campaign_pk: int, cursor: str | None):
    """(request, user, campaign id, feed position) for a signed-in member, else Http404."""
    from importlib import import_module

    from django.contrib.auth import get_user
    from django.contrib.sessions.backends.base import SessionBase

    from campaigns.table import live
    from campaigns.table.live_views import _start

    live.keep_connection()
    engine = import_module(settings.SESSION_ENGINE)
    session: SessionBase = engine.SessionStore(cookie.get(settings.SESSION_COOKIE_NAME))
    user = get_user(SimpleNamespace(session=session))
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    # What the roll lines' forms need of a request: the CSRF cookie their token is masked from.
    request = HttpRequest()
    request.COOKIES = cookie
    request.user = user
    request.session = session  # its key: the hub checks the session again each heartbeat
    if settings.CSRF_COOKIE_NAME in cookie:
        request.META["CSRF_COOKIE"] = cookie[settings.CSRF_COOKIE_NAME]
    request.GET = request.GET.copy()
    if cursor is not None:
        request.GET["after"] = cursor
    _, campaign_id, seq = _start(request, user, campaign_pk)
    return request, user, campaign_id, seq


async def _stream(request, user, campaign_id: int, seq: int, session_key: str = "", on_behind=None):
    from campaigns.table.live_views import _stream as stream

    async for part in stream(request, user, campaign_id, seq, session_key=session_key, on_behind=on_behind):
        yield part


async def _pump(stream, send) -> None:
    async for part in stream:
        await send({"type": "http.response.body", "body": part.encode(), "more_body": True})


async def _disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _answer(send, status: int, text: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})
