"""Characters: one build document per character, validated by its system's engine."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from characters.systems import system_choices
from kernel.fields import ReadSafeJSONField


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
    system = models.CharField(max_length=20, choices=system_choices)
    module = models.CharField(max_length=40, blank=True, default="")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # The creation build (what the wizard finalised) and the current build (creation + ledger).
    creation_build = ReadSafeJSONField(default=dict, blank=True)
    build = ReadSafeJSONField(default=dict, blank=True)
    revision = models.PositiveIntegerField(default=0)
    # A draft's wizard choices (what the engine's new_build reads); kept after finalizing as a record.
    choices = ReadSafeJSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CharacterQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return self.name

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT


class AdvancementEntryQuerySet(models.QuerySet):
    def with_reverted_mark(self):
        """Each entry marked ``is_reverted`` when a later entry reverses it (the history page and
        API): a correlated EXISTS on the reversal's index, read with the page's own rows instead of a
        second query for the page's ids (issue 43)."""
        reversal = AdvancementEntry.objects.filter(reverses=models.OuterRef("pk"))
        return self.annotate(is_reverted=models.Exists(reversal))


class AdvancementEntry(models.Model):
    """One row of a character's advancement ledger. Append-only: a mistake is undone by a new
    entry that reverses it, never by editing or deleting (ARCHITECTURE.md, "a document plus a ledger").
    """

    REVERSAL = "reversal"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="entries")
    kind = models.CharField(max_length=40)
    # What the engine's apply() folds in, besides the kind (amounts, skill keys, mission ids ...).
    payload = ReadSafeJSONField(default=dict, blank=True)
    # RESTRICT: an entry cannot go while its reversal stays, but a whole character (or campaign)
    # can be deleted with its ledger.
    reverses = models.ForeignKey(
        "self", on_delete=models.RESTRICT, null=True, blank=True, related_name="reversed_by"
    )
    reason = models.CharField(max_length=500, blank=True, default="")
    mission = models.ForeignKey(
        "campaigns.Mission",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="advancement_entries",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revision_after = models.PositiveIntegerField()

    objects = AdvancementEntryQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["reverses"], condition=Q(reverses__isnull=False), name="an_entry_is_reversed_once"
            )
        ]
        # The history's order (page and API, either way): a page walks this index from its
        # position and stops after 51 entries, however long the ledger (issue 22).
        indexes = [models.Index(fields=["character", "id"], name="ledger_order")]

    def __str__(self) -> str:
        return f"{self.kind} on {self.character_id} (revision {self.revision_after})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("The advancement ledger is append-only: an entry cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("The advancement ledger is append-only: revert an entry instead of deleting it.")

    def as_engine_entry(self) -> dict:
        """The dict the engine's apply()/replay() reads."""
        entry = {**self.payload, "kind": self.kind, "id": self.pk}
        if self.kind == self.REVERSAL:
            entry.update(reverses=self.reverses_id, reason=self.reason)
        return entry
