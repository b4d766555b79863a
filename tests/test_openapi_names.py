"""OpenAPI component names are unique per game system by construction (issue 29): a system's
serializers are prefixed with the system's name, and generating the schema warns of no two
components with one name."""

from __future__ import annotations

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

from characters import registry


@pytest.fixture
def schema_and_warnings(capsys):
    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    GENERATOR_STATS.emit_summary()
    return schema, capsys.readouterr().err


def test_no_two_components_share_a_name(schema_and_warnings):
    _, warnings = schema_and_warnings
    assert "identical names" not in warnings, warnings


def test_a_systems_components_carry_its_prefix(schema_and_warnings):
    schema, _ = schema_and_warnings
    prefixes = {"".join(p.capitalize() for p in app.key.split("_")) for app in registry.installed()}
    names = set(schema["components"]["schemas"])
    for prefix in prefixes:
        assert any(name.startswith(prefix) for name in names), f"no component of {prefix}"


def test_two_systems_serializers_of_one_class_name_get_two_names():
    from rest_framework import serializers

    from config.openapi import SystemPrefixedAutoSchema

    def made_in(module):
        return type("WriteResultSerializer", (serializers.Serializer,), {"__module__": module})()

    schema = SystemPrefixedAutoSchema()
    schema.view = object()
    names = {
        schema._get_serializer_name(made_in(m), "response") for m in ("systems.tempo.api", "systems.d6.api")
    }
    assert names == {"TempoWriteResult", "D6WriteResult"}
