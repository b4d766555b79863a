"""Two web nodes share the live feed through Redis (issue 32): a roll made through node A reaches a
client connected to node B, at once. Two real uvicorn processes on loopback ports, on PostgreSQL
and Redis (the services layer); each node's database poll is set to ten minutes, so only Redis
pub/sub can bring the message within the test's wait."""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
import urllib.request
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from knox.models import AuthToken

from tests.live.helpers import parse
from tests.sheets.test_multinode import Cluster, free_port, wait_for
from tests.sheets.test_worker_kill import database_url

BIN = Path(sys.executable).parent
pytestmark = [pytest.mark.services, pytest.mark.xdist_group("live_two_nodes")]


def _redis_url() -> str:
    url = os.environ.get("LIVE_REDIS_URL") or os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.fail("the services layer needs LIVE_REDIS_URL or CELERY_BROKER_URL=redis://... (see .ci/run)")
    return url


@pytest.fixture
def nodes(transactional_db, tmp_path):
    if connection.vendor != "postgresql":
        pytest.fail("the services layer runs on PostgreSQL (DATABASE_URL=postgres://...)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    env.update(
        {
            "DEBUG": "0",
            # the session the test makes is checked with this key on the nodes
            "SECRET_KEY": settings.SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": database_url(),
            "LIVE_REDIS_URL": _redis_url(),
            "LIVE_REDIS_POLL_SECONDS": "600",
            "LIVE_POLL_SECONDS": "600",
        }
    )
    cluster = Cluster(tmp_path, env)
    try:
        for name in ("web_a", "web_b"):
            port = free_port(cluster.ports)
            cluster.start(
                name,
                [str(BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1", "--port", str(port)],
            )
            setattr(cluster, name, f"http://127.0.0.1:{port}")
        wait_for(
            lambda: cluster.answers("web_a", cluster.web_a) and cluster.answers("web_b", cluster.web_b),
            45,
            "both web nodes",
        )
        yield cluster
    except BaseException:
        cluster.dump_logs()
        raise
    finally:
        cluster.stop_all()


def _listen(base: str, campaign_id: int, session: str, out: queue.Queue, stop: threading.Event) -> None:
    """Read node B's stream into ``out`` (one SSE text chunk at a time) until told to stop (the
    node's end, at the test's end, closes the stream: not a failure then)."""
    try:
        with (
            httpx.Client(
                base_url=base, cookies={settings.SESSION_COOKIE_NAME: session}, timeout=30
            ) as client,
            client.stream("GET", f"/campaigns/{campaign_id}/live/") as response,
        ):
            out.put(("status", response.status_code))
            for chunk in response.iter_text():
                out.put(("text", chunk))
                if stop.is_set():
                    return
    except httpx.HTTPError as error:
        if not stop.is_set():
            out.put(("error", str(error)))


def test_a_roll_made_through_node_a_reaches_a_client_of_node_b(nodes, world):
    browser = Client()
    browser.force_login(world.users["player"])
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    _, token = AuthToken.objects.create(world.users["gm"])
    chunks: queue.Queue = queue.Queue()
    stop = threading.Event()
    listener = threading.Thread(
        target=_listen, args=(nodes.web_b, world.campaign.pk, session, chunks, stop), daemon=True
    )
    listener.start()
    try:
        assert chunks.get(timeout=30) == ("status", 200)
        assert chunks.get(timeout=30)[1].startswith("retry: ")  # connected and subscribed
        request = urllib.request.Request(
            f"{nodes.web_a}/api/v1/campaigns/{world.campaign.pk}/rolls/",
            data=json.dumps({"kind": "d10", "count": 2, "purpose": "Through node A"}).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 201
            roll = json.loads(response.read())
        text = ""
        while "\n\n" not in text.split("retry", 1)[-1] or "event: roll" not in text:
            text += chunks.get(timeout=20)[1]  # well within the nodes' 600 s safety poll
        [message] = [m for m in parse(text) if m["event"] == "roll"]
        assert f'id="roll-{roll["id"]}"' in message["data"] and "Through node A" in message["data"]
    finally:
        stop.set()
