from celery import shared_task


@shared_task(name="dossier.ping")
def ping(value: str = "pong") -> str:
    """A round trip through the broker and a worker: used by the health check and its test."""
    return value


@shared_task(bind=True, name="campaigns.deliver_webhook", acks_late=True, max_retries=None)
def deliver_webhook(self, hook_id: int, body: str) -> str:
    """Post one event to one hook (campaigns/webhooks.py): retried with exponential backoff up to
    WEBHOOK_MAX_ATTEMPTS tries; an event that fails them all counts against the hook."""
    from django.conf import settings

    from campaigns import webhooks

    result = webhooks.attempt(int(hook_id), body)
    if result.delivered:
        webhooks.record_success(int(hook_id))
        return "delivered"
    if self.request.retries + 1 < settings.WEBHOOK_MAX_ATTEMPTS:
        raise self.retry(countdown=webhooks.backoff(self.request.retries))
    webhooks.record_failure(int(hook_id), result.error)
    return "failed"
