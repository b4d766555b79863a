"""The campaign's live feed as Server-Sent Events (campaigns/table/live.py, docs/live.md).

GET /campaigns/<pk>/live/ streams, to a member only (anyone else: 404 as every campaign page),
the events that member may see, each rendered for them. The cursor: the Last-Event-ID header an
EventSource sends when it reconnects, else ``?after=`` (the page's own cursor, drawn into the
page: nothing between the page and the stream is lost), "0" for the whole feed; without either
the stream starts from now.

Under an ASGI server (config/asgi.py, scripts/run.sh) the stream stays open, woken by the
process's hub (campaigns/table/live_hub.py). Under a WSGI server (the test client, pytest-django's
live server) a held connection would hold a thread, so the answer sends what is new, waits at most
LIVE_SYNC_WAIT_SECONDS for more and ends; the EventSource reconnects after LIVE_RETRY_MS with its
Last-Event-ID, which makes it a long poll with the same messages.
"""

from __future__ import annotations

import asyncio
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from campaigns.access import get_membership
from campaigns.table import live, live_guard
from campaigns.table.live_hub import hub


def _start(request, user, pk):
    """(user, campaign id, cursor) or Http404 for anyone not a member."""
    membership = get_membership(user, pk)
    cursor = request.headers.get("Last-Event-ID") or request.GET.get("after")
    seq = live.resolve_cursor(membership.campaign_id, cursor)
    if seq is None:
        seq = live.newest_in(membership.campaign_id, 0)
    return user, membership.campaign_id, seq


def _response(stream) -> StreamingHttpResponse:
    response = StreamingHttpResponse(stream, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx (deploy/): pass each message on at once
    return response


@require_GET
async def live_feed(request, pk):
    """One view for both servers: under WSGI Django runs it to its end and serves the response,
    whose iterator is then the sync one (an async one would be read to its end first)."""
    if isinstance(request, ASGIRequest):
        user = await request.auser()
        if not user.is_authenticated:
            raise Http404("No such campaign.")
        user, campaign_id, seq = await sync_to_async(_start, thread_sensitive=False)(request, user, pk)
        session_key = _session_key(request)
        slot = await hub.admit(user.pk, session_key)
        if slot is None:
            return HttpResponse(live_guard.too_many(), status=429, content_type="text/plain; charset=utf-8")
        stream = _stream(request, user, campaign_id, seq, session_key=session_key)
        return _response(_holding(slot, stream))
    user, campaign_id, seq = await sync_to_async(_start)(request, request.user, pk)
    return _response(_sync_stream(request, user, campaign_id, seq))


def _render(request, user, campaign_id: int, seq: int) -> live.Batch:
    live.keep_connection()
    return live.render_batch(user, campaign_id, seq, request=request)


async def _holding(slot: str, stream):
    """The stream, its slot freed when it ends (the hub's count of open streams)."""
    try:
        async for part in stream:
            yield part
    finally:
        await stream.aclose()
        hub.release(slot)


def _session_key(request) -> str:
    session = getattr(request, "session", None)
    return getattr(session, "session_key", None) or ""


#: What a stream's last message says when its reader fell behind (the hub let go of what waited):
#: the browser reconnects with its last event id and catches up from there.
BEHIND = "event: reconnect\ndata: behind\n\n"


async def _stream(request, user, campaign_id: int, seq: int, session_key: str = "", on_behind=None):
    # The retry hint goes out with the first batch: a client that has read it knows the stream
    # has caught up from its cursor (bench/live.py counts a connection from then on).
    first = live.retry_hint()
    subscriber = await hub.subscribe(
        campaign_id, user, request, seq, session_key=session_key, on_behind=on_behind
    )
    try:
        # Catching up from its own cursor, reading by itself until a reading ends with no news
        # having come meanwhile; then the hub's fan-out reads for it (no await in between: a wake
        # finds it either still reading or ready).
        while True:
            subscriber.wake.clear()
            render = sync_to_async(_render, thread_sensitive=False)
            batch = await render(request, user, campaign_id, subscriber.seq)
            if not batch.member or subscriber.signed_out:
                return
            subscriber.seq = batch.seq
            if first or batch.text:
                yield first + batch.text
                first = ""
            if not subscriber.wake.is_set() and not batch.more:
                break
        subscriber.ready = True
        while True:
            # Nothing is read again until the hub has read the campaign's news: an idle stream
            # costs its heartbeat only.
            while not subscriber.wake.is_set():
                try:
                    await asyncio.wait_for(subscriber.wake.wait(), settings.LIVE_HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield ": still here\n\n"  # keeps proxies from closing an idle stream
            subscriber.wake.clear()
            if subscriber.signed_out:
                return  # its session ended: nothing more is sent
            if subscriber.behind:
                yield BEHIND
                return
            if subscriber.outbox:
                text = "".join(subscriber.outbox)
                subscriber.outbox.clear()
                yield text
            if subscriber.ended:
                return
    finally:
        hub.unsubscribe(campaign_id, subscriber)


def _sync_stream(request, user, campaign_id: int, seq: int):
    yield live.retry_hint()
    deadline = time.monotonic() + settings.LIVE_SYNC_WAIT_SECONDS
    while True:
        batch = _render(request, user, campaign_id, seq)
        if not batch.member:
            return
        seq = batch.seq
        if batch.text:
            yield batch.text
            return
        if time.monotonic() >= deadline:
            return
        time.sleep(settings.LIVE_POLL_SECONDS)
