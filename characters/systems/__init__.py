"""Pure rule engines, one package per game system, reached through a small registry.

Under Django each installed system app registers its engine (characters.registry.register, from
its AppConfig.ready()). Code that runs without Django (a script, an engine's tests) finds the
engines by the folder's convention instead: every ``systems/<key>/engine`` package, the folder's
name being the system's key. Importing this package never imports Django
(tests/systems/test_purity.py checks it).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil

from .base import Engine, GameSystem, Review, RuleError, RuleViolation, SettingSpec, SheetData

# key -> module that defines a module-level ``SYSTEM`` (an Engine, made from GameSystem), as the
# system apps registered them; empty until one does (then the folders' engines are used).
_MODULES: dict[str, str] = {}
#: Where the folders of the game systems live (the convention's package).
SYSTEMS_PACKAGE = "systems"


@functools.cache
def discovered_engines() -> dict[str, str]:
    """key -> engine module of every ``systems/<key>/engine`` package, in the folders' name order:
    the engines when no system app has registered (no Django)."""
    spec = importlib.util.find_spec(SYSTEMS_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return {}
    found = {}
    for folder in sorted(pkgutil.iter_modules(spec.submodule_search_locations), key=lambda m: m.name):
        module = f"{SYSTEMS_PACKAGE}.{folder.name}.engine"
        if folder.ispkg and importlib.util.find_spec(module) is not None:
            found[folder.name] = module
    return found


def _modules() -> dict[str, str]:
    return _MODULES or discovered_engines()


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
        module_name = _modules()[key]
    except (KeyError, TypeError):
        raise UnknownSystem(key) from None
    system: Engine = importlib.import_module(module_name).SYSTEM
    return system


def all_systems() -> list[Engine]:
    return [get_system(key) for key in _modules()]


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
    "discovered_engines",
    "get_system",
    "system_choices",
    "register_engine",
    "unregister_engine",
]
