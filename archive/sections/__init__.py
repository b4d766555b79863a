"""The parts of a campaign archive, one module per kind of data.

A section is a module with:

- ``KEY``: its key in the campaign archive (``"missions"``),
- ``export(campaign, refs) -> JSON-able``: what the campaign holds; it records the archive position
  of every row other sections may point at (``refs.remember("missions", pk, position)``),
- ``validate(data, document) -> list[Problem]``: structure only, no database; ``document`` is the
  whole archive, for references into other sections,
- ``load(campaign, data, refs)``: create the rows in the new campaign, raising ArchiveRefused
  with every problem found (the caller holds the transaction, so nothing stays on a refusal);
  it records what it made (``refs.made("missions", position, row)``) for later sections.

``sections()`` lists them in dependency order (a section may point only at sections before it):
the platform's own (PLATFORM_SECTIONS) and each installed game system's, which the registry names
(``SystemApp.archive_sections``; by the folder's convention the system's ``archive`` module, e.g.
``systems/tempo/archive.py``). A system's section goes after the platform's unless it sets
``BEFORE`` to the key of the platform section it must precede (a play record that rolls name in
their ``detail`` comes before the rolls). A section that records archive positions other records
point at by key sets
``REFERENCE`` (an ``archive.references`` kind) and has ``ordered(campaign)``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from archive import references
from archive.sections import (
    characters,
    fair_dice,
    fair_dice_scopes,
    members,
    mission_records,
    missions,
    npcs,
    play_sessions,
    rolls,
    rolls_by_hand,
)
from characters import registry


@dataclass
class ExportRefs:
    """pk -> archive position, per section, so rows can point at each other without database ids."""

    positions: dict[str, dict[int, int]] = field(default_factory=dict)
    #: Keys for the ids inside payloads, builds and outcomes (archive.references).
    keys: references.ExportKeys = field(default_factory=references.ExportKeys)

    def remember(self, section: str, pk: int, position: int) -> None:
        self.positions.setdefault(section, {})[pk] = position

    def position(self, section: str, pk: int | None) -> int | None:
        if pk is None:
            return None
        return self.positions.get(section, {}).get(pk)


@dataclass
class ImportRefs:
    """What an import made so far: archive position -> new row, and the accounts by username."""

    by: Any  # the user importing
    trusted: bool = False  # an administrator's import (manage.py): every member comes back
    #: The accounts records may name, by username: who the import brings in, nobody else.
    users: dict[str, Any] = field(default_factory=dict)
    rows: dict[str, dict[int, Any]] = field(default_factory=dict)
    #: Names the archive gives that are not in ``users``, in the order met (a dict as an ordered set).
    left_out: dict[str, None] = field(default_factory=dict)

    def made(self, section: str, position: int, row: Any) -> None:
        self.rows.setdefault(section, {})[position] = row

    def row(self, section: str, position: int | None) -> Any:
        if position is None:
            return None
        return self.rows.get(section, {}).get(position)

    def user(self, username: str | None) -> Any:
        """The account a record names, or None (and the name noted) if the import did not bring
        it in."""
        if not username:
            return None
        found = self.users.get(username)
        if found is None:
            self.left_out.setdefault(username, None)
        return found


#: The platform's sections in dependency order: members before anything owned by a user, missions
#: before what points at them.
PLATFORM_SECTIONS: tuple[ModuleType, ...] = (
    members,
    missions,
    characters,
    npcs,
    rolls,
    mission_records,
    play_sessions,
)
#: Platform sections that come after every system's (the fair-dice proofs name rolls a system's
#: section may have touched); optional, like the systems' (docs/export-format.md).
PLATFORM_TAIL_SECTIONS: tuple[ModuleType, ...] = (fair_dice_scopes, fair_dice, rolls_by_hand)

#: Records of the project that format version 1 does not carry. Each would be one module here (its
#: rows point at missions and characters by position, like ``rolls``) plus a line in SECTIONS.
#: Left out on purpose: invitations (short-lived secrets) and sheet renders (made again on demand).
MISSING_SECTIONS: tuple[str, ...] = ()


def system_sections() -> tuple[ModuleType, ...]:
    """The archive sections of the installed game systems, in INSTALLED_APPS order."""
    return tuple(
        importlib.import_module(module) for app in registry.installed() for module in app.archive_sections
    )


def sections() -> tuple[ModuleType, ...]:
    """Every section in dependency order: the platform's, each system's placed before the platform
    section it names in ``BEFORE`` or else after all of them (in INSTALLED_APPS order)."""
    platform_keys = {section.KEY for section in PLATFORM_SECTIONS}
    before: dict[str, list[ModuleType]] = {}
    after: list[ModuleType] = []
    for section in system_sections():
        anchor = getattr(section, "BEFORE", "")
        if anchor and anchor not in platform_keys:
            raise ValueError(f"Archive section {section.KEY!r}: BEFORE names no platform section {anchor!r}")
        (before.setdefault(anchor, []) if anchor else after).append(section)
    ordered: list[ModuleType] = []
    for section in PLATFORM_SECTIONS:
        ordered.extend(before.get(section.KEY, ()))
        ordered.append(section)
    return (*ordered, *after, *PLATFORM_TAIL_SECTIONS)


def optional_sections() -> tuple[str, ...]:
    """Keys of the systems' sections: optional, so a file written before one of them existed, or
    where that system was not installed (which has no such key), still imports, with none of those
    records."""
    return (
        *(section.KEY for section in system_sections()),
        *(section.KEY for section in PLATFORM_TAIL_SECTIONS),
    )


def __getattr__(name: str) -> Any:
    # SECTIONS and OPTIONAL_SECTIONS as before, worked out from the registry when asked for (a
    # test's toy system may be installed and uninstalled again).
    if name == "SECTIONS":
        return sections()
    if name == "OPTIONAL_SECTIONS":
        return optional_sections()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def export_keys(campaign) -> references.ExportKeys:
    """Keys for a campaign archive: the records it holds by position, worked out when first needed
    (outcomes name characters before the characters section is written, ledgers runs and rolls)."""

    def held(queryset):
        return lambda: references.positions_in_order(queryset.values_list("pk", flat=True).iterator())

    return references.ExportKeys(
        held={
            section.REFERENCE: held(section.ordered(campaign))
            for section in sections()
            if getattr(section, "REFERENCE", "")
        }
    )


def reference_sections() -> dict[str, str]:
    """Reference kind -> the key of the section whose records it points at (the sections that set
    ``REFERENCE``: the platform's missions, characters and rolls, and a system's play records)."""
    return {section.REFERENCE: section.KEY for section in sections() if getattr(section, "REFERENCE", "")}


def roll_details() -> tuple[ModuleType, ...]:
    """The system sections whose records a roll's ``detail`` names (``ROLL_DETAIL``: the detail key
    holding the record's database id, in the archive its position) or that a roll's detail names by
    a database id never carried in or out (``ROLL_DETAIL_DROPPED``)."""
    return tuple(
        section
        for section in system_sections()
        if getattr(section, "ROLL_DETAIL", "") or getattr(section, "ROLL_DETAIL_DROPPED", "")
    )


def section_keys() -> tuple[str, ...]:
    return tuple(section.KEY for section in sections())
