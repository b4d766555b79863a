"""The registry of Tempo modules. A module is data (see ``module_data``); registering one is all
that is needed for creation, validation, rolls and sheets to support it."""

from __future__ import annotations

from typing import Any

from characters.systems.base import refuse

from ..module_data import TempoModule, module_from_data
from .flashpoints import FLASHPOINTS

_REGISTRY: dict[str, TempoModule] = {FLASHPOINTS.key: FLASHPOINTS}


def register(module: TempoModule | dict[str, Any]) -> TempoModule:
    """Add a module (a TempoModule or its plain data); returns the loaded module."""
    if isinstance(module, dict):
        module = module_from_data(module)
    _REGISTRY[module.key] = module
    return module


def unregister(key: str) -> None:
    """Remove a module (tests use this to clean up after a data-only module)."""
    if key == FLASHPOINTS.key:
        raise ValueError("the Flashpoints module is built in")
    _REGISTRY.pop(key, None)


def module_keys() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def get_module(key: object) -> TempoModule:
    """The module named ``key``; refused with a RuleError when there is none."""
    module = _REGISTRY.get(key) if isinstance(key, str) else None
    if module is None:
        known = ", ".join(_REGISTRY)
        raise refuse("module", f"There is no Tempo module called {key!r} (known: {known}).")
    return module


__all__ = ["FLASHPOINTS", "get_module", "module_keys", "register", "unregister"]
