"""Flashpoints: Cold War espionage, the first Tempo module (tempo-flashpoints.md §A2)."""

from __future__ import annotations

from ...module_data import module_from_data
from .tables import FLASHPOINTS_DATA

FLASHPOINTS = module_from_data(FLASHPOINTS_DATA)

__all__ = ["FLASHPOINTS", "FLASHPOINTS_DATA"]
