"""Under ASGI a file streams from an async iterator (issue 44, finding 11): Django's ASGI handler
reads a synchronous one whole into memory first and warns on every static file of every page view
(WhiteNoise's FileResponse) under `make run`. Through the real handler, as uvicorn calls it."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

import pytest
from django.core.asgi import get_asgi_application

from tests.live.helpers import asgi_get

ROOT = Path(__file__).resolve().parents[1]


def _get(path: str, application=None) -> tuple[int, bytes, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status, body, _ = asyncio.run(asgi_get(application or get_asgi_application(), path))
    return status, body, [str(w.message) for w in caught]


@pytest.mark.parametrize("handler", ["django's", "config.asgi (the stack as one block)"])
def test_a_static_file_streams_whole_under_asgi_without_the_sync_iterator_warning(handler):
    from config.asgi import application

    status, body, caught = _get("/static/js/app.js", application if handler.startswith("config") else None)
    assert status == 200
    assert body == (ROOT / "static/js/app.js").read_bytes()
    assert not [w for w in caught if "synchronous iterators" in w], caught
