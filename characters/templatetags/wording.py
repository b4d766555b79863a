"""Template filters for sentences built from names and counts (characters/systems/wording.py):

- ``{{ participant.name|possessive }}`` -> "Dock thugs'" / "Dock thug's";
- ``{{ n|counted:"declared action" }}`` -> "1 declared action" / "2 declared actions", and
  ``{{ n|counted:"die,dice" }}`` for an irregular plural;
- ``{{ n|is_are }}``, ``{{ n|was_were }}``, ``{{ n|has_have }}``: the verb that agrees with n.

Autoescaping stays on: each filter returns plain text, escaped like any other value.
"""

from __future__ import annotations

from django import template

from characters.systems import wording

register = template.Library()


def _count(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


@register.filter
def possessive(name) -> str:
    return wording.possessive(name)


@register.filter
def counted(value, nouns: str) -> str:
    singular, _, plural_form = str(nouns).partition(",")
    return wording.counted(_count(value), singular, plural_form or None)


@register.filter
def is_are(value) -> str:
    return wording.is_are(_count(value))


@register.filter
def was_were(value) -> str:
    return wording.was_were(_count(value))


@register.filter
def has_have(value) -> str:
    return wording.has_have(_count(value))
