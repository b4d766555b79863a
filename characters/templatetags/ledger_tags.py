"""Readable names for ledger entries on the history pages: the engines' entry kinds and payload
keys are identifiers (``sp_awarded``); people read words."""

from __future__ import annotations

from django import template

register = template.Library()

#: Kinds whose plain reading would be unclear; every other kind reads as its words.
KIND_LABELS = {
    "sp_awarded": "Success Points awarded",
    "sp_spent": "Success Points spent",
    "times_visited_added": "Times Visited: a visit added",
    "free_choice_granted": "Free pick offered (new rank)",
    "free_choice_taken": "Free pick taken",
    "reversal": "Reversal",
}
#: Payload keys that repeat what the entry line already shows (the mission by its title).
HIDDEN_KEYS = {"mission"}


def _words(identifier: str) -> str:
    text = str(identifier).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def entry_kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind, _words(kind))


@register.simple_tag
def entry_sentence(entry, system: str) -> str:
    """The entry as the system's sentence ("Awarded 385 Success Points for ..."), or "" (the page
    then names its kind)."""
    from characters import registry

    app = registry.get(system)
    if app is None or entry.reverses_id:
        return ""
    return app.entry_sentence(
        entry.kind, entry.payload or {}, entry.mission.title if entry.mission_id else ""
    )


@register.filter
def payload_rows(entry) -> list[tuple[str, object]]:
    """The payload as (label, value) rows, without what the entry line already names."""
    payload = entry.payload or {}
    hidden = HIDDEN_KEYS if entry.mission_id else set()
    return [
        (_words(key).replace("Sp ", "SP ").replace(" sp", " SP"), value)
        for key, value in payload.items()
        if key not in hidden
    ]
