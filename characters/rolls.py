"""Who may roll from a character page, and the rolls the page offers them (Engine.rolls). The
roll itself is made by campaigns.table.sheet_rolls, which logs it on the campaign's fair dice."""

from __future__ import annotations

from characters import services
from characters.models import Character
from characters.systems import RuleError
from characters.systems.base import RollSpec


def may_roll(character: Character, membership) -> bool:
    """The character's player or the campaign's game master rolls for a finished character;
    observers and other players do not."""
    if membership is None or character.is_draft or not membership.at_least("player"):
        return False
    return bool(membership.is_gm or character.owner_id == membership.user_id)


def roll_specs(character: Character, membership) -> dict[str, RollSpec]:
    """The rolls the page offers this reader, by key ({} when the reader may not roll)."""
    if not may_roll(character, membership):
        return {}
    try:
        specs = services.system_of(character).rolls(character.build, character.campaign.settings)
    except RuleError:
        return {}
    return {spec.key: spec for spec in specs}
