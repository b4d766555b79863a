"""TIMEMASTER's own rows: an NPC's condition in a fight (GM only).

An NPC defender's Stamina, wounds, unconsciousness, death and crumpled armor are kept as entries
on the platform's NPC (campaigns.models.NPC), in the shapes of the agent's play entries; the
condition is their fold (systems.timemaster.engine.npc_condition), so each entry can be reverted
and the rest folds again. Like the NPC's statistics, they are the GM's alone: no player page,
API answer or log shows them (timemaster-play.md §16, §19; issue 49, point 5).
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from config.fields import ReadSafeJSONField


class NPCConditionEntry(models.Model):
    npc = models.ForeignKey("campaigns.NPC", on_delete=models.CASCADE, related_name="timemaster_condition")
    entry = ReadSafeJSONField(default=dict)  # {"kind": ..., fields} (recovery.ENTRY_SHAPES)
    source = models.CharField(max_length=200, blank=True, default="")
    roll = models.ForeignKey(
        "campaigns.Roll", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    reverted_at = models.DateTimeField(null=True, blank=True)
    reverted_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.entry.get('kind')} on NPC {self.npc_id}"


class AttackedNPC(models.Model):
    """Which of the campaign's NPCs a logged attack fell on (walk, point 4). The log line says
    "NPC" until the GM reveals it (the roll's detail is the table's); this row, never shown to a
    player, lets the GM's own log name it."""

    roll = models.OneToOneField(
        "campaigns.Roll", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    npc = models.ForeignKey("campaigns.NPC", on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"roll {self.roll_id} on NPC {self.npc_id}"
