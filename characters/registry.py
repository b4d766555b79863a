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
class SheetKindSpec:
    """A print document a system adds besides its character sheet (read by sheets.kinds)."""

    key: str  # the SheetRender.kind stored, e.g. "fate_record"; unique among installed systems
    label: str  # shown to people: "Fate Record Sheet"
    # who may print it: "gm" (the GM only; anyone else learns nothing of the GM's prints) or
    # "member" (each member gets the copy made for them: one render per reader)
    readers: str = "member"
    # what it renders from: "" (the campaign alone) or the request field naming one of the
    # campaign's records ("mission", "run"), found by ``find``
    target: str = ""
    target_label: str = ""  # that record in words: "mission run" ("No such mission run.")
    target_required: bool = False  # False: without a record it prints blank, for play at the table
    # "module:function" (campaign, id) -> the record or None; "" = "<package>.sheets:find_<key>"
    find: str = ""
    # "module:function" (campaign, user, membership) -> sheets.kinds.Offer or None: its section of
    # the sheets page; "" = "<package>.sheets:<key>_offer" when that exists, else none
    offer: str = ""
    template: str = ""  # its print template; "" = "sheets/<system>_<key>.html"
    # "module:function" (sheets.kinds.SheetOrder) -> sheets.kinds.KindPlan: what the PDF shows;
    # "" = "<package>.sheets:<key>"
    data: str = ""
    in_gm_bundle: bool = False  # its blank copy ends the GM's party bundle
    file_word: str = ""  # what its download's name calls it; "" = the key with hyphens


@dataclass(frozen=True)
class SystemApp:
    key: str  # the value stored in Campaign.system and Character.system
    name: str  # shown to people
    # module of the pure engine (a module-level SYSTEM); "" = the app's ``engine`` subpackage
    engine: str = ""
    # module of the web builder (STEPS, TEMPLATES, step_<key> views, first_open_step, step_of,
    # WELCOME: characters/builder.py runs the flow); "" = the app's ``wizard`` module if it has one
    wizard: str = ""
    new_label: str = "New character"  # the builder's button
    # print documents besides the character sheet (a bare key: a SheetKindSpec named after it)
    sheet_kinds: tuple[SheetKindSpec | str, ...] = ()
    # "module:function" (module key) -> SheetData: its blank character sheet; "" = the app's
    # ``sheets:blank_sheet`` if it has one (none: the sheets page says so)
    blank_sheet: str = ""
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
    # module of how the system's records sit in a campaign archive beside its sections
    # (archive/references.py, archive/upgrades.py): SPOTS, where its engine keeps database ids;
    # optional UPGRADES ({from version: step(character)}), OLD_IDS(document) for the version 2 -> 3
    # step, MISSION_PROBLEMS(mission) for a mission's system fields and LEDGER_PAYLOAD(kind,
    # payload) for what an imported ledger entry keeps; "" = the app's ``archive_format`` module
    # if it has one
    archive_format: str = ""
    # the system's Django app (its package, e.g. "systems.tempo"); filled in by register()
    package: str = ""
    # "module:function" (kind, payload, mission title) -> str: a ledger entry as a sentence
    ledger_sentence: str = ""
    # "module:function" (campaign, user, membership) -> list[InProgress]: play under way
    play_in_progress: str = ""
    # module of the system's mission rules (campaigns.missions: plan fields, clean_plan, check_plan,
    # start, publish, verdict_label); "" = the app's ``missions`` module if it has one
    missions: str = ""
    # "module:attribute" of the system's NPC rules (campaigns.npc_services.NPCRules); "" = the
    # app's ``npc_rules`` module's RULES if it has one
    npc_rules: str = ""
    # "module:function" (request, campaign, membership, given) -> DiceExtras: the panels this
    # system adds to the dice page (``given``: the page's context so far, a view's own forms in it)
    dice_panels: str = ""
    # template the dice log includes for each roll of this system's campaigns (the roll is ``r``):
    # the roll's detail as the system wrote it
    roll_detail_template: str = ""
    # "module:function" (roll) -> str: the dice a roll of this system threw and what was added, in
    # words, for the log line ("3d6 with 2 bonus dice, rating +8"); "" (or an empty answer) keeps the
    # platform's words (kind, count, modifier)
    roll_words: str = ""
    # "module:function" (character) -> RollContext | None: the play under way that a roll made from
    # the character's page belongs to (a mission, run, conflict or encounter)
    roll_context: str = ""
    # (component name, dotted path of the choices) for a choice set several of the system's API
    # fields share (drf-spectacular names a set by its field, and warns when one set gets several
    # names): e.g. ("TimemasterHitLocationEnum", "systems.timemaster.engine.armor.LOCATIONS")
    openapi_enums: tuple[tuple[str, str], ...] = ()
    # "module:function" (campaign, user, membership, start, end) -> list[campaigns.chronicle.play_sessions.
    # Happening]: what this system's play records did between two moments (a play session's page),
    # each as its own pages show it to this reader
    play_session_events: str = ""
    # "module:function" (play_session, membership) -> list[campaigns.chronicle.play_sessions.EndChoice]: what
    # ending a play session may also do in this system (a fate refresh), each a separate choice
    play_session_end: str = ""
    # module of the system's part of the chronicle (campaigns.chronicle.recap.ChronicleProvider: the
    # recap's highlights among its ledger entries and rolls, its timeline tracks); "" = the app's
    # ``chronicle`` module if it has one
    chronicle: str = ""

    def print_kinds(self) -> tuple[SheetKindSpec, ...]:
        """Its sheet kinds as declarations (register() turns a bare key into one)."""
        return tuple(kind for kind in self.sheet_kinds if isinstance(kind, SheetKindSpec))

    def entry_sentence(self, kind: str, payload: dict, mission: str) -> str:
        """A ledger entry as one sentence a player reads; "" when this system writes none."""
        return str(_call(self.ledger_sentence, kind, payload, mission) or "") if self.ledger_sentence else ""

    def roll_words_of(self, roll) -> str:
        """This system's words for a roll's dice in the log, or "" for the platform's own."""
        return str(_call(self.roll_words, roll) or "") if self.roll_words else ""

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

    def mission_rules(self) -> ModuleType | None:
        """The module of this system's mission rules, or None when it has none."""
        return importlib.import_module(self.missions) if self.missions else None

    def npc_rule_set(self) -> object | None:
        """This system's NPC rules (campaigns.npc_services.NPCRules), or None when it has none."""
        if not self.npc_rules:
            return None
        module, _, attribute = self.npc_rules.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def dice_extras(self, request, campaign, membership, given: dict) -> DiceExtras:
        """The panels and context this system adds to the dice page for this member."""
        return (
            _call(self.dice_panels, request, campaign, membership, given)
            if self.dice_panels
            else DiceExtras()
        )


