"""The Celery application. Workers: ``celery -A config worker``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config import logs  # noqa: E402,F401  (connects the request-id and per-job log signals)

app = Celery("dossier")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
