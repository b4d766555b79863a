"""Gunicorn settings for a Dossier web node (deploy/dossier-web.service passes this file).

Several workers share one set of metrics through prometheus-client's multiprocess mode: the unit
points PROMETHEUS_MULTIPROC_DIR at a folder systemd empties at every start (RuntimeDirectory), and
this hook drops a dead worker's live gauges so /metrics adds up only the workers that run.
"""

import os

# ASGI workers (uvicorn's, config.asgi): a campaign's live feed holds a connection per open page,
# which a sync worker would hold a whole worker for (docs/live.md).
worker_class = "uvicorn_worker.UvicornWorker"
# Each worker holds its own pool of database connections (DB_POOL_MAX, config/settings.py); 2-4
# workers per core is gunicorn's advice.
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
# The proxy in front keeps slow clients away; a request that takes longer than this is a bug.
timeout = 30
graceful_timeout = 20
# One JSON line per request comes from Dossier itself (LOG_FORMAT=json); no second access log.
accesslog = None
errorlog = "-"
# Behind the proxy: trust its X-Forwarded-* headers (set forwarded_allow_ips to the proxy's address).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
