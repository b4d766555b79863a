"""What a roll from a character's page belongs to (SystemApp.roll_context): the running encounter
the character takes part in."""

from __future__ import annotations

from django.urls import reverse

from characters.registry import RollContext
from systems.d6.models import Encounter


def context(character) -> RollContext | None:
    encounter = (
        Encounter.objects.filter(
            campaign_id=character.campaign_id,
            status=Encounter.Status.RUNNING,
            participants__character=character,
        )
        .order_by("-id")
        .first()
    )
    if encounter is None:
        return None
    return RollContext(
        f"Encounter “{encounter.name}”",
        reverse("d6-encounter-detail", args=[encounter.campaign_id, encounter.pk]),
    )
