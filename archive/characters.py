"""One character as archive data: its builds, wizard choices and the whole advancement ledger.

The same object is the body of a character document (``dossier.character``) and one item of a
campaign archive's ``characters``. Ledger entries point at each other by position in the ledger
(a reversal's ``reverses``), and at missions by position in the campaign archive; database ids
never leave the server.

Importing trusts nothing in the file: the engine validates the creation build against the target
campaign's settings, every entry is folded again through the engine (the ledger replay), and the
build this gives must equal the exported current build, so a hand-edited build is refused.
"""

from __future__ import annotations

import json
from typing import Any

from archive import references, rows, timestamps
from archive.problems import ArchiveRefused, Checker, Problem, join
from characters import services as character_services
from characters.models import AdvancementEntry, Character
from characters.systems import RuleError, UnknownSystem, get_system

MAX_LEDGER = 100_000
#: What an engine raises on data of the wrong shape (it refuses bad values with RuleError).
UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError)
FIELDS = ("name", "system", "module", "status", "owner", "revision", "creation_build", "build", "choices")


def _json(value: Any) -> Any:
    """The value as it reads back from JSON (tuples become lists), for comparisons."""
    return json.loads(json.dumps(value))


# -- export -----------------------------------------------------------------------------------------
def entry_data(entry: AdvancementEntry, positions: dict[int, int], mission_position) -> dict:
    return {
        "kind": entry.kind,
        "payload": entry.payload,
        "reason": entry.reason,
        "reverses": positions.get(entry.reverses_id) if entry.reverses_id else None,
        "mission": mission_position(entry.mission_id),
        "recorded_by": entry.recorded_by.username if entry.recorded_by else None,
        "revision_after": entry.revision_after,
        "created_at": timestamps.iso(entry.created_at),
    }


def character_data(
    character: Character, entries: list[AdvancementEntry], mission_position=None, keys=None
) -> dict:
    """The character with its ledger (``entries`` in ledger order, recorded_by selected). The ids its
    engine keeps in payloads and builds become archive keys (archive.references): ``keys`` knows the
    records the document holds; without it (a character document) it holds none."""
    mission_position = mission_position or (lambda pk: None)
    keys = keys if keys is not None else references.ExportKeys()
    positions = {entry.pk: index for index, entry in enumerate(entries)}
    data = {
        "name": character.name,
        "system": character.system,
        "module": character.module,
        "status": character.status,
        "owner": character.owner.username,
        "revision": character.revision,
        "creation_build": character.creation_build,
        "build": character.build,
        "choices": character.choices,
        "ledger": [entry_data(entry, positions, mission_position) for entry in entries],
    }
    return references.character(data, keys.key)


def ledger_of(character: Character) -> list[AdvancementEntry]:
    return list(character.entries.select_related("recorded_by").order_by("id"))


# -- structure --------------------------------------------------------------------------------------
def validate(data: Any, path: str, mission_count: int = 0) -> list[Problem]:
    """Types, lengths and references; no rules and no database."""
    check = Checker()
    if not check.obj(
        data, path, ("name", "system", "status", "revision", "creation_build", "build", "ledger")
    ):
        return check.problems
    check.text(data, "name", path, Character._meta.get_field("name").max_length, blank=False)
    check.text(data, "system", path, 20)
    check.text(data, "module", path, Character._meta.get_field("module").max_length)
    check.text(data, "owner", path, 150)
    check.choice(data, "status", path, Character.Status.values)
    check.integer(data, "revision", path, minimum=0)
    for key in ("creation_build", "build", "choices"):
        check.kind_of(data, key, path, (dict,), "an object")
    choices = data.get("choices")
    if isinstance(choices, dict) and len(json.dumps(choices)) > character_services.MAX_CHOICES_CHARS:
        check.add(join(path, "choices"), f"is longer than {character_services.MAX_CHOICES_CHARS} characters.")
    ledger = data.get("ledger")
    if not check.array(ledger, join(path, "ledger"), MAX_LEDGER):
        return check.problems
    reversed_once: set[int] = set()
    for index, entry in enumerate(ledger):
        where = join(join(path, "ledger"), index)
        if not check.obj(entry, where, ("kind",)):
            continue
        check.text(entry, "kind", where, AdvancementEntry._meta.get_field("kind").max_length, blank=False)
        check.kind_of(entry, "payload", where, (dict,), "an object")
        check.text(entry, "reason", where, AdvancementEntry._meta.get_field("reason").max_length)
        if entry.get("recorded_by") is not None:
            check.text(entry, "recorded_by", where, 150)
        check.integer(entry, "revision_after", where, minimum=1)
        check.reference(entry, "mission", where, mission_count, "missions of the archive")
        timestamps.check(check, entry, "created_at", where)
        _check_reversal(check, ledger, index, entry, where, reversed_once)
    return check.problems


def _check_reversal(check: Checker, ledger, index: int, entry: dict, where: str, reversed_once: set) -> None:
    target = entry.get("reverses")
    if entry.get("kind") != AdvancementEntry.REVERSAL:
        if target is not None:
            check.add(join(where, "reverses"), "only a reversal reverses an entry.")
        return
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < index:
        check.add(join(where, "reverses"), "must be the position of an earlier entry of this ledger.")
        return
    if isinstance(ledger[target], dict) and ledger[target].get("kind") == AdvancementEntry.REVERSAL:
        check.add(join(where, "reverses"), "a reversal cannot be reversed.")
    elif target in reversed_once:
        check.add(join(where, "reverses"), f"entry {target} is reversed twice.")
    if not str(entry.get("reason") or "").strip():
        check.add(join(where, "reason"), "a reversal says why.")
    reversed_once.add(target)


