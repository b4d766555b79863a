"""Under ASGI a file streams from an async iterator (issue 44, finding 11): Django's ASGI handler
reads a synchronous one whole into memory first and warns on every static file of every page view
(WhiteNoise's FileResponse) under `make run`. Through the real handler, as uvicorn calls it."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

from django.core.asgi import get_asgi_application

ROOT = Path(__file__).resolve().parents[1]


def _get(path: str) -> tuple[int, bytes, list[str]]:
    application = get_asgi_application()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"localhost")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    answer = {"status": 0, "body": b""}
    asked = []

    async def receive():
        if not asked:  # the request, then nothing until the handler stops listening
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(application(scope, receive, send))
    return answer["status"], answer["body"], [str(w.message) for w in caught]


def test_a_static_file_streams_whole_under_asgi_without_the_sync_iterator_warning():
    status, body, caught = _get("/static/js/app.js")
    assert status == 200
    assert body == (ROOT / "static/js/app.js").read_bytes()
    assert not [w for w in caught if "synchronous iterators" in w], caught
