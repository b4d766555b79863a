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

from kernel.fields import ReadSafeJSONField


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


class FightState(models.Model):
    """A hold, a strangle or a knockdown that lasts in a fight (timemaster-play.md §15 L1334-1346,
    §5.2-§5.3): who holds whom since which round of the fight and how many of the hold's rounds
    are resolved; who is down since which round, until he gets up. Made by the attack that caused
    it; the GM ends it (the hold broken, the defender up) and can revert either change. GM only:
    the table reads the attack's log line, never this row (ARCHITECTURE.md, "Who may see what")."""

    HOLD, STRANGLE, DOWN = "hold", "strangle", "down"
    KINDS = {HOLD: "Hold", STRANGLE: "Strangle", DOWN: "Knocked down"}

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=list(KINDS.items()))
    defender = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    defender_npc = models.ForeignKey(
        "campaigns.NPC", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    holder = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    holder_name = models.CharField(max_length=200, blank=True, default="")  # as the log names him
    since_round = models.PositiveIntegerField(default=1)  # the fight's round it began in
    rounds_held = models.PositiveIntegerField(default=1)  # the hold's rounds resolved (the attack is 1)
    roll = models.ForeignKey(
        "campaigns.Roll", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    end_reason = models.CharField(max_length=200, blank=True, default="")
    reverted_at = models.DateTimeField(null=True, blank=True)
    reverted_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.kind} in campaign {self.campaign_id}"


class RollLedgerEntry(models.Model):
    """An agent's ledger entry that a logged roll wrote (an attack's hit or the Luck it spent, a
    hold's round, special damage), so that the GM's log marks the roll's line once the GM reverts
    the entry (issue 49, walk point 2). The GM's alone, like the fight's other records: the table's
    line never changes."""

    entry = models.OneToOneField(
        "characters.AdvancementEntry", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    roll = models.ForeignKey("campaigns.Roll", on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"entry {self.entry_id} of roll {self.roll_id}"
