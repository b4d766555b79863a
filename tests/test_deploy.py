"""deploy/ starts nodes with the same commands the multi-node test runs (tests/sheets/test_multinode.py)."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

from tests.sheets.test_multinode import WEB_ARGS, WEBHOOK_WORKER_ARGS, WORKER_ARGS

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def exec_start(unit: str) -> list[str]:
    parser = configparser.RawConfigParser(strict=False)
    parser.optionxform = str
    parser.read(DEPLOY / unit)
    return shlex.split(parser["Service"]["ExecStart"])


def test_the_web_unit_runs_the_tested_gunicorn_command():
    command = exec_start("dossier-web.service")
    assert command[0] == "/srv/dossier/.venv/bin/gunicorn"
    assert command[1 : 1 + len(WEB_ARGS)] == WEB_ARGS
    assert command[1 + len(WEB_ARGS) :] == ["--bind", "${DOSSIER_BIND}"]


def test_the_worker_unit_runs_the_tested_celery_command():
    command = exec_start("dossier-worker.service")
    assert command[0] == "/srv/dossier/.venv/bin/celery"
    assert command[1 : 1 + len(WORKER_ARGS)] == WORKER_ARGS
    assert command[1 + len(WORKER_ARGS) :] == ["-n", "worker@%%h"]  # systemd's escape for Celery's %h


def test_the_webhook_unit_runs_the_tested_celery_command_on_the_webhook_queue_only():
    command = exec_start("dossier-webhooks.service")
    assert command[0] == "/srv/dossier/.venv/bin/celery"
    assert command[1 : 1 + len(WEBHOOK_WORKER_ARGS)] == WEBHOOK_WORKER_ARGS
    assert command[1 + len(WEBHOOK_WORKER_ARGS) :] == ["-n", "webhooks@%%h"]


def test_every_unit_reads_the_one_environment_file_and_the_example_names_every_variable_it_uses():
    example = (DEPLOY / "dossier.env.example").read_text()
    defined = {line.split("=", 1)[0] for line in example.splitlines() if line and not line.startswith("#")}
    for unit in (
        "dossier-web.service",
        "dossier-worker.service",
        "dossier-webhooks.service",
        "dossier-beat.service",
        "dossier-migrate.service",
    ):
        text = (DEPLOY / unit).read_text()
        assert "EnvironmentFile=/etc/dossier/dossier.env" in text
        for name in ("DOSSIER_BIND", "WORKER_CONCURRENCY", "WEBHOOK_CONCURRENCY"):
            if "${" + name + "}" in text:
                assert name in defined, (unit, name)
