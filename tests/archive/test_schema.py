"""Exports follow the JSON Schemas in docs/schemas/, and the schemas catch what import refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from archive import format as archive_format
from archive import services
from tests.archive.conftest import SYSTEMS

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"


def validator(name: str) -> Draft202012Validator:
    resources = []
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
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


@pytest.mark.parametrize("system", ["time_to_kill", "tempo", "d6"])
def test_a_campaign_export_with_play_records_follows_the_schema(system, world, play_campaign):
    document = json.loads(json.dumps(services.export_campaign(play_campaign(system), world.users["gm"])))
    assert errors("campaign", document) == []
    assert any(document[key] for key in ("ttk_runs", "tempo_conflicts", "d6_encounters"))


def test_the_schema_refuses_play_records_pointing_by_id(world, play_campaign):
    document = json.loads(json.dumps(services.export_campaign(play_campaign("d6"), world.users["gm"])))
    document["d6_encounters"][0]["participants"][0]["character"] = -3
    document["d6_encounters"][0]["events"][0]["encounter_id"] = 7
    found = " ".join(errors("campaign", document))
    assert "-3" in found and "encounter_id" in found
