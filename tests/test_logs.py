"""One log line per request, with a request id taken from X-Request-ID or made; JSON lines on demand."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def request_records(caplog):
    return [r for r in caplog.records if r.name == "dossier.request"]


def test_a_request_keeps_the_id_it_came_with_and_answers_it_back(client, caplog):
    with caplog.at_level(logging.INFO, logger="dossier.request"):
        response = client.get("/healthz", HTTP_X_REQUEST_ID="lb-7f3a.42")
    assert response["X-Request-ID"] == "lb-7f3a.42"
    (record,) = request_records(caplog)
    assert record.request_id == "lb-7f3a.42"
    assert (record.method, record.path, record.status, record.view) == ("GET", "/healthz", 200, "healthz")


def test_a_request_id_that_could_forge_a_log_line_is_replaced_by_a_new_one(client, caplog):
    with caplog.at_level(logging.INFO, logger="dossier.request"):
        response = client.get("/healthz", HTTP_X_REQUEST_ID="x\nFAKE LINE")
    made = response["X-Request-ID"]
    assert "\n" not in made and len(made) == 32
    assert request_records(caplog)[0].request_id == made


def test_with_log_format_json_each_request_is_one_json_line(tmp_path):
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "Client().get('/healthz', HTTP_X_REQUEST_ID='req-json-1')\n"
    )
    env = {
        **os.environ,
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DOSSIER_VAR_DIR": str(tmp_path),
        "ALLOWED_HOSTS": "testserver",
        "LOG_FORMAT": "json",
    }
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [json.loads(line) for line in result.stderr.splitlines() if line.strip()]
    (line,) = [entry for entry in lines if entry["logger"] == "dossier.request"]
    assert line["request_id"] == "req-json-1" and line["status"] == 200 and line["view"] == "healthz"
    assert line["level"] == "INFO" and line["message"] == "GET /healthz 200" and "duration_ms" in line


def test_a_job_queued_during_a_request_carries_its_request_id_in_the_task_headers(tmp_path):
    from kombu import Connection

    from config.logs import request_id_var
    from sheets.tasks import render_sheet

    broker = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    token = request_id_var.set("req-into-job-7")
    try:
        with Connection(broker) as connection:
            render_sheet.apply_async(args=[123], connection=connection)
    finally:
        request_id_var.reset(token)
    with Connection(broker) as connection:
        queue = connection.SimpleQueue("celery")
        message = queue.get(timeout=10)
        message.ack()
        queue.close()
    assert message.headers["task"] == "sheets.render" and message.headers["request_id"] == "req-into-job-7"


def test_a_job_writes_one_line_stamped_with_the_request_id_it_was_queued_with(db, caplog):
    from sheets.tasks import render_sheet

    with caplog.at_level(logging.INFO, logger="dossier.job"):
        render_sheet.apply(args=[987654], headers={"request_id": "req-job-line-3"})
    (line,) = [r for r in caplog.records if r.name == "dossier.job"]
    assert line.request_id == "req-job-line-3" and line.task == "sheets.render"
    assert line.state == "SUCCESS" and line.result == "skipped"  # no such render: nothing to do


def test_the_line_names_the_signed_in_user_but_never_looks_them_up_itself(
    db, client, api, make_user, caplog, django_assert_num_queries
):
    user = make_user("logged")
    with caplog.at_level(logging.INFO, logger="dossier.request"):
        with django_assert_num_queries(0):  # /healthz reads no session, and neither does its log line
            client.get("/healthz")
        api(user).get("/api/v1/me/")
    healthz, me = request_records(caplog)
    assert healthz.user_id is None and me.user_id == user.pk and me.view == "api-me"
