"""Pure rule engines, one package per game system, reached through a small registry.

Importing this package never imports Django (tests/systems/test_purity.py checks it).
"""

from __future__ import annotations

import importlib

from .base import GameSystem, RuleError, RuleViolation, SettingSpec, SheetData

# key -> module that defines a module-level ``SYSTEM`` (a GameSystem instance)
_MODULES = {
    "timemaster": "systems.timemaster.engine",
    "time_to_kill": "systems.time_to_kill.engine",
    "tempo": "systems.tempo.engine",
    "d6": "systems.d6.engine",
}

SYSTEM_CHOICES = (
    ("timemaster", "TIMEMASTER"),
    ("time_to_kill", "Time to Kill"),
    ("tempo", "Tempo"),
    ("d6", "D6 System"),
)


class UnknownSystem(KeyError):
    pass


def register_engine(key: str, module_name: str) -> None:
    """Add (or confirm) the engine of a system app: its AppConfig.ready() calls this through
    characters.registry.register, so a new system needs no line here."""
    _MODULES[key] = module_name


def unregister_engine(key: str) -> None:
    _MODULES.pop(key, None)


def get_system(key: str) -> GameSystem:
    try:
        module_name = _MODULES[key]
    except (KeyError, TypeError):
        raise UnknownSystem(key) from None
    return importlib.import_module(module_name).SYSTEM


def all_systems() -> list[GameSystem]:
    return [get_system(key) for key in _MODULES]


__all__ = [
    "GameSystem",
    "RuleError",
    "RuleViolation",
    "SettingSpec",
    "SheetData",
    "SYSTEM_CHOICES",
    "UnknownSystem",
    "all_systems",
    "get_system",
    "register_engine",
    "unregister_engine",
]
