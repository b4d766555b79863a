"""One web process's fan-out of live events (campaigns/table/live.py says what the events are).

The hub keeps, per campaign, every connected subscriber of this process. A new subscriber first
catches up from its own cursor by itself; from then on, when the campaign has news, the hub reads
it once for all of the campaign's subscribers (``live.render_for``: one membership query, one
events query, the rolls and lines once per audience) and hands each its own batch, so a table
woken by a roll costs about what one reader did. What wakes the hub, started by the first
subscriber in the server's event loop:

- ``poke`` from this process (the request that made the roll), at once;
- with LIVE_REDIS_URL set, a Redis pub/sub message from any process of any node (one
  subscription per process, however many clients it holds);
- and a poll of the newest event id, one cheap query per LIVE_POLL_SECONDS for the whole process:
  the only way without Redis to learn of events that a Celery worker or another server process
  wrote, and with Redis a safety net for a message pub/sub lost (it delivers at most once).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import logging
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from campaigns.table import live, live_guard
from campaigns.table.live import CHANNEL

log = logging.getLogger(__name__)

#: The open streams' slots in Redis (LIVE_REDIS_URL): a sorted set per account and per session, each
#: member a stream's slot, its score the time it lapses unless renewed (every heartbeat).
SLOTS = "dossier:live:slots:"
# Count what has not lapsed, and take a slot only if neither the account nor the session is full.
ADMIT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[6])
return 0
"""


#: Connections to Redis for the slots, per process; more admissions at once wait for one.
SLOT_CONNECTIONS = 20


@dataclass(eq=False)
class Subscriber:
    """One open stream of a campaign in this process."""

    user: Any
    request: Any
    seq: int  # the feed position it has been sent up to
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: Caught up from its own cursor: from now on the campaign's fan-out reads for it.
    ready: bool = False
    outbox: list[str] = field(default_factory=list)  # read for it by the fan-out, not yet sent
    ended: bool = False  # no longer a member (or its reading failed): the stream ends
    #: The session it was opened with (its key), checked again each heartbeat (campaigns/table/live_guard.py).
    session_key: str = ""
    signed_out: bool = False  # its session no longer signs its user in: it ends, sending nothing more
    #: Its reader fell behind by more than LIVE_OUTBOX_CHARS: it is closed; the browser reconnects.
    behind: bool = False
    on_behind: Any = None  # called (in the event loop) when it falls behind: closes the connection


