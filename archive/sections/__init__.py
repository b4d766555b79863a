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

SECTIONS lists them in dependency order (a section may point only at sections before it). Adding
the records of a new app is one module here plus one line in SECTIONS; the app must sit below
``archive`` in the layers (it does, for every app of the project).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from archive import references
from archive.sections import (
    characters,
    d6_encounters,
    fair_dice,
    members,
    mission_records,
    missions,
    npcs,
    rolls,
    rolls_by_hand,
    tempo_conflicts,
    ttk_runs,
)


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


#: In dependency order: members before anything owned by a user, missions before what points at them.
#: D6 encounters point at characters and are named by the rolls made in them; Time to Kill runs
#: point at characters' ledger entries, Tempo conflicts at rolls.
SECTIONS = (
    members,
    missions,
    characters,
    npcs,
    d6_encounters,
    rolls,
    mission_records,
    ttk_runs,
    tempo_conflicts,
    fair_dice,
    rolls_by_hand,
)
#: Sections added within format version 1: optional, so a version-1 file written before them (which
#: has no such key) still imports, with none of those records.
OPTIONAL_SECTIONS = (ttk_runs.KEY, tempo_conflicts.KEY, d6_encounters.KEY, fair_dice.KEY, rolls_by_hand.KEY)

#: Records of the project that format version 1 does not carry. Each would be one module here (its
#: rows point at missions and characters by position, like ``rolls``) plus a line in SECTIONS.
#: Left out on purpose: invitations (short-lived secrets) and sheet renders (made again on demand).
MISSING_SECTIONS: tuple[str, ...] = ()


def export_keys(campaign) -> references.ExportKeys:
    """Keys for a campaign archive: the records it holds by position, worked out when first needed
    (outcomes name characters before the characters section is written, ledgers runs and rolls)."""

    def held(queryset):
        return lambda: references.positions_in_order(queryset.values_list("pk", flat=True).iterator())

    return references.ExportKeys(
        held={
            references.MISSION: held(missions.ordered(campaign)),
            references.CHARACTER: held(characters.ordered(campaign)),
            references.TTK_RUN: held(ttk_runs.ordered(campaign)),
            references.ROLL: held(rolls.ordered(campaign)),
        }
    )


def section_keys() -> tuple[str, ...]:
    return tuple(section.KEY for section in SECTIONS)
