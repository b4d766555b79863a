"""Export and import of character documents and campaign archives (docs/export-format.md).

Imports run in one transaction: the file is read (size first, then JSON, then the version is
upgraded), checked for structure, checked by the rule engines, and only then written; any
refusal raises ArchiveRefused with every problem found, and nothing is created.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from archive import characters as character_data
from archive import format as archive_format
from archive import pdf_import, references, restore, signals, streaming, timestamps
from archive.models import CampaignExport, ExportStatus
from archive.problems import ArchiveRefused, Checker, Problem, join, length_of
from archive.sections import (
    ExportRefs,
    ImportRefs,
    export_keys,
    reference_sections,
    section_keys,
    sections,
)
from archive.sections import characters as characters_section
from archive.sections import rolls as rolls_section
from campaigns import services as campaign_services
from campaigns.models import PAPERS, Campaign, Mission, Roll, time_zone_names
from characters.models import Character
from characters.systems.wording import possessive, was_were

HEADER_KEYS = ("format", "format_version", "exported_at", "exported_by")


def _header(kind: str, by) -> dict[str, Any]:
    return {
        "format": kind,
        "format_version": archive_format.FORMAT_VERSION,
        "exported_at": timestamps.iso(timezone.now()),
        "exported_by": by.username if by is not None else None,
    }


def _as_document(source: Any, kind: str) -> dict[str, Any]:
    if isinstance(source, (bytes, str)):
        return archive_format.read(source, kind)
    archive_format.check(source)
    return archive_format.upgrade(source, kind)


# -- characters -------------------------------------------------------------------------------------
def export_character(character: Character, by=None) -> dict[str, Any]:
    """One character with its whole ledger; holds nothing of the campaign's GM-only records."""
    data = character_data.character_data(character, character_data.ledger_of(character))
    return {**_header(archive_format.CHARACTER, by), **data}


def archival_document(character: Character) -> dict[str, Any]:
    """The character document an archival sheet carries: the export without who made it and when,
    so one stored render serves every reader with the same rights (sheets/archival.py)."""
    document = export_character(character)
    del document["exported_at"], document["exported_by"]
    return document


def character_documents(source: Any) -> list[dict[str, Any]]:
    """The character documents a file carries: one in a JSON file or a character sheet, one per
    character in a party bundle. ArchiveRefused when the file, or any document in it, cannot be read."""
    if pdf_import.is_pdf(source):
        # An archival sheet: the documents it carries (each checked against its checksum)
        return [
            archive_format.read(data, archive_format.CHARACTER) for data in pdf_import.character_jsons(source)
        ]
    return [_as_document(source, archive_format.CHARACTER)]


def checked_character(document: dict[str, Any], campaign: Campaign, where: str = "") -> dict[str, Any]:
    """The body of a character document that passed every check for ``campaign`` (ArchiveRefused
    listing every problem, paths under ``where``, otherwise)."""
    body = {key: value for key, value in document.items() if key not in HEADER_KEYS}
    archive_format.refuse_too_many_records({"ledger": body.get("ledger")})
    problems = character_data.validate(body, where)
    unknown = sorted(set(body) - {*character_data.FIELDS, "ledger"})
    problems += [Problem(join(where, key), "is not part of a character document.") for key in unknown]
    if any(entry.get("mission") is not None for entry in body.get("ledger") or [] if isinstance(entry, dict)):
        problems.append(Problem(join(where, "ledger"), "a character document does not point at missions."))
    # A character document holds no missions, runs or rolls: every id in it is a key "<kind>:~<n>".
    problems += references.problems_in(
        body, references.character, where, held={}, sections=reference_sections()
    )
    if problems:
        raise ArchiveRefused(problems)
    problems = character_data.check_rules(body, where, campaign)
    if problems:
        raise ArchiveRefused(problems)
    return body


@dataclass
class Imported:
    """What one character's import did: the character, and whether it replaced one already there
    (with how many ledger entries that recorded)."""

    character: Character
    replaced: bool = False
    entries_added: int = 0

    def summary(self) -> str:
        c = self.character
        if not self.replaced:
            return f"Imported {c.name} (revision {c.revision})."
        if not self.entries_added:
            return f"{c.name} already holds what the file holds: nothing changed."
        entries = f"{self.entries_added} ledger entr{'y' if self.entries_added == 1 else 'ies'}"
        return (
            f"Replaced {c.name} with the file's state: {entries} recorded, now revision {c.revision} "
            "(its history shows each one, and each can be reverted)."
        )


