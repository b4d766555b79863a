"""The campaign export job: a large campaign's archive written to a file in the default storage,
a chunk of rolls at a time, with its progress on the CampaignExport row (the source of truth,
as SheetRender is for sheets). Safe to run twice: a finished export is not written again."""

from __future__ import annotations

import logging
import tempfile

from celery import shared_task
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from archive import services, signals, streaming
from archive.models import CampaignExport, ExportStatus

log = logging.getLogger(__name__)


def _claim(export_id: int) -> CampaignExport | None:
    with transaction.atomic():
        export = (
            CampaignExport.objects.select_for_update(of=("self",))
            .select_related("campaign", "requested_by")
            .filter(pk=export_id, status__in=[ExportStatus.QUEUED, ExportStatus.RUNNING])
            .first()
        )
        if export is None:
            return None
        export.status = ExportStatus.RUNNING
        export.rolls_written = 0
        export.save(update_fields=["status", "rolls_written"])
    return export


def run_export(export_id: int) -> str:
    """Write one CampaignExport's archive. Returns what happened (for logs and tests)."""
    export = _claim(export_id)
    if export is None:
        return "skipped"

    def progress(rolls_written: int) -> None:
        CampaignExport.objects.filter(pk=export_id).update(rolls_written=rolls_written)

    try:
        with tempfile.TemporaryFile() as handle:
            pieces = services.stream_campaign(
                export.campaign, export.requested_by, streaming.PRETTY, progress
            )
            for piece in pieces:
                handle.write(piece.encode())
            size = handle.tell()
            handle.seek(0)
            name = default_storage.save(
                f"exports/campaign-{export.campaign_id}-{export.pk}.json", File(handle)
            )
    except Exception as error:
        log.exception("campaign export %s failed", export_id)
        with transaction.atomic():
            CampaignExport.objects.filter(pk=export_id).update(
                status=ExportStatus.FAILED,
                error=f"The archive could not be written: {type(error).__name__}: {error}"[:500],
                finished_at=timezone.now(),
            )
            _tell(export)
        return "failed"
    with transaction.atomic():
        CampaignExport.objects.filter(pk=export_id).update(
            status=ExportStatus.DONE, file=name, size=size, finished_at=timezone.now()
        )
        _tell(export)
    return "done"


def _tell(export: CampaignExport) -> None:
    """ "Export ready" (or failed) on the live feed, for the one who asked for it alone
    (LiveEvent.recipient): their open job page shows the download (issue 44)."""
    from campaigns.table import live

    live.publish_ready(export.campaign_id, live.topic_of("export", export.pk), [export.requested_by_id])


@shared_task(
    name="archive.export_campaign",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=900,
    time_limit=960,
)
def export_campaign(export_id: int) -> str:
    return run_export(int(export_id))


@receiver(signals.export_requested, dispatch_uid="archive.tasks.queue_export")
def queue_export(sender, export_id: int, **kwargs) -> None:
    """Queue the job of a campaign export the services saved (archive/signals.py)."""
    export_campaign.delay(export_id)
