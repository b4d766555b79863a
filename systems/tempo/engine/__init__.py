"""Tempo (core, v0.1 draft) with its Flashpoints module (tempo-flashpoints.md).

The registry object ``SYSTEM`` gathers the engine: creation and validation (``creation``),
computed values (``derived``), the agent sheet (``sheet``), rolls (``roll``), fate points
(``fate``), ledger entries (``ledger``) and conflicts (``conflict``). Modules are data
(``module_data``, ``modules``). See README.md in this folder for the document shapes.
"""

from __future__ import annotations

import random
from typing import Any

from characters.systems.base import Build, GameSystem, RuleViolation, SheetData

from . import creation, derived, ledger
from . import sheet as sheet_module
from .campaign_settings import SETTINGS


class Tempo(GameSystem):
    key = "tempo"
    label = "Tempo"
    modules = ("flashpoints",)
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
        return creation.validate(build, "final")

    def validate_partial(self, choices: dict[str, Any]) -> list[RuleViolation]:
        """For a live builder: problems in what is filled in so far, nothing about the rest."""
        return creation.validate_partial(choices)

    def derive(self, build: Build) -> dict[str, Any]:
        return derived.derive(build)

    def apply(self, build: Build, entry: dict[str, Any]) -> Build:
        return ledger.apply_entry(build, entry)

    def replay(self, creation_build: Build, entries: list[dict[str, Any]]) -> Build:
        return ledger.replay(creation_build, entries)

    def sheet(self, build: Build) -> SheetData:
        return sheet_module.sheet(build)


SYSTEM = Tempo()

__all__ = ["SYSTEM", "Tempo"]
