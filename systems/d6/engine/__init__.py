"""D6 System, "Game Time" chapter (d6-game-time.md; rules README ruling 8).

The registry object ``SYSTEM`` gathers the engine: die codes (``dicecode``), the character build
(``creation``, ``derived``, ``ledger``, ``sheet``), initiative (``initiative``) and the encounter
state machine (``encounter``). See README.md in this folder for the document shapes.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, Engine, GameSystem, RuleViolation

from . import creation, derived, ledger
from . import sheet as sheet_module
from . import sheet_rolls as roll_rules
from .campaign_settings import SETTINGS


class D6System(GameSystem):
    key = "d6"
    label = "D6 System"
    settings = SETTINGS
    entry_kinds = ledger.ENTRY_KINDS

    # The contract's members, each one of the engine's rule functions.
    new_build = staticmethod(creation.new_build)
    derive = staticmethod(derived.derive)  # settings: the optional initiative bonus
    apply = staticmethod(ledger.apply_entry)
    sheet = staticmethod(sheet_module.sheet)
    # Rolls from the character's page: every die code (sheet_rolls.py, d6-game-time.md §A1, §B8).
    rolls = staticmethod(roll_rules.rolls)
    roll_plan = staticmethod(roll_rules.plan)
    roll_reading = staticmethod(roll_rules.reading)

    def validate(self, build: Build, settings: dict[str, Any] | None = None) -> list[RuleViolation]:
        return creation.validate(build)


# Typed as the contract, so mypy --strict checks this engine against the Engine protocol.
SYSTEM: Engine = D6System()

__all__ = ["SYSTEM", "D6System"]
