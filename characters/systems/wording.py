"""Small English helpers for sentences built from names and counts, so that no page, log line or
refusal reads "Dock thugs's Punch" or "1 declared action are used".

Plain Python (no Django): the pure engines use it for their log lines and refusals, and the
platform's template filters (characters/templatetags/wording.py) are these same functions.

- ``possessive("Dock thug")`` -> "Dock thug's"; ``possessive("Dock thugs")`` -> "Dock thugs'".
- ``counted(1, "declared action")`` -> "1 declared action"; ``counted(2, ...)`` -> "2 declared
  actions"; an irregular plural is given: ``counted(3, "die", "dice")``.
- ``is_are(n)``, ``was_were(n)``, ``has_have(n)``: the verb that agrees with a count.
"""

from __future__ import annotations

#: Apostrophes a name may already end with (typed by a person: straight or typographic).
_APOSTROPHES = ("'", "\u2019")


def possessive(name: object) -> str:
    """The name with its possessive ending: "'s", or a bare apostrophe after a final s ("thugs'")."""
    text = str(name).strip()
    if not text:
        return ""
    if text.endswith(_APOSTROPHES):  # already possessive ("Dock thugs'"): leave it as typed
        return text
    return f"{text}'" if text[-1] in "sS" else f"{text}'s"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """The noun that agrees with ``count``: the singular for exactly 1 (or -1), else the plural."""
    if abs(count) == 1:
        return singular
    return plural_form if plural_form is not None else f"{singular}s"


def counted(count: int, singular: str, plural_form: str | None = None) -> str:
    """The count and its noun: "1 declared action", "0 declared actions"."""
    return f"{count} {plural(count, singular, plural_form)}"


def is_are(count: int) -> str:
    return plural(count, "is", "are")


def was_were(count: int) -> str:
    return plural(count, "was", "were")


def has_have(count: int) -> str:
    return plural(count, "has", "have")
