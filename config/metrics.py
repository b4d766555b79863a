"""Prometheus metrics: /metrics behind a bearer token, and the sheet renders' own figures.

- Requests: django-prometheus's middleware (latency by view and method, status codes ...).
- Renders: ``dossier_sheet_render_seconds{kind,outcome}`` (sheets/metrics.py) observed by the
  worker that ran the job, and ``dossier_job_failures_total{task}`` for every Celery job that raised.
- The queue, read from the SheetRender table at scrape time (the same answer from every node):
  ``dossier_sheet_renders{status}`` for queued and running renders, the age of the oldest queued
  one, and the number of failed renders on record.

Several processes (gunicorn workers, Celery's pool): set PROMETHEUS_MULTIPROC_DIR to an empty folder
per machine before they start; prometheus-client then writes each process's figures there and this
view adds them up (deploy/gunicorn.conf.py clears a dead worker's files). A machine that runs only
workers serves the same folder on METRICS_WORKER_PORT (see start_worker_exporter).

No METRICS_TOKEN: /metrics answers 404, as if it did not exist. A wrong or missing token: 403.
"""

from __future__ import annotations

import hmac
import logging
import os

from celery import signals
from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count, Min
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

import sheets.metrics  # noqa: E402,F401  the renders' histogram, registered in every process that serves /metrics

log = logging.getLogger("dossier.metrics")

JOB_FAILURES = Counter("dossier_job_failures", "Celery jobs that raised, by task.", ["task"])


def _readable(value: int) -> GaugeMetricFamily:
    return GaugeMetricFamily("dossier_sheet_queue_readable", "1 if the render queue was read.", value=value)


class RenderQueueCollector:
    """Queue depth and the age of the oldest queued render, from the SheetRender table."""

    def collect(self):
        from sheets.models import RenderStatus, SheetRender

        try:
            yield from self._from_table(RenderStatus, SheetRender)
        except DatabaseError as error:  # the process's own figures still go out; this says why not these
            log.warning("metrics: the render queue could not be read: %s", error)
            yield _readable(0)

    def _from_table(self, RenderStatus, SheetRender):
        counts = dict(
            SheetRender.objects.filter(
                status__in=[RenderStatus.QUEUED, RenderStatus.RUNNING, RenderStatus.FAILED]
            )
            .values_list("status")
            .annotate(n=Count("id"))
            .order_by()
        )
        oldest = SheetRender.objects.filter(status=RenderStatus.QUEUED).aggregate(oldest=Min("queued_at"))[
            "oldest"
        ]
        depth = GaugeMetricFamily(
            "dossier_sheet_renders", "Sheet renders waiting or in progress, by status.", labels=["status"]
        )
        for status in (RenderStatus.QUEUED, RenderStatus.RUNNING):
            depth.add_metric([status.value], counts.get(status.value, 0))
        yield depth
        yield GaugeMetricFamily(
            "dossier_sheet_render_oldest_queued_seconds",
            "Age of the oldest queued sheet render (0 when none waits).",
            value=(timezone.now() - oldest).total_seconds() if oldest else 0.0,
        )
        yield GaugeMetricFamily(
            "dossier_sheet_renders_failed",
            "Failed sheet renders on record (a failure is kept as a row).",
            value=counts.get(RenderStatus.FAILED.value, 0),
        )
        yield _readable(1)


def process_registry():
    """This process's metrics, or every process's on this machine in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def _authorized(request) -> bool:
    given = request.headers.get("Authorization", "")
    expected = f"Bearer {settings.METRICS_TOKEN}"
    return hmac.compare_digest(given.encode(), expected.encode())


@never_cache
@require_GET
def metrics(request) -> HttpResponse:
    if not settings.METRICS_TOKEN:
        raise Http404
    if not _authorized(request):
        return HttpResponse("forbidden\n", status=403, content_type="text/plain")
    queue = CollectorRegistry(auto_describe=False)
    queue.register(RenderQueueCollector())
    body = generate_latest(process_registry()) + generate_latest(queue)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


@signals.task_failure.connect
def _count_job_failure(sender=None, **_):
    JOB_FAILURES.labels(task=getattr(sender, "name", "unknown")).inc()


@signals.worker_ready.connect
def start_worker_exporter(**_):
    """A worker-only machine: serve this machine's worker metrics on METRICS_WORKER_PORT (no token:
    bind it to an address only the Prometheus server reaches, METRICS_WORKER_ADDRESS)."""
    if settings.METRICS_WORKER_PORT:
        from prometheus_client import start_http_server

        start_http_server(
            settings.METRICS_WORKER_PORT, addr=settings.METRICS_WORKER_ADDRESS, registry=process_registry()
        )
