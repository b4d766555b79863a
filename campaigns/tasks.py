from celery import shared_task

from campaigns.chart_warming import warm_charts  # noqa: F401

# The webhook delivery task lives beside what it delivers (campaigns/table/webhooks.py), on a queue of its
# own; imported here so Celery's autodiscovery (tasks modules) registers it in every worker.
from campaigns.table.webhooks import deliver_webhook  # noqa: F401


@shared_task(name="dossier.ping")
def ping(value: str = "pong") -> str:
    """A round trip through the broker and a worker: used by the health check and its test."""
    return value
