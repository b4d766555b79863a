"""A download streams under ASGI without holding the file in memory (issue 44, finding 11): Django's
ASGI handler reads a response's synchronous iterator whole into memory before sending it (and warns
"StreamingHttpResponse must consume synchronous iterators" on every download). The PDF downloads,
page and API, stream from an asynchronous iterator under ASGI, and as before under WSGI."""

from __future__ import annotations

from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client
from django.urls import reverse

from tests.sheets.test_api_roles import done_render


async def _fetch(user, url: str):
    client = AsyncClient()
    await client.aforce_login(user)
    response = await client.get(url)
    body = b"".join([chunk async for chunk in response.streaming_content])
    return response, body


@pytest.mark.parametrize("route", ["sheet-download", "api-sheet-download"])
def test_a_pdf_streams_from_an_async_iterator_under_asgi_and_a_sync_one_under_wsgi(world, party, route):
    player = world.users["player"]
    render = done_render(player, "character", world.campaign, party["player"])
    stored = Path(render.file.path).read_bytes()
    url = reverse(route, args=[render.pk])

    response, body = async_to_sync(_fetch)(player, url)
    assert response.status_code == 200
    assert response.is_async, "under ASGI the file was read through a synchronous iterator"
    assert body == stored
    assert response["Content-Length"] == str(len(stored))
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")

    client = Client()
    client.force_login(player)
    response = client.get(url)
    assert response.status_code == 200 and not response.is_async
    assert b"".join(response.streaming_content) == stored