def import_character(
    source: Any,
    campaign: Campaign,
    owner,
    by,
    warnings: list | None = None,
    on_duplicate: str | None = None,
) -> Character:
    """A new character in ``campaign`` owned by ``owner`` from a character document (bytes, text
    or parsed, or a character sheet); ArchiveRefused listing every problem, and nothing created.
    A party bundle is refused here: import_characters takes it, with the characters to import."""
    documents = character_documents(source)
    if len(documents) > 1:
        raise ArchiveRefused(Problem("characters", bundle_question(documents)))
    label = source_label(source)
    return import_document(documents[0], campaign, owner, by, warnings, on_duplicate, source=label).character


def source_label(source: Any) -> str:
    """How a restore's ledger entries name the file they came from."""
    return "its sheet" if pdf_import.is_pdf(source) else "a character file"


def bundle_question(documents: list[dict[str, Any]]) -> str:
    listed = "; ".join(
        f"{index}: {d.get('name')} ({d.get('owner')}, revision {d.get('revision')})"
        for index, d in enumerate(documents)
    )
    return (
        f"This PDF is a party bundle carrying {len(documents)} characters ({listed}): nothing was imported. "
        "Say which to import: characters=0,1 (their positions) or characters=all."
    )


def import_document(
    document: dict[str, Any],
    campaign: Campaign,
    owner,
    by,
    warnings: list | None = None,
    on_duplicate: str | None = None,
    where: str = "",
    source: str = "a character file",
) -> Imported:
    """One character document into ``campaign``. A document of a character the campaign already
    has (archive/restore.py) is refused with a 409 unless ``on_duplicate`` says ``replace`` (the
    same character only) or ``copy``."""
    if on_duplicate not in (None, *restore.CHOICES):
        raise ArchiveRefused(Problem("on_duplicate", "must be replace or copy."))
    body = checked_character(document, campaign, where)
    duplicate = restore.find(body, campaign, owner)
    if duplicate is not None:
        if on_duplicate is None:
            raise restore.question(duplicate, join(where, "on_duplicate") if where else "")
        if on_duplicate == restore.REPLACE:
            if not duplicate.can_replace:
                raise ArchiveRefused(
                    Problem(
                        join(where, "on_duplicate") if where else "on_duplicate",
                        f"This campaign has {duplicate.describe()}: it cannot be replaced by this "
                        "document; import the document as a copy (on_duplicate=copy).",
                    )
                )
            character, added = restore.replace(duplicate.character, body, by, source)
            return Imported(character, replaced=True, entries_added=added)
        body = {**body, "name": restore.copy_name(body["name"])}
    users = _users(body_usernames(body), campaign=campaign)
    with transaction.atomic():
        refs = ImportRefs(by=by, users=users)
        character = character_data.create(campaign, body, owner, refs, where)
    if warnings is not None:
        warnings.extend(recorders_left_out(refs, character.name, body.get("ledger") or []))
    return Imported(character)


@dataclass
class Pick:
    """One character of a bundle to import: its position, its owner, the answer if it is a duplicate."""

    position: int
    owner: Any
    on_duplicate: str | None = None


def import_characters(
    documents: list[dict[str, Any]], picks: list[Pick], campaign: Campaign, by, warnings: list | None = None
) -> list[Imported]:
    """The picked characters of a party bundle, each as a single document would be imported, all
    or none: a refusal of any one (a duplicate without an answer too) imports nothing."""
    if not picks:
        raise ArchiveRefused(Problem("characters", "Tick at least one character to import."))
    done: list[Imported] = []
    with transaction.atomic():
        for pick in picks:
            if not 0 <= pick.position < len(documents):
                raise ArchiveRefused(
                    Problem("characters", f"There is no character {pick.position} in this file.")
                )
            done.append(
                import_document(
                    documents[pick.position],
                    campaign,
                    pick.owner,
                    by,
                    warnings,
                    pick.on_duplicate,
                    where=f"characters[{pick.position}]",
                    source="a party bundle",
                )
            )
    return done


def recorders_left_out(refs: ImportRefs, character_name: str, ledger: list) -> list[str]:
    """One line for each person who recorded some of an imported character's ledger but is not a
    member of the campaign: what became of those entries, and what to do about it. The same words
    whether or not an account of that name exists (an import never tells whether a username is taken)."""
    recorded = Counter(entry.get("recorded_by") for entry in ledger if isinstance(entry, dict))
    whose = possessive(character_name)
    lines = []
    for name in refs.left_out:
        if name == refs.by.username:
            continue
        count = recorded[name]
        lines.append(
            f"{count} of {whose} ledger entries {was_were(count)} recorded by {name}, who is not a member "
            f"of this campaign: {'it is' if count == 1 else 'they are'} kept, with no recorder shown. "
            f"Nothing needs doing; to have {name} named on such entries, invite {name} to this "
            "campaign before importing."
        )
    return lines


