"""``{{ roll.kind|dice_kind }}``: a dice kind of the log in words ("3d6 with bonus dice", not the
roller's code ``3d6_bonus``); a kind without words (d6, d10, a system's own) shows as it is."""

from __future__ import annotations

from django import template

from characters.systems.dice import KIND_WORDS

register = template.Library()


@register.filter
def dice_kind(kind: str) -> str:
    return KIND_WORDS.get(kind, kind)
