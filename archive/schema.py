"""The campaign archive's JSON Schema, put together from the platform's part and the installed
game systems' sections, so a new system's play records need no edit outside its folder.

The platform's part is ``archive/campaign.schema.json``; a system's section ``KEY`` (its archive
section module, ``systems/<system>/archive.py``) brings its schema in ``<KEY>.schema.json`` beside
that module. ``manage.py campaign_schema --write`` writes the whole document to
``docs/schemas/campaign.schema.json``, and a test keeps that file equal to what this builds.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from archive import sections as archive_sections

BASE = Path(__file__).with_name("campaign.schema.json")
PUBLISHED = Path(__file__).resolve().parents[1] / "docs" / "schemas" / "campaign.schema.json"
GENERATED = (
    "Written by `manage.py campaign_schema --write` from archive/campaign.schema.json (the platform's "
    "part) and each installed game system's section schema (<section>.schema.json beside its "
    "archive.py): edit those, not this file."
)


class MissingSectionSchema(LookupError):
    """An installed system's archive section brings no schema file."""


def section_schema_path(module: ModuleType) -> Path:
    """Where a system's archive section keeps its schema: ``<KEY>.schema.json`` beside it."""
    return Path(module.__file__ or "").with_name(f"{module.KEY}.schema.json")


def section_schema(module: ModuleType) -> dict[str, Any]:
    path = section_schema_path(module)
    if not path.is_file():
        raise MissingSectionSchema(
            f"The archive section {module.KEY!r} ({module.__name__}) has no schema: add {path}."
        )
    schema = json.loads(path.read_text())
    schema.pop("$comment", None)
    return schema


def campaign_schema() -> dict[str, Any]:
    """The campaign document's schema for the installed systems: the platform's properties, with
    every system section's in the order the archive writes the sections."""
    base = json.loads(BASE.read_text())
    platform = base["properties"]
    systems = {module.KEY: module for module in archive_sections.system_sections()}
    order = archive_sections.section_keys()
    properties = {key: value for key, value in platform.items() if key not in order}
    for key in order:
        properties[key] = platform[key] if key in platform else section_schema(systems[key])
    base["$comment"] = GENERATED
    base["properties"] = properties
    return base


def campaign_schema_text() -> str:
    """The schema as the published file holds it."""
    return json.dumps(campaign_schema(), indent=2, ensure_ascii=False) + "\n"
