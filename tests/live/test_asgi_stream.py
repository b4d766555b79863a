"""The feed as an ASGI server serves it (campaigns/live_views.py): the stream stays open and a
roll made elsewhere (another thread: another request, or a worker's write found by the poll)
reaches it without a reconnection."""

from __future__ import annotations

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from campaigns import services
from campaigns.live_hub import hub
from campaigns.models import LiveEvent
from tests.live.helpers import parse

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
        return services.record_roll(world.membership["gm"], kind="d10", secret=True, rng=random.Random(1))

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
            return services.record_roll(world.membership["player"], kind="d6", rng=random.Random(2))

    made, text = _scenario(world, "gm", written_elsewhere)
    assert f'id="roll-{made.pk}"' in parse(text)[0]["data"]
