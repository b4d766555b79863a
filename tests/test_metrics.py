"""/metrics: hidden without a token, refused with a wrong one; request, render and queue figures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "scrape-me-0123456789"


def samples(body: bytes) -> dict[tuple, float]:
    """{(name, sorted labels): value} of a scrape."""
    found = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def scrape(client) -> dict[tuple, float]:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    return samples(response.content)


def test_without_a_token_setting_metrics_do_not_exist(db, client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_a_missing_or_wrong_token_is_refused(db, client, settings):
    settings.METRICS_TOKEN = TOKEN
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token").status_code == 403


def test_request_latency_is_counted_by_view(db, client, settings):
    settings.METRICS_TOKEN = TOKEN
    before = scrape(client).get(
        (
            "django_http_requests_latency_seconds_by_view_method_count",
            (("method", "GET"), ("view", "healthz")),
        ),
        0,
    )
    client.get("/healthz")
    after = scrape(client)[
        (
            "django_http_requests_latency_seconds_by_view_method_count",
            (("method", "GET"), ("view", "healthz")),
        )
    ]
    assert after == before + 1


def test_several_processes_add_up_in_multiprocess_mode(tmp_path):
    """Two forked processes (as two gunicorn workers) each answer a request; the parent scrapes both."""
    multiproc = tmp_path / "prometheus"
    multiproc.mkdir()
    # Its own empty var/: an SQLite file with no tables (not the services layer's PostgreSQL).
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")},
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DOSSIER_VAR_DIR": str(tmp_path),
        "ALLOWED_HOSTS": "testserver",
        "PROMETHEUS_MULTIPROC_DIR": str(multiproc),
        "METRICS_TOKEN": TOKEN,
    }
    script = (
        "import os, sys, django\n"
        "django.setup()\n"
        "from django.test import Client\n"
        "for _ in range(2):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        Client().get('/healthz')\n"
        "        os._exit(0)\n"
        "    os.waitpid(pid, 0)\n"
        f"sys.stdout.buffer.write(Client().get('/metrics', HTTP_AUTHORIZATION='Bearer {TOKEN}').content)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    found = samples(result.stdout)
    key = (
        "django_http_requests_latency_seconds_by_view_method_count",
        (("method", "GET"), ("view", "healthz")),
    )
    assert found[key] == 2
    assert found[("dossier_sheet_queue_readable", ())] == 0  # no tables in this empty var/: still a scrape
