"""D6 System encounters: participants, initiative, rounds and declared actions.

The rules live in the engine (``systems.d6.engine.encounter``). Here an encounter is stored as
its setup (participants, method, settings snapshot) plus an append-only list of events; the state
is what the engine's ``replay`` makes of them, kept in ``Encounter.state`` so pages need not replay
on every request (d6-game-time.md §B13; ARCHITECTURE.md "state, event -> new state").
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from kernel.fields import ReadSafeJSONField
from systems.d6.engine.tables import INITIATIVE_METHODS

METHOD_CHOICES = [(key, info["label"]) for key, info in INITIATIVE_METHODS.items()]


class EncounterQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Encounters of the campaigns the user belongs to (what each role sees inside one is
        decided by the views: the GM the tracker, everyone else the players' view)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(campaign__memberships__user=user)


class Encounter(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        RUNNING = "running", "Running"
        OVER = "over", "Over"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="d6_encounters")
    name = models.CharField(max_length=120)
    method = models.CharField(max_length=20, choices=METHOD_CHOICES)
    optional_initiative_bonus = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    # The campaign's D6 settings when the encounter started: a later change of the campaign's
    # Wild Die rule must not change how stored events replay.
    settings = ReadSafeJSONField(default=dict, blank=True)
    # The engine state after every event (empty until the encounter starts).
    state = ReadSafeJSONField(default=dict, blank=True)
    event_count = models.PositiveIntegerField(default=0)
    next_npc_number = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EncounterQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "-created_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def method_number(self) -> int:
        return INITIATIVE_METHODS[self.method]["number"]

    @property
    def method_label(self) -> str:
        return INITIATIVE_METHODS[self.method]["label"]


class Participant(models.Model):
    """A character of the campaign, an NPC or a group of NPCs taking part in an encounter.

    ``stats`` holds what the engine reads: for a character, a snapshot of its build (taken again
    when the encounter starts), for an NPC or group the GM's statistics. NPC statistics are GM-only.
    """

    class Kind(models.TextChoices):
        CHARACTER = "character", "Character"
        NPC = "npc", "NPC"
        GROUP = "group", "Group of NPCs"

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="participants")
    key = models.CharField(max_length=64)  # the engine's participant id
    kind = models.CharField(max_length=10, choices=Kind.choices)
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="d6_encounter_places",
    )
    character_revision = models.PositiveIntegerField(null=True, blank=True)
    name = models.CharField(max_length=200)
    controlled_by = models.CharField(max_length=10, default="gm")
    stats = ReadSafeJSONField(default=dict, blank=True)
    members = ReadSafeJSONField(default=list, blank=True)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "key"], name="d6_participant_key_unique"),
            models.UniqueConstraint(
                fields=["encounter", "character"],
                condition=models.Q(character__isnull=False),
                name="d6_character_once_per_encounter",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.encounter_id}"

    def engine_input(self) -> dict:
        """Participant input for ``encounter.new_encounter`` (README of the d6 engine)."""
        if self.kind == self.Kind.CHARACTER:
            return {
                "id": self.key,
                "kind": "character",
                "controlled_by": self.controlled_by,
                "build": self.stats,
                "name": self.name,
            }
        data = {"id": self.key, "kind": self.kind, "controlled_by": "gm", "name": self.name, **self.stats}
        if self.kind == self.Kind.GROUP:
            data["members"] = list(self.members)
        return data


class EncounterEvent(models.Model):
    """One event of an encounter, as the engine stored it (with its dice). Append-only."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    payload = ReadSafeJSONField(default=dict)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["encounter", "seq"]
        constraints = [models.UniqueConstraint(fields=["encounter", "seq"], name="d6_event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.type} #{self.seq} of {self.encounter_id}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("Encounter events are append-only: an event cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Encounter events are append-only: an event cannot be deleted.")
