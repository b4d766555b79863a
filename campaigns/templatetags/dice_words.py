"""The roll log's words. ``{{ roll.kind|dice_kind }}``: a dice kind of the log in words ("3d6 with
bonus dice", not the roller's code ``3d6_bonus``); a kind without words (d6, d10, a system's own)
shows as it is. ``{{ campaign.system|roll_detail_template }}``: the system's template of a roll's
detail."""

from __future__ import annotations

from django import template

from characters import registry
from characters.systems.dice import KIND_WORDS

register = template.Library()


@register.filter
def dice_kind(kind: str) -> str:
    return KIND_WORDS.get(kind, kind)


@register.filter
def roll_detail_template(system: str) -> str:
    """``{{ campaign.system|roll_detail_template }}``: the template the log includes for a roll's
    detail in this system's campaigns (characters.registry: SystemApp.roll_detail_template), or ""."""
    app = registry.get(system)
    return app.roll_detail_template if app is not None else ""
