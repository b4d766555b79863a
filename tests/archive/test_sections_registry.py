"""The archive finds the play sections of the game systems through the registry, each in its
system's folder (``systems/<system>/archive.py``), and places them where the platform's order needs."""

from __future__ import annotations

import sys
import types

import pytest

from archive import sections as archive_sections
from characters import registry

# The order of format versions 1-3: a file's keys and an import's order stay as they were.
ORDER = (
    "members",
    "missions",
    "characters",
    "npcs",
    "d6_encounters",
    "rolls",
    "mission_records",
    # the play sessions and their notes (format version 5, issue 50): they name missions,
    # characters and NPCs, all restored before them
    "play_sessions",
    # TIMEMASTER's section (issue 49): first of the systems', as systems.timemaster is installed first
    "timemaster_npc_condition",
    "timemaster_attacked_npcs",
    "timemaster_fight_states",
    "ttk_runs",
    "tempo_conflicts",
    # the platform's sections after every system's (archive.sections.PLATFORM_TAIL_SECTIONS)
    "fair_dice_scopes",
    "fair_dice",
    "rolls_by_hand",
)


def test_the_sections_keep_their_order_with_the_systems_sections_from_their_folders():
    """The project's sections keep the order of format versions 1-3; a system installed besides
    them (the toy system, when tests/settings_toy.py installs it) has its section after theirs and
    before the platform's tail sections."""
    keys = archive_sections.section_keys()
    assert tuple(key for key in keys if key in ORDER) == ORDER
    tail = ("fair_dice_scopes", "fair_dice", "rolls_by_hand")
    assert keys[-3:] == tail
    # Any other system's section (the toy's, a new system's): right before the platform section
    # its BEFORE names, or else after every section of the format's order and before the tail.
    by_key = {section.KEY: section for section in archive_sections.SECTIONS}
    last_of_order = keys.index(ORDER[-4])
    for key in (key for key in keys if key not in ORDER):
        before = getattr(by_key[key], "BEFORE", "")
        if before:
            assert before in keys[keys.index(key) + 1 :], key
        else:
            assert last_of_order < keys.index(key) < len(keys) - 3, key
    # Each installed system's sections come from its own folder, in INSTALLED_APPS order.
    assert [section.__name__ for section in archive_sections.system_sections()] == [
        name for app in registry.installed() for name in app.archive_sections
    ]
    assert tuple(key for key in archive_sections.OPTIONAL_SECTIONS if key in ORDER) == (
        "timemaster_npc_condition",
        "timemaster_attacked_npcs",
        "timemaster_fight_states",
        "ttk_runs",
        "tempo_conflicts",
        "d6_encounters",
        "fair_dice_scopes",
        "fair_dice",
        "rolls_by_hand",
    )
    assert [section.KEY for section in archive_sections.SECTIONS] == list(keys)


def test_a_system_names_its_section_by_the_folders_convention():
    assert registry.get("tempo").archive_sections == ("systems.tempo.archive",)
    # TIMEMASTER's NPC condition entries are its own section; its mission records are still the
    # platform's.
    assert registry.get("timemaster").archive_sections == (
        "systems.timemaster.archive",
        "systems.timemaster.archive_attacked",
        "systems.timemaster.archive_fight_states",
    )


def _install(monkeypatch, key: str, **attributes) -> types.ModuleType:
    module = types.ModuleType(f"tests.archive.fake_{key}")
    for name, value in {"KEY": key, **attributes}.items():
        setattr(module, name, value)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    app = registry.SystemApp(key=key, name=key, engine="x", archive_sections=(module.__name__,))
    monkeypatch.setitem(registry._APPS, key, app)
    return module


def test_a_new_systems_section_goes_last_or_before_the_platform_section_it_names(monkeypatch):
    _install(monkeypatch, "pulp_cases")
    _install(monkeypatch, "pulp_clues", BEFORE="missions")
    keys = archive_sections.section_keys()
    # after the platform's and the other systems' sections, before the platform's tail sections
    assert keys[-4:] == ("pulp_cases", "fair_dice_scopes", "fair_dice", "rolls_by_hand")
    assert keys.index("pulp_clues") == keys.index("missions") - 1
    assert {"pulp_cases", "pulp_clues"} <= set(archive_sections.OPTIONAL_SECTIONS)


def test_a_section_placed_before_no_platform_section_is_refused(monkeypatch):
    _install(monkeypatch, "pulp_cases", BEFORE="ttk_runs")
    with pytest.raises(ValueError, match="pulp_cases"):
        archive_sections.sections()
