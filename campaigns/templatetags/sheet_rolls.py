"""Click to roll on a character page: ``{% roll_button key label %}`` draws the button and its
popover for the roll a system declared under ``key`` (Engine.rolls), or the plain label for a
reader who may not roll it (another player, an observer) or a key this character has no roll for.

Every system's character page uses this one tag; the page's view puts ``roll_specs`` (key ->
RollSpec, campaigns.table.sheet_rolls.roll_specs) in the context.
"""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.html import conditional_escape

from campaigns.table.sheet_rolls import anchor_of

register = template.Library()


@register.simple_tag(takes_context=True)
def roll_button(context, key, label=None):
    specs = context.get("roll_specs") or {}
    spec = specs.get(str(key))
    shown = label if label not in (None, "") else (spec.name if spec is not None else "")
    character = context.get("character")
    if spec is None or character is None:
        return conditional_escape(shown)
    membership = context.get("membership")
    # a secret check's dice are the server's (or the GM's): a player is offered no faces to type
    by_hand = not spec.secret or bool(membership is not None and getattr(membership, "is_gm", False))
    anchor = anchor_of(key)
    return render_to_string(
        "campaigns/_sheet_roll_button.html",
        {"spec": spec, "label": shown, "anchor": anchor, "character": character, "by_hand": by_hand},
        request=context.get("request"),
    )
