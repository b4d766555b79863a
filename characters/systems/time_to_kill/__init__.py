"""Time to Kill (time-to-kill.md): the ninja (``creation``, ``derived``, ``sheet``, ``ledger``) and the
mission as a pure state machine (``mission``) with its GM and player views (``views``).
See README.md in this folder for the document, entry, state and event shapes.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Build, GameSystem, RuleViolation, SheetData
from . import creation, derived, ledger, mission, views
from . import sheet as sheet_module
from .mission import apply_event, available_actions, mission_result_entry, new_mission, replay
from .settings import SETTINGS
from .views import blank_fate_record_sheet, fate_record_sheet, fate_record_sheet_data, gm_view, player_view


class TimeToKill(GameSystem):
    key = "time_to_kill"
    label = "Time to Kill"
    settings = SETTINGS
    entry_kinds = ledger.ENTRY_KINDS

    def new_build(
        self,
        choices: dict[str, Any],
        rng: random.Random | None = None,
        settings: dict[str, Any] | None = None,
    ) -> Build:
        """Creation rolls nothing and has no settings, so ``rng`` and ``settings`` are unused (§A2)."""
        return creation.new_build(choices)

    def validate(self, build: Build, settings: dict[str, Any] | None = None) -> list[RuleViolation]:
        return creation.validate(build)

    def derive(self, build: Build) -> dict[str, Any]:
        return derived.derive(build)

    def apply(self, build: Build, entry: dict[str, Any], settings: dict[str, Any] | None = None) -> Build:
        return ledger.apply_entry(build, entry, settings)

    def replay(
        self, creation_build: Build, entries: list[dict[str, Any]], settings: dict[str, Any] | None = None
    ) -> Build:
        return ledger.replay(creation_build, entries, settings)

    def is_dead(self, build: Build) -> bool:
        """A dead ninja stays in the campaign's records; the Django side marks the character dead."""
        return ledger.is_dead(build)

    def sheet(self, build: Build, mission_view: dict[str, Any] | None = None) -> SheetData:
        return sheet_module.sheet(build, mission_view)


SYSTEM = TimeToKill()

__all__ = [
    "SYSTEM",
    "TimeToKill",
    "apply_event",
    "available_actions",
    "blank_fate_record_sheet",
    "fate_record_sheet",
    "fate_record_sheet_data",
    "gm_view",
    "mission",
    "mission_result_entry",
    "new_mission",
    "player_view",
    "replay",
    "views",
]
