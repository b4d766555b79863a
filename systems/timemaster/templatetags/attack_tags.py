"""The defender's name in an attack's log line (timemaster/_attack_line.html): the roll's detail
says "NPC" for an NPC not revealed, as every reader sees it; the GM's own log names the NPC
(systems.timemaster.models.AttackedNPC), never a player's."""

from __future__ import annotations

from typing import Any

from django import template

from systems.timemaster.models import AttackedNPC

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
