"""Tempo's play under way, for the campaign page (SystemApp.play_in_progress, issue 30): each
running conflict the reader may see (the GM's and its participants': no one else learns that it
exists), and whose move it is (a concession to answer, else the GM's next exchange)."""

from __future__ import annotations

from django.urls import reverse

from characters.registry import InProgress
from systems.tempo.models import Conflict


def records(campaign, user, membership) -> list[InProgress]:
    conflicts = (
        Conflict.objects.visible_to(user, membership)
        .filter(campaign=campaign, status=Conflict.Status.RUNNING)
        .prefetch_related("participants__character")
        .order_by("-id")[:10]
    )
    out = []
    for conflict in conflicts:
        state = conflict.state or {}
        mine = {
            p.side
            for p in conflict.participants.all()
            if p.character_id is not None and p.character.owner_id == user.pk
        }
        offer = state.get("concession") or {}
        sides = state.get("sides") or {}
        if offer.get("side") in sides:
            answering = [key for key in sides if key != offer["side"]]
            gm_answers = any(sides[key].get("controlled_by") == "gm" for key in answering)
            yours = bool(set(answering) & mine) or (membership.is_gm and gm_answers)
            names = ", ".join(sides[key].get("name", key) for key in answering)
            turn = "Your move (a concession to answer)" if yours else f"{names}: a concession to answer"
        else:
            yours = membership.is_gm
            turn = "Your move (the next exchange)" if yours else "The game master's move (the next exchange)"
        out.append(
            InProgress(
                f"Conflict “{conflict.title}”",
                turn,
                reverse("tempo-conflict-detail", args=[conflict.pk]),
                yours,
            )
        )
    return out
