"""What ending a play session offers in a TIMEMASTER campaign (campaigns/chronicle/play_sessions.py,
SystemApp.play_session_end): the bonus Success Points of the session (at most 50 per agent per
session, ruling 2), one award page per active agent, its session field naming this play session
("Session 3": the engine's per-session cap reads it like any earlier free-text session id)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse

from campaigns.chronicle.play_sessions import EndChoice
from characters.models import Character


def session_label(session) -> str:
    """How an award names a play session (the engine's free-text session id)."""
    return f"Session {session.number}"


def end_choices(session, membership) -> list[EndChoice]:
    agents = Character.objects.filter(
        campaign=session.campaign, system="timemaster", status=Character.Status.ACTIVE
    ).order_by("name", "pk")
    query = urlencode({"session": session_label(session)})
    return [
        EndChoice(
            f"timemaster_bonus_{agent.pk}",
            f"Award {agent.name} bonus Success Points for session {session.number}",
            "Opens the award form with this session filled in; up to 50 per agent per session.",
            url=f"{reverse('character-bonus', args=[agent.pk])}?{query}",
        )
        for agent in agents
    ]