class Hub:
    def __init__(self) -> None:
        self.waiters: dict[int, set[Subscriber]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: list[asyncio.Task] = []
        self.fan_outs: dict[int, asyncio.Task] = {}  # campaign -> its reading, while one runs
        self.again: set[int] = set()  # campaigns woken while their reading ran
        #: Per campaign with subscribers here, the newest event a wake named (this process's own
        #: commit, or a pub/sub message): the safety poll leaves those campaigns be.
        self.announced: dict[int, int] = {}
        self.seen = 0
        self.ready = asyncio.Event()
        #: The open streams' slots of this process: slot -> (account, session), and the counts.
        self.slots: dict[str, tuple[int, str]] = {}
        self.per_user: Counter = Counter()
        self.per_session: Counter = Counter()
        self.slot_client: Any = None  # Redis, where LIVE_REDIS_URL says: the counts of every process

    # --- how many streams (issue 47, finding 2) -----------------------------------------------------
    async def admit(self, user_id: int, session_key: str) -> str | None:
        """A slot for one more stream of this account and session, or None when either already
        holds its cap (LIVE_STREAMS_PER_USER, LIVE_STREAMS_PER_SESSION): the caller answers 429.
        Counted in Redis across every web process where LIVE_REDIS_URL is set, else in this one."""
        session = hashlib.sha256(session_key.encode()).hexdigest()[:32]
        if settings.LIVE_REDIS_URL:
            return await self._admit_redis(user_id, session)
        if (
            self.per_user[user_id] >= settings.LIVE_STREAMS_PER_USER
            or self.per_session[session] >= settings.LIVE_STREAMS_PER_SESSION
        ):
            return None
        return self._take(user_id, session)

    def _take(self, user_id: int, session: str, slot: str = "") -> str:
        slot = slot or uuid.uuid4().hex
        self.slots[slot] = (user_id, session)
        self.per_user[user_id] += 1
        self.per_session[session] += 1
        return slot

    def release(self, slot: str | None) -> None:
        """A stream ended: its slot is free again (in Redis too, without waiting for it)."""
        held = self.slots.pop(slot, None) if slot else None
        if held is None:
            return
        user_id, session = held
        for counts, key in ((self.per_user, user_id), (self.per_session, session)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]
        if self.slot_client is not None and self.loop is not None and not self.loop.is_closed():
            client = self.slot_client
            self.loop.create_task(_forget_slot(client, user_id, session, slot))

    def _slot_client(self):
        if self.slot_client is None:
            import redis.asyncio as aioredis

            # A burst of streams opening at once (a server restarted under 2,000 open pages) waits
            # for one of a few connections: redis-py's default pool refused the 101st at once
            # (MaxConnectionsError, a 500 for that stream; bench/live.py saw 136 of 2,000).
            pool = aioredis.BlockingConnectionPool.from_url(
                settings.LIVE_REDIS_URL, max_connections=SLOT_CONNECTIONS, timeout=10
            )
            self.slot_client = aioredis.Redis.from_pool(pool)
        return self.slot_client

    def _lapse(self) -> int:
        return int(max(3 * settings.LIVE_HEARTBEAT_SECONDS, 30))

    async def _admit_redis(self, user_id: int, session: str) -> str | None:
        slot = uuid.uuid4().hex
        now = time.time()
        lapse = self._lapse()
        refused = await self._slot_client().eval(
            ADMIT,
            2,
            f"{SLOTS}user:{user_id}",
            f"{SLOTS}session:{session}",
            now,
            now + lapse,
            slot,
            settings.LIVE_STREAMS_PER_USER,
            settings.LIVE_STREAMS_PER_SESSION,
            lapse,
        )
        if refused:
            return None
        return self._take(user_id, session, slot)

    async def _renew_slots(self) -> None:
        """Each heartbeat, this process's slots in Redis live on (a process that died leaves
        slots that lapse by themselves)."""
        if self.slot_client is None or not self.slots:
            return
        expires = time.time() + self._lapse()
        async with self.slot_client.pipeline(transaction=False) as pipe:
            for slot, (user_id, session) in list(self.slots.items()):
                pipe.zadd(f"{SLOTS}user:{user_id}", {slot: expires})
                pipe.zadd(f"{SLOTS}session:{session}", {slot: expires})
            await pipe.execute()

    # --- subscribers (in the event loop) ------------------------------------------------------------
    async def subscribe(
        self, campaign_id: int, user=None, request=None, seq: int = 0, session_key: str = "", on_behind=None
    ) -> Subscriber:
        await self._start()
        subscriber = Subscriber(user, request, seq, session_key=session_key, on_behind=on_behind)
        self.waiters.setdefault(campaign_id, set()).add(subscriber)
        return subscriber

    def unsubscribe(self, campaign_id: int, subscriber: Subscriber) -> None:
        subscribers = self.waiters.get(campaign_id)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self.waiters[campaign_id]
                self.announced.pop(campaign_id, None)

    def connections(self) -> int:
        return sum(len(subscribers) for subscribers in self.waiters.values())

    def wake(self, campaign_id: int, seq: int = 0) -> None:
        """News in the campaign (up to event ``seq``, when the waker knows it): a stream still
        catching up reads it itself; for the others the campaign's fan-out reads once (one at a time
        per campaign; a wake meanwhile runs it again)."""
        if seq and campaign_id in self.waiters and seq > self.announced.get(campaign_id, 0):
            self.announced[campaign_id] = seq
        fan_out = False
        for subscriber in self.waiters.get(campaign_id, ()):
            if subscriber.ready:
                fan_out = True
            else:
                subscriber.wake.set()
        if not fan_out:
            return
        if campaign_id in self.fan_outs:
            self.again.add(campaign_id)
        elif self.loop is not None:
            self.fan_outs[campaign_id] = self.loop.create_task(self._fan_out(campaign_id))

    def found(self, rows: list[tuple[int, int]]) -> None:
        """The poll's news, (event id, campaign) in order: the campaigns it wakes are those with an
        event no wake named (with Redis: a message pub/sub lost). Waking every campaign of the last
        five seconds again, at 40 rolls a second, was a burst of hundreds of readings each time."""
        for seq, campaign_id in rows:
            self.seen = max(self.seen, seq)
            if seq > self.announced.get(campaign_id, 0):
                self.wake(campaign_id, seq)

    def wake_all(self) -> None:
        for campaign_id in list(self.waiters):
            self.wake(campaign_id)

    def drop(self, subscriber: Subscriber) -> None:
        """A reader who stopped reading: what waits for them is let go (the memory a stalled
        connection may hold is bounded) and their stream is closed; their browser reconnects with
        the last event id it received and catches up from there, as any new stream does."""
        subscriber.outbox.clear()
        subscriber.behind = subscriber.ended = True
        subscriber.wake.set()
        if subscriber.on_behind is not None:
            subscriber.on_behind()

    def end_signed_out(self, kept: set[str], checked: set[str]) -> None:
        """The streams whose session was checked and no longer signs its user in end at once,
        with nothing more sent."""
        for subscribers in self.waiters.values():
            for subscriber in subscribers:
                if subscriber.session_key in checked and subscriber.session_key not in kept:
                    subscriber.outbox.clear()
                    subscriber.signed_out = subscriber.ended = True
                    subscriber.wake.set()

    async def _fan_out(self, campaign_id: int) -> None:
        try:
            while True:
                self.again.discard(campaign_id)
                readers = [s for s in self.waiters.get(campaign_id, ()) if s.ready and not s.ended]
                if not readers:
                    return
                try:
                    batches = await sync_to_async(_read, thread_sensitive=False)(
                        campaign_id, [live.Reader(s.user, s.seq, s.request) for s in readers]
                    )
                except Exception:
                    # Its streams end; their browsers reconnect with the last id they were sent.
                    log.exception("live: reading the news of campaign %s failed", campaign_id)
                    batches = [live.Batch("", s.seq, False) for s in readers]
                for subscriber, batch in zip(readers, batches, strict=True):
                    if not batch.member:
                        subscriber.ended = True
                        subscriber.wake.set()
                        continue
                    subscriber.seq = batch.seq
                    if batch.text:
                        subscriber.outbox.append(batch.text)
                        subscriber.wake.set()
                        if live_guard.outbox_size(subscriber.outbox) > settings.LIVE_OUTBOX_CHARS:
                            self.drop(subscriber)
                if not any(batch.more for batch in batches) and campaign_id not in self.again:
                    return
        finally:
            self.fan_outs.pop(campaign_id, None)

    # --- from any thread ----------------------------------------------------------------------------
    def poke(self, campaign_id: int, seq: int = 0) -> None:
        """Wake the campaign's subscribers of this process (safe from a request's thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self.wake(campaign_id, seq)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self.wake, campaign_id, seq)

    async def stop(self) -> None:
        """Cancel the listeners (a test's event loop ending; the server's ending does it itself)."""
        tasks = [*self.tasks, *self.fan_outs.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks, self.loop = [], None
        self.fan_outs.clear()
        self.again.clear()
        if self.slot_client is not None:
            with contextlib.suppress(Exception):
                await self.slot_client.aclose()
            self.slot_client = None

    # --- listeners ----------------------------------------------------------------------------------
    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if not (self.loop is loop and self.tasks and not all(t.done() for t in self.tasks)):
            # No await before the tasks exist: two first subscribers at once start them once.
            self.loop, self.ready = loop, asyncio.Event()

            # In a context of their own: not the first subscriber's (its request's time zone and
            # page flag, kernel/zones.py), which every later fan-out would otherwise inherit.
            def task(coro):
                return loop.create_task(coro, context=contextvars.Context())

            self.tasks = [task(self._poll()), task(self._guard())]
            if settings.LIVE_REDIS_URL:
                self.tasks.append(task(self._listen_redis(settings.LIVE_REDIS_URL)))
        # The poll's starting point is read before any subscriber reads its first batch: an event
        # is then either in that batch or after the starting point.
        await self.ready.wait()

    async def _poll(self) -> None:
        from campaigns.models import LiveEvent

        def newer(after: int) -> list[tuple[int, int]]:
            live.keep_connection()
            return list(
                LiveEvent.objects.filter(id__gt=after).order_by("id").values_list("id", "campaign_id")[:1000]
            )

        # Where the poll starts: a subscriber reads what came before from its own cursor.
        try:
            self.seen = await sync_to_async(live.newest_seq, thread_sensitive=False)()
        finally:
            self.ready.set()
        interval = settings.LIVE_REDIS_POLL_SECONDS if settings.LIVE_REDIS_URL else settings.LIVE_POLL_SECONDS
        while True:
            await asyncio.sleep(interval)
            if not self.waiters:
                continue
            try:
                rows = await sync_to_async(newer, thread_sensitive=False)(self.seen)
            except Exception:
                log.exception("live: polling for new events failed")
                continue
            self.found(rows)

    async def _guard(self) -> None:
        """Once a heartbeat, every open stream's session is checked again (live_guard.signed_in:
        one reading per session, in a thread); a stream whose session no longer signs its user in
        (logged out, expired, deleted, a password changed, an account deactivated) ends."""
        while True:
            await asyncio.sleep(settings.LIVE_HEARTBEAT_SECONDS)
            try:
                await self._renew_slots()
            except Exception as error:
                log.warning("live: renewing the streams' slots in Redis failed (%s)", error)
            sessions = {
                s.session_key: s.user.pk
                for subscribers in self.waiters.values()
                for s in subscribers
                if s.session_key and not s.ended and getattr(s.user, "pk", None) is not None
            }
            if not sessions:
                continue
            try:
                kept = await sync_to_async(live_guard.signed_in, thread_sensitive=False)(sessions)
            except Exception:
                log.exception("live: checking the open streams' sessions failed")
                continue
            self.end_signed_out(kept, set(sessions))

    async def _listen_redis(self, url: str) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    self.wake_all()  # whatever happened while (re)connecting
                    async for item in pubsub.listen():
                        if item.get("type") != "message":
                            continue
                        campaign, _, seq = item["data"].decode().partition(":")
                        if campaign.isdigit():
                            self.wake(int(campaign), int(seq) if seq.isdigit() else 0)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("live: Redis subscription lost (%s); retrying", error)
                await asyncio.sleep(1)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()


async def _forget_slot(client, user_id: int, session: str, slot: str) -> None:
    try:
        async with client.pipeline(transaction=False) as pipe:
            pipe.zrem(f"{SLOTS}user:{user_id}", slot)
            pipe.zrem(f"{SLOTS}session:{session}", slot)
            await pipe.execute()
    except Exception as error:  # it lapses by itself
        log.warning("live: freeing a stream's slot in Redis failed (%s)", error)


def _read(campaign_id: int, readers: list) -> list:
    live.keep_connection()
    return live.render_for(campaign_id, readers)


hub = Hub()
live.local_listeners.append(hub.poke)