def body_usernames(body: dict) -> set[str]:
    return {e.get("recorded_by") for e in body.get("ledger") or [] if isinstance(e, dict)} - {None}


def _users(usernames, campaign: Campaign | None = None) -> dict[str, Any]:
    """The accounts of these names (only members of ``campaign`` when given)."""
    from django.contrib.auth import get_user_model

    names = [name for name in usernames if isinstance(name, str)]
    accounts = get_user_model().objects.filter(username__in=names)
    if campaign is not None:
        accounts = accounts.filter(memberships__campaign=campaign)
    return {user.username: user for user in accounts}


# What an import says of a name it did not bring in: the same words whether or not an account of that
# name exists (an import never tells whether a username is taken).
NOT_AN_ACCOUNT = (
    "{name} is named in the archive but has no account here, so is not a member of the imported "
    "campaign: the records the archive gives them are kept and show nobody, and the characters they "
    "owned are yours. To have {name} named on them, create that account first and import the archive again."
)
NOT_BROUGHT_IN = (
    "{name!r} was not brought into the imported campaign (only you join a campaign you import): their "
    "characters are yours and their other records name nobody. Invite them from the members page."
)


def left_out_lines(refs: ImportRefs, words: str) -> list[str]:
    return [words.format(name=name) for name in refs.left_out if name != refs.by.username]


# -- campaigns --------------------------------------------------------------------------------------
CAMPAIGN_FIELDS = (
    "name", "system", "module", "description", "settings", "paper", "time_zone", "sessions_start_on_roll",
)  # fmt: skip


def campaign_parts(campaign: Campaign, by=None, progress=None) -> Iterator[tuple[str, Any]]:
    """The campaign archive as (key, value) pairs in the archive's order; the rolls come as an
    iterator read from the database in chunks (archive/streaming.py writes them as they come).
    Consume each value before asking for the next pair: later sections point at earlier ones.
    ``progress(rolls_written)`` is called now and then while the rolls are read."""
    yield from _header(archive_format.CAMPAIGN, by).items()
    yield "campaign", {name: getattr(campaign, name) for name in CAMPAIGN_FIELDS}
    refs = ExportRefs(keys=export_keys(campaign))
    for section in sections():
        if section.KEY == rolls_section.KEY:
            yield section.KEY, rolls_section.export_rows(campaign, refs, progress)
        else:
            yield section.KEY, section.export(campaign, refs)


def export_campaign(campaign: Campaign, by=None) -> dict[str, Any]:
    """The whole campaign, every section included (GM-only data too: only a GM may ask for it),
    as one document in memory: for small campaigns and tests; downloads use ``stream_campaign``."""
    return {
        key: list(value) if isinstance(value, Iterator) else value
        for key, value in campaign_parts(campaign, by)
    }


def stream_campaign(campaign: Campaign, by=None, style=streaming.PRETTY, progress=None) -> Iterator[str]:
    """The campaign archive's JSON text in pieces: the bytes of json.dumps(export_campaign(...)) in
    ``style``, in memory that does not grow with the campaign."""
    return streaming.write(campaign_parts(campaign, by, progress), style)


#: Up to this many rolls an export is written inside the request (a few MB); a larger campaign's
#: archive is prepared by a Celery job (archive/tasks.py) and downloaded when done.
DIRECT_EXPORT_ROLLS = 20_000
EXPORT_LOST_AFTER_SECONDS = 1200  # longer than archive.export_campaign's hard time limit (960 s)


def needs_job(campaign: Campaign) -> bool:
    """More rolls than a request should write (asked without counting the whole log)."""
    return Roll.objects.filter(campaign=campaign)[DIRECT_EXPORT_ROLLS : DIRECT_EXPORT_ROLLS + 1].exists()


def request_export(campaign: Campaign, by) -> CampaignExport:
    """The campaign's export job: the one already queued or running, or a new one queued."""
    with transaction.atomic():
        unfinished = CampaignExport.objects.filter(
            campaign=campaign, status__in=[ExportStatus.QUEUED, ExportStatus.RUNNING]
        )
        # A job older than the task's hard time limit was lost (a broker or worker gone): it must
        # not stand in the way of a new one forever.
        lost = timezone.now() - timedelta(seconds=EXPORT_LOST_AFTER_SECONDS)
        unfinished.filter(created_at__lt=lost).update(
            status=ExportStatus.FAILED,
            error="The job was lost; ask for the archive again.",
            finished_at=timezone.now(),
        )
        active = unfinished.first()
        if active is not None:
            return active
        export = CampaignExport.objects.create(
            campaign=campaign, requested_by=by, rolls_total=Roll.objects.filter(campaign=campaign).count()
        )
        transaction.on_commit(
            lambda: signals.export_requested.send(sender=CampaignExport, export_id=export.pk)
        )
    return export


