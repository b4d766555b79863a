"""D6's play under way, for the campaign page (SystemApp.play_in_progress, issue 30): each running
encounter, and whose move it is (a result owed, the order being settled, or a participant's turn)."""

from __future__ import annotations

from django.urls import reverse

from characters.registry import InProgress
from characters.systems.wording import possessive
from systems.d6.engine.encounter import acting_now, whose_turn
from systems.d6.models import Encounter


def _gm(membership) -> tuple[str, bool]:
    return ("Your move" if membership.is_gm else "The game master's move"), membership.is_gm


def records(campaign, user, membership) -> list[InProgress]:
    encounters = (
        Encounter.objects.filter(campaign=campaign, status=Encounter.Status.RUNNING)
        .prefetch_related("participants__character__owner")
        .order_by("-id")[:10]
    )
    out = []
    for encounter in encounters:
        state = encounter.state or {}
        url = reverse("d6-encounter-detail", args=[campaign.pk, encounter.pk])
        if state.get("windows"):
            turn, yours = _gm(membership)
            turn += " (a result to give)"
        elif state.get("phase") != "turns":
            turn, yours = _gm(membership)
        else:
            key = acting_now(state) or whose_turn(state)
            place = next((p for p in encounter.participants.all() if p.key == key), None)
            owner = place.character.owner if place is not None and place.character is not None else None
            if owner is None:
                turn, yours = _gm(membership)
            else:
                yours = owner.pk == user.pk
                turn = "Your move" if yours else f"{possessive(owner.get_username())} move"
            if place is not None:
                turn += f" ({place.name})"
        out.append(InProgress(f"Encounter “{encounter.name}”", turn, url, yours))
    return out
