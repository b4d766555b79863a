"""An open live stream after it opened (issue 47, findings 1 and 3), through config.asgi's
application as uvicorn calls it: a stream whose session no longer signs its user in (logged out, a
password changed, an account deactivated) ends within a heartbeat and sends nothing more; a reader
who stops reading is closed once LIVE_OUTBOX_CHARS wait for them, with the memory it holds bounded."""

from __future__ import annotations

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async

from campaigns.table import live_guard, rolling
from campaigns.table.live_hub import hub
from tests.live.helpers import asgi_receive
from tests.live.test_asgi_stream import _asgi_get

pytestmark = pytest.mark.django_db(transaction=True)


def _browser(world, who):
    from django.test import Client

    browser = Client()
    browser.force_login(world.users[who])
    return browser


def _cookies(browser) -> dict[str, str]:
    from django.conf import settings

    return {settings.SESSION_COOKIE_NAME: browser.cookies[settings.SESSION_COOKIE_NAME].value}


def _roll(world):
    return rolling.record_roll(world.membership["gm"], kind="d10", rng=random.Random(7))


def _serve(world, cookies, during, *, stall_after: int | None = None, wait: float = 5.0):
    """Open the player's stream, run ``during`` (in a thread) once it has caught up, and return
    (the bodies sent after that, whether the route ended by itself within ``wait`` seconds).
    ``stall_after``: send() stops returning after that many bodies, as a socket nobody reads."""
    from config.asgi import application

    async def run():
        bodies: list[bytes] = []
        caught_up = asyncio.Event()
        leave = asyncio.Event()
        receive = asgi_receive(leave)

        async def send(message):
            if message["type"] != "http.response.body":
                assert message["status"] == 200
                return
            if stall_after is not None and len(bodies) >= stall_after:
                await asyncio.Event().wait()  # never returns: the reader stopped reading
            bodies.append(message.get("body", b""))
            if bodies[0].startswith(b"retry: "):
                caught_up.set()

        scope = _asgi_get(f"/campaigns/{world.campaign.pk}/live/", cookies)
        served = asyncio.ensure_future(application(scope, receive, send))
        try:
            await asyncio.wait_for(caught_up.wait(), 10)
            before = len(bodies)
            await sync_to_async(during, thread_sensitive=False)()
            try:
                await asyncio.wait_for(asyncio.shield(served), wait)
                ended = True
            except TimeoutError:
                ended = False
            return bodies[before:], ended
        finally:
            leave.set()
            await asyncio.wait_for(served, 10)
            await hub.stop()

    return asyncio.run(run())


def _revocations(world, browser):
    user = world.users["player"]

    def logged_out():
        browser.logout()  # the session is deleted, as the logout page does

    def password_changed():
        user.set_password("a-brand-new-long-password")
        user.save()

    def deactivated():
        user.is_active = False
        user.save()

    return {"logged out": logged_out, "password changed": password_changed, "deactivated": deactivated}


@pytest.mark.parametrize("how", ["logged out", "password changed", "deactivated"])
def test_a_stream_ends_within_a_heartbeat_once_its_session_no_longer_signs_its_user_in(world, settings, how):
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    browser = _browser(world, "player")
    revoke = _revocations(world, browser)[how]

    def then_a_roll():
        revoke()
        import time

        time.sleep(1.0)  # five heartbeats
        _roll(world)

    sent, ended = _serve(world, _cookies(browser), then_a_roll)
    assert ended, f"the stream stayed open after its user was {how}"
    assert not any(b"event: roll" in body for body in sent), sent


