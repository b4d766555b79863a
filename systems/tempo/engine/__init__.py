"""Tempo (core, v0.1 draft) with its Flashpoints module (tempo-flashpoints.md).

The registry object ``SYSTEM`` gathers the engine: creation and validation (``creation``),
computed values (``derived``), the agent sheet (``sheet``), rolls (``roll``), fate points
(``fate``), ledger entries (``ledger``) and conflicts (``conflict``). Modules are data
(``module_data``, ``modules``). See README.md in this folder for the document shapes.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, Engine, GameSystem, RuleViolation

from . import creation, derived, ledger
from . import sheet as sheet_module
from . import sheet_rolls as roll_rules
from .campaign_settings import SETTINGS


class Tempo(GameSystem):
    key = "tempo"
    label = "Tempo"
    modules = ("flashpoints",)
    settings = SETTINGS
    entry_kinds = ledger.ENTRY_KINDS

    # The contract's members, each one of the engine's rule functions.
    new_build = staticmethod(creation.new_build)
    derive = staticmethod(derived.derive)
    apply = staticmethod(ledger.apply_entry)
    sheet = staticmethod(sheet_module.sheet)
    # Rolls from the agent's page: roles and aspects (sheet_rolls.py, tempo-flashpoints.md §B1-§B7).
    rolls = staticmethod(roll_rules.rolls)
    roll_plan = staticmethod(roll_rules.plan)
    roll_reading = staticmethod(roll_rules.reading)

    def validate(self, build: Build, settings: dict[str, Any] | None = None) -> list[RuleViolation]:
        """A finished agent (creation's "final" stage); the settings change nothing here."""
        return creation.validate(build, "final")

    def validate_partial(self, choices: dict[str, Any]) -> list[RuleViolation]:
        """For a live builder: problems in what is filled in so far, nothing about the rest."""
        return creation.validate_partial(choices)


# Typed as the contract, so mypy --strict checks this engine against the Engine protocol.
SYSTEM: Engine = Tempo()

__all__ = ["SYSTEM", "Tempo"]
