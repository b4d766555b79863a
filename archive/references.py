"""References inside ledger payloads, builds and mission outcomes, as archive-local keys (format 3).

The engines name missions, agents, play records and dice-log rolls by the ids the server gave
them, and keep those ids in what they fold: an agent's ``mission_started`` entry and the mission
lists of its build, a closed mission's outcome (its agents by character id), the result of a play
record, a fate point made by a roll. An archive holds none of those ids. Each becomes a key that
says what it points at:

- ``"mission:3"``, ``"character:0"``, ``"roll:17"`` (and a system's own kinds, such as a play
  record's): the record at that position of the archive section whose ``REFERENCE`` is that kind
  (``missions``, ``characters``, ``rolls``, or the system's section);
- ``"mission:~1"``, ``"roll:~1"``: a record the document does not hold (always so in a character
  document; in a campaign archive, one the exporting server no longer had, such as the missions of
  a history imported from a character document), numbered from 1 per kind in the order first
  met, the same record under the same key throughout the document.

Import gives a held record's key the id of the row it made; a key of a record not held is stored
as it is: it names no row and can never equal an id a server hands out, so a new mission is never
taken for one an imported history already went on. Where each system's engine writes ids is the
system's to say: the ``SPOTS`` of its ``archive_format`` module (``SystemApp.archive_format``),
read from its ledger shapes.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from archive.problems import Problem, join
from characters import registry

MISSION, CHARACTER, ROLL = "mission", "character", "roll"
KEY_PATTERN = re.compile(r"^([a-z][a-z0-9_]{0,39}):(~?)(\d{1,9})$")
#: A fate point written by a roll may say so in its reason: "Roll <id>: <role>".
ROLL_REASON = re.compile(r"^Roll (\S+): ")

#: change(kind, value, path) -> the value to write instead (None stays None).
Change = Callable[[str, Any, str], Any]


def _unchanged_build(build: Any, change: Change, path: str) -> Any:
    return build


@dataclass(frozen=True)
class Spots:
    """Where one system's engine keeps ids: a payload field per entry kind (None: every kind that
    has the field), and a function rewriting the ids a build holds."""

    payload_field: str = ""
    payload_kind: str = MISSION
    entry_kinds: tuple[str, ...] | None = None
    build: Callable[[Any, Change, str], Any] = _unchanged_build
    #: The roll named in the reason too ("Roll <id>: ..."), as a fate point made by a roll says it.
    roll_in_reason: bool = False


def archive_format(system: Any) -> ModuleType | None:
    """The installed system's ``archive_format`` module (SystemApp.archive_format), if it has one."""
    app = registry.get(system) if isinstance(system, str) else None
    if app is None or not app.archive_format:
        return None
    return importlib.import_module(app.archive_format)


def archive_formats() -> list[ModuleType]:
    """The ``archive_format`` modules of every installed system that has one."""
    return [importlib.import_module(app.archive_format) for app in registry.installed() if app.archive_format]


def spots_of(system: Any) -> Spots | None:
    """Where ``system``'s engine keeps ids; None when it keeps none (or is not installed)."""
    found = getattr(archive_format(system), "SPOTS", None)
    return found if isinstance(found, Spots) else None


def changed_field(item: Any, name: str, kind: str, change: Change, path: str) -> Any:
    if not isinstance(item, dict) or item.get(name) is None:
        return item
    return {**item, name: change(kind, item[name], join(path, name))}


def character(data: Any, change: Change, path: str = "") -> Any:
    """A character (document body or archive item) with every id its engine keeps changed."""
    if not isinstance(data, dict):
        return data
    spots = spots_of(data.get("system"))
    if spots is None:
        return data
    data = dict(data)
    for name in ("creation_build", "build"):
        if name in data:
            data[name] = spots.build(data[name], change, join(path, name))
    if isinstance(data.get("ledger"), list):
        data["ledger"] = [
            entry_of(spots, entry, change, join(join(path, "ledger"), index))
            for index, entry in enumerate(data["ledger"])
        ]
    return data


def entry_of(spots: Spots, entry: Any, change: Change, path: str) -> Any:
    if not isinstance(entry, dict) or not isinstance(entry.get("payload"), dict):
        return entry
    if spots.entry_kinds is not None and entry.get("kind") not in spots.entry_kinds:
        return entry
    payload = entry["payload"]
    old = payload.get(spots.payload_field)
    if old is None:
        return entry
    new = change(spots.payload_kind, old, join(join(path, "payload"), spots.payload_field))
    entry = {**entry, "payload": {**payload, spots.payload_field: new}}
    reason = entry.get("reason")
    if spots.roll_in_reason and isinstance(reason, str):
        found = ROLL_REASON.match(reason)
        if found and found.group(1) == str(old):
            entry["reason"] = f"Roll {new}: " + reason[found.end() :]
    return entry