# -- rules ------------------------------------------------------------------------------------------
def replay(system, creation_build: dict, ledger: list[dict], path: str) -> dict:
    """The creation build with every entry folded in order, skipping reversals and what they undo
    (the same fold as characters.services.replay, by ledger position instead of database id)."""
    undone = {entry.get("reverses") for entry in ledger if entry.get("kind") == AdvancementEntry.REVERSAL}
    build = creation_build
    for index, entry in enumerate(ledger):
        if entry["kind"] == AdvancementEntry.REVERSAL or index in undone:
            continue
        try:
            build = system.apply(build, {**(entry.get("payload") or {}), "kind": entry["kind"], "id": index})
        except RuleError as error:
            reasons = " ".join(v.message for v in error.violations)
            raise ArchiveRefused(
                Problem(
                    join(join(path, "ledger"), index), f"this {entry['kind']} entry does not fit: {reasons}"
                )
            ) from None
        except UNREADABLE as error:  # a malformed payload or build
            raise ArchiveRefused(
                Problem(
                    join(join(path, "ledger"), index), f"this {entry['kind']} entry cannot be read ({error})."
                )
            ) from None
    return build


def _differences(expected: dict, found: dict) -> str:
    keys = sorted(k for k in set(expected) | set(found) if expected.get(k) != found.get(k))
    return ", ".join(keys[:8]) + (" ..." if len(keys) > 8 else "")


def check_rules(data: dict, path: str, campaign) -> list[Problem]:
    """The engine's verdict on a structurally valid character for ``campaign``."""
    problems: list[Problem] = []
    try:
        system = get_system(data["system"])
    except UnknownSystem:
        return [Problem(join(path, "system"), f"There is no game system called {data['system']!r}.")]
    if data["system"] != campaign.system:
        problems.append(
            Problem(join(path, "system"), f"This campaign plays {campaign.system}, not {data['system']}.")
        )
    if data.get("module", "") != campaign.module:
        problems.append(
            Problem(
                join(path, "module"),
                f"This campaign uses module {campaign.module!r}, not {data.get('module')!r}.",
            )
        )
    if problems:
        return problems
    ledger = data["ledger"]
    if data["status"] == Character.Status.DRAFT:
        if ledger or data["revision"] != 0:
            problems.append(Problem(join(path, "status"), "A draft has no ledger and revision 0."))
        return problems
    kinds = tuple(system.entry_kinds)
    for index, entry in enumerate(ledger):
        if kinds and entry["kind"] not in (*kinds, AdvancementEntry.REVERSAL):
            problems.append(
                Problem(
                    join(join(join(path, "ledger"), index), "kind"),
                    f"{system.label} has no entry kind {entry['kind']!r}.",
                )
            )
    settings = campaign.settings or None
    try:
        violations = system.validate(data["creation_build"], settings=settings)
    except UNREADABLE as error:  # the engines read trusted builds; a file can hold anything
        return [Problem(join(path, "creation_build"), f"the rules engine cannot read this build ({error}).")]
    for violation in violations:
        field = (
            join(join(path, "creation_build"), violation.field)
            if violation.field
            else join(path, "creation_build")
        )
        problems.append(Problem(field, violation.message))
    if data["revision"] < 1 + len(ledger):
        problems.append(
            Problem(join(path, "revision"), f"must be at least {1 + len(ledger)} for this ledger.")
        )
    if problems:
        return problems
    try:
        replayed = replay(system, data["creation_build"], ledger, path)
    except ArchiveRefused as refused:
        return refused.problems
    if _json(replayed) != _json(data["build"]):
        problems.append(
            Problem(
                join(path, "build"),
                "does not equal the creation build with the ledger replayed (differs in: "
                f"{_differences(_json(replayed), _json(data['build']))}); the file was changed by hand.",
            )
        )
    return problems


# -- import -----------------------------------------------------------------------------------------
def create(campaign, data: dict, owner, refs, path: str, entries: list | None = None) -> Character:
    """Rows for a checked character: the character, then its ledger in order (added to ``entries``
    when given). Call inside a transaction; the ledger is replayed once more by characters.services
    as a final check."""
    character = Character.objects.create(
        campaign=campaign,
        owner=owner,
        system=data["system"],
        module=data.get("module", ""),
        name=data["name"],
        status=data["status"],
        creation_build=data["creation_build"],
        build=data["build"],
        choices=data.get("choices") or {},
        revision=data["revision"],
    )
    # what the system's ledger keeps of an entry written by an older Dossier (its archive_format's
    # LEDGER_PAYLOAD: TIMEMASTER's awards leave out the mission's pool, docs/secrets.md)
    kept = getattr(references.archive_format(data["system"]), "LEDGER_PAYLOAD", None) or (lambda _, p: p)
    made = AdvancementEntry.objects.bulk_create(
        AdvancementEntry(
            character=character,
            kind=entry["kind"],
            payload=kept(entry["kind"], entry.get("payload") or {}),
            reason=entry.get("reason") or "",
            mission=refs.row("missions", entry.get("mission")),
            recorded_by=refs.user(entry.get("recorded_by")),
            revision_after=entry.get("revision_after") or index + 2,
        )
        for index, entry in enumerate(data["ledger"])
    )
    rows.link_reversals(AdvancementEntry, made, data["ledger"])
    if entries is not None:
        entries.extend(made)
    timestamps.restore_created_at(AdvancementEntry, made, [e.get("created_at") for e in data["ledger"]])
    if not character.is_draft and _json(character_services.replay(character)) != _json(data["build"]):
        raise ArchiveRefused(Problem(join(path, "build"), "does not equal the ledger replayed by Dossier."))
    return character
