"""The defender's name in an attack's log line (timemaster/_attack_line.html): the roll's detail
says "NPC" for an NPC not revealed, as every reader sees it; the GM's own log names the NPC
(systems.timemaster.models.AttackedNPC), never a player's. And, in the GM's log alone, what of
the attack's changes the GM has reverted since (an NPC's condition, a hold or a knockdown)."""

from __future__ import annotations

from typing import Any

from django import template

from characters.models import AdvancementEntry
from systems.timemaster import condition_services, npc_condition_services
from systems.timemaster.models import AttackedNPC, FightState, NPCConditionEntry, RollLedgerEntry

register = template.Library()


@register.simple_tag
def defender_name(detail: Any, roll: Any = None, membership: Any = None) -> str:
    shown = str(detail.get("defender", "")) if hasattr(detail, "get") else ""
    if shown != "NPC" or roll is None or getattr(roll, "pk", None) is None:
        return shown
    if membership is None or not getattr(membership, "is_gm", False):
        return shown
    target = AttackedNPC.objects.filter(roll_id=roll.pk).select_related("npc").only("npc__name").first()
    return f"{target.npc.name} (shown as NPC)" if target else shown


@register.simple_tag
def reverted_changes(roll: Any = None, membership: Any = None) -> list[dict[str, Any]]:
    """The changes this roll made that the GM reverted since, oldest first, each with what it was
    and when it was reverted: for the GM's log only (issue 49, walk point 2). A player's line is
    never touched: an NPC's condition and the fight's states are the GM's, and so is their revert
    (ARCHITECTURE.md, "Who may see what"); the table's line stays as it was rolled."""
    if roll is None or getattr(roll, "pk", None) is None:
        return []
    if membership is None or not getattr(membership, "is_gm", False):
        return []
    out = [
        {
            "text": f"{npc_condition_services.describe(row)['text']} on {row.npc.name}",
            "at": row.reverted_at,
        }
        for row in NPCConditionEntry.objects.filter(roll_id=roll.pk, reverted_at__isnull=False)
        .select_related("npc")
        .only("entry", "reverted_at", "npc__name", "roll_id", "source", "created_at")
    ]
    for state in FightState.objects.filter(roll_id=roll.pk, reverted_at__isnull=False).select_related(
        "defender", "defender_npc", "holder"
    ):
        out.append({"text": fight_title(state), "at": state.reverted_at})
    # an agent's entries: reverted by a reversal that stands (a reverted reversal restores it)
    written = RollLedgerEntry.objects.filter(roll_id=roll.pk).values("entry_id")
    for reversal in AdvancementEntry.objects.filter(
        reverses__in=written, reversed_by__isnull=True
    ).select_related("reverses__character"):
        undone = reversal.reverses
        label = condition_services.LABELS.get(undone.kind, undone.kind.replace("_", " "))
        out.append({"text": f"{label} on {undone.character.name}", "at": reversal.created_at})
    return sorted(out, key=lambda change: change["at"])


def fight_title(state: FightState) -> str:
    held = (state.defender.name if state.defender else "") or (
        state.defender_npc.name if state.defender_npc else "NPC"
    )
    if state.kind == FightState.DOWN:
        return f"{held} knocked down"
    verb = "strangled" if state.kind == FightState.STRANGLE else "held"
    return f"{held} {verb}"
