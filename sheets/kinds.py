"""The print documents the systems add (``SystemApp.sheet_kinds``) and the blank sheets they supply,
as the platform's sheets app sees them: what a system's data function is given and returns.

The platform's own kinds (a character's sheet, the blank sheet, the party bundle, the campaign
report) are in sheets.models.SheetKind; every other kind comes from the registry, so nothing here
names a system. A system's module imports this one (never sheets.services).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from characters import registry
from characters.systems import SheetData
from kernel.errors import Refusal


class SheetRequestError(Refusal, ValueError):
    """The request cannot be rendered (wrong system, nothing to print ...); ``field`` says where."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message

    def errors(self) -> list[dict[str, str]]:
        return [{"field": self.field, "message": self.message}]


@dataclass
class SheetOrder:
    """What a system's data function is asked for: a print of ``kind`` in ``campaign`` for ``user``
    (their ``membership``), of ``target`` (the record the kind renders from; None for its blank)."""

    kind: str
    campaign: Any
    membership: Any
    user: Any
    target: Any = None

    @property
    def is_gm(self) -> bool:
        return bool(self.membership.is_gm)


@dataclass
class KindPage:
    """One page of a system's document, frozen into the render's snapshot."""

    title: str
    fields: dict[str, Any]
    character: str = ""  # named in the footer
    revision: int | None = None
    stamp_label: str = "revision"  # what the revision counts ("after event" for a run's events)

    def as_snapshot(self, kind: str, system: str) -> dict[str, Any]:
        return {
            "kind": kind,
            "system": system,
            "title": self.title,
            "fields": self.fields,
            "character": self.character,
            "revision": self.revision,
            "stamp_label": self.stamp_label,
        }


@dataclass
class KindPlan:
    """What a system's data function returns: the pages, the subject (the download's name, the
    PDF's title), the revision stamped, the parts of the content key (the same parts: the same
    print, reused), and whether this copy may hold the GM's secrets (``gm_copy``; a player's copy
    never does).

    ``stamp_label``: what the revision counts on the render ("revision", "after event");
    ``target_title``: the record shown beside the kind in the list of prints; ``row``: fields of
    the SheetRender row to set (a system's own relation to its record)."""

    pages: list[KindPage]
    subject: str
    revision: int = 0
    parts: list[str] = field(default_factory=list)
    gm_copy: bool = False
    stamp_label: str = ""
    target_title: str = ""
    row: dict[str, Any] = field(default_factory=dict)


@dataclass
class Offer:
    """A system kind's section of the campaign's sheets page: a heading, a line saying what it
    prints, one button per record it prints from (``items``: dicts of id, label, detail) and, for
    a kind that also prints blank, the blank's button."""

    heading: str
    intro: str = ""
    items: list[dict[str, Any]] = field(default_factory=list)
    button: str = "Print"
    blank_button: str = ""
    gm_only: bool = False


def system_kinds(system: str | None = None) -> list[tuple[registry.SystemApp, registry.SheetKindSpec]]:
    """The sheet kinds of the installed systems (of ``system`` only when given)."""
    return [
        (app, kind)
        for app in registry.installed()
        if system is None or app.key == system
        for kind in app.print_kinds()
    ]


def spec(key: str) -> registry.SheetKindSpec | None:
    found = registry.sheet_kind(key)
    return found[1] if found else None


def system_of(key: str) -> registry.SystemApp | None:
    found = registry.sheet_kind(key)
    return found[0] if found else None


def gm_only(key: str) -> bool:
    kind = spec(key)
    return kind is not None and kind.readers == "gm"


def offers(campaign, user, membership) -> list[tuple[str, Offer]]:
    """(kind key, its section) for every kind of the campaign's system that offers one here."""
    found = []
    for _, kind in system_kinds(campaign.system):
        if kind.readers == "gm" and not membership.is_gm:
            continue
        offer = registry.call(kind.offer, campaign, user, membership) if kind.offer else None
        if offer is not None:
            offer.gm_only = kind.readers == "gm"
            found.append((kind.key, offer))
    return found


def plan(kind: registry.SheetKindSpec, order: SheetOrder) -> KindPlan:
    if not kind.data:
        raise SheetRequestError("kind", f"The {kind.label} cannot be printed here.")
    result = registry.call(kind.data, order)
    if not isinstance(result, KindPlan):
        raise TypeError(f"{kind.data} returned {type(result).__name__}, not a KindPlan")
    return result


def sheet_data(page: dict[str, Any]) -> SheetData:
    """The SheetData of a snapshot's page of a system kind (its template from the declaration)."""
    kind = spec(page["kind"])
    if kind is None:
        raise ValueError(f"no installed system prints {page['kind']!r}")
    return SheetData(page["system"], kind.template, page["title"], page["fields"])


def content_digest(record: Any) -> str:
    """A short stable key of a record's content, for a kind's content-key parts (the same record:
    the same print)."""
    return hashlib.sha256(json.dumps(record, sort_keys=True, default=str).encode()).hexdigest()[:40]
