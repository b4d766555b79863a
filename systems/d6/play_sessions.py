"""What D6 encounters did during a play session, for its page (SystemApp.play_session_events):
an encounter set up, and an encounter played (its first step in the session), each linked to the
encounter's page. Every member sees the campaign's encounters (Encounter.objects.visible_to); the
lines say nothing of what the GM keeps inside one (NPC statistics, how many steps)."""

from __future__ import annotations

from django.db.models import Min
from django.urls import reverse

from campaigns.chronicle.play_sessions import MAX_EACH, Happening
from systems.d6.models import Encounter, EncounterEvent


def events(campaign, user, membership, start, stop) -> list[Happening]:
    encounters = Encounter.objects.visible_to(user).filter(campaign=campaign)
    found = []
    for encounter in encounters.filter(created_at__range=(start, stop)).order_by("id")[:MAX_EACH]:
        url = reverse("d6-encounter-detail", args=[campaign.pk, encounter.pk])
        found.append(Happening(encounter.created_at, "encounter", f"Encounter set up: {encounter.name}", url))
    played = (
        EncounterEvent.objects.filter(encounter__in=encounters, created_at__range=(start, stop))
        .values("encounter_id", "encounter__name")
        .annotate(first=Min("created_at"))
        .order_by("encounter_id")[:MAX_EACH]
    )
    for row in played:
        url = reverse("d6-encounter-detail", args=[campaign.pk, row["encounter_id"]])
        found.append(Happening(row["first"], "encounter", f"Encounter played: {row['encounter__name']}", url))
    return found
