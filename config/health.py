"""/healthz and /readyz for a load balancer: no login, cheap, and no detail in the answer.

- ``/healthz``: the process answers (a liveness probe: restart the node if this fails).
- ``/readyz``: the database answers, every migration is applied, the broker accepts a connection
  and the file storage answers (a readiness probe: send no traffic to the node while it fails).

The answer is one word and a status code; which check failed goes to the log for the operator,
never to the caller. A small view rather than django-health-check: the 4.x releases that have the
checks needed here require Python 3.14, and the older ones answer with a page naming each check.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from sheets import storage

log = logging.getLogger("dossier.health")

#: Seconds a probe waits for the broker before calling it unreachable.
BROKER_TIMEOUT = 2
#: Migrations, once all applied, stay applied for the life of the process: checked until then only.
_migrated = False


def _database() -> bool:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0] == 1


def _migrations() -> bool:
    global _migrated
    if not _migrated:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        _migrated = not executor.migration_plan(executor.loader.graph.leaf_nodes())
    return _migrated


def _broker() -> bool:
    with Connection(
        settings.CELERY_BROKER_URL,
        connect_timeout=BROKER_TIMEOUT,
        transport_options=getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}),
    ) as connection:
        connection.ensure_connection(max_retries=0, timeout=BROKER_TIMEOUT)  # 0: no retry
    return True


CHECKS = {
    "database": _database,
    "migrations": _migrations,
    "broker": _broker,
    "storage": storage.is_reachable,
}


def failing_checks() -> list[str]:
    failing = []
    for name, check in CHECKS.items():
        try:
            ok = check()
        except Exception as error:  # any failure of a dependency means "not ready", whatever its kind
            log.warning("readiness check %s failed: %s: %s", name, type(error).__name__, error)
            ok = False
        if not ok:
            failing.append(name)
            if name == "database":
                failing.append("migrations")  # cannot be read without the database
                break
    return failing


@never_cache
@require_GET
def healthz(request) -> HttpResponse:
    return HttpResponse("ok\n", content_type="text/plain")


@never_cache
@require_GET
def readyz(request) -> HttpResponse:
    failing = failing_checks()
    if failing:
        log.warning("not ready: %s", ", ".join(failing))
        return HttpResponse("not ready\n", status=503, content_type="text/plain")
    return HttpResponse("ready\n", content_type="text/plain")
