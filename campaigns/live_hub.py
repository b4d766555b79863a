"""One web process's fan-out of live events (campaigns/live.py says what the events are).

The hub keeps, per campaign, the asyncio.Event of every connected subscriber of this process and
sets them when the campaign has something new; each subscriber then reads its own events from the
database. What wakes the hub, started by the first subscriber in the server's event loop:

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
import logging

from asgiref.sync import sync_to_async
from django.conf import settings

log = logging.getLogger(__name__)

CHANNEL = "dossier:live"


class Hub:
    def __init__(self) -> None:
        self.waiters: dict[int, set[asyncio.Event]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: list[asyncio.Task] = []
        self.seen = 0
        self.ready = asyncio.Event()

    # --- subscribers (in the event loop) ------------------------------------------------------------
    async def subscribe(self, campaign_id: int) -> asyncio.Event:
        await self._start()
        event = asyncio.Event()
        self.waiters.setdefault(campaign_id, set()).add(event)
        return event

    def unsubscribe(self, campaign_id: int, event: asyncio.Event) -> None:
        events = self.waiters.get(campaign_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self.waiters[campaign_id]

    def connections(self) -> int:
        return sum(len(events) for events in self.waiters.values())

    def wake(self, campaign_id: int) -> None:
        for event in self.waiters.get(campaign_id, ()):
            event.set()

    def wake_all(self) -> None:
        for campaign_id in list(self.waiters):
            self.wake(campaign_id)

    # --- from any thread ----------------------------------------------------------------------------
    def poke(self, campaign_id: int) -> None:
        """Wake the campaign's subscribers of this process (safe from a request's thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self.wake(campaign_id)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self.wake, campaign_id)

    async def stop(self) -> None:
        """Cancel the listeners (a test's event loop ending; the server's ending does it itself)."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks, self.loop = [], None

    # --- listeners ----------------------------------------------------------------------------------
    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if not (self.loop is loop and self.tasks and not all(t.done() for t in self.tasks)):
            # No await before the tasks exist: two first subscribers at once start them once.
            self.loop, self.ready = loop, asyncio.Event()
            self.tasks = [loop.create_task(self._poll())]
            if settings.LIVE_REDIS_URL:
                self.tasks.append(loop.create_task(self._listen_redis(settings.LIVE_REDIS_URL)))
        # The poll's starting point is read before any subscriber reads its first batch: an event
        # is then either in that batch or after the starting point.
        await self.ready.wait()

    async def _poll(self) -> None:
        from campaigns import live
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
            for seq, campaign_id in rows:
                self.seen = max(self.seen, seq)
                self.wake(campaign_id)

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
                        campaign = item["data"].decode().partition(":")[0]
                        if campaign.isdigit():
                            self.wake(int(campaign))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("live: Redis subscription lost (%s); retrying", error)
                await asyncio.sleep(1)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()


hub = Hub()
