from celery import shared_task


@shared_task(name="dossier.ping")
def ping(value: str = "pong") -> str:
    """A round trip through the broker and a worker: used by the health check and its test."""
    return value
