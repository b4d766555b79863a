"""The feed as an ASGI server serves it (campaigns/table/live_views.py): the stream stays open and a
roll made elsewhere (another thread: another request, or a worker's write found by the poll)
reaches it without a reconnection."""

from __future__ import annotations

import asyncio
import random
import signal

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from campaigns.models import LiveEvent
from campaigns.table import rolling
from campaigns.table.live_hub import hub
from tests.live.helpers import asgi_receive, parse

pytestmark = pytest.mark.django_db(transaction=True)


async def _next(stream, seconds=10.0) -> str:
    return (await asyncio.wait_for(anext(stream), seconds)).decode()


def _scenario(world, who, make_roll):
    async def run():
        client = AsyncClient()
        await client.aforce_login(world.users[who])
        response = await client.get(f"/campaigns/{world.campaign.pk}/live/")
        assert response.status_code == 200
        stream = aiter(response.streaming_content)
        try:
            assert (await _next(stream)).startswith("retry: ")
            made = await sync_to_async(make_roll, thread_sensitive=False)()
            text = await _next(stream)
            return made, text
        finally:
            await stream.aclose()
            await hub.stop()

    return asyncio.run(run())


def test_a_roll_made_in_another_request_reaches_an_open_stream(world):
    def roll():
        return rolling.record_roll(world.membership["gm"], kind="d10", secret=True, rng=random.Random(1))

    made, text = _scenario(world, "player", roll)
    [message] = parse(text)
    assert message["event"] == "roll" and f'id="roll-{made.pk}"' in message["data"]
    assert "made a secret roll" in message["data"] and f"<strong>{made.total}</strong>" not in message["data"]
    assert message["id"] == str(LiveEvent.objects.get(roll=made).public_id)


def test_an_event_written_by_another_process_is_found_by_the_poll(world, settings):
    """A worker writes the event and cannot reach this process's hub: the poll of the newest event
    id finds it (no Redis, as under make run)."""
    settings.LIVE_POLL_SECONDS = 0.05
    assert not settings.LIVE_REDIS_URL

    def written_elsewhere():
        from unittest import mock

        with mock.patch.object(hub, "poke"):  # as if in another process: no direct wake-up
            return rolling.record_roll(world.membership["player"], kind="d6", rng=random.Random(2))

    made, text = _scenario(world, "gm", written_elsewhere)
    assert f'id="roll-{made.pk}"' in parse(text)[0]["data"]


def _asgi_get(path: str, cookies: dict[str, str], host: str = "127.0.0.1", extra=()):
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [
            (b"host", host.encode()),
            (b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()),
            *extra,
        ],
    }
    return scope


def _route_scenario(world, who, make_roll=None, host="127.0.0.1", path=None):
    """Through config.asgi's application, as uvicorn calls it: the live route before Django."""
    from django.conf import settings
    from django.test import Client

    from config.asgi import application

    cookies = {}
    if who:
        browser = Client()
        browser.force_login(world.users[who])
        cookies[settings.SESSION_COOKIE_NAME] = browser.cookies[settings.SESSION_COOKIE_NAME].value

    async def run():
        sent: asyncio.Queue = asyncio.Queue()
        leave = asyncio.Event()
        receive = asgi_receive(leave)

        scope = _asgi_get(path or f"/campaigns/{world.campaign.pk}/live/", cookies, host)
        served = asyncio.ensure_future(application(scope, receive, sent.put))
        try:
            start = await asyncio.wait_for(sent.get(), 10)
            if start["status"] != 200 or make_roll is None:
                body = await asyncio.wait_for(sent.get(), 10)
                return start["status"], body["body"].decode(), None
            assert (await asyncio.wait_for(sent.get(), 10))["body"].startswith(b"retry: ")
            made = await sync_to_async(make_roll, thread_sensitive=False)()
            body = await asyncio.wait_for(sent.get(), 10)
            return start["status"], body["body"].decode(), made
        finally:
            leave.set()
            await asyncio.wait_for(served, 10)  # the route ends when the client leaves
            await hub.stop()

    return asyncio.run(run())


