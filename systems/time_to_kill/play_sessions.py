"""What Time to Kill missions did during a play session, for its page (SystemApp.play_session_events):
a mission run started, linked to its page. Every member sees the campaign's runs
(MissionRun.objects.visible_to); the line names the run's title only, never a move's time, so the
GM's hidden moves (the Fates placed) leave no mark on it. A run's result is the ninja's ledger entry,
which the page lists already."""

from __future__ import annotations

from django.urls import reverse

from campaigns.chronicle.play_sessions import MAX_EACH, Happening
from systems.time_to_kill.models import MissionRun


def events(campaign, user, membership, start, stop) -> list[Happening]:
    runs = (
        MissionRun.objects.visible_to(user)
        .filter(campaign=campaign, created_at__range=(start, stop))
        .only("id", "title", "created_at")
        .order_by("created_at", "id")[:MAX_EACH]
    )
    return [
        Happening(
            run.created_at, "mission", f"Mission started: {run.title}", reverse("ttk-run", args=[run.pk])
        )
        for run in runs
    ]
