"""The TIMEMASTER standing panel on the character page: rank/grade, Success Points, status, the
pending free pick and the links to the shop and the GM's pages (data from advancement_services)."""

from __future__ import annotations

from django import template

from characters import access
from systems.timemaster import advancement_services as adv

register = template.Library()


@register.inclusion_tag("characters/advancement/_standing.html")
def advancement_standing(character=None, membership=None):
    if character is None or membership is None or not adv.has_advancement(character):
        return {"standing": None}
    return {
        "character": character,
        "standing": adv.standing(character),
        "is_gm": membership.role == access.GM,
        "can_spend": adv.can_spend(character, membership),
    }
