"""The TIMEMASTER condition panel on the character page: current Stamina, wounds, Willpower, the
agent's state and the forms to record rest, bedrest, sleep, damage ... (data from
systems.timemaster.condition_services; timemaster-play.md §12, §16, §17)."""

from __future__ import annotations

from django import template

from systems.timemaster import condition_services as cond
from systems.timemaster.condition_forms import ConditionEntryForm

register = template.Library()


@register.inclusion_tag("characters/condition/_panel.html")
def condition_panel(character=None, membership=None, next_url=""):
    """``next_url``: where the form returns after recording (the dice page shows the panel of the
    agent chosen in its check panel); by default the character page."""
    if character is None or membership is None:
        return {"condition": None}
    condition = cond.summary(character)
    if condition is None:
        return {"condition": None}
    kinds = [kind for kind in cond.KINDS if cond.can_record(character, membership, kind)]
    return {
        "character": character,
        "condition": condition,
        "next_url": next_url,
        "form": ConditionEntryForm(
            kinds=kinds,
            talents=character.build.get("talents") or [],
            prefix="condition",
            initial={"revision": character.revision},
        )
        if kinds
        else None,
    }
