"""Characters: one build document per character, validated by its system's engine."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from characters.systems import SYSTEM_CHOICES


class CharacterQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Characters of the campaigns the user belongs to (drafts only to owner and GMs)."""
        if not user.is_authenticated:
            return self.none()
        member = Q(campaign__memberships__user=user)
        gm = Q(campaign__memberships__user=user, campaign__memberships__role="gm")
        return (
            self.filter(member)
            .filter(Q(status__in=["active", "retired", "dead"]) | Q(owner=user) | gm)
            .distinct()
        )


class Character(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        ACTIVE = "active", "Active"
        RETIRED = "retired", "Retired"
        DEAD = "dead", "Dead"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="characters")
    system = models.CharField(max_length=20, choices=SYSTEM_CHOICES)
    module = models.CharField(max_length=40, blank=True, default="")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # The creation build (what the wizard finalised) and the current build (creation + ledger).
    creation_build = models.JSONField(default=dict, blank=True)
    build = models.JSONField(default=dict, blank=True)
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CharacterQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return self.name