def export_for_gm(user, campaign_id, export_id) -> tuple[Campaign, CampaignExport]:
    """A campaign's export job, for its game master only (404 for another campaign's)."""
    from django.shortcuts import get_object_or_404

    from archive import access

    campaign, _ = access.campaign_for_gm(user, campaign_id)
    return campaign, get_object_or_404(CampaignExport, campaign=campaign, pk=export_id)


def _validate_campaign_header(data: Any) -> list[Problem]:
    check = Checker()
    if not check.obj(data, "campaign", ("name", "system")):
        return check.problems
    check.text(data, "name", "campaign", Campaign._meta.get_field("name").max_length, blank=False)
    check.text(data, "system", "campaign", 20)
    check.text(data, "module", "campaign", Campaign._meta.get_field("module").max_length)
    check.text(data, "description", "campaign", Campaign._meta.get_field("description").max_length)
    check.kind_of(data, "settings", "campaign", (dict,), "an object")
    check.choice(data, "paper", "campaign", PAPERS)
    check.text(data, "time_zone", "campaign", Campaign._meta.get_field("time_zone").max_length, blank=False)
    if isinstance(data.get("time_zone"), str) and data["time_zone"] not in time_zone_names():
        check.add(join("campaign", "time_zone"), "must be a time zone name, such as Europe/Paris.")
    check.kind_of(data, "sessions_start_on_roll", "campaign", (bool,), "true or false")
    for key in sorted(set(data) - set(CAMPAIGN_FIELDS)):
        check.add(join("campaign", key), "is not a campaign field.")
    return check.problems


def validate_campaign(document: dict[str, Any]) -> list[Problem]:
    """Every structural problem of an (upgraded) campaign archive; no database."""
    problems = _validate_campaign_header(document.get("campaign"))
    known = {*HEADER_KEYS, "campaign", *section_keys()}
    problems += [
        Problem(key, "is not a section of this format version.") for key in sorted(set(document) - known)
    ]
    for section in sections():
        problems += section.validate(document.get(section.KEY, []), document)
    names = reference_sections()
    held = {kind: length_of(document, key) for kind, key in names.items()}
    for key, walk in (("missions", references.mission), ("characters", references.character)):
        items = document.get(key)
        for index, item in enumerate(items if isinstance(items, list) else []):
            problems += references.problems_in(item, walk, join(key, index), held, names)
    for index, mission in enumerate(document.get("missions") or []):
        for where, outcome in _outcomes(mission, join("missions", index)):
            if outcome.get("mission") is not None and outcome["mission"] != f"mission:{index}":
                problems.append(
                    Problem(join(where, "mission"), f'must be this mission\'s own key, "mission:{index}".')
                )
    return problems


def _outcomes(mission: Any, path: str) -> list[tuple[str, dict]]:
    """A mission's outcome and earlier outcomes that are objects, with their paths."""
    if not isinstance(mission, dict):
        return []
    found = [(join(path, "outcome"), mission.get("outcome"))]
    earlier = mission.get("previous_outcomes")
    for index, item in enumerate(earlier if isinstance(earlier, list) else []):
        found.append((join(join(path, "previous_outcomes"), index), item))
    return [(where, outcome) for where, outcome in found if isinstance(outcome, dict)]


