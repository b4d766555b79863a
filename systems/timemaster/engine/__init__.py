"""TIMEMASTER (Pacesetter, 1984): Time Corps agents.

The registry object ``SYSTEM`` gathers the engine: creation and validation (``creation``),
computed scores (``derived``), the sheet (``sheet``), the Action Table (``action_table``),
NPCs (``npcs``). Ledger entries go to ``advancement.apply_entry``, written separately and
imported only when needed so this package imports cleanly without it.
See README.md in this folder for the document shapes.
"""

from __future__ import annotations

import importlib
from typing import Any

from characters.systems.base import Build, Engine, GameSystem, Review, SettingSpec

from . import creation, derived
from . import rolls as roll_rules
from . import sheet as sheet_module
from .campaign_settings import CREATION_SETTINGS

# Modules of the advancement engine that may offer campaign settings, and the names they use.
_SETTINGS_SOURCES = (
    ("advancement_tables", "ADVANCEMENT_SETTINGS"),
    ("advancement", "SETTINGS"),
    ("combat", "COMBAT_SETTINGS"),
    ("recovery", "PLAY_SETTINGS"),
)


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

    new_build = staticmethod(creation.new_build)
    validate = staticmethod(creation.validate)  # stage: "auto" (by the build), or a wizard's stage
    review = staticmethod(creation.review_build)  # errors, warnings, confirmations still due
    derive = staticmethod(derived.derive)
    sheet = staticmethod(sheet_module.sheet)
    # Rolls from the agent's page: checks on the Action Table (rolls.py, timemaster-play.md §2-§3).
    rolls = staticmethod(roll_rules.rolls_of)
    roll_plan = staticmethod(roll_rules.plan_of)
    roll_reading = staticmethod(roll_rules.reading_of)

    def validate_step(
        self, step: str, choices: dict[str, Any], settings: dict[str, Any] | None = None
    ) -> Review:
        return creation.validate_step(step, choices, settings)

    def apply(self, build: Build, entry: dict[str, Any]) -> Build:
        from .advancement import apply_entry  # imported here: written by the advancement engine

        return apply_entry(build, entry)

    def is_dead(self, build: Build) -> bool | None:
        """Dead once the Luck check against death failed (recovery.py, timemaster-play.md §16)."""
        from .recovery import is_dead

        return is_dead(build)

    def replay(self, creation_build: Build, entries: list[dict[str, Any]]) -> Build:
        """Only some entries may be reversed (``advancement.REVERSIBLE_KINDS``)."""
        from .advancement import replay

        return replay(creation_build, entries)


# Typed as the contract, so mypy --strict checks this engine against the Engine protocol.
SYSTEM: Engine = Timemaster()

__all__ = ["SYSTEM", "Timemaster"]
