"""D6 System, "Game Time" chapter (d6-game-time.md; rules README ruling 8).

The registry object ``SYSTEM`` gathers the engine: die codes (``dicecode``), the character build
(``creation``, ``derived``, ``ledger``, ``sheet``), initiative (``initiative``) and the encounter
state machine (``encounter``). See README.md in this folder for the document shapes.
"""

from __future__ import annotations

import random
from typing import Any

from characters.systems.base import Build, GameSystem, RuleViolation, SheetData

from . import creation, derived, ledger
from . import sheet as sheet_module
from .campaign_settings import SETTINGS


class D6System(GameSystem):
    key = "d6"
    label = "D6 System"
    settings = SETTINGS
    entry_kinds = ledger.ENTRY_KINDS

    def new_build(
        self,
        choices: dict[str, Any],
        rng: random.Random | None = None,
        settings: dict[str, Any] | None = None,
    ) -> Build:
        return creation.new_build(choices, rng, settings)

    def validate(self, build: Build) -> list[RuleViolation]:
        return creation.validate(build)

    def derive(self, build: Build, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        return derived.derive(build, settings)

    def apply(self, build: Build, entry: dict[str, Any]) -> Build:
        return ledger.apply_entry(build, entry)

    def replay(self, creation_build: Build, entries: list[dict[str, Any]]) -> Build:
        return ledger.replay(creation_build, entries)

    def sheet(self, build: Build, settings: dict[str, Any] | None = None) -> SheetData:
        return sheet_module.sheet(build, settings)


SYSTEM = D6System()

__all__ = ["SYSTEM", "D6System"]
