"""Blank character sheets for groups who play on paper: the same print templates, every box empty.

Each system supplies its own (``SystemApp.blank_sheet``, by convention ``systems/<x>/sheets.py``'s
``blank_sheet``), with labels and reference panels from its engine's tables, so a blank sheet
names the same abilities, roles and tables as a filled one; nothing about any character (and
nothing a GM keeps secret) is in them, so every member of a campaign may print one.
"""

from __future__ import annotations

from characters import registry
from characters.systems import SheetData

TITLE = "Blank sheet"
#: Said when a campaign's system supplies no blank sheet.
NO_BLANK_SHEET = "This campaign's game has no blank sheet."


def rows(count: int) -> list[None]:
    """Write-in rows for a template loop."""
    return [None] * count


def has_blank_sheet(system: str) -> bool:
    app = registry.get(system)
    return app is not None and bool(app.blank_sheet)


def blank_sheet(system: str, module: str = "") -> SheetData:
    """The blank character sheet of ``system`` (of its ``module`` where the system has modules);
    KeyError for a system that supplies none."""
    app = registry.get(system)
    if app is None or not app.blank_sheet:
        raise KeyError(system)
    return registry.call(app.blank_sheet, module)
