"""What a roll from an agent's page belongs to (SystemApp.roll_context): the running conflict the
agent takes part in. The roll is filed with the conflict (``detail.conflict``), so only who may
see the conflict sees it in the dice log (services.hidden_conflict_rolls)."""

from __future__ import annotations

from django.urls import reverse

from characters.registry import RollContext
from systems.tempo.models import Conflict
from systems.tempo.services import CONFLICT_KEY


def context(character) -> RollContext | None:
    conflict = (
        Conflict.objects.filter(
            campaign_id=character.campaign_id,
            status=Conflict.Status.RUNNING,
            participants__character=character,
        )
        .order_by("-id")
        .first()
    )
    if conflict is None:
        return None
    return RollContext(
        f"Conflict “{conflict.title}”",
        reverse("tempo-conflict-detail", args=[conflict.pk]),
        detail={CONFLICT_KEY: conflict.pk},
        dice_scope=conflict.dice_scope,
    )
