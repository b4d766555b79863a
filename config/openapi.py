"""The OpenAPI schema's generator settings (drf-spectacular)."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

PROJECT_PACKAGES = ("systems.", "campaigns.", "characters.", "sheets.", "archive.", "config.")


class SystemPrefixedAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema whose component names are unique per game system by construction:
    a serializer of a system's package (or an inline one described for a view of one) is named with
    the system's prefix, its key in CamelCase ("TempoWriteResult", "D6WriteResult"), so two systems'
    serializers of the same class name no longer collide silently (issue 29;
    tests/test_openapi_names.py fails on a collision)."""

    def _get_serializer_name(self, serializer, direction, bypass_extensions=False) -> str:
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        target = getattr(serializer, "child", serializer)
        module = type(target).__module__
        system = _system_of(module)
        if system is None and not module.startswith(PROJECT_PACKAGES):
            # an inline serializer (or a library's) is described for a view: it takes the view's system
            system = _system_of(type(self.view).__module__)
        if system is None:
            return name
        prefix = "".join(part.capitalize() for part in system.key.split("_"))
        return name if name.startswith(prefix) else prefix + name


def _system_of(module: str):
    """The installed game system whose package holds ``module`` (found through the registry, so a
    system outside systems/, such as the test suite's toy, is named like the project's)."""
    from characters import registry

    for app in registry.installed():
        if module == app.package or module.startswith(f"{app.package}."):
            return app
    return None
