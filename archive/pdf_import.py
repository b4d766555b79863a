"""A character document out of an archival sheet (a PDF/A-3 Dossier made: sheets/archival.py).

The sheet carries the character document as an embedded JSON file, and the SHA-256 of that file
in its document information (a party bundle: one file per character). Reading trusts nothing:
the PDF is read by pypdf (pure Python) from the upload's bytes, already bounded by
ARCHIVE_MAX_BYTES; at least one embedded JSON file must be there; each stream is inflated here,
in steps that stop at ARCHIVE_MAX_BYTES for them all (a small file that inflates to gigabytes is
refused, not inflated); each checksum must match the one in the metadata.
The JSON they give then goes through the same checks as any uploaded character document.

Every refusal is an ArchiveRefused (a 400 saying what is wrong) and nothing is stored.
"""

from __future__ import annotations

import io
import logging
import zlib
from typing import Any

from pypdf import PdfReader

from archive import format as archive_format
from archive.problems import ArchiveRefused, Problem
from sheets import archival

PDF_MAGIC = b"%PDF-"
#: More embedded files than any party bundle carries (a campaign's characters) is not a Dossier sheet.
MAX_FILES = 500
JSON_TYPES = ("/application#2Fjson", "/application/json")
#: pypdf logs what it repairs in a damaged file; a refusal already says the file cannot be read.
logging.getLogger("pypdf").setLevel(logging.ERROR)


def is_pdf(raw: Any) -> bool:
    return isinstance(raw, bytes) and raw[:1024].lstrip().startswith(PDF_MAGIC)


def _refuse(message: str) -> ArchiveRefused:
    return ArchiveRefused(Problem("file", message))


def _is_json_file(name: str, subtype: Any) -> bool:
    return name.lower().endswith(".json") or str(subtype or "").lower() in (t.lower() for t in JSON_TYPES)


def _inflate(stream: Any, name: str, limit: int) -> bytes:
    """The file's bytes, inflated at most to ``limit`` (Flate or no filter only)."""
    raw = stream._data  # noqa: SLF001  the encoded bytes: pypdf would inflate them without a bound
    filters = stream.get("/Filter")
    filters = list(filters) if isinstance(filters, list) else ([filters] if filters is not None else [])
    if len(raw) > limit:
        raise _refuse(f"The embedded file {name!r} is larger than {archive_format.limit_mb():g} MB.")
    for found in filters:
        if str(found) != "/FlateDecode":
            raise _refuse(f"The embedded file {name!r} is packed with {found}, which Dossier does not read.")
        inflater = zlib.decompressobj()
        try:
            raw = inflater.decompress(raw, limit + 1)
        except zlib.error:
            raise _refuse(f"The embedded file {name!r} is damaged: it cannot be unpacked.") from None
        if len(raw) > limit or inflater.unconsumed_tail:
            raise _refuse(
                f"The embedded file {name!r} unpacks to more than {archive_format.limit_mb():g} MB "
                "(ARCHIVE_MAX_BYTES): it is not a character Dossier wrote."
            )
    return raw


def character_jsons(raw: bytes) -> list[bytes]:
    """Every embedded character document's JSON bytes, in the PDF's order, each checked against the
    sheet's checksum: one for a character sheet, one per character for a party bundle. A refusal
    of any one refuses the whole file."""
    limit = archive_format.max_archive_bytes()
    try:
        reader = PdfReader(io.BytesIO(raw), strict=False)
        files = [
            (spec.name, spec.pdf_object["/EF"].get("/F", spec.pdf_object["/EF"].get("/UF")).get_object())
            for spec in reader.attachment_list
            if "/EF" in spec.pdf_object and _is_json_file(spec.name, _subtype(spec))
        ]
        info = reader.metadata or {}
        sums = archival.parse_checksum_entry(str(info.get(f"/{archival.CHECKSUM_KEY}") or ""))
    except ArchiveRefused:
        raise
    except Exception:  # noqa: BLE001  any damage a hostile or broken file holds: pypdf raises many kinds
        raise _refuse("The PDF cannot be read: it is damaged or not a PDF.") from None
    if not files:
        raise _refuse(
            "This PDF carries no character: only a character sheet Dossier printed for the character's "
            "owner or game master carries one (other copies and blank sheets carry none)."
        )
    if len(files) > MAX_FILES:
        raise _refuse(f"This PDF carries {len(files)} embedded files: more than a party bundle holds.")
    found: list[bytes] = []
    for name, stream in files:  # all of them together unpack to at most ARCHIVE_MAX_BYTES
        found.append(_checked(name, stream, sums, limit - sum(map(len, found))))
    return found


def _checked(name: str, stream: Any, sums: dict[str, str], limit: int) -> bytes:
    try:
        data = _inflate(stream, name, limit)
    except ArchiveRefused:
        raise
    except Exception:  # noqa: BLE001  a stream that is not one
        raise _refuse(f"The embedded file {name!r} cannot be read.") from None
    expected = sums.get(name)
    if expected is None:
        raise _refuse(
            f"The PDF's metadata holds no checksum for {name!r}: it is not a sheet Dossier made, "
            "or it was changed."
        )
    if archival.checksum(data) != expected:
        raise _refuse(
            f"The embedded file {name!r} does not match the checksum in the PDF's metadata: "
            "it was damaged or altered."
        )
    return data


def _subtype(spec: Any) -> Any:
    try:
        return spec.subtype
    except Exception:  # noqa: BLE001  a malformed file spec: judged by its name alone
        return None
