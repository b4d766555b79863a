"""The engines' key -> module map: the registry's under Django, the folders' convention without."""

from pathlib import Path

import characters.systems as engines
from characters import registry

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_registry_every_engine_folder_is_found_under_its_folder_name():
    folders = sorted(path.parent.parent.name for path in ROOT.glob("systems/*/engine/__init__.py"))
    found = engines.discovered_engines()
    assert sorted(found) == folders
    assert found["tempo"] == "systems.tempo.engine"
    for key, module in found.items():
        assert module == f"systems.{key}.engine"


def test_under_django_the_engines_are_the_installed_systems():
    # Each system app registered its engine: the map is the registry's, in INSTALLED_APPS order.
    assert [system.key for system in engines.all_systems()] == [app.key for app in registry.installed()]
    for app in registry.installed():
        assert engines.get_system(app.key).key == app.key
