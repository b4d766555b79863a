"""Reading the live feed (campaigns/table/live_views.py) in tests: its SSE text as a list of messages."""

from __future__ import annotations

import asyncio


def parse(text: str) -> list[dict[str, str]]:
    """The messages of an SSE text (comments and the retry hint left out), each {id, event, data}."""
    messages = []
    for block in text.split("\n\n"):
        fields: dict[str, list[str]] = {}
        for line in block.splitlines():
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            fields.setdefault(name, []).append(value)
        if "event" in fields:
            messages.append(
                {
                    "id": fields.get("id", [""])[0],
                    "event": fields["event"][0],
                    "data": "\n".join(fields["data"]),
                }
            )
    return messages


def feed(client, campaign_id, *, after="0", last_event_id=None):
    """What the feed sends this client now (the test client is served as under WSGI: the answer
    ends once it has sent what is new; tests set LIVE_SYNC_WAIT_SECONDS to 0)."""
    headers = {"Last-Event-ID": last_event_id} if last_event_id is not None else {}
    url = f"/campaigns/{campaign_id}/live/" + (f"?after={after}" if after is not None else "")
    response = client.get(url, headers=headers)
    if response.status_code != 200:
        return response.status_code, []
    assert response["Content-Type"].startswith("text/event-stream")
    return 200, parse(b"".join(response.streaming_content).decode())


def asgi_receive(leave):
    """An ASGI client's ``receive``: the (empty) request body, then its leaving once ``leave``
    (an asyncio.Event) is set."""
    asked = []

    async def receive():
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await leave.wait()
        return {"type": "http.disconnect"}

    return receive


async def asgi_get(application, path: str, headers=(), *, keep: bool = True) -> tuple[int, bytes, int]:
    """(status, body, size) of a GET of ``path`` through an ASGI ``application``, called as a server
    calls it (the real handler, not the test client's). ``keep=False`` counts the body's bytes
    without holding them (body ``b""``): for a memory bench."""
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
        "headers": [(b"host", b"localhost"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    answer = {"status": 0, "size": 0}
    parts: list[bytes] = []

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            body = message.get("body", b"")
            answer["size"] += len(body)
            if keep:
                parts.append(body)

    # the request, then nothing until the handler stops listening (an event nobody sets)
    await application(scope, asgi_receive(asyncio.Event()), send)
    return answer["status"], b"".join(parts), answer["size"]
