"""What a roll from a ninja's page belongs to (SystemApp.roll_context): the ninja's running mission
run, and the campaign mission it is played for, if any."""

from __future__ import annotations

from django.urls import reverse

from characters.registry import RollContext
from systems.time_to_kill.models import MissionRun


def context(character) -> RollContext | None:
    run = (
        MissionRun.objects.filter(ninja=character, status=MissionRun.Status.RUNNING)
        .select_related("mission")
        .order_by("-id")
        .first()
    )
    if run is None:
        return None
    return RollContext(f"Mission run “{run.title}”", reverse("ttk-run", args=[run.pk]), mission=run.mission)
