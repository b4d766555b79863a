"""A real worker process on Redis is SIGKILLed in the middle of a render; another finishes it.

Needs Redis (CELERY_BROKER_URL) and a database a second process can open (PostgreSQL in CI, or an
SQLite file): the worker gets DATABASE_URL pointing at the test database.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from django.db import connection

from campaigns.access import get_campaign_for_user
from sheets import services
from sheets.models import SheetRender
from tests.sheets.conftest import pdf_text
from tests.test_worker import start_worker, stop

BUNDLE_SIZE = 40  # a render of several seconds, so there is a "middle" to kill it in


def database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("postgresql"):
        auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
        return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    name = str(db["NAME"])
    if db["ENGINE"].endswith("sqlite3") and "memory" not in name and name != ":memory:":
        return f"sqlite:///{name}"
    pytest.skip("the worker needs a database it can open too (PostgreSQL or an SQLite file)")


def wait_for(predicate, timeout: float, what: str, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    print(log.read_text()[-4000:] if log.exists() else "(no worker log)")
    print(broker_state())
    raise AssertionError(f"timed out waiting for {what}")


def broker_state() -> str:
    """What Redis holds of the queue at a time-out: a job still unacknowledged (nobody restored
    it), waiting in the queue (nobody took it), or gone (someone took it and dropped it)."""
    import redis

    try:
        client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"], socket_timeout=2)
        return (
            f"broker: queue {client.llen('celery')}, unacked {client.hlen('unacked')}, "
            f"unacked index {client.zrange('unacked_index', 0, -1, withscores=True)}, "
            f"restore mutex {client.get('unacked_mutex')!r} (ttl {client.ttl('unacked_mutex')}), "
            f"now {time.time():.1f}"
        )
    except Exception as error:  # a diagnosis only
        return f"broker: unreadable ({error})"


def status_of(render_id: int) -> str:
    return SheetRender.objects.filter(pk=render_id).values_list("status", flat=True).first()


@pytest.mark.services
def test_a_worker_killed_mid_render_loses_nothing(
    transactional_db, world, make_character, tmp_path, settings
):
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        pytest.fail("the services layer needs CELERY_BROKER_URL=redis://... (see .ci/run)")
    for index in range(BUNDLE_SIZE):
        make_character(world.campaign, world.users["player"], name=f"Agent {index:02d}")
    env = {
        "CELERY_BROKER_URL": broker,
        "DATABASE_URL": database_url(),
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        # Redis hands an unacknowledged job to another worker after this long.
        "CELERY_VISIBILITY_TIMEOUT": "5",
        "SHEET_RENDER_DEADLINE_SECONDS": "3600",  # the reconciler stays out of it: redelivery alone
    }
    first_dir, second_dir = tmp_path / "first", tmp_path / "second"
    first_dir.mkdir()
    second_dir.mkdir()
    first = start_worker(env, first_dir)
    second = None
    try:
        _, membership = get_campaign_for_user(world.users["player"], world.campaign.pk)
        render, created = services.request_render(
            world.users["player"], "party_bundle", world.campaign, membership
        )
        assert created
        wait_for(
            lambda: status_of(render.pk) == "running",
            90,
            "the first worker to start",
            first_dir / "worker.log",
        )
        time.sleep(0.5)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        assert status_of(render.pk) == "running"  # killed in the middle: nothing finished it

        second = start_worker(env, second_dir)
        wait_for(
            lambda: status_of(render.pk) == "done",
            150,
            "the second worker to finish",
            second_dir / "worker.log",
        )
        render.refresh_from_db()
        assert render.attempts == 2
        pages, text = pdf_text(Path(render.file.path).read_bytes())
        assert pages == BUNDLE_SIZE and "Agent 00" in text and f"Agent {BUNDLE_SIZE - 1:02d}" in text
        assert not list(Path(render.file.path).parent.glob(".render-*"))
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
        if second is not None:
            stop(second)
