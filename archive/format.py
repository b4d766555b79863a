"""The archive format: its kinds and version, reading a file safely, and upgrading older versions.

Every document is a JSON object ``{"format": KIND, "format_version": N, ...}``. Reading checks the
size before parsing, parses with a message that says where the JSON breaks, and then upgrades a
document of an older version one step at a time (``UPGRADES``), so importing code only ever sees
the current version. docs/export-format.md describes the format; docs/schemas/ holds its schemas.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings

from archive import upgrades
from archive.problems import ArchiveRefused, Problem
from kernel import input_boundary

CHARACTER = "dossier.character"
CAMPAIGN = "dossier.campaign"
KINDS = (CHARACTER, CAMPAIGN)

FORMAT_VERSION = 5
#: from_version -> function turning a document of that version into one of from_version + 1
#: (archive/upgrades.py; 1 -> 2: each system's build steps, SystemApp.archive_format; 2 -> 3: archive keys
#: instead of server ids inside payloads, builds and outcomes; 3 -> 4: no fair-dice seed or key before
#: its release; 4 -> 5: the play sessions and their notes, none before).
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: upgrades.upgrade_v1_to_v2,
    2: upgrades.upgrade_v2_to_v3,
    3: upgrades.upgrade_v3_to_v4,
    4: upgrades.upgrade_v4_to_v5,
}
#: The oldest version still read (every later one reaches FORMAT_VERSION through UPGRADES).
OLDEST_VERSION = 1


def max_archive_bytes() -> int:
    """Refused before parsing (settings.ARCHIVE_MAX_BYTES): years of a group's play fit below it."""
    return settings.ARCHIVE_MAX_BYTES


def limit_mb() -> float:
    return max_archive_bytes() / (1024 * 1024)


def too_large(size: int | None) -> bool:
    return size is not None and size > max_archive_bytes()


def size_problem(size: int) -> ArchiveRefused:
    return ArchiveRefused(
        Problem(
            "",
            f"The file is {size / (1024 * 1024):.1f} MB; archives are limited to {limit_mb():g} MB "
            "(ARCHIVE_MAX_BYTES).",
        ),
        status=413,
    )


def records_in(items: Any) -> int:
    """How many records a section's list makes: its entries, plus the lists of records (objects)
    inside each (a character's ledger, a conflict's events and participants ...)."""
    if not isinstance(items, list):
        return 0
    inner = sum(
        len(value)
        for item in items
        if isinstance(item, dict)
        for value in item.values()
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
    )
    return len(items) + inner


def refuse_too_many_records(sections: dict[str, Any]) -> None:
    """413 naming the limit when a section or the whole document holds more records than the
    settings allow (ARCHIVE_MAX_SECTION_ROWS, ARCHIVE_MAX_ROWS): checked right after parsing, before
    anything else reads the document."""
    per_section, in_all = settings.ARCHIVE_MAX_SECTION_ROWS, settings.ARCHIVE_MAX_ROWS
    counts = {key: records_in(items) for key, items in sections.items()}
    problems = [
        Problem(
            key,
            f"holds {count:,} records; a section may hold at most {per_section:,} "
            "(ARCHIVE_MAX_SECTION_ROWS).",
        )
        for key, count in counts.items()
        if count > per_section
    ]
    total = sum(counts.values())
    if total > in_all:
        problems.append(
            Problem(
                "",
                f"The archive holds {total:,} records; at most {in_all:,} are imported at once "
                "(ARCHIVE_MAX_ROWS).",
            )
        )
    if problems:
        raise ArchiveRefused(problems, status=413)


def parse(raw: bytes | str) -> Any:
    """JSON from the bytes of an uploaded file; ArchiveRefused saying where it breaks."""
    if too_large(len(raw)):
        raise size_problem(len(raw))
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ArchiveRefused(
                Problem("", f"The file is not UTF-8 text (byte {error.start} cannot be read).")
            ) from None
    if not raw.strip():
        raise ArchiveRefused(Problem("", "The file is empty."))
    try:
        # The input boundary: depth refused before parsing, then every text and number checked.
        # The file's size is bounded above, so its values are not counted.
        return input_boundary.loads(raw, input_boundary.limits(items=None))
    except input_boundary.InputRefused as refused:
        problem = refused.problem
        raise ArchiveRefused(Problem(problem.path, f"This value {problem.message}")) from None
    except json.JSONDecodeError as error:
        truncated = error.msg.startswith("Unterminated string") or error.pos >= len(raw.rstrip()) - 1
        ending = "; the file ends too early: is it truncated?" if truncated else ""
        raise ArchiveRefused(
            Problem(
                "",
                f"The file is not valid JSON: {error.msg} "
                f"(line {error.lineno}, column {error.colno}){ending}.",
            )
        ) from None


def check(document: Any) -> None:
    """The input boundary's checks for a document that arrives already decoded (parse does them
    for a file)."""
    problem = input_boundary.value_problem(document, "", input_boundary.limits(items=None))
    if problem is not None:
        raise ArchiveRefused(Problem(problem.path, f"This value {problem.message}"))


def upgrade(document: Any, kind: str) -> dict[str, Any]:
    """The document at FORMAT_VERSION, after checking its kind and version."""
    if not isinstance(document, dict):
        raise ArchiveRefused(Problem("", "An archive is a JSON object; this file holds something else."))
    found = document.get("format")
    if found != kind:
        other = " (that is a campaign archive)" if found == CAMPAIGN else ""
        other = " (that is a character document)" if found == CHARACTER else other
        raise ArchiveRefused(Problem("format", f"Expected {kind!r}, found {found!r}{other}."))
    version = document.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ArchiveRefused(Problem("format_version", "must be a whole number."))
    if version > FORMAT_VERSION:
        raise ArchiveRefused(
            Problem(
                "format_version",
                f"Version {version} is newer than this Dossier reads (up to {FORMAT_VERSION}); "
                "update Dossier to import it.",
            )
        )
    if version < OLDEST_VERSION:
        raise ArchiveRefused(
            Problem("format_version", f"Version {version} is not a Dossier archive version.")
        )
    while version < FORMAT_VERSION:
        document = UPGRADES[version](document)
        version += 1
        document["format_version"] = version
    return document


def read(raw: bytes | str, kind: str) -> dict[str, Any]:
    """Parse and upgrade an uploaded file of the given kind."""
    return upgrade(parse(raw), kind)
