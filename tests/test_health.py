"""/healthz and /readyz: no login, one word, 503 when a dependency the node needs is unreachable."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def closed_port() -> int:
    """A port nothing listens on: bound, read, released."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_healthz_answers_without_login(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"


def test_readyz_answers_ready_when_everything_is_reachable(db, client):
    response = client.get("/readyz")
    assert response.status_code == 200 and response.content == b"ready\n"


def test_readyz_is_not_ready_when_the_broker_is_unreachable_and_says_no_more(db, client, settings):
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    response = client.get("/readyz")
    assert response.status_code == 503 and response.content == b"not ready\n"


def test_readyz_is_not_ready_when_the_object_store_is_unreachable(db, client, settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": "dossier",
                "endpoint_url": f"http://127.0.0.1:{closed_port()}",
                "access_key": "probe",
                "secret_key": "probe",
                "region_name": "us-east-1",
                "client_config": __import__("botocore.config").config.Config(
                    connect_timeout=1, retries={"max_attempts": 0}
                ),
            },
        },
    }
    assert client.get("/readyz").status_code == 503


def readyz_in_fresh_processes(tmp_path, environments: dict[str, dict]) -> dict[str, int]:
    """/readyz answered by processes started from the environment alone, as nodes start (at once)."""
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "print(Client().get('/readyz').status_code)\n"
    )
    running = {}
    for name, env in environments.items():
        full_env = {
            **os.environ,
            "DEBUG": "1",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DOSSIER_VAR_DIR": str(tmp_path / name),
            "ALLOWED_HOSTS": "testserver",
            **env,
        }
        running[name] = subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=full_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    answers = {}
    for name, process in running.items():
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err[-2000:]
        answers[name] = int(out.strip().splitlines()[-1])
    return answers


@pytest.mark.services
def test_readyz_answers_503_when_postgresql_or_redis_is_stopped_and_200_otherwise(db, tmp_path):
    from tests.sheets.test_worker_kill import database_url

    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        pytest.fail("the services layer needs CELERY_BROKER_URL=redis://... (see .ci/run)")
    database = database_url()  # the test database: migrated
    port = closed_port()
    stopped_database = database.replace(database.split("@")[1].split("/")[0], f"127.0.0.1:{port}")
    answers = readyz_in_fresh_processes(
        tmp_path,
        {
            "everything_up": {"DATABASE_URL": database, "CELERY_BROKER_URL": broker},
            "postgresql_stopped": {"DATABASE_URL": stopped_database, "CELERY_BROKER_URL": broker},
            "redis_stopped": {"DATABASE_URL": database, "CELERY_BROKER_URL": f"redis://127.0.0.1:{port}/0"},
        },
    )
    assert answers == {"everything_up": 200, "postgresql_stopped": 503, "redis_stopped": 503}