def _usernames(document: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for character in document.get("characters") or []:
        names |= body_usernames(character)
    names |= {roll.get("roller") for roll in document.get("rolls") or []}
    names |= {npc.get("created_by") for npc in document.get("npcs") or []}
    for section in sections():
        if hasattr(section, "usernames"):
            names |= section.usernames(document.get(section.KEY))
    return names - {None}


def _validation_problems(error: ValidationError, path: str) -> list[Problem]:
    if hasattr(error, "message_dict"):
        return [
            Problem(join(path, field) if field != "__all__" else path, message)
            for field, messages in error.message_dict.items()
            for message in messages
        ]
    return [Problem(path, message) for message in error.messages]


def import_campaign(source: Any, gm, trusted: bool = False, warnings: list | None = None) -> Campaign:
    """A new campaign from an archive, with ``gm`` as its game master; ArchiveRefused listing
    every problem, and nothing created.

    Untrusted (web, API) imports make ``gm`` the campaign's only member: nobody else joins a
    campaign without accepting an invitation to it, so every other person the archive names is left
    out (their characters go to ``gm``, their rolls and records name nobody), one line each in
    ``warnings``, worded the same whether or not such an account exists. ``trusted`` (the
    administrator's command) brings back every member with their role."""
    document = _as_document(source, archive_format.CAMPAIGN)
    archive_format.refuse_too_many_records({key: document.get(key) for key in section_keys()})
    problems = validate_campaign(document)
    if problems:
        raise ArchiveRefused(problems)
    header = document["campaign"]
    with transaction.atomic():
        try:
            campaign = campaign_services.create_campaign(
                gm,
                name=imported_name(header["name"]),
                system=header["system"],
                module=header.get("module", ""),
                description=header.get("description", ""),
                settings=header.get("settings") or {},
                paper=header.get("paper"),
            )
        except ValidationError as error:
            raise ArchiveRefused(_validation_problems(error, "campaign")) from None
        users = _users(_usernames(document)) if trusted else {}
        refs = ImportRefs(by=gm, users=users, trusted=trusted)
        for section in sections():
            section.load(campaign, document.get(section.KEY, []), refs)
        _resolve_references(document, refs)
        # Where the group plays, and whether a roll starts a play session (issue 50): set once the
        # rolls are in, so no restored roll starts a session.
        where = {key: header[key] for key in ("time_zone", "sessions_start_on_roll") if key in header}
        if where:
            Campaign.objects.filter(pk=campaign.pk).update(**where)
            for key, value in where.items():
                setattr(campaign, key, value)
    if warnings is not None:
        warnings.extend(left_out_lines(refs, NOT_AN_ACCOUNT if trusted else NOT_BROUGHT_IN))
        for section in sections():  # what a section says about the restore (the dice left sealed)
            if hasattr(section, "notes"):
                warnings.extend(section.notes(campaign))
    return campaign


def _resolve_references(document: dict[str, Any], refs: ImportRefs) -> None:
    """Give every archive key inside payloads, builds and outcomes the id of the row the import made
    (archive/references.py), once every section is written: outcomes name characters, ledgers
    name runs and rolls, and those sections come later. Keys of records the file does not hold
    stay as they are. The ledger is append-only for people; this writes rows of this import."""
    from characters.models import AdvancementEntry

    def row_id(section: str, text: bool) -> Any:
        return lambda position: (
            str(refs.row(section, position).pk) if text else refs.row(section, position).pk
        )

    # Missions and characters are kept by the engines as text; the rows of other sections (the
    # rolls, a system's play records) as numbers, unless the section says REFERENCE_AS_TEXT.
    change = references.resolver(
        {
            section.REFERENCE: row_id(section.KEY, text=getattr(section, "REFERENCE_AS_TEXT", False))
            for section in sections()
            if getattr(section, "REFERENCE", "")
        }
    )
    for position, data in enumerate(document.get("missions") or []):
        resolved = references.mission(data, change, "")
        if resolved != data:
            Mission.objects.filter(pk=refs.row("missions", position).pk).update(
                outcome=resolved.get("outcome"), previous_outcomes=resolved.get("previous_outcomes") or []
            )
    changed_entries = []
    for position, data in enumerate(document.get("characters") or []):
        resolved = references.character(data, change)
        if resolved == data:
            continue
        Character.objects.filter(pk=refs.row("characters", position).pk).update(
            creation_build=resolved["creation_build"], build=resolved["build"]
        )
        for entry, before, after in zip(
            refs.row(characters_section.LEDGER, position), data["ledger"], resolved["ledger"], strict=True
        ):
            if before != after:
                entry.payload, entry.reason = after.get("payload") or {}, after.get("reason") or ""
                changed_entries.append(entry)
    AdvancementEntry.objects.bulk_update(changed_entries, ["payload", "reason"], batch_size=500)


IMPORTED_SUFFIX = " (imported)"


def imported_name(name: str) -> str:
    """The copy's name says it is a copy, so it is not mistaken for the original in a campaign list
    (the original is often still there); a long name is shortened to make room for the suffix."""
    limit = Campaign._meta.get_field("name").max_length - len(IMPORTED_SUFFIX)
    return name.strip()[:limit].rstrip() + IMPORTED_SUFFIX


def file_name(name: str) -> str:
    """A safe download name: letters, digits and dashes, then .json."""
    from django.utils.text import slugify

    return f"{slugify(name) or 'dossier'}.json"
