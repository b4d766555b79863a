"""The names of the API schema's shared choice sets (drf-spectacular's ENUM_NAME_OVERRIDES): the
platform's, then each installed system's (``SystemApp.openapi_enums``), read from the registry when
the schema is made, so the project's settings name no system."""

from __future__ import annotations

from collections.abc import Iterator, Mapping


class EnumNames(Mapping):
    """``{component name: dotted path of the choices}``: the platform's own and every installed
    system's, for drf-spectacular's ENUM_NAME_OVERRIDES (it reads ``items()`` and ``len()``)."""

    def __init__(self, platform: dict[str, str]) -> None:
        self.platform = dict(platform)

    def _all(self) -> dict[str, str]:
        from characters import registry

        names = dict(self.platform)
        for app in registry.installed():
            names.update(app.openapi_enums)
        return names

    def __getitem__(self, name: str) -> str:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())
