"""Each pytest-xdist worker of `make services-test` gets Redis databases of its own.

Loaded with ``-p tests.xdist_services`` (the Makefile's services-test), so it runs before
pytest-django reads the settings: a worker's settings then name its own databases. PostgreSQL needs
nothing here: pytest-django gives each worker a test database of its own (``test_<name>_gw<N>``).

Worker N (``gw<N>``) moves every ``redis://host/D`` URL the services layer sets (the broker, the
cache, the live feed's) to database ``D + STRIDE * N``: worker 0 keeps the databases .ci/run
names, and no two workers share one. Without this, one worker's ``cache.clear()`` (every test
starts with no rate-limit counters) would wipe another's counters mid-test, and a real Celery
worker started by one test could take another test's job off the shared queue.
"""

from __future__ import annotations

import os
import re

#: Redis URLs the services layer may set (config/settings.py reads each).
REDIS_URLS = ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "LIVE_REDIS_URL")
#: .ci/run gives the layer two databases (broker 5, cache 6): each worker gets the next pair.
STRIDE = 2
#: Redis' default number of databases (0-15).
DATABASES = 16
REDIS_URL = re.compile(r"^(rediss?://[^/?#]*/)(\d+)$")


def worker_number() -> int | None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker.removeprefix("gw")) if worker.startswith("gw") else None


def own_databases(environ: dict[str, str], number: int) -> dict[str, str]:
    """The Redis URLs of ``environ`` moved to worker ``number``'s databases."""
    moved = {}
    for name in REDIS_URLS:
        match = REDIS_URL.match(environ.get(name, ""))
        if match is None:
            continue
        database = int(match[2]) + STRIDE * number
        if database >= DATABASES:
            raise RuntimeError(
                f"{name}: worker gw{number} would need Redis database {database}, past the last "
                f"({DATABASES - 1}); run fewer workers (--maxprocesses)"
            )
        moved[name] = f"{match[1]}{database}"
    return moved


_number = worker_number()
if _number is not None:
    os.environ.update(own_databases(dict(os.environ), _number))
