"""A real Celery worker process, on the embedded broker and on Redis, runs a task round trip."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery

ROOT = Path(__file__).resolve().parents[1]


def start_worker(env_overrides: dict[str, str], tmp_path: Path) -> subprocess.Popen:
    env = {**os.environ, "DEBUG": "1", "DOSSIER_VAR_DIR": str(tmp_path), **env_overrides}
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def round_trip(broker: str, backend: str, tmp_path: Path, monkeypatch) -> str:
    # Celery's client reads CELERY_BROKER_URL from the environment over the broker it is given:
    # in the services layer that is Redis, while this worker listens on the embedded broker.
    monkeypatch.setenv("CELERY_BROKER_URL", broker)
    worker = start_worker({"CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": backend}, tmp_path)
    try:
        client = Celery("probe", broker=broker, backend=backend)
        started = time.monotonic()
        result = client.send_task("dossier.ping", args=[f"hello {started}"])
        return result.get(timeout=90)
    except Exception:
        print((tmp_path / "worker.log").read_text()[-4000:])
        raise
    finally:
        stop(worker)


def test_a_real_worker_answers_on_the_embedded_broker(tmp_path, monkeypatch):
    broker = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    backend = f"db+sqlite:///{tmp_path / 'results.sqlite3'}"
    assert round_trip(broker, backend, tmp_path, monkeypatch).startswith("hello ")


@pytest.mark.services
def test_a_real_worker_answers_on_redis(tmp_path, monkeypatch):
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        pytest.fail("the services layer needs CELERY_BROKER_URL=redis://... (see .ci/run)")
    assert round_trip(broker, broker, tmp_path, monkeypatch).startswith("hello ")
