"""The NPC's condition in a fight on the GM's NPC page (the page shows the statistics part only to
the GM; systems.timemaster.npc_condition_services). Read on the detail page only, so the NPC list
runs no query per NPC."""

from __future__ import annotations

from django import template

from systems.timemaster import npc_condition_services as npc_cond

register = template.Library()


@register.inclusion_tag("timemaster/_npc_condition.html", takes_context=True)
def npc_condition(context, npc=None, campaign=None):
    if npc is None:
        return {"condition": None}
    return {
        "csrf_token": context.get("csrf_token"),
        "npc": npc,
        "campaign": campaign,
        "condition": npc_cond.summary(npc),
        "entries": [npc_cond.describe(row) for row in npc_cond.history(npc)],
    }
