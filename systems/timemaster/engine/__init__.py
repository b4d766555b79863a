"""TIMEMASTER (Pacesetter, 1984): Time Corps agents.

The registry object ``SYSTEM`` gathers the engine: creation and validation (``creation``),
computed scores (``derived``), the sheet (``sheet``), the Action Table (``action_table``),
NPCs (``npcs``). Ledger entries go to ``advancement.apply_entry``, written separately and
imported only when needed so this package imports cleanly without it.
See README.md in this folder for the document shapes.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from characters.systems.base import Build, GameSystem, RuleViolation, SettingSpec, SheetData

from . import creation, derived
from . import sheet as sheet_module
from .campaign_settings import CREATION_SETTINGS

# Modules of the advancement engine that may offer campaign settings, and the names they use.
_SETTINGS_SOURCES = (("advancement_tables", "ADVANCEMENT_SETTINGS"), ("advancement", "SETTINGS"))


def _optional(module: str) -> Any:
    try:
        return importlib.import_module(f"{__name__}.{module}")
    except ImportError:
        return None


class Timemaster(GameSystem):
    key = "timemaster"
    label = "TIMEMASTER"

    @property
    def settings(self) -> tuple[SettingSpec, ...]:  # type: ignore[override]
        """Creation settings plus whatever the advancement engine offers."""
        specs = list(CREATION_SETTINGS)
        names = {spec.name for spec in specs}
        for module_name, attribute in _SETTINGS_SOURCES:
            module = _optional(module_name)
            for spec in getattr(module, attribute, ()) if module else ():
                if spec.name not in names:
                    specs.append(spec)
                    names.add(spec.name)
        return tuple(specs)

    @property
    def entry_kinds(self) -> tuple[str, ...]:  # type: ignore[override]
        module = _optional("advancement")
        return tuple(getattr(module, "ENTRY_KINDS", ())) if module else ()

    def new_build(
        self, choices: dict[str, Any], rng: random.Random, settings: dict[str, Any] | None = None
    ) -> Build:
        return creation.new_build(choices, rng, settings)

    def validate(
        self, build: Build, settings: dict[str, Any] | None = None, stage: str = "auto"
    ) -> list[RuleViolation]:
        return creation.validate(build, settings, stage)

    def review(
        self, build: Build, settings: dict[str, Any] | None = None, stage: str = "auto"
    ) -> creation.Review:
        """Errors, warnings, and the confirmations still waiting for the CM."""
        return creation.review_build(build, settings, stage)

    def validate_step(
        self, step: str, choices: dict[str, Any], settings: dict[str, Any] | None = None
    ) -> creation.Review:
        return creation.validate_step(step, choices, settings)

    def derive(self, build: Build) -> dict[str, Any]:
        return derived.derive(build)

    def apply(self, build: Build, entry: dict[str, Any]) -> Build:
        from .advancement import apply_entry  # imported here: written by the advancement engine

        return apply_entry(build, entry)

    def sheet(self, build: Build) -> SheetData:
        return sheet_module.sheet(build)


SYSTEM = Timemaster()

__all__ = ["SYSTEM", "Timemaster"]
