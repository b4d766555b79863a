"""Webhook deliveries never starve renders (issue 47, finding 4, second half): deliveries go to a
queue of their own, taken by a worker of their own, so while slow receivers hold every delivery a
sheet render is still served. Real Celery workers started with the commands deploy/ runs (the
render worker and the webhook worker of tests/sheets/test_multinode.py), on Redis and PostgreSQL
(the services layer), and tarpit receivers on the loopback that trickle their answers until each
delivery's deadline cuts it off."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection

from campaigns.access import get_campaign_for_user
from campaigns.models import Webhook, WebhookKind
from campaigns.table import webhooks
from sheets import services
from sheets.models import SheetRender
from tests.campaigns.test_webhook_deadline import ANSWER, _read_request
from tests.sheets.test_multinode import ROOT, WEBHOOK_WORKER_ARGS, WORKER_ARGS
from tests.sheets.test_worker_kill import database_url

pytestmark = pytest.mark.services

BIN = Path(sys.executable).parent
#: Each delivery is cut off at this deadline; the tarpit's whole answer would take ~12 s.
DEADLINE = 8
#: Deliveries queued ahead of the render: on one shared queue with one render process they would
#: hold it for DELIVERIES x DEADLINE seconds.
DELIVERIES = 3


class Tarpits:
    """Accepts every connection and answers each one a byte every 0.2 s; counts the open ones."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.lock = threading.Lock()
        self.opened = 0
        self.open = 0
        self.stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(client,), daemon=True).start()

    def _trickle(self, client: socket.socket) -> None:
        with self.lock:
            self.opened += 1
            self.open += 1
        try:
            with client:
                client.settimeout(30)
                _read_request(client)
                for byte in ANSWER:
                    if self.stop.is_set():
                        return
                    client.sendall(bytes([byte]))
                    time.sleep(0.2)
        except OSError:
            pass  # the sender cut the connection at its deadline
        finally:
            with self.lock:
                self.open -= 1

    def close(self) -> None:
        self.stop.set()
        self.server.close()


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    command = [
        arg.replace("${WORKER_CONCURRENCY}", "1").replace("${WEBHOOK_CONCURRENCY}", str(DELIVERIES))
        for arg in args
    ]
    with open(log, "w") as handle:
        return subprocess.Popen(
            [str(BIN / "celery"), *command],
            cwd=ROOT,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _wait(predicate, timeout: float, what: str, logs: list[Path]):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    for log in logs:
        print(f"----- {log.name} -----\n{log.read_text()[-3000:] if log.exists() else ''}")
    raise AssertionError(f"timed out waiting for {what}")


def _status(render_id: int) -> str:
    return SheetRender.objects.filter(pk=render_id).values_list("status", flat=True).first()


def test_a_render_is_served_while_slow_receivers_hold_every_webhook_delivery(
    transactional_db, world, make_character, tmp_path, settings
):
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://") or connection.vendor != "postgresql":
        pytest.fail("the services layer needs CELERY_BROKER_URL=redis://... and PostgreSQL (see .ci/run)")
    character = make_character(world.campaign, world.users["player"], name="Agent Sheet")
    tarpits = Tarpits()
    allowed = f"127.0.0.1:{tarpits.port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    env.update(
        {
            "DEBUG": "1",
            "CELERY_BROKER_URL": broker,
            "DATABASE_URL": database_url(),
            "MEDIA_ROOT": str(settings.MEDIA_ROOT),
            "DOSSIER_VAR_DIR": str(tmp_path),
            "WEBHOOK_ALLOWED_HOSTS": allowed,
            "WEBHOOK_TIMEOUT_SECONDS": "5",
            "WEBHOOK_DEADLINE_SECONDS": str(DEADLINE),
            "WEBHOOK_MAX_ATTEMPTS": "1",
            "SHEET_RENDER_DEADLINE_SECONDS": "3600",
        }
    )
    logs = [tmp_path / "worker.log", tmp_path / "webhooks.log"]
    hook = Webhook.objects.create(
        campaign=world.campaign, url=f"http://{allowed}/hook", kind=WebhookKind.JSON
    )
    # the deliveries first, the render after them: on one shared queue they would go first
    for index in range(DELIVERIES):
        webhooks.queue(world.campaign.pk, {"event": "test", "index": index})
    _, membership = get_campaign_for_user(world.users["player"], world.campaign.pk)
    render, created = services.request_render(
        world.users["player"], "character", world.campaign, membership, character=character
    )
    assert created
    workers = [_start(WORKER_ARGS, env, logs[0]), _start(WEBHOOK_WORKER_ARGS, env, logs[1])]
    try:
        _wait(lambda: tarpits.open == DELIVERIES, 90, "every delivery to reach its receiver", logs)
        _wait(lambda: _status(render.pk) in ("done", "failed"), 90, "the render", logs)
        held = tarpits.open
        assert _status(render.pk) == "done"
        assert held == DELIVERIES, (
            f"the render finished after the deliveries let go ({held} of {DELIVERIES} still held): "
            "it waited behind them"
        )
        # and each delivery ends at its deadline, not when the receiver is done
        _wait(lambda: tarpits.open == 0, 3 * DEADLINE, "the deliveries' deadlines", logs)
        _wait(
            lambda: Webhook.objects.get(pk=hook.pk).failures == DELIVERIES,
            30,
            "the failures to be recorded",
            logs,
        )
        assert (
            Webhook.objects.get(pk=hook.pk).last_error == f"the receiver took longer than {DEADLINE} s in all"
        )
        assert tarpits.opened == DELIVERIES
    finally:
        tarpits.close()
        for worker in workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(timeout=10)
