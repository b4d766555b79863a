"""The render task and the reconciler (ARCHITECTURE.md "Background jobs").

The SheetRender row is the source of truth. The task takes an id, is safe to run twice (a done
render is not redone; the PDF is stored whole through sheets/storage.py before the row names it, and
a second run that finished meanwhile has its copy deleted), acks late and
is rejected back to the broker if its worker dies, retries only transient errors with backoff, and
has soft and hard time limits. The reconciler re-queues renders stuck queued or running past
SHEET_RENDER_DEADLINE_SECONDS: the embedded brokers can lose a job when a whole worker is killed.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from botocore.exceptions import BotoCoreError, ClientError
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from sheets import storage
from sheets.metrics import RENDER_SECONDS
from sheets.models import RenderStatus, SheetKind, SheetRender, render_moved
from sheets.pages import embedded_files, file_name, page_sources, title_of

log = logging.getLogger(__name__)

MAX_RETRIES = 3
#: A render re-queued this many times by the reconciler is given up as failed.
MAX_ATTEMPTS = 5
SOFT_TIME_LIMIT = 120
HARD_TIME_LIMIT = 150

#: Errors worth another try: the disk, the object store or the database hiccupped, not the sheet.
TRANSIENT_ERRORS = (OSError, DatabaseError, BotoCoreError, ClientError)


def _claim(render_id: int) -> SheetRender | None:
    """Mark the render running and return it; None if there is nothing to do (done, failed, gone)."""
    with transaction.atomic():
        render = SheetRender.objects.select_for_update().filter(pk=render_id).first()
        if render is None:
            return None
        if render.status == RenderStatus.DONE and storage.exists(render.file.name):
            return None
        if render.status == RenderStatus.FAILED:
            return None
        render.status = RenderStatus.RUNNING
        render.started_at = timezone.now()
        render.attempts += 1
        render.save(update_fields=["status", "started_at", "attempts"])
        return render


def _fail(render_id: int, message: str) -> None:
    with transaction.atomic():
        failed = (
            SheetRender.objects.filter(pk=render_id)
            .exclude(status=RenderStatus.DONE)
            .update(status=RenderStatus.FAILED, error=message[:500], finished_at=timezone.now())
        )
        if failed:
            render_moved.send(sender=SheetRender, render_id=render_id)


def _finish(render_id: int, stored_name: str, size: int, pages: int) -> str:
    """Record a stored PDF on its row, unless another run finished first; delete what is superseded."""
    with transaction.atomic():
        render = SheetRender.objects.select_for_update().filter(pk=render_id).first()
        if render is None:
            superseded = stored_name  # the render was deleted while this one ran
        elif render.status == RenderStatus.DONE and render.file.name != stored_name:
            superseded = stored_name  # a redelivered copy of this job won the race: keep its file
        else:
            superseded = render.file.name if render.file.name != stored_name else ""
            SheetRender.objects.filter(pk=render_id).update(
                status=RenderStatus.DONE,
                file=stored_name,
                size=size,
                pages=pages,
                error="",
                finished_at=timezone.now(),
            )
            render_moved.send(sender=SheetRender, render_id=render_id)
    if superseded:
        storage.delete(superseded)
    return "done" if render is not None else "skipped"


def run_render(render_id: int) -> str:
    """Render one SheetRender to its PDF. Returns what happened (for logs and tests)."""
    from sheets import rendering  # imported in the worker only: the web process never loads WeasyPrint

    render = _claim(render_id)
    if render is None:
        return "skipped"
    log.info(
        "sheet render %s started, attempt %s",
        render_id,
        render.attempts,
        extra={"render_id": render_id, "kind": render.kind, "attempt": render.attempts},
    )
    started = time.perf_counter()

    def observe(outcome: str) -> None:
        RENDER_SECONDS.labels(kind=render.kind, outcome=outcome).observe(time.perf_counter() - started)

    try:
        pages = [
            rendering.SheetPage(
                p.sheet,
                campaign=p.campaign,
                character=p.character,
                revision=p.revision,
                stamp_label=p.stamp_label,
            )
            for p in page_sources(render)
        ]
        if render.kind == SheetKind.PARTY_BUNDLE and settings.SHEET_BUNDLE_PROCESSES > 1:
            result = rendering.render_in_chunks(
                pages,
                processes=settings.SHEET_BUNDLE_PROCESSES,
                title=title_of(render),
                author=f"Dossier, for {render.snapshot.get('campaign', '')}",
                paper=render.snapshot.get("paper", "letter"),
                attachments=embedded_files(render),
            )
        else:
            result = rendering.render_pdf(
                pages,
                title=title_of(render),
                author=f"Dossier, for {render.snapshot.get('campaign', '')}",
                paper=render.snapshot.get("paper", "letter"),
                attachments=embedded_files(render),
                # A form is not PDF/A (sheets/fillable.py): a fillable blank sheet is the one plain PDF.
                archival=not render.snapshot.get("fillable", False),
                fillable=render.snapshot.get("fillable", False),
            )
    except TRANSIENT_ERRORS:
        observe("retry")
        raise
    except SoftTimeLimitExceeded:
        observe("failed")
        _fail(render_id, "The sheet took too long to render and was stopped.")
        return "failed"
    except Exception as error:  # a broken sheet will not get better by retrying
        observe("failed")
        log.exception("sheet render %s failed", render_id)
        _fail(render_id, f"The sheet could not be rendered: {type(error).__name__}: {error}")
        return "failed"
    stored_name = storage.save(file_name(render), result.pdf)
    outcome = _finish(render_id, stored_name, len(result.pdf), result.pages)
    observe(outcome)
    return outcome


@shared_task(
    bind=True,
    name="sheets.render",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=HARD_TIME_LIMIT,
)
def render_sheet(self, render_id: int) -> str:
    try:
        return run_render(int(render_id))
    except TRANSIENT_ERRORS as error:
        if self.request.retries >= MAX_RETRIES:
            _fail(render_id, f"The sheet could not be rendered after {MAX_RETRIES + 1} tries: {error}")
            return "failed"
        # Exponential backoff: 2, 4, 8 s.
        raise self.retry(exc=error, countdown=2 ** (self.request.retries + 1)) from error


def requeue_stuck(now=None) -> list[int]:
    """Re-queue renders stuck queued or running past the deadline; give up after MAX_ATTEMPTS."""
    now = now or timezone.now()
    deadline = now - timedelta(seconds=settings.SHEET_RENDER_DEADLINE_SECONDS)
    requeued = []
    with transaction.atomic():
        for render in SheetRender.objects.select_for_update().stuck(deadline):
            if render.attempts >= MAX_ATTEMPTS:
                render.status = RenderStatus.FAILED
                render.error = f"Gave up after {render.attempts} attempts."
                render.finished_at = now
                render.save(update_fields=["status", "error", "finished_at"])
                continue
            render.status = RenderStatus.QUEUED
            render.queued_at = now
            render.save(update_fields=["status", "queued_at"])
            requeued.append(render.pk)
        for render_id in requeued:
            transaction.on_commit(lambda render_id=render_id: render_sheet.delay(render_id))
    return requeued


@shared_task(name="sheets.reconcile", acks_late=True, soft_time_limit=60, time_limit=90)
def reconcile_renders() -> list[int]:
    return requeue_stuck()
