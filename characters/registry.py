"""The registry of game-system apps: each system's Django app (systems/<system>/) registers one
``SystemApp`` from its ``AppConfig.ready()``, and the platform (campaigns, characters, sheets,
archive) asks here which systems are installed and what each offers instead of naming them.

The pure engines have their own registry (characters.systems.get_system), which needs no Django.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType

from django.apps import AppConfig

from characters.systems import register_engine, unregister_engine


@dataclass(frozen=True)
class PlayPage:
    """A page of a system's play, linked from the campaign page: its label and URL name (reversed
    with the campaign id)."""

    label: str
    url_name: str
    # URL-name prefixes of the pages that belong to this tab (marked current on them); the
    # url_name itself when empty.
    prefixes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SystemApp:
    key: str  # the value stored in Campaign.system and Character.system
    name: str  # shown to people
    # module of the pure engine (a module-level SYSTEM); "" = the app's ``engine`` subpackage
    engine: str = ""
    # module of the web builder (STEP_KEYS, resume_url, wizard_step); "" = the app's ``wizard``
    # module if it has one
    wizard: str = ""
    new_label: str = "New character"  # the builder's button
    sheet_kinds: tuple[str, ...] = ()  # print documents besides the character sheet
    play_pages: tuple[PlayPage, ...] = ()  # the campaign tabs this system adds
    # URL-name prefixes of this system's pages that belong to the platform's Characters tab
    character_page_prefixes: tuple[str, ...] = ()
    # modules of the system's campaign-archive sections (archive.sections: KEY, export, validate,
    # load); () = the app's ``archive`` module if it has one
    archive_sections: tuple[str, ...] = ()
    # module of the system's charts (campaigns.charts.ChartProvider: mission_charts and
    # campaign_charts for a reader); "" = the app's ``charts`` module if it has one
    charts: str = ""
    # module of the system's demo campaign for ``manage.py seed_demo`` (CAMPAIGN: name, module,
    # description; CHARACTERS: alice's and bob's names; choices(name, player) -> builder choices;
    # play(campaign, gm, users, heroes, rng)); "" = the app's ``demo`` module if it has one
    demo: str = ""
    # the system's Django app (its package, e.g. "systems.tempo"); filled in by register()
    package: str = ""
    # "module:function" (kind, payload, mission title) -> str: a ledger entry as a sentence
    ledger_sentence: str = ""
    # "module:function" (campaign, user, membership) -> list[InProgress]: play under way
    play_in_progress: str = ""
    # "module:function" (character) -> RollContext | None: the play under way that a roll made from
    # the character's page belongs to (a mission, run, conflict or encounter)
    roll_context: str = ""

    def entry_sentence(self, kind: str, payload: dict, mission: str) -> str:
        """A ledger entry as one sentence a player reads; "" when this system writes none."""
        return str(_call(self.ledger_sentence, kind, payload, mission) or "") if self.ledger_sentence else ""

    def roll_context_of(self, character) -> RollContext | None:
        """The play under way that a roll from ``character``'s page belongs to, or None."""
        return _call(self.roll_context, character) if self.roll_context else None

    def records_in_progress(self, campaign, user, membership) -> list[InProgress]:
        """This system's play records under way in ``campaign``, as ``user`` may see them."""
        return (
            list(_call(self.play_in_progress, campaign, user, membership) or [])
            if self.play_in_progress
            else []
        )


@dataclass(frozen=True)
class RollContext:
    """What a roll from a character's page is tied to: the campaign's mission if any, and the
    play record under way in words, with its page and what goes into ``Roll.detail`` to file the
    roll with it (e.g. a conflict's id, which limits who sees the roll)."""

    title: str
    url: str = ""
    mission: object | None = None  # a campaigns.models.Mission
    detail: dict | None = None


@dataclass(frozen=True)
class InProgress:
    """A play record under way, for the campaign page: what it is, whose turn, where it is played."""

    title: str  # e.g. "Mission run: The Merchant's Ledger"
    turn: str  # whose move it is, in words ("Your move", "The game master's move")
    url: str
    yours: bool = False  # True when the move is this user's


def _call(target: str, *args):
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)(*args)


_APPS: dict[str, SystemApp] = {}


def register(app: SystemApp, package: str = "") -> None:
    """Add a system; ``package`` (its Django app's module) fills in the engine, the builder and the
    charts and the archive section by the folder's convention: ``<package>.engine``, ``<package>.wizard``,
    ``<package>.charts``, ``<package>.archive``, ``<package>.demo``."""
    if package and not app.package:
        app = dataclasses.replace(app, package=package)
    if package and not app.engine:
        app = dataclasses.replace(app, engine=f"{package}.engine")
    if package and not app.wizard and importlib.util.find_spec(f"{package}.wizard") is not None:
        app = dataclasses.replace(app, wizard=f"{package}.wizard")
    if package and not app.charts and importlib.util.find_spec(f"{package}.charts") is not None:
        app = dataclasses.replace(app, charts=f"{package}.charts")
    if package and not app.archive_sections and importlib.util.find_spec(f"{package}.archive") is not None:
        app = dataclasses.replace(app, archive_sections=(f"{package}.archive",))
    if package and not app.demo and importlib.util.find_spec(f"{package}.demo") is not None:
        app = dataclasses.replace(app, demo=f"{package}.demo")
    if not app.engine:
        raise ValueError(f"The system {app.key!r} names no engine.")
    _APPS[app.key] = app
    register_engine(app.key, app.engine)


class SystemAppConfig(AppConfig):
    """The AppConfig of a game system's folder: it registers ``system`` when Django is ready.

    A system app sets ``name``, ``label`` and ``system`` (a SystemApp); override ``ready`` (calling
    ``super().ready()``) for anything more.
    """

    default_auto_field = "django.db.models.BigAutoField"
    system: SystemApp
    # Not a candidate itself when Django looks for the one AppConfig of an apps.py that imports it;
    # every subclass is.
    default = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.default = True

    def ready(self) -> None:
        register(self.system, package=self.name)


def unregister(key: str) -> None:
    """Forget a system (a test's toy system, once its app is uninstalled again)."""
    _APPS.pop(key, None)
    unregister_engine(key)


def get(key: str) -> SystemApp | None:
    return _APPS.get(key)


def installed() -> list[SystemApp]:
    """The registered systems, in INSTALLED_APPS order."""
    return list(_APPS.values())


def url_modules(name: str) -> list[str]:
    """The ``<package>.<name>`` URL conf of every installed system that has one, in INSTALLED_APPS
    order: ``urls`` (pages) and ``api_urls`` (under /api/v1/), by the folder's convention."""
    found = []
    for app in _APPS.values():
        module = f"{app.package}.{name}"
        if app.package and importlib.util.find_spec(module) is not None:
            found.append(module)
    return found


def system_choices() -> list[tuple[str, str]]:
    return [(app.key, app.name) for app in _APPS.values()]


class Wizards(Mapping[str, ModuleType]):
    """system key -> that system's builder module, imported on first use (the builders live in the
    system apps, above the platform, so nothing here imports them by name)."""

    def __getitem__(self, key: str) -> ModuleType:
        app = _APPS.get(key)
        if app is None or not app.wizard:
            raise KeyError(key)
        return importlib.import_module(app.wizard)

    def __iter__(self) -> Iterator[str]:
        return iter([key for key, app in _APPS.items() if app.wizard])

    def __len__(self) -> int:
        return sum(1 for app in _APPS.values() if app.wizard)
