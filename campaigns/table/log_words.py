"""The roll log's words, for templates (campaigns.templatetags.dice_words) and for the print
(the chronicle book): a dice kind in words, a roll's "rolled ..." phrase with the system's words
first, and the system's template of a roll's detail."""

from __future__ import annotations

from characters import registry
from characters.systems.dice import KIND_WORDS


def dice_kind(kind: str) -> str:
    return KIND_WORDS.get(kind, kind)


def roll_words(roll, system: str) -> str:
    """``{{ r|roll_words:campaign.system }}``: what a log line says the roll threw: the system's
    own words where it has them (SystemApp.roll_words: Tempo names the rating it adds), else the
    kind in words, the count and the modifier ("d6 ×2 +1")."""
    app = registry.get(system)
    words = app.roll_words_of(roll) if app is not None else ""
    if words:
        return words
    words = dice_kind(roll.kind) + (f" ×{roll.count}" if roll.count > 1 else "")
    return words + (f" {roll.modifier:+d}" if roll.modifier else "")


def roll_detail_template(system: str) -> str:
    """``{{ campaign.system|roll_detail_template }}``: the template the log includes for a roll's
    detail in this system's campaigns (characters.registry: SystemApp.roll_detail_template), or ""."""
    app = registry.get(system)
    return app.roll_detail_template if app is not None else ""
