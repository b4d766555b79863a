"""Pure rule engines, one package per game system, reached through a small registry.

Importing this package never imports Django (tests/systems/test_purity.py checks it).
"""

from __future__ import annotations

import importlib

from .base import Engine, GameSystem, Review, RuleError, RuleViolation, SettingSpec, SheetData

# key -> module that defines a module-level ``SYSTEM`` (an Engine, made from GameSystem)
_MODULES: dict[str, str] = {
    "timemaster": "systems.timemaster.engine",
    "time_to_kill": "systems.time_to_kill.engine",
    "tempo": "systems.tempo.engine",
    "d6": "systems.d6.engine",
}


class UnknownSystem(KeyError):
    pass


def register_engine(key: str, module_name: str) -> None:
    """Add (or confirm) the engine of a system app: its AppConfig.ready() calls this through
    characters.registry.register, so a new system needs no line here."""
    _MODULES[key] = module_name


def unregister_engine(key: str) -> None:
    _MODULES.pop(key, None)


def get_system(key: str) -> Engine:
    """The engine of the game system called ``key``; UnknownSystem if there is none."""
    try:
        module_name = _MODULES[key]
    except (KeyError, TypeError):
        raise UnknownSystem(key) from None
    system: Engine = importlib.import_module(module_name).SYSTEM
    return system


def all_systems() -> list[Engine]:
    return [get_system(key) for key in _MODULES]


def system_choices() -> list[tuple[str, str]]:
    """(key, label) of every registered system: the choices of the ``system`` fields. The model
    fields take this function itself (Django calls it), so a new system needs no migration."""
    return [(system.key, system.label) for system in all_systems()]


__all__ = [
    "Engine",
    "GameSystem",
    "Review",
    "RuleError",
    "RuleViolation",
    "SettingSpec",
    "SheetData",
    "UnknownSystem",
    "all_systems",
    "get_system",
    "system_choices",
    "register_engine",
    "unregister_engine",
]
