"""Media files are touched through sheets/storage.py only (Django's storage API), never by path.

A worker on one machine and a web node on another share files only through STORAGES["default"]
(an object store in a multi-node deployment): a ``.path`` on a FieldFile, a path built from
MEDIA_ROOT or an ``open()`` of a media file works on one machine and breaks on two.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The product's code: every app, config/ and the scripts (tests and benchmarks set up their own media).
SCANNED = [
    "config",
    "characters",
    "campaigns",
    "sheets",
    "ttk_missions",
    "tempo_conflicts",
    "d6_encounters",
    "archive",
    "systems",
]
#: The storage layer itself, and the one settings file that says where the local folder is.
ALLOWED = {"sheets/storage.py", "config/settings.py"}
FORBIDDEN = {
    "MEDIA_ROOT": re.compile(r"\bMEDIA_ROOT\b"),
    "a FieldFile's .path": re.compile(r"\.(file|pdf|document|upload)\.path\b"),
    "a storage's .path()": re.compile(r"storage\.path\("),
    "open() of a media file": re.compile(r"\bopen\([^)]*(media|\.file\b|\bfile\.name)", re.IGNORECASE),
}


def offences(root: Path) -> list[str]:
    found = []
    for package in SCANNED:
        for source in sorted((root / package).rglob("*.py")):
            relative = source.relative_to(root).as_posix()
            # a system's tests (systems/<key>/tests) read their test storage's files as tests/ does
            if relative in ALLOWED or "/migrations/" in relative or "/tests/" in relative:
                continue
            for number, line in enumerate(source.read_text().splitlines(), 1):
                for what, pattern in FORBIDDEN.items():
                    if pattern.search(line):
                        found.append(f"{relative}:{number}: {what}: {line.strip()}")
    return found


def test_no_code_outside_the_storage_layer_touches_media_paths():
    assert offences(ROOT) == []


def test_the_check_catches_each_way_of_touching_media_directly(tmp_path):
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    (sheets / "tasks.py").write_text(
        "target = Path(settings.MEDIA_ROOT) / name\n"
        "data = Path(render.file.path).read_bytes()\n"
        "where = default_storage.path(name)\n"
        "handle = open(render.file.name, 'rb')\n"
        "fine = request.path\n"
    )
    (sheets / "storage.py").write_text("root = settings.MEDIA_ROOT\n")  # the layer itself may
    found = offences(tmp_path)
    assert [line.split(": ")[1] for line in found] == [
        "MEDIA_ROOT",
        "a FieldFile's .path",
        "a storage's .path()",
        "open() of a media file",
    ]
