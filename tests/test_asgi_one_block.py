"""The handler uvicorn serves (config.asgi) runs Django's middleware and the view as one
synchronous block per request (issue 47: the server's CPU per roll). Django's own ASGI handler
builds the stack for async: the request crossed into a thread for the synchronous middleware, back
to the event loop for the async-capable ones inside them (django-prometheus's closing middleware,
axes) and out again for the view. Through the real handler, as uvicorn calls it, with a session."""

from __future__ import annotations

import asyncio

import pytest
from asgiref import sync
from django.core.asgi import get_asgi_application
from django.test import Client

from tests.live.helpers import asgi_get

pytestmark = pytest.mark.django_db(transaction=True)


def _crossings(application, path: str, cookie: str) -> tuple[int, bytes, dict[str, int]]:
    """(status, body, how many times the request crossed into a thread / back to the loop)."""
    counts = {"into a thread": 0, "back to the loop": 0}
    into, back = sync.SyncToAsync.__call__, sync.AsyncToSync.__call__

    async def counted_into(self, *args, **kwargs):
        counts["into a thread"] += 1
        return await into(self, *args, **kwargs)

    def counted_back(self, *args, **kwargs):
        counts["back to the loop"] += 1
        return back(self, *args, **kwargs)

    sync.SyncToAsync.__call__, sync.AsyncToSync.__call__ = counted_into, counted_back
    try:
        status, body, _ = asyncio.run(asgi_get(application, path, [(b"cookie", cookie.encode())]))
    finally:
        sync.SyncToAsync.__call__, sync.AsyncToSync.__call__ = into, back
    return status, body, counts


def _signed_in(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_a_page_view_runs_its_middleware_and_view_in_one_thread_hop(world):
    from config.asgi import application

    cookie = _signed_in(world.users["player"])
    path = f"/campaigns/{world.campaign.pk}/"
    status, body, counts = _crossings(application, path, cookie)
    assert status == 200 and b"Time Corps" in body  # signed in: the session and the user were read
    # request_started, the middleware stack with the view, response.close: never back to the loop
    assert counts == {"into a thread": 3, "back to the loop": 0}, counts
    # Django's own handler, the same request: the crossings this handler saves
    status, _, before = _crossings(get_asgi_application(), path, cookie)
    assert status == 200
    assert before["back to the loop"] >= 1 and before["into a thread"] > counts["into a thread"], before


def test_a_refused_request_never_crosses_back_either():
    from config.asgi import application

    status, _, counts = _crossings(application, "/campaigns/", "")
    assert status == 302
    assert counts["back to the loop"] == 0


def test_a_signed_out_answer_carries_the_outer_middlewares_headers():
    """Built for sync, the same middleware run: a signed-out page is refused by login_required's
    redirect and still carries the headers of the outer middleware (request id, the policy)."""
    from config.asgi import application

    seen: dict[str, str] = {}

    async def run():
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/campaigns/",
            "raw_path": b"/campaigns/",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"localhost")],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
        }
        sent = []

        async def receive():
            if not sent:
                sent.append(1)
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.sleep(3600)

        async def send(message):
            if message["type"] == "http.response.start":
                seen.update({k.decode().lower(): v.decode() for k, v in message["headers"]})

        await application(scope, receive, send)

    asyncio.run(run())
    assert seen.get("location", "").startswith("/accounts/login/")
    assert seen.get("x-request-id")  # config.logs.RequestLogMiddleware, the outermost but one
    assert "permissions-policy" in seen and "x-frame-options" in seen
