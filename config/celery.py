"""The Celery application. Workers: ``celery -A config worker``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Connect the signals: request ids and per-job log lines; job failures and the worker's exporter.
from config import logs, metrics  # noqa: E402,F401

app = Celery("dossier")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