def test_the_asgi_route_streams_a_new_roll_as_the_view_does(world):
    def roll():
        return rolling.record_roll(world.membership["gm"], kind="d10", secret=True, rng=random.Random(1))

    status, text, made = _route_scenario(world, "player", roll)
    [message] = parse(text)
    assert status == 200 and f'id="roll-{made.pk}"' in message["data"]
    assert "made a secret roll" in message["data"]


@pytest.mark.parametrize("who", ["outsider", None])
def test_the_asgi_route_answers_404_to_anyone_but_a_member(world, who):
    status, text, _ = _route_scenario(world, who)
    assert (status, text) == (404, "No such campaign.")


def test_the_asgi_route_checks_the_host_as_django_does(world):
    status, _, _ = _route_scenario(world, "player", host="evil.example.com")
    assert status == 400


def test_other_paths_go_to_django(world):
    status, text, _ = _route_scenario(world, "player", path="/campaigns/")
    assert status == 200 and "Time Corps" in text


def test_the_safety_poll_wakes_only_campaigns_with_an_event_no_wake_named():
    """With Redis the poll is a safety net for a lost pub/sub message: a campaign whose newest
    event a wake already named (this process's commit, a message) is not read again."""
    from campaigns.table.live_hub import Hub

    async def run():
        hub = Hub()
        hub.loop = asyncio.get_running_loop()
        read: list[int] = []
        hub._fan_out = lambda campaign_id: _record(hub, read, campaign_id)
        for campaign_id in (1, 2):
            subscriber = await _subscribe(hub, campaign_id)
            subscriber.ready = True
        hub.wake(1, 10)  # a message named event 10 of campaign 1
        await asyncio.sleep(0)
        hub.found([(9, 1), (10, 1), (11, 2)])  # the poll: campaign 2's event 11 was never named
        await asyncio.sleep(0)
        hub.found([(12, 1)])  # a message lost: the poll finds campaign 1's event 12
        await asyncio.sleep(0)
        return read, hub.seen

    assert asyncio.run(run()) == ([1, 2, 1], 12)


async def _record(hub, read, campaign_id):
    read.append(campaign_id)
    hub.fan_outs.pop(campaign_id)


async def _subscribe(hub, campaign_id):
    from campaigns.table.live_hub import Subscriber

    subscriber = Subscriber(None, None, 0)
    hub.waiters.setdefault(campaign_id, set()).add(subscriber)
    return subscriber


def test_an_open_stream_ends_its_response_when_the_server_is_asked_to_stop(world):
    """Issue 44: Ctrl-C on `make run` with a page open: uvicorn waited for the live feed, then
    cancelled it with an ERROR and a traceback. The stream now ends its response cleanly when the
    server is asked to stop (the signal handler chained before the server's)."""
    from django.conf import settings
    from django.test import Client

    from campaigns.table import live_asgi
    from config.asgi import application

    browser = Client()
    browser.force_login(world.users["player"])
    cookies = {settings.SESSION_COOKIE_NAME: browser.cookies[settings.SESSION_COOKIE_NAME].value}
    called = []

    async def run():
        sent: asyncio.Queue = asyncio.Queue()
        leave = asyncio.Event()
        scope = _asgi_get(f"/campaigns/{world.campaign.pk}/live/", cookies)
        served = asyncio.ensure_future(application(scope, asgi_receive(leave), sent.put))
        try:
            assert (await asyncio.wait_for(sent.get(), 10))["status"] == 200
            assert (await asyncio.wait_for(sent.get(), 10))["body"].startswith(b"retry: ")
            live_asgi._chained(lambda signum, frame: called.append(signum))(signal.SIGTERM, None)
            await asyncio.wait_for(served, 5)  # ended by itself: the client never left
            messages = []
            while not sent.empty():
                messages.append(sent.get_nowait())
            return messages
        finally:
            leave.set()
            await hub.stop()

    messages = asyncio.run(run())
    assert called == [signal.SIGTERM]  # the server's own handler still runs
    assert messages and messages[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