@dataclass(frozen=True)
class DiceExtras:
    """What a system adds to the platform's dice page: templates included after the roll form
    (each sees the page's context) and the context they read."""

    templates: tuple[str, ...] = ()
    context: Mapping[str, object] = dataclasses.field(default_factory=dict)
    # (heading id, short label) of the panels worth a jump link near the top of the page, in the
    # page's order (issue 49: on a phone the GM's fight panel sat thousands of pixels down)
    jumps: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RollContext:
    """What a roll from a character's page is tied to: the campaign's mission if any, and the
    play record under way in words, with its page and what goes into ``Roll.detail`` to file the
    roll with it (e.g. a conflict's id, which limits who sees the roll)."""

    title: str
    url: str = ""
    mission: object | None = None  # a campaigns.models.Mission
    detail: dict | None = None
    # When only some members see the roll (``detail`` files it with something they alone see):
    # the fair dice's scope label of that record, so its counters count only rolls they see.
    dice_scope: str = ""


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
    """Add a system; ``package`` (its Django app's module) fills in the engine, the builder, the
    charts, the archive section and format, the demo, the mission rules, the NPC rules and the blank
    sheet by the folder's convention: ``<package>.engine``, ``<package>.wizard``,
    ``<package>.charts``, ``<package>.archive``, ``<package>.archive_format``, ``<package>.demo``,
    ``<package>.missions``, ``<package>.npc_rules``, ``<package>.sheets:blank_sheet``."""
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
    if package and not app.missions and importlib.util.find_spec(f"{package}.missions") is not None:
        app = dataclasses.replace(app, missions=f"{package}.missions")
    if package and not app.npc_rules and importlib.util.find_spec(f"{package}.npc_rules") is not None:
        app = dataclasses.replace(app, npc_rules=f"{package}.npc_rules:RULES")
    if package and not app.chronicle and importlib.util.find_spec(f"{package}.chronicle") is not None:
        app = dataclasses.replace(app, chronicle=f"{package}.chronicle")
    if package and not app.blank_sheet and _has_function(f"{package}.sheets", "blank_sheet"):
        app = dataclasses.replace(app, blank_sheet=f"{package}.sheets:blank_sheet")
    if app.sheet_kinds:
        app = dataclasses.replace(
            app, sheet_kinds=tuple(_kind_defaults(kind, app) for kind in app.sheet_kinds)
        )
    if package and not app.archive_format and importlib.util.find_spec(f"{package}.archive_format"):
        app = dataclasses.replace(app, archive_format=f"{package}.archive_format")
    if not app.engine:
        raise ValueError(f"The system {app.key!r} names no engine.")
    _APPS[app.key] = app
    register_engine(app.key, app.engine)


def _has_function(module: str, name: str) -> bool:
    return importlib.util.find_spec(module) is not None and hasattr(importlib.import_module(module), name)


def _kind_defaults(kind: SheetKindSpec | str, app: SystemApp) -> SheetKindSpec:
    """A sheet kind with its template and functions filled in by the folder's convention."""
    if isinstance(kind, str):
        kind = SheetKindSpec(key=kind, label=kind.replace("_", " ").capitalize())
    kind = dataclasses.replace(
        kind,
        template=kind.template or f"sheets/{app.key}_{kind.key}.html",
        file_word=kind.file_word or kind.key.replace("_", "-"),
    )
    if not app.package:  # no folder to look in: the declaration names its functions itself
        return kind
    module = f"{app.package}.sheets"
    return dataclasses.replace(
        kind,
        data=kind.data or f"{module}:{kind.key}",
        find=kind.find or (f"{module}:find_{kind.key}" if kind.target else ""),
        offer=kind.offer
        or (f"{module}:{kind.key}_offer" if _has_function(module, f"{kind.key}_offer") else ""),
    )


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


def sheet_kind(key: str) -> tuple[SystemApp, SheetKindSpec] | None:
    """The installed system that declares the sheet kind ``key``, and its declaration."""
    for app in _APPS.values():
        for kind in app.print_kinds():
            if kind.key == key:
                return app, kind
    return None


def call(target: str, *args):
    """Call a hook given as "module:function"."""
    return _call(target, *args)


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
