"""Tempo's part of a play session (campaigns/chronicle/play_sessions.py):

- what ending one may also do (SystemApp.play_session_end): refresh every agent's fate points for
  the next session (the refresh belongs "at the start of a session", rules README ruling 7), as a
  choice the GM ticks;
- what its conflicts did during one, for its page (SystemApp.play_session_events): a conflict
  started, linked to its page, for the readers who see the conflict (the GM; a player with an agent
  in it: Conflict.objects.visible_to).
"""

from __future__ import annotations

from django.urls import reverse

from campaigns.chronicle.play_sessions import MAX_EACH, EndChoice, Happening
from systems.tempo import services
from systems.tempo.models import Conflict


def events(campaign, user, membership, start, stop) -> list[Happening]:
    conflicts = (
        Conflict.objects.visible_to(user, membership)
        .filter(created_at__range=(start, stop))
        .only("id", "title", "created_at")
        .order_by("created_at", "id")[:MAX_EACH]
    )
    return [
        Happening(
            conflict.created_at,
            "conflict",
            f"Conflict started: {conflict.title}",
            reverse("tempo-conflict-detail", args=[conflict.pk]),
        )
        for conflict in conflicts
    ]


def end_choices(session, membership) -> list[EndChoice]:
    rule = services.refresh_rule(services.campaign_settings(session.campaign))

    def refresh() -> str:
        done = services.refresh_fate_points(membership)
        changed = ", ".join(f"{row.character.name} {row.before} → {row.after}" for row in done.changes)
        return f"Fate points refreshed ({done.rule}): {changed or 'every agent already had enough'}."

    return [
        EndChoice(
            "tempo_fate_refresh",
            f"Refresh every active agent's fate points for the next session ({rule})",
            "The same refresh as on the conflicts page: one ledger entry per agent whose points change.",
            run=refresh,
        )
    ]
