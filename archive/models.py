"""Export and import of characters and whole campaigns as versioned JSON.

CampaignExport: a campaign archive prepared by a Celery job (archive/tasks.py), for campaigns too
large to write inside a web request; the file goes through the default storage.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ExportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class CampaignExport(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="exports")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=ExportStatus.choices, default=ExportStatus.QUEUED)
    # Progress: the rolls (nearly all of a large archive) written so far, of how many.
    rolls_total = models.PositiveIntegerField(default=0)
    rolls_written = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="exports/", blank=True, default="")
    size = models.PositiveBigIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"export of campaign {self.campaign_id} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == ExportStatus.DONE:
            return 100
        return min(99, self.rolls_written * 100 // self.rolls_total) if self.rolls_total else 0

    @property
    def active(self) -> bool:
        return self.status in (ExportStatus.QUEUED, ExportStatus.RUNNING)
