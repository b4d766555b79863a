"""Tempo conflicts: two sides, a tempo state kept by the engine (systems/tempo/engine/conflict.py),
and an append-only log of the events that moved it (tempo-flashpoints.md §B8-§B11, §C2).

The engine's state is stored as it is (``state``); the starting state is kept too, so the current
state can always be checked by replaying the events over it.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from characters.systems import fair_dice
from kernel.fields import ReadSafeJSONField


class ConflictQuerySet(models.QuerySet):
    def visible_to(self, user, membership=None):
        """GMs see every conflict of their campaigns; a player sees the ones a character of theirs
        takes part in. Observers and other players see none."""
        if not user.is_authenticated:
            return self.none()
        if membership is not None:
            qs = self.filter(campaign_id=membership.campaign_id)
            if membership.role == "gm":
                return qs
            if membership.role != "player":
                return qs.none()
            return qs.filter(participants__character__owner=user).distinct()
        gm_of = Q(campaign__memberships__user=user, campaign__memberships__role="gm")
        involved = Q(
            participants__character__owner=user,
            campaign__memberships__user=user,
            campaign__memberships__role="player",
        )
        return self.filter(gm_of | involved).distinct()


def new_dice_scope() -> str:
    """A conflict's label on the fair dice (its rolls' lanes ``open:<label>``): random, so it
    names no database id and counts no other conflict."""
    return "conflict-" + fair_dice.new_seed_hex(6)


class Conflict(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        OVER = "over", "Over"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="tempo_conflicts"
    )
    title = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    initial_state = ReadSafeJSONField(default=dict)
    state = ReadSafeJSONField(default=dict)  # the engine's state after every event
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The fair dice number this conflict's rolls within lanes of their own (campaigns.table.fairness.draw's
    # scope): a member who is not in the conflict sees no gap in the campaign's counters.
    dice_scope = models.CharField(max_length=40, default=new_dice_scope, editable=False)

    objects = ConflictQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return self.title


class Participant(models.Model):
    """Who stands on a side: a character of the campaign, or an NPC named by the GM."""

    conflict = models.ForeignKey(Conflict, on_delete=models.CASCADE, related_name="participants")
    side = models.CharField(max_length=20)
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    npc_name = models.CharField(max_length=120, blank=True, default="")

    class Meta:
        ordering = ["side", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(character__isnull=False) | ~Q(npc_name=""), name="a_participant_has_a_name"
            )
        ]

    def __str__(self) -> str:
        return self.character.name if self.character_id else self.npc_name

    @property
    def name(self) -> str:
        return str(self)


class ConflictEvent(models.Model):
    """One event of a conflict's log. Append-only: never edited or deleted by the app."""

    conflict = models.ForeignKey(Conflict, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=30)
    payload = ReadSafeJSONField(default=dict)  # the event exactly as the engine folded it
    summary = models.CharField(max_length=300, blank=True, default="")
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["conflict", "seq"]
        constraints = [models.UniqueConstraint(fields=["conflict", "seq"], name="one_event_per_position")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} of conflict {self.conflict_id}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("The conflict log is append-only: an event cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("The conflict log is append-only: an event cannot be deleted.")