def outcome(data: Any, change: Change, path: str) -> Any:
    """A mission outcome as a campaign's mission stores it: its mission, its agents (by character),
    and the ledger entries it writes for each agent."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    if data.get("mission") is not None:
        data["mission"] = change(MISSION, data["mission"], join(path, "mission"))
    if isinstance(data.get("awards"), list):
        data["awards"] = [
            changed_field(award, "agent", CHARACTER, change, join(join(path, "awards"), index))
            for index, award in enumerate(data["awards"])
        ]
    ledger = data.get("ledger")
    if isinstance(ledger, dict):
        where = join(path, "ledger")
        data["ledger"] = {
            change(CHARACTER, agent, join(where, agent)): [
                changed_field(entry, "mission", MISSION, change, join(join(where, agent), index))
                for index, entry in enumerate(entries)
            ]
            if isinstance(entries, list)
            else entries
            for agent, entries in ledger.items()
        }
    return data


def mission(data: Any, change: Change, path: str) -> Any:
    """An archive mission with its outcome and earlier outcomes changed."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    if "outcome" in data:
        data["outcome"] = outcome(data["outcome"], change, join(path, "outcome"))
    if isinstance(data.get("previous_outcomes"), list):
        data["previous_outcomes"] = [
            outcome(item, change, join(join(path, "previous_outcomes"), index))
            for index, item in enumerate(data["previous_outcomes"])
        ]
    return data


# -- export: database ids to keys --------------------------------------------------------------------
def as_id(value: Any) -> int | None:
    """The database id a stored reference holds (engines keep it as a number or its text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 19:
        return int(value)
    return None


@dataclass
class ExportKeys:
    """Keys for the ids a document's payloads, builds and outcomes hold. ``held[kind]`` gives the
    positions of the records the document holds (pk -> position), worked out when first needed."""

    held: dict[str, Callable[[], dict[int, int]]] = field(default_factory=dict)
    _positions: dict[str, dict[int, int]] = field(default_factory=dict)
    _foreign: dict[str, dict[Any, str]] = field(default_factory=dict)

    def positions(self, kind: str) -> dict[int, int]:
        if kind not in self._positions:
            self._positions[kind] = self.held[kind]() if kind in self.held else {}
        return self._positions[kind]

    def key(self, kind: str, value: Any, path: str = "") -> Any:
        if value is None:
            return None
        pk = as_id(value)
        if pk is not None and pk in self.positions(kind):
            return f"{kind}:{self.positions(kind)[pk]}"
        foreign = self._foreign.setdefault(kind, {})
        token = str(value)
        if token not in foreign:
            foreign[token] = f"{kind}:~{len(foreign) + 1}"
        return foreign[token]


def positions_in_order(pks: Iterable[int]) -> dict[int, int]:
    return {pk: position for position, pk in enumerate(pks)}


# -- import: structure, then keys to the new ids ---------------------------------------------------
def problems_in(
    document_part: Any,
    walk: Callable[[Any, Change, str], Any],
    path: str,
    held: dict[str, int],
    sections: Mapping[str, str],
) -> list[Problem]:
    """Every reference in ``document_part`` that is not a key, or names a record the document does
    not hold (``held[kind]``: how many records of that kind it holds; 0 in a character document).
    ``sections``: reference kind -> the section its records are in (archive.sections'
    ``reference_sections()``, given by the caller: the sections import this module, not the reverse)."""
    problems: list[Problem] = []

    def check(kind: str, value: Any, where: str) -> Any:
        problem = key_problem(kind, value, held, sections)
        if problem:
            problems.append(Problem(where, problem))
        return value

    walk(document_part, check, path)
    return problems


def key_problem(kind: str, value: Any, held: dict[str, int], sections: Mapping[str, str]) -> str:
    found = KEY_PATTERN.match(value) if isinstance(value, str) else None
    section = sections.get(kind, f"{kind}s")
    example = f'"{kind}:0" (a position in {section}) or "{kind}:~1" (a {kind} not in the file)'
    if found is None or found.group(1) != kind:
        return f"must name a {kind.replace('_', ' ')} by its archive key, {example}; found {value!r}."
    if found.group(2) == "~":
        if kind == CHARACTER:  # an outcome's agents are characters of the same archive
            return (
                f'names an agent who is not in the file; an agent is "character:<position>", found {value!r}.'
            )
        return (
            "" if int(found.group(3)) >= 1 else f"keys of records not in the file count from 1 ({example})."
        )
    count = held.get(kind, 0)
    if int(found.group(3)) >= count:
        where = f"the {count} records of {section}" if count else f"no {section} in this file"
        return f'{value!r} points past {where}; a {kind} not in the file is "{kind}:~<n>".'
    return ""


def resolver(new_ids: dict[str, Callable[[int], Any]]) -> Change:
    """change() giving a held key the id of the row the import made (``new_ids[kind](position)``);
    a key of a record not held stays as it is."""

    def change(kind: str, value: Any, path: str) -> Any:
        found = KEY_PATTERN.match(value) if isinstance(value, str) else None
        if found is None or found.group(2) == "~" or kind not in new_ids:
            return value
        return new_ids[kind](int(found.group(3)))

    return change
