"""The toy system's play record: a contest kept by the game master, with its score."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Contest(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="toy_contests")
    title = models.CharField(max_length=120)
    score = models.IntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("created_at", "id")

    def __str__(self) -> str:
        return self.title
