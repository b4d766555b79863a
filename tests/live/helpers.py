"""Reading the live feed (campaigns/live_views.py) in tests: its SSE text as a list of messages."""

from __future__ import annotations


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
