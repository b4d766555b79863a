"""Exports follow the JSON Schemas in docs/schemas/, and the schemas catch what import refuses.

The campaign schema is put together from the platform's part and each installed system's sections
(archive/schema.py): the tests validate against what it builds for the installed systems (a
system installed only in a test, such as the toy system, included), and a test keeps the
published file equal to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from archive import format as archive_format
from archive import schema as archive_schema
from archive import sections as archive_sections
from archive import services
from characters import registry as system_registry
from tests import system_kit
from tests.archive.conftest import PLAY_SYSTEMS, SYSTEMS

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"


def validator(name: str) -> Draft202012Validator:
    schemas = {
        path.name.removesuffix(".schema.json"): json.loads(path.read_text())
        for path in SCHEMAS.glob("*.schema.json")
    }
    schemas["campaign"] = archive_schema.campaign_schema()
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    schema = schemas[name]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


def errors(name: str, document) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator(name).iter_errors(document)]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_character_export_of_each_system_follows_the_schema(system, world, make_campaign, make_hero):
    hero = make_hero(make_campaign(system))
    document = json.loads(json.dumps(services.export_character(hero, world.users["player"])))
    assert errors("character", document) == []


def test_a_campaign_export_follows_the_schema(world, full_campaign):
    document = json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))
    assert errors("campaign", document) == []
    assert all(document[key] for key in ("members", "missions", "characters", "npcs", "rolls"))


def test_the_schemas_refuse_what_import_refuses(world, full_campaign):
    document = json.loads(json.dumps(services.export_campaign(full_campaign)))
    document["format_version"] = archive_format.FORMAT_VERSION + 1
    document["rolls"][0]["character"] = -1
    document["characters"][0]["ledger"][0]["surprise"] = True
    found = " ".join(errors("campaign", document))
    assert "format_version" in found and "character" in found and "surprise" in found


@pytest.mark.parametrize("system", PLAY_SYSTEMS)
def test_a_campaign_export_with_play_records_follows_the_schema(system, world, play_campaign):
    document = json.loads(json.dumps(services.export_campaign(play_campaign(system), world.users["gm"])))
    assert errors("campaign", document) == []
    package = f"{system_kit.app(system).package}."
    own = [module.KEY for module in archive_sections.system_sections() if module.__name__.startswith(package)]
    assert own and all(document[key] for key in own)


def test_the_published_campaign_schema_is_the_one_the_platform_and_the_systems_make(monkeypatch):
    """docs/schemas/campaign.schema.json is written by `manage.py campaign_schema --write`: the
    platform's part and every system's section schema from its folder. It describes the project's
    own systems (those under systems/): a system installed only for the tests (the toy, which the
    suite runs with) is left out of what it is compared with."""
    project = [app for app in system_registry.installed() if app.package.startswith("systems.")]
    monkeypatch.setattr(system_registry, "installed", lambda: project)
    assert (SCHEMAS / "campaign.schema.json").read_text() == archive_schema.campaign_schema_text()


def test_every_system_section_brings_its_schema_and_the_schema_is_valid():
    for module in archive_sections.system_sections():
        part = archive_schema.section_schema(module)
        Draft202012Validator.check_schema(part)
        assert part["type"] == "array", module.KEY
    assert set(archive_schema.campaign_schema()["properties"]) >= set(archive_sections.section_keys())


def test_a_system_section_without_a_schema_is_named_with_the_file_it_needs(monkeypatch, tmp_path):
    from types import ModuleType

    stray = ModuleType("stray.archive")
    stray.KEY, stray.__file__ = "stray_records", str(tmp_path / "archive.py")
    with pytest.raises(archive_schema.MissingSectionSchema, match="stray_records.schema.json"):
        archive_schema.section_schema(stray)


def test_the_schema_refuses_play_records_pointing_by_id(world, play_campaign):
    document = json.loads(json.dumps(services.export_campaign(play_campaign("d6"), world.users["gm"])))
    document["d6_encounters"][0]["participants"][0]["character"] = -3
    document["d6_encounters"][0]["events"][0]["encounter_id"] = 7
    found = " ".join(errors("campaign", document))
    assert "-3" in found and "encounter_id" in found
