"""What an archival sheet carries: the character's export document, as an embedded file.

A character sheet (and a party bundle) is a PDF/A-3 file carrying each character's character
document of the archive format (docs/export-format.md, the same schema and version an export
writes) as an associated file: relationship Source, MIME type application/json, named
``<character>-r<revision>.json``. The document leaves out who exported it and when, so one stored
render serves every reader with the same rights. What a reader's copy carries is exactly what that
reader may export: the character's owner and the campaign's GM get the document, anyone else who
may print the sheet (a player's party bundle, for the other players' characters) gets none.

``archive`` sits above ``sheets`` in the layers, so the document comes through a hook: the archive
app registers its maker (``register``) as it loads. The PDF's metadata holds a SHA-256 of each
embedded file (``CHECKSUM_KEY``), so a damaged or altered attachment does not match it on import.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.utils.text import slugify

#: The document information entry holding "<file name>:<sha256 hex>" per embedded file, space
#: separated (WeasyPrint writes custom metadata to the PDF's document information dictionary).
CHECKSUM_KEY = "DossierSHA256"
MEDIA_TYPE = "application/json"
RELATIONSHIP = "Source"

_maker: list[Callable[[Any], dict[str, Any]]] = []


def register(maker: Callable[[Any], dict[str, Any]]) -> None:
    """The archive's character document for a character (archive/apps.py registers it)."""
    _maker[:] = [maker]


def document_for(character) -> dict[str, Any] | None:
    """The document to embed, or None when no archive app is installed."""
    return _maker[0](character) if _maker else None


def file_name(name: str, revision: int) -> str:
    return f"{slugify(name)[:60] or 'character'}-r{revision}.json"


def will_attach() -> bool:
    """Whether sheets carry documents at all (an archive app registered its maker)."""
    return bool(_maker)


def attachment_stub(character) -> dict[str, Any]:
    """The snapshot's entry for a character's document without the document: what a render
    keyed on it needs to know (who, the file's name) before anything is built."""
    return {"character_id": character.pk, "name": file_name(character.name, character.revision)}


def attachment(character) -> dict[str, Any] | None:
    """The snapshot's entry for one character's embedded document (None without the hook)."""
    document = document_for(character)
    if document is None:
        return None
    return {
        "character_id": character.pk,
        "name": file_name(character.name, character.revision),
        "document": document,
    }


def encode(document: dict[str, Any]) -> bytes:
    """The embedded file's bytes: UTF-8 JSON, keys in the export's order."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def checksum_entry(files: list[tuple[str, bytes]]) -> str:
    """The metadata value for these embedded files: ``name:sha256`` each, space separated."""
    return " ".join(f"{name}:{checksum(data)}" for name, data in files)


def parse_checksum_entry(value: str) -> dict[str, str]:
    """file name -> sha256 hex, from the metadata value (names hold no spaces or colons)."""
    found: dict[str, str] = {}
    for item in str(value or "").split():
        name, _, digest = item.rpartition(":")
        if name:
            found[name] = digest.lower()
    return found
