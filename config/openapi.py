"""The OpenAPI schema's generator settings (drf-spectacular)."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

PROJECT_PACKAGES = ("systems.", "campaigns.", "characters.", "sheets.", "archive.", "config.")


class SystemPrefixedAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema whose component names are unique per game system by construction:
    a serializer of ``systems.<key>`` (or an inline one described for a view of ``systems.<key>``)
    is named with the system's prefix ("TempoWriteResult", "D6WriteResult"), so two systems'
    serializers of the same class name no longer collide silently (issue 29;
    tests/test_openapi_names.py fails on a collision)."""

    def _get_serializer_name(self, serializer, direction, bypass_extensions=False) -> str:
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        target = getattr(serializer, "child", serializer)
        module = type(target).__module__
        if not module.startswith(PROJECT_PACKAGES):
            # an inline serializer (or a library's) is described for a view: it takes the view's system
            module = type(self.view).__module__
        if not module.startswith("systems."):
            return name
        prefix = "".join(part.capitalize() for part in module.split(".")[1].split("_"))
        return name if name.startswith(prefix) else prefix + name
