"""Time to Kill's play under way, for the campaign page (SystemApp.play_in_progress, issue 30):
each running mission run, and whose move it is."""

from __future__ import annotations

from django.urls import reverse

from characters.registry import InProgress
from characters.systems.wording import possessive
from systems.time_to_kill import services
from systems.time_to_kill.models import MissionRun


def records(campaign, user, membership) -> list[InProgress]:
    runs = (
        MissionRun.objects.filter(campaign=campaign, status=MissionRun.Status.RUNNING)
        .select_related("ninja__owner")
        .order_by("-id")[:10]
    )
    out = []
    for run in runs:
        side = services.whose_side(run)
        owner = run.ninja.owner
        if side == "gm":
            yours = membership.is_gm
            turn = "Your move" if yours else "The game master's move"
        elif side == "player":
            yours = owner.pk == user.pk
            turn = "Your move" if yours else f"{possessive(owner.get_username())} move"
        else:
            yours, turn = False, "Nobody's move"
        out.append(
            InProgress(
                f"Mission run “{run.title}” ({run.ninja.name})",
                turn,
                reverse("ttk-run", args=[run.pk]),
                yours,
            )
        )
    return out
