"""The system test kit: what the shared tests need of a game system, found by the folder's
convention, so they run for every installed system (``registry.installed()``) and a new system
passes through them with nothing added here.

A system supplies:

- its sample characters: the ``demo`` module (SystemApp.demo) every system already has for
  ``manage.py seed_demo``: ``CAMPAIGN`` (name, module, description) and ``choices(name, player)``,
  the builder choices a player could type; the kit builds them through the platform's own path
  (a draft, then finalized by the GM);
- optionally ``testkit.py`` in its folder: what a test checks of it besides (``BLANK_LABELS``,
  ``check_demo``, ``HERO``/``LEDGER``, ``api_route_ids``, ``SECRET_WORLD`` ...; the table in
  docs/adding-a-system.md says which shared test reads each).

The shared tests call the kit's functions with a system key: parametrised over ``installed_keys()``
for the installed systems. ``SHARED_TESTS`` lists them; the suite runs with the toy system installed
(tests/settings_toy.py: the project's settings and one INSTALLED_APPS line), so they all run for it
too, and tests/test_toy_system.py checks that the run has them.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from types import ModuleType

import pytest

from characters import registry

#: The shared tests: every one of them runs for each installed system (the suite's settings install
#: the toy system besides the project's own).
SHARED_TESTS = (
    "tests/systems/test_contract.py",
    "tests/test_wrong_system_routes.py",
    "tests/characters/test_wizard_steps.py",
    "tests/characters/test_builder_player_default.py",
    "tests/campaigns/test_api_roles.py",
    "tests/campaigns/test_onboarding.py",
    "tests/campaigns/test_settings_for_players.py",
    "tests/hardening/test_no_foreign_names.py",
    "tests/secrets/test_non_interference.py",
    "tests/sheets/test_blank_sheets.py",
    "tests/sheets/test_layout_invariants.py",
    "tests/sheets/test_longest_input.py",
    "tests/archive",
)


def installed_keys() -> list[str]:
    """The keys of the installed systems, in INSTALLED_APPS order."""
    return [app.key for app in registry.installed()]


def params() -> list:
    """One pytest param per installed system, its key as the test id."""
    return [pytest.param(key, id=key) for key in installed_keys()]


def app(key: str) -> registry.SystemApp:
    found = registry.get(key)
    assert found is not None, f"the system {key!r} is not installed"
    return found


def demo(key: str) -> ModuleType:
    """The system's demo module (its sample campaign and characters)."""
    system = app(key)
    assert system.demo, f"the system {key!r} has no demo module (systems/<x>/demo.py)"
    return importlib.import_module(system.demo)


def extras(key: str) -> ModuleType | None:
    """The system's ``testkit`` module, if its folder has one."""
    module = f"{app(key).package}.testkit"
    return importlib.import_module(module) if importlib.util.find_spec(module) is not None else None


def module_of(key: str) -> str:
    """The campaign module a campaign of the system is made with (its demo campaign's)."""
    return demo(key).CAMPAIGN[1]


def make_campaign(gm, key: str, name: str = ""):
    """A campaign of the system with ``gm`` as its game master."""
    from campaigns import services

    return services.create_campaign(
        gm, name=name or f"A {app(key).name} campaign", system=key, module=module_of(key)
    )


def make_character(campaign, owner, name: str = "Kim", player: str = "kim"):
    """A finished character of the campaign's system, made from its demo choices the way a player
    and the GM make one: a draft, then finalized by the GM."""
    from characters import services

    draft = services.create_draft(campaign, owner, choices=demo(campaign.system).choices(name, player))
    return services.finalize(draft, is_gm=True, rng=random.Random(3))


def sample_build(key: str, name: str = "Kim", player: str = "kim") -> dict:
    """A finished build of the system made by its engine from its demo choices (no database)."""
    from characters.systems import get_system

    return get_system(key).new_build(demo(key).choices(name, player), random.Random(3))