def test_a_stream_whose_session_still_holds_stays_open_and_delivers(world, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    browser = _browser(world, "player")

    def wait_then_roll():
        import time

        time.sleep(1.0)
        _roll(world)

    sent, ended = _serve(world, _cookies(browser), wait_then_roll, wait=1.0)
    assert not ended
    assert any(b"event: roll" in body for body in sent), sent


def test_the_session_check_is_djangos_own_and_reads_each_session_once(world, django_assert_max_num_queries):
    from django.conf import settings as django_settings
    from django.contrib.sessions.models import Session

    alice, bob = _browser(world, "player"), _browser(world, "gm")
    keys = {
        alice.cookies[django_settings.SESSION_COOKIE_NAME].value: world.users["player"].pk,
        bob.cookies[django_settings.SESSION_COOKIE_NAME].value: world.users["gm"].pk,
    }
    with django_assert_max_num_queries(4):  # a session and its user, per session
        assert live_guard.signed_in(keys) == set(keys)
    # a key that names another user is not that user's session
    swapped = dict(zip(keys, reversed(list(keys.values())), strict=True))
    assert live_guard.signed_in(swapped) == set()
    Session.objects.filter(session_key=next(iter(keys))).delete()
    assert live_guard.signed_in(keys) == {list(keys)[1]}


def test_a_reader_who_stops_reading_is_closed_and_what_waits_for_them_is_bounded(
    world, settings, monkeypatch
):
    settings.LIVE_OUTBOX_CHARS = 3000
    seen: list[int] = []
    size = live_guard.outbox_size

    def measured(outbox):
        seen.append(size(outbox))
        return seen[-1]

    monkeypatch.setattr(live_guard, "outbox_size", measured)
    browser = _browser(world, "gm")  # the GM's lines are the longest (each carries its share form)

    def sixty_rolls():
        import time

        from django.db import OperationalError

        for _ in range(60):
            # The test database is SQLite in memory with a shared cache, where a write meeting the
            # hub's read in another thread is refused at once ("table is locked"; a file database
            # in WAL mode, as served, waits its turn): the roll is made again.
            for _attempt in range(50):
                try:
                    _roll(world)
                    break
                except OperationalError as error:
                    if "locked" not in str(error):
                        raise
                    time.sleep(0.01)
            else:
                raise AssertionError("the test database stayed locked")
            # and the hub's reading of it done before the next write, which would lock it the same way
            time.sleep(0.01)
            for _wait in range(500):
                if not hub.fan_outs:
                    break
                time.sleep(0.005)

    sent, ended = _serve(world, _cookies(browser), sixty_rolls, stall_after=1, wait=10.0)
    assert ended, "a stalled reader's stream stayed open"
    # what waited for the reader never passed the bound but by the one reading that crossed it,
    # and was let go then
    assert seen and all(size <= settings.LIVE_OUTBOX_CHARS for size in seen[:-1]), seen
    assert seen[-1] > settings.LIVE_OUTBOX_CHARS
    # fewer lines were held than were rolled: the reader's browser catches up from its cursor
    assert len(seen) < 60
    assert world.campaign.pk not in hub.waiters  # nothing of it is left in the hub


# -- how many streams (finding 2) ----------------------------------------------------------------------
def _statuses(world, cookie_sets, *, close_first_then_again=False):
    """Open a stream for each cookie set, in order, all held open together; the status of each
    (and, with ``close_first_then_again``, of one more opened with the first set after the first
    stream closed)."""
    from config.asgi import application

    async def run():
        held = []

        async def open_one(cookies):
            started: asyncio.Future = asyncio.get_running_loop().create_future()
            body: list[bytes] = []
            leave = asyncio.Event()
            receive = asgi_receive(leave)

            async def send(message):
                if message["type"] == "http.response.start" and not started.done():
                    started.set_result(message["status"])
                elif message["type"] == "http.response.body":
                    body.append(message.get("body", b""))

            scope = _asgi_get(f"/campaigns/{world.campaign.pk}/live/", cookies)
            served = asyncio.ensure_future(application(scope, receive, send))
            status = await asyncio.wait_for(started, 10)
            await asyncio.sleep(0.05)  # its first batch read: it is open
            held.append((served, leave))
            return status, b"".join(body).decode()

        try:
            answers = [await open_one(cookies) for cookies in cookie_sets]
            if close_first_then_again:
                served, leave = held[0]
                leave.set()
                await asyncio.wait_for(served, 10)
                answers.append(await open_one(cookie_sets[0]))
            return answers
        finally:
            for _, leave in held:
                leave.set()
            for served, _ in held:
                await asyncio.wait_for(served, 10)
            await hub.stop()

    return asyncio.run(run())


def test_one_browser_holds_a_handful_of_streams_and_the_next_is_told_why(world, settings):
    settings.LIVE_STREAMS_PER_SESSION, settings.LIVE_STREAMS_PER_USER = 2, 5
    cookies = _cookies(_browser(world, "player"))
    answers = _statuses(world, [cookies, cookies, cookies], close_first_then_again=True)
    assert [status for status, _ in answers] == [200, 200, 429, 200]
    assert "Too many open pages" in answers[2][1] and "at most 2 in one browser" in answers[2][1]
    assert not hub.slots  # every slot freed when its stream ended


def test_one_account_holds_a_handful_of_streams_across_its_browsers(world, settings):
    settings.LIVE_STREAMS_PER_SESSION, settings.LIVE_STREAMS_PER_USER = 2, 3
    first, second = _cookies(_browser(world, "player")), _cookies(_browser(world, "player"))
    gm = _cookies(_browser(world, "gm"))
    answers = _statuses(world, [first, first, second, second, gm])
    assert [status for status, _ in answers] == [200, 200, 200, 429, 200]
    assert "3 for one account" in answers[3][1]


@pytest.mark.services
def test_the_count_of_streams_is_shared_by_every_web_process_through_redis(settings):
    """Two hubs (two web processes) with LIVE_REDIS_URL: a slot taken in one counts in the other,
    a slot freed in one is free in the other, and a slot of a process that died lapses."""
    import os

    from campaigns.table.live_hub import Hub

    url = os.environ.get("LIVE_REDIS_URL") or os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.fail("the services layer needs LIVE_REDIS_URL or CELERY_BROKER_URL=redis://... (see .ci/run)")
    settings.LIVE_REDIS_URL = url
    settings.LIVE_STREAMS_PER_SESSION, settings.LIVE_STREAMS_PER_USER = 2, 3
    user_id = 900_000 + random.randrange(100_000)  # a key of its own in the shared Redis
    # sessions of this run only: a set left by an earlier run lapses only after its expiry
    a, b, c = (f"session-{name}-{user_id}" for name in "abc")

    async def run():
        one, two = Hub(), Hub()
        one.loop = two.loop = asyncio.get_running_loop()
        try:
            first = await one.admit(user_id, a)
            second = await two.admit(user_id, a)
            assert first and second
            assert await two.admit(user_id, a) is None  # the session's two, across processes
            third = await one.admit(user_id, b)
            assert third and await two.admit(user_id, c) is None  # the account's three
            one.release(first)
            await asyncio.sleep(0.2)  # the release reaches Redis
            assert await two.admit(user_id, c)
        finally:
            for hub_ in (one, two):
                if hub_.slot_client is not None:
                    await hub_.slot_client.delete(
                        f"dossier:live:slots:user:{user_id}",
                        *(f"dossier:live:slots:session:{_hashed(key)}" for key in (a, b, c)),
                    )
                    await hub_.slot_client.aclose()

    asyncio.run(run())


def _hashed(session_key: str) -> str:
    """A session's name in the slot sets (campaigns/live_hub.Hub.admit)."""
    import hashlib

    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


@pytest.mark.services
def test_a_burst_of_streams_opening_at_once_waits_for_a_redis_connection(settings):
    """Many more admissions at once than the process has Redis connections (a server restarted
    under 2,000 open pages): each waits for a connection and gets its slot, none fails (redis-py's
    default pool refused the 101st with MaxConnectionsError: a 500 for that stream)."""
    import os

    from campaigns.table.live_hub import SLOT_CONNECTIONS, Hub

    url = os.environ.get("LIVE_REDIS_URL") or os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.fail("the services layer needs LIVE_REDIS_URL or CELERY_BROKER_URL=redis://... (see .ci/run)")
    settings.LIVE_REDIS_URL = url
    settings.LIVE_STREAMS_PER_SESSION, settings.LIVE_STREAMS_PER_USER = 1, 1
    first = 800_000 + random.randrange(100_000)
    count = 10 * SLOT_CONNECTIONS + 50  # past redis-py's default pool of 100 too
    users = range(first, first + count)

    async def run():
        hub_ = Hub()
        hub_.loop = asyncio.get_running_loop()
        try:
            slots = await asyncio.gather(*(hub_.admit(user_id, f"burst-{user_id}") for user_id in users))
            assert all(slots) and len(set(slots)) == count
        finally:
            keys = [f"dossier:live:slots:user:{user_id}" for user_id in users]
            keys += [f"dossier:live:slots:session:{_hashed(f'burst-{user_id}')}" for user_id in users]
            await hub_.slot_client.delete(*keys)
            await hub_.slot_client.aclose()

    asyncio.run(run())
