"""The bytes of an uploaded archive, with the size refused before anything is read or parsed."""

from __future__ import annotations

from archive import format as archive_format
from archive.problems import ArchiveRefused, Problem

#: Room for the multipart boundaries and form fields around the file itself.
MULTIPART_SLACK = 64 * 1024


def declared_length(request) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) or None
    except ValueError:
        return None


def refuse_oversized(request) -> None:
    """Refuse by the declared length alone, before Django reads the body."""
    length = declared_length(request)
    if length is not None and length > archive_format.max_archive_bytes() + MULTIPART_SLACK:
        raise archive_format.size_problem(length)


def is_multipart(request) -> bool:
    return (request.META.get("CONTENT_TYPE") or "").startswith("multipart/form-data")


def uploaded_file_bytes(upload) -> bytes:
    if upload is None:
        raise ArchiveRefused(Problem("file", "Choose an archive file (.json) to import."))
    if archive_format.too_large(upload.size):
        raise archive_format.size_problem(upload.size)
    return upload.read()
