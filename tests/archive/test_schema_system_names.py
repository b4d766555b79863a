"""The JSON Schemas name no game system: ``system`` is a checked plain string (a key), so a new
system's exports follow them without a schema edit; import refuses a system that is not installed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from archive import services
from archive.problems import ArchiveRefused
from campaigns.models import Campaign
from characters import registry
from characters.models import Character
from tests.archive.test_schema import errors

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"


def _system_properties() -> list[dict]:
    character = json.loads((SCHEMAS / "character.schema.json").read_text())
    campaign = json.loads((SCHEMAS / "campaign.schema.json").read_text())
    return [
        character["$defs"]["character"]["properties"]["system"],
        campaign["properties"]["campaign"]["properties"]["system"],
    ]


def test_the_schemas_name_no_system():
    for prop in _system_properties():
        assert "enum" not in prop
        assert prop["type"] == "string"


def test_every_installed_systems_key_fits_the_schemas_and_the_models():
    for prop in _system_properties():
        for app in registry.installed():
            assert re.fullmatch(prop["pattern"], app.key), app.key
            assert len(app.key) <= prop["maxLength"]
    assert max(len(app.key) for app in registry.installed()) <= Campaign._meta.get_field("system").max_length
    assert Character._meta.get_field("system").max_length == Campaign._meta.get_field("system").max_length


def test_a_character_of_a_system_not_installed_follows_the_schema_and_import_refuses_it(
    world, make_campaign, make_hero
):
    campaign = make_campaign("tempo")
    document = json.loads(json.dumps(services.export_character(make_hero(campaign), world.users["player"])))
    document["system"] = "pulp"
    assert errors("character", document) == []
    with pytest.raises(ArchiveRefused, match="no game system called 'pulp'"):
        services.import_character(document, campaign, world.users["player"], world.users["gm"])
    document["system"] = "Pulp!"
    assert any("system" in error for error in errors("character", document))
