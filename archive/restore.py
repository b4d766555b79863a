"""A character document that is already in the campaign: finding it, and the GM's two answers.

A character document carries no database id (ids never leave the server), so the same character
is recognised by what it does carry: its creation build (as the export writes it, archive keys
and all) and its ledger, whose entries keep the moment they were recorded. A document whose
creation build equals an existing character's, and whose ledger starts like that character's (or
which has no ledger, with the same name), is that character, printed at some revision: "the same
character". Failing that, a character of the same name and owner is "a namesake".

Importing either is refused until the GM says what to do (``on_duplicate``):

- ``replace`` (the same character only): the character is brought to the document's state through
  its ledger, append-only. Entries recorded after the point where the two ledgers part are reverted
  (a later reversal of an earlier entry is undone by recording that entry again), then the
  document's own later entries are recorded, each a new revision by the GM with a reason naming
  the restore. The history shows it all and each step can be reverted. If the result does not
  equal the document's build (an entry the engine no longer takes in this order), nothing changes.
- ``copy``: a new character, its name marked as restored on a date.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from archive import characters as character_data
from archive.problems import ArchiveRefused, Problem
from characters import services as character_services
from characters.models import AdvancementEntry, Character

REPLACE, COPY = "replace", "copy"
CHOICES = (REPLACE, COPY)


@dataclass(frozen=True)
class Duplicate:
    """The campaign's character a document duplicates; ``same`` when it is that very character."""

    character: Character
    same: bool

    @property
    def can_replace(self) -> bool:
        return self.same and not self.character.is_draft

    def describe(self) -> str:
        c = self.character
        how = (
            "the very character this document holds"
            if self.same
            else "a character of the same name and owner, not the one this document holds"
        )
        return f"{c.name} ({c.owner.username}, {c.get_status_display()}, revision {c.revision}), {how}"


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _comparable(entry: dict) -> tuple:
    """What two ledgers must agree on for an entry to be the same one (the recorder is left out:
    an import into another campaign may name nobody)."""
    return (
        entry.get("kind"),
        json.dumps(entry.get("payload") or {}, sort_keys=True),
        entry.get("reason") or "",
        entry.get("reverses"),
        entry.get("created_at"),
    )


def exported(character: Character, with_ledger: bool = True) -> dict:
    """The character as its own document writes it (archive keys in builds and payloads)."""
    entries = character_data.ledger_of(character) if with_ledger else []
    return character_data.character_data(character, entries)


def common_prefix(ours: list[dict], theirs: list[dict]) -> int:
    count = 0
    for mine, other in zip(ours, theirs, strict=False):
        if _comparable(mine) != _comparable(other):
            break
        count += 1
    return count


def _is_same(existing: dict, body: dict) -> bool:
    if _json(existing["creation_build"]) != _json(body["creation_build"]):
        return False
    ours, theirs = existing["ledger"], body.get("ledger") or []
    if ours and theirs:
        return common_prefix(ours[:1], theirs[:1]) == 1
    return existing["name"].strip().casefold() == str(body["name"]).strip().casefold()


def find(body: dict, campaign, owner) -> Duplicate | None:
    """The character of ``campaign`` that a checked document ``body`` duplicates, if any: the same
    character first, then one of the same name owned by ``owner`` or by the document's owner."""
    candidates = list(
        Character.objects.filter(campaign=campaign, system=body["system"])
        .select_related("owner")
        .order_by("id")
    )
    name = str(body["name"]).strip().casefold()
    named = [c for c in candidates if c.name.strip().casefold() == name]
    for character in sorted(candidates, key=lambda c: c not in named):  # a namesake first: cheaper
        if character.is_draft or body.get("status") == Character.Status.DRAFT:
            continue
        shallow = exported(character, with_ledger=False)
        if _json(shallow["creation_build"]) != _json(body["creation_build"]):
            continue
        if _is_same(exported(character), body):
            return Duplicate(character, same=True)
    owners = {owner.username, body.get("owner")}
    for character in named:
        if character.owner.username in owners:
            return Duplicate(character, same=False)
    return None


def question(duplicate: Duplicate, where: str = "") -> ArchiveRefused:
    """The 409 an import without a choice gets: what is already there, and what to send."""
    offer = (
        "on_duplicate=replace (bring it back to this document's state through its ledger) or "
        "on_duplicate=copy (a new character, its name marked as restored)"
        if duplicate.can_replace
        else "on_duplicate=copy (a new character, its name marked as restored); it cannot be replaced, as "
        "its creation differs from this document's"
        if not duplicate.same
        else "on_duplicate=copy (a new character, its name marked as restored)"
    )
    return ArchiveRefused(
        Problem(
            where or "on_duplicate",
            f"This campaign already has {duplicate.describe()}: nothing was imported. "
            f"To go on, send {offer}.",
        ),
        status=409,
    )


def copy_name(name: str, today=None) -> str:
    """The copy's name says it is a restored copy and when, shortened to fit the column."""
    suffix = f" (restored {(today or timezone.localdate()).isoformat()})"
    limit = Character._meta.get_field("name").max_length - len(suffix)
    return name.strip()[:limit].rstrip() + suffix


def _refuse(message: str) -> ArchiveRefused:
    return ArchiveRefused(Problem("on_duplicate", message))


def replace(character: Character, body: dict, by, source: str) -> tuple[Character, int]:
    """Bring ``character`` to the state of the same character's document ``body`` through new ledger
    entries (see the module's docstring); the character and how many entries were recorded."""
    reason = f"Restored from {source} (revision {body['revision']})"
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        rows = character_data.ledger_of(locked)
        ours = character_data.character_data(locked, rows)["ledger"]
        theirs = body.get("ledger") or []
        keep = common_prefix(ours, theirs)
        position = {row.pk: index for index, row in enumerate(rows)}
        reversed_ids = {row.reverses_id for row in rows if row.reverses_id}
        added = 0
        again: dict[int, AdvancementEntry] = {}  # an early entry recorded again: position -> new row
        try:
            for row in reversed(rows[keep:]):
                if row.kind == AdvancementEntry.REVERSAL:
                    target = position[row.reverses_id]
                    if target < keep:  # the document has that entry in force: record it again
                        original = rows[target]
                        again[target] = character_services.append_entry(
                            locked, {**original.payload, "kind": original.kind}, by, reason=reason
                        )
                        added += 1
                elif row.pk not in reversed_ids:
                    character_services.revert_entry(row, by, reason)
                    added += 1
            made: dict[int, AdvancementEntry] = {}
            for index in range(keep, len(theirs)):
                entry = theirs[index]
                if entry["kind"] == AdvancementEntry.REVERSAL:
                    target = entry["reverses"]
                    undone = made.get(target) or again.get(target) or rows[target]
                    character_services.revert_entry(undone, by, f"{reason}: {entry.get('reason') or ''}")
                else:
                    made[index] = character_services.append_entry(
                        locked,
                        {**(entry.get("payload") or {}), "kind": entry["kind"]},
                        by,
                        reason=f"{reason}: {entry.get('reason')}" if entry.get("reason") else reason,
                    )
                added += 1
        except ValidationError as error:
            raise _refuse(
                f"{character.name} cannot be brought back to this document's state through its ledger "
                f"({' '.join(error.messages)}); import the document as a copy instead."
            ) from None
        locked.refresh_from_db()
        if _json(exported(locked, with_ledger=False)["build"]) != _json(body["build"]):
            raise _refuse(
                f"Replaying {character.name}'s ledger does not give this document's build, so it was not "
                "replaced; import the document as a copy instead."
            )
    character.refresh_from_db()
    return character, added
