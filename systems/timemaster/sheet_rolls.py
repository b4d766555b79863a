"""What a roll from an agent's page belongs to (SystemApp.roll_context): the mission under way
that the agent was sent on, if any."""

from __future__ import annotations

from django.urls import reverse

from campaigns.models import Mission
from characters.registry import RollContext


def context(character) -> RollContext | None:
    mission = (
        Mission.objects.filter(
            campaign_id=character.campaign_id, status=Mission.Status.ACTIVE, agents=character
        )
        .order_by("-id")
        .only("id", "campaign_id", "title")  # what a roll takes of it (the rest is read if asked)
        .first()
    )
    if mission is None:
        return None
    return RollContext(
        f"Mission “{mission.title}”",
        reverse("missions-detail", args=[mission.campaign_id, mission.pk]),
        mission=mission,
    )
