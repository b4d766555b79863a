"""Time to Kill missions: the bag, the secret Fates and the event log of a running mission.

A run keeps the engine's starting state and an append-only list of events (each with the draws
and dice the engine made). The current state is those events replayed over the starting state
(systems/time_to_kill/engine/mission.py); ``state`` is that replay kept on the row so pages
do not fold the whole log on every request. services.py is the only writer.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models

from kernel.fields import ReadSafeJSONField


class MissionRunQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Runs of the campaigns the user belongs to (the secrets are filtered by the views)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(campaign__memberships__user=user)


class MissionRun(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        OVER = "over", "Over"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="ttk_runs")
    mission = models.ForeignKey(
        "campaigns.Mission", on_delete=models.SET_NULL, null=True, blank=True, related_name="ttk_runs"
    )
    # One ninja per run (time-to-kill.md §E21).
    ninja = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="ttk_runs")
    title = models.CharField(max_length=200)
    initial_state = ReadSafeJSONField()
    state = ReadSafeJSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    outcome = models.CharField(max_length=20, blank=True, default="")
    event_count = models.PositiveIntegerField(default=0)
    # The ledger entry a finished run appended to the ninja (victory points, or death).
    result_entry = models.OneToOneField(
        "characters.AdvancementEntry",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ttk_run",
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The run's prints (its Fate Record Sheets): deleted with the run.
    sheet_renders = GenericRelation(
        "sheets.SheetRender", content_type_field="record_type", object_id_field="record_id"
    )

    objects = MissionRunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["ninja"], condition=models.Q(status="running"), name="one_running_mission_per_ninja"
            )
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def ninja_id_in_engine(self) -> str:
        return str(self.ninja_id)


class MissionEvent(models.Model):
    """One accepted event of a run. Append-only: the log is the mission."""

    run = models.ForeignKey(MissionRun, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()  # 1, 2, 3 ... in the order applied
    # The event as the engine recorded it: type, by, parameters, and "results" (draws and dice).
    event = ReadSafeJSONField()
    by_role = models.CharField(max_length=10)  # "gm" or "player"
    actor = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # What the event told the table (the public log lines it added), and the GM's version of them.
    public_log = ReadSafeJSONField(default=list)
    gm_log = ReadSafeJSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "seq"]
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="one_event_per_seq")]

    def __str__(self) -> str:
        return f"{self.event.get('type')} #{self.seq} of run {self.run_id}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("A mission's event log is append-only: an event cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("A mission's event log is append-only: an event cannot be deleted.")
