"""Time to Kill (time-to-kill.md): the ninja (``creation``, ``derived``, ``sheet``, ``ledger``) and the
mission as a pure state machine (``mission``) with its GM and player views (``visibility``).
See README.md in this folder for the document, entry, state and event shapes.
"""

from __future__ import annotations

import random
from typing import Any

from characters.systems.base import Build, Engine, GameSystem, RuleViolation

from . import creation, derived, ledger, mission, visibility
from . import sheet as sheet_module
from . import sheet_rolls as roll_rules
from .campaign_settings import SETTINGS
from .mission import apply_event, available_actions, mission_result_entry, new_mission, replay
from .visibility import (
    blank_fate_record_sheet,
    fate_record_sheet,
    fate_record_sheet_data,
    gm_view,
    player_view,
)


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

    derive = staticmethod(derived.derive)
    apply = staticmethod(ledger.apply_entry)  # settings: survivor_rebuild

    replay = staticmethod(ledger.replay)  # each entry's violations named under it, settings passed on
    # A dead ninja stays in the campaign's records; the Django side marks the character dead.
    is_dead = staticmethod(ledger.is_dead)
    sheet = staticmethod(sheet_module.sheet)  # mission_view: a player_view fills the mission boxes
    # Rolls from the ninja's page: abilities on the Action Table (sheet_rolls.py, §B7).
    rolls = staticmethod(roll_rules.rolls)
    roll_plan = staticmethod(roll_rules.plan)
    roll_reading = staticmethod(roll_rules.reading)


# Typed as the contract, so mypy --strict checks this engine against the Engine protocol.
SYSTEM: Engine = TimeToKill()

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
    "visibility",
]
