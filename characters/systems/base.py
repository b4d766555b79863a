"""The interface every game system implements, and the plain data it shares.

Pure Python: nothing here (or anywhere under ``characters.systems``) may import Django,
DRF, Celery or WeasyPrint. A test enforces it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn, Protocol, TypeGuard, runtime_checkable

from .dice import ROLLER_KINDS, DiceResult, roll_kind

Build = dict[str, Any]
Entry = dict[str, Any]
REVERSAL = "reversal"


@dataclass(frozen=True)
class RuleViolation:
    """One broken rule, in words a player understands, naming the field it concerns."""

    field: str
    message: str
    rule: str = ""  # the digest section it follows, e.g. "timemaster-characters.md §10"

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message, "rule": self.rule}


class RuleError(ValueError):
    """Raised by engine functions that cannot proceed; carries every violation found."""

    def __init__(self, violations: list[RuleViolation] | RuleViolation) -> None:
        if isinstance(violations, RuleViolation):
            violations = [violations]
        self.violations = list(violations)
        super().__init__("; ".join(f"{v.field}: {v.message}" for v in self.violations))


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number (booleans are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_one_of(value: Any, choices: Any) -> bool:
    """``value in choices``, but False (not a TypeError) for unhashable JSON such as a list or an
    object, so that a refusal can name the field instead."""
    try:
        return value in choices
    except TypeError:
        return False


def refuse(field_name: str, message: str, rule: str = "") -> RuleError:
    """Shorthand for ``raise refuse("bag", "The bag is empty.")``."""
    return RuleError(RuleViolation(field_name, message, rule))


@dataclass(frozen=True)
class SettingSpec:
    """One campaign setting a system offers, with its default (the digest's reading).

    kind is one of "int", "bool", "choice", "str".
    """

    name: str
    label: str
    kind: str
    default: Any
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    rule: str = ""
    #: One plain line a player reads beside the value; ``help`` (with the notes on the sources) is
    #: the GM's.
    meaning: str = ""
    #: A choice setting's (code, display name) pairs for the pages; a code without one is shown as
    #: words (characters.display_names).
    choice_labels: tuple[tuple[str, str], ...] = ()
    #: A choice setting's help written with those display names (the GM's form); ``help`` keeps the
    #: codes (the API's).
    choice_help: str = ""

    def check(self, value: Any) -> RuleViolation | None:
        where = f"settings.{self.name}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                return RuleViolation(where, f"{self.label} must be true or false.")
            return None
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return RuleViolation(where, f"{self.label} must be a whole number.")
            if self.minimum is not None and value < self.minimum:
                return RuleViolation(where, f"{self.label} must be at least {self.minimum}.")
            if self.maximum is not None and value > self.maximum:
                return RuleViolation(where, f"{self.label} must be at most {self.maximum}.")
            return None
        if self.kind == "choice":
            if value not in self.choices:
                options = ", ".join(self.choices)
                return RuleViolation(where, f"{self.label} must be one of: {options}.")
            return None
        if self.kind == "str":
            if not isinstance(value, str) or len(value) > 200:
                return RuleViolation(where, f"{self.label} must be text of at most 200 characters.")
            return None
        raise ValueError(f"unknown setting kind {self.kind!r}")


@dataclass
class SheetData:
    """Everything a print template shows, already computed. Templates only lay it out."""

    system: str
    template: str  # e.g. "sheets/timemaster.html"
    title: str  # the character's name, or the sheet's title for blank sheets
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class Review:
    """What a check found. ``errors`` block; ``warnings`` are advice; ``pending`` wait for the CM's
    confirmation (listed in ``cm_approvals`` once given); ``approved`` were overruled by the CM."""

    errors: list[RuleViolation] = field(default_factory=list)
    warnings: list[RuleViolation] = field(default_factory=list)
    pending: list[RuleViolation] = field(default_factory=list)
    approved: list[RuleViolation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def extend(self, other: Review) -> None:
        self.errors += other.errors
        self.warnings += other.warnings
        self.pending += other.pending
        self.approved += other.approved

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "errors": [v.as_dict() for v in self.errors],
            "warnings": [v.as_dict() for v in self.warnings],
            "pending": [v.as_dict() for v in self.pending],
            "approved": [v.as_dict() for v in self.approved],
        }


# -- campaign settings: one resolution for every system -------------------------------------------
def merge_settings(
    specs: Iterable[SettingSpec], values: Mapping[str, Any], keep_unknown: bool = False
) -> tuple[dict[str, Any], list[RuleViolation]]:
    """The defaults of ``specs`` with the legal ``values`` on top, and the problem of each illegal
    one. Names no spec knows are dropped, or kept as given with ``keep_unknown``."""
    known = {spec.name: spec for spec in specs}
    merged: dict[str, Any] = {name: spec.default for name, spec in known.items()}
    problems: list[RuleViolation] = []
    for name, value in values.items():
        spec = known.get(name)
        if spec is None:
            if keep_unknown:
                merged[name] = value
            continue
        problem = spec.check(value)
        if problem:
            problems.append(problem)
        else:
            merged[name] = value
    return merged, problems


def resolve_settings(
    specs: Iterable[SettingSpec],
    values: Any,
    keep_unknown: bool = False,
    not_an_object: str = "Settings must be an object.",
) -> dict[str, Any]:
    """What an engine works with: defaults with the given values on top. An illegal value is refused
    (RuleError); unknown names are ignored (``GameSystem.validate_settings`` reports them)."""
    if values is not None and not isinstance(values, dict):
        raise refuse("settings", not_an_object)
    merged, problems = merge_settings(specs, values or {}, keep_unknown)
    if problems:
        raise RuleError(problems)
    return merged


# -- the ledger: reversal and replay, shared by every system ---------------------------------------
#: Folds one entry into a NEW build (an engine's ``apply_entry``).
ApplyEntry = Callable[[Build, Entry], Build]
#: Raises the RuleError a replay gives when ``entry`` (its id first) no longer fits.
LedgerRefusal = Callable[[str, Entry, RuleError], NoReturn]


def entry_id(entry: Any) -> str:
    """A ledger entry's id as text; an entry without one is refused."""
    if not isinstance(entry, dict) or entry.get("id") is None:
        raise refuse("ledger", "Every ledger entry needs an id.")
    return str(entry["id"])


def reversal_of_a_reversal(target_id: str, target: Entry) -> str | None:
    """Why ``target`` may not be reversed (a reversal is entered again instead), or None."""
    if target.get("kind") == REVERSAL:
        return "A reversal cannot be reversed; enter the entry again instead."
    return None


def no_earlier_entry(reversal_id: str, target: Any) -> str:
    return f"Reversal {reversal_id} names no earlier entry."


def reversed_ids(
    entries: Iterable[Entry],
    irreversible: Callable[[str, Entry], str | None] = reversal_of_a_reversal,
    missing_target: Callable[[str, Any], str] = no_earlier_entry,
) -> set[str]:
    """Ids undone by a later reversal; malformed reversals are refused (the reason a system gives
    for an entry it will not reverse comes from ``irreversible``)."""
    if not isinstance(entries, list):
        raise refuse("ledger", "The ledger must be a list of entries.")
    seen: dict[str, Entry] = {}
    undone: set[str] = set()
    for entry in entries:
        this_id = entry_id(entry)
        if this_id in seen:
            raise refuse("ledger", f"Two ledger entries share the id {this_id}.")
        if entry.get("kind") == REVERSAL:
            target = entry.get("reverses")
            target_id = None if target is None else str(target)
            where = f"ledger.{this_id}"
            if target_id is None or target_id not in seen:
                raise refuse(where, missing_target(this_id, target))
            refusal = irreversible(target_id, seen[target_id])
            if refusal:
                raise refuse(where, refusal)
            if target_id in undone:
                raise refuse(where, f"Entry {target_id} was already reversed.")
            if not isinstance(entry.get("reason"), str) or not entry["reason"].strip():
                raise refuse(where, f"Reversal {this_id} needs a reason.")
            undone.add(target_id)
        seen[this_id] = entry
    return undone


def no_longer_fits(this_id: str, entry: Entry, error: RuleError) -> NoReturn:
    """The replay's refusal: names the entry that no longer fits, then the engine's reasons."""
    reasons = " ".join(v.message for v in error.violations)
    message = f"Entry {this_id} ({entry.get('kind')}) no longer fits: {reasons}"
    raise RuleError([RuleViolation(f"ledger.{this_id}", message)] + error.violations) from error


def fold_ledger(
    creation_build: Build,
    entries: Iterable[Entry],
    apply: ApplyEntry,
    undone: set[str],
    refusal: LedgerRefusal = no_longer_fits,
) -> Build:
    """The creation build with every entry folded in order, skipping reversals and the ``undone``
    entries; ``refusal`` raises when an entry no longer fits."""
    build = copy.deepcopy(creation_build)
    for entry in entries:
        this_id = str(entry.get("id"))
        if entry.get("kind") == REVERSAL or this_id in undone:
            continue
        try:
            build = apply(build, entry)
        except RuleError as error:
            refusal(this_id, entry, error)
    return build


def entry_kind(entry: Any) -> Any:
    """The kind of a ledger entry applied on its own (a system's ``apply_entry``): refused when the
    entry is not an object, or is a reversal, which only a replay of the whole ledger folds."""
    if not isinstance(entry, dict):
        raise refuse("entry", "A ledger entry must be an object with a kind.")
    kind = entry.get("kind")
    if kind == "reversal":
        raise refuse("kind", "A reversal is folded by replaying the whole ledger, not applied on its own.")
    return kind


def replay_ledger(
    creation_build: Build,
    entries: list[Entry],
    apply: ApplyEntry,
    reversals: Callable[[list[Entry]], set[str]] = reversed_ids,
    refusal: LedgerRefusal = no_longer_fits,
) -> Build:
    """The current build: creation plus every entry not reversed, in order. If a reversal leaves a
    later entry illegal (a spend with no points left), the RuleError names that entry."""
    return fold_ledger(creation_build, entries, apply, reversals(entries), refusal)


# -- event logs (encounters, conflicts, missions) --------------------------------------------------
State = dict[str, Any]
#: Raises the RuleError a replay gives when the event at this position is refused.
EventRefusal = Callable[[int, Any, RuleError], NoReturn]


def event_refused(index: int, event: Any, error: RuleError) -> NoReturn:
    kind = event.get("type") if isinstance(event, dict) else None
    raise RuleError(
        [RuleViolation(f"events.{index}", f"Event {index} ({kind}) is refused.")] + error.violations
    ) from error


def replay_events(
    state: State,
    events: Any,
    apply_event: Callable[[State, Any], State],
    refusal: EventRefusal = event_refused,
) -> State:
    """Fold recorded events in order over ``state`` without rolling; ``refusal`` names the failing
    event's position."""
    if not isinstance(events, list):
        raise refuse("events", "The events must be a list.")
    for index, event in enumerate(events):
        try:
            state = apply_event(state, event)
        except RuleError as error:
            refusal(index, event, error)
    return state


# -- rolls from the character page ---------------------------------------------------------------
MAX_ROLL_OPTION = 200  # a sanity bound on any number asked before a roll, not a rule
MAX_LIST_ITEMS = 10


@dataclass(frozen=True)
class RollOption:
    """One thing asked before a roll (a modifier, a column, a die count), with its bounds.

    kind is "int", "choice" (its ``choices`` are (code, words) pairs) or "list" (whole numbers,
    each within the bounds, at most MAX_LIST_ITEMS; given as a list or as text such as "2 1").
    ``unavailable``: (code, why) pairs of choices the rules forbid for this character right now
    (an aspect invoked with no fate point to pay): the page shows them disabled with the reason
    and preselects the first choice that is possible; the roll refuses them with the reason."""

    name: str
    label: str
    kind: str = "int"
    default: Any = 0
    minimum: int = -MAX_ROLL_OPTION
    maximum: int = MAX_ROLL_OPTION
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    unavailable: tuple[tuple[str, str], ...] = ()

    def why_not(self, code: Any) -> str:
        """Why the choice ``code`` cannot be taken now ("" when it can)."""
        return next((why for unavailable, why in self.unavailable if unavailable == code), "")

    @property
    def preselected(self) -> Any:
        """The value the page starts with: the default, or for a choice the rules forbid now, the
        first choice that is possible."""
        if self.kind != "choice" or not self.why_not(self.default):
            return self.default
        return next((code for code, _ in self.choices if not self.why_not(code)), self.default)

    @property
    def choice_rows(self) -> list[tuple[str, str, str]]:
        """(code, words, why it is not possible now or "") of every choice, for the page."""
        return [(code, words, self.why_not(code)) for code, words in self.choices]

    def checked(self, value: Any) -> Any:
        """The value to roll with (the default when not given); RuleError naming
        ``modifiers.<name>`` when it is not one this option takes."""
        where = f"modifiers.{self.name}"
        if value is None or value == "":
            if self.kind == "choice" and self.why_not(self.default):
                return self.checked(self.default)  # refused, saying why
            return self.default
        if self.kind == "list":
            return self._checked_list(value, where)
        if self.kind == "choice":
            codes = [code for code, _ in self.choices]
            if not isinstance(value, str) or value not in codes:
                raise refuse(where, f"{self.label} must be one of: {', '.join(codes)}.")
            if self.why_not(value):
                raise refuse(where, f"{self.label}: {self.why_not(value)}")
            return value
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise refuse(where, f"{self.label} must be a whole number.") from None
        if not is_int(value):
            raise refuse(where, f"{self.label} must be a whole number.")
        if not self.minimum <= value <= self.maximum:
            raise refuse(where, f"{self.label} runs from {self.minimum} to {self.maximum}.")
        return value

    def _checked_list(self, value: Any, where: str) -> list[int]:
        if isinstance(value, str):
            try:
                value = [int(part) for part in value.replace(",", " ").split()]
            except ValueError:
                raise refuse(where, f"{self.label}: give whole numbers, e.g. 2 1.") from None
        if isinstance(value, bool) or is_int(value):
            value = [value]
        if not isinstance(value, list) or not all(is_int(item) for item in value):
            raise refuse(where, f"{self.label}: give whole numbers, e.g. 2 1.")
        if len(value) > MAX_LIST_ITEMS:
            raise refuse(where, f"{self.label}: at most {MAX_LIST_ITEMS} numbers.")
        if any(not self.minimum <= item <= self.maximum for item in value):
            raise refuse(where, f"{self.label}: each number runs from {self.minimum} to {self.maximum}.")
        return list(value)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "minimum": self.minimum if self.kind != "choice" else None,
            "maximum": self.maximum if self.kind != "choice" else None,
            "choices": [
                {"value": code, "label": words, "unavailable": why} for code, words, why in self.choice_rows
            ],
            "help": self.help,
        }


@dataclass(frozen=True)
class RollSpec:
    """A roll a character can make, as the character page offers it: one per ability, skill,
    talent, aspect or die code. ``secret``: the rules make this roll the game master's (only the GM
    sees the result)."""

    key: str  # e.g. "skill:pistol", "role:soldier", "ability:stealth", "code:Perception"
    group: str  # e.g. "Skills"
    name: str
    value: str  # the score as the sheet shows it ("45", "4D+1", "+", "Veteran (+2)")
    dice: str  # what is rolled, in words ("percentile dice against 45")
    options: tuple[RollOption, ...] = ()
    secret: bool = False
    rule: str = ""  # the digest section the roll follows

    def checked(self, modifiers: Any) -> dict[str, Any]:
        """Every option's value (defaults filled in); RuleError naming each bad one or an
        unknown name."""
        if modifiers is None:
            modifiers = {}
        if not isinstance(modifiers, dict):
            raise refuse("modifiers", "The modifiers must be an object of names and values.")
        known = {option.name: option for option in self.options}
        problems = [
            RuleViolation(f"modifiers.{name}", f"{self.name} takes no modifier called {name!r}.")
            for name in modifiers
            if name not in known
        ]
        values: dict[str, Any] = {}
        for name, option in known.items():
            try:
                values[name] = option.checked(modifiers.get(name))
            except RuleError as error:
                problems += error.violations
        if problems:
            raise RuleError(problems)
        return values

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "group": self.group,
            "name": self.name,
            "value": self.value,
            "dice": self.dice,
            "options": [option.as_dict() for option in self.options],
            "secret": self.secret,
            "rule": self.rule,
        }


@dataclass(frozen=True)
class RollPlan:
    """The dice a roll takes, in the dice roller's kinds (characters.systems.dice.ROLLER_KINDS,
    which the fair-dice proof recomputes), and the line the roll log shows for it."""

    kind: str
    count: int
    modifier: int
    purpose: str
    secret: bool = False


@dataclass(frozen=True)
class RollOutcome:
    """A roll made: its dice and the system's reading of them (JSON: ``summary`` is one line a
    player reads; ``ledger`` the entries the roll causes, if any)."""

    plan: RollPlan
    dice: DiceResult
    reading: dict[str, Any]


class Replay(random.Random):
    """Dice already rolled, handed out again in order: a reading that re-runs a system's own roll
    function on them gets the same dice. Pure; ``randint`` and ``choice`` only."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self._faces = list(faces)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self._faces):
            raise refuse("faces", "The roll needs more dice than were rolled.")
        face = self._faces[self.used]
        self.used += 1
        if not a <= face <= b:
            raise refuse("faces", f"A face of {face} is not on a die from {a} to {b}.")
        return face

    def choice(self, seq: Any) -> Any:
        return seq[self.randint(0, len(seq) - 1)]


def find_roll(specs: Iterable[RollSpec], key: Any) -> RollSpec:
    """The spec called ``key``; RuleError on ``spec`` naming the ones there are."""
    specs = list(specs)
    for spec in specs:
        if spec.key == key:
            return spec
    if not specs:
        raise refuse("spec", "This character has no rolls to make.")
    shown = ", ".join(spec.key for spec in specs[:12]) + (", ..." if len(specs) > 12 else "")
    raise refuse("spec", f"This character has no roll called {key!r}; there are: {shown}.")


# -- the contract ----------------------------------------------------------------------------------
@runtime_checkable
class Engine(Protocol):
    """What the platform may ask of a game system: the registry holds one per key.

    Builds are JSON-serialisable dicts; ledger entries are dicts ``{"kind": str, "id": ..., ...}``
    that ``apply`` folds into a NEW build and ``replay`` folds in order, skipping reversals and the
    entries they undo. Every method that reads campaign settings takes them as ``settings`` (None:
    the defaults); a system whose rules do not need them ignores them.
    """

    # -- registry entry and settings schema
    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def modules(self) -> tuple[str, ...]: ...

    @property
    def settings(self) -> tuple[SettingSpec, ...]: ...

    @property
    def entry_kinds(self) -> tuple[str, ...]: ...

    def default_settings(self) -> dict[str, Any]: ...

    def validate_settings(self, values: Any) -> tuple[dict[str, Any], list[RuleViolation]]: ...

    # -- build and derive
    def new_build(
        self, choices: dict[str, Any], rng: random.Random, settings: dict[str, Any] | None = None
    ) -> Build: ...

    def validate(self, build: Build, settings: dict[str, Any] | None = None) -> list[RuleViolation]: ...

    def review(self, build: Build, settings: dict[str, Any] | None = None) -> Review: ...

    def derive(self, build: Build) -> dict[str, Any]: ...

    # -- the ledger
    def apply(self, build: Build, entry: Entry) -> Build: ...

    def replay(self, creation_build: Build, entries: list[Entry]) -> Build: ...

    def is_dead(self, build: Build) -> bool | None: ...

    # -- the sheet
    def sheet(self, build: Build) -> SheetData: ...

    # -- rolls from the character page
    def rolls(self, build: Build, settings: dict[str, Any] | None = None) -> list[RollSpec]: ...

    def plan_roll(
        self,
        build: Build,
        key: str,
        modifiers: Any,
        settings: dict[str, Any] | None = None,
        *,
        specs: list[RollSpec] | None = None,
    ) -> RollPlan: ...

    def read_roll(
        self,
        build: Build,
        key: str,
        modifiers: Any,
        dice: DiceResult,
        settings: dict[str, Any] | None = None,
        *,
        specs: list[RollSpec] | None = None,
    ) -> dict[str, Any]: ...

    def roll(
        self,
        build: Build,
        key: str,
        modifiers: Any,
        rng: random.Random,
        settings: dict[str, Any] | None = None,
    ) -> RollOutcome: ...


class GameSystem:
    """The one base implementation of ``Engine``: what every system shares (settings, review,
    replay). A system subclasses it, sets ``key``, ``label``, ``settings`` and ``entry_kinds`` and
    implements its rules: ``new_build``, ``validate``, ``derive``, ``apply``, ``sheet``.
    """

    key: ClassVar[str] = ""
    label: ClassVar[str] = ""
    modules: ClassVar[tuple[str, ...]] = ()  # e.g. tempo: ("flashpoints",)
    settings: ClassVar[tuple[SettingSpec, ...]] = ()
    entry_kinds: ClassVar[tuple[str, ...]] = ()

    # -- campaign settings -------------------------------------------------
    def default_settings(self) -> dict[str, Any]:
        return {spec.name: spec.default for spec in self.settings}

    def validate_settings(self, values: Any) -> tuple[dict[str, Any], list[RuleViolation]]:
        """Merge ``values`` over the defaults; return the result and every problem."""
        if values is None:
            values = {}
        if not isinstance(values, dict):
            return self.default_settings(), [RuleViolation("settings", "Settings must be an object.")]
        known = {spec.name for spec in self.settings}
        problems = [
            RuleViolation(f"settings.{name}", f"{self.label} has no setting called {name!r}.")
            for name in values
            if name not in known
        ]
        merged, illegal = merge_settings(self.settings, values)
        return merged, problems + illegal

    # -- characters --------------------------------------------------------
    def new_build(
        self, choices: dict[str, Any], rng: random.Random, settings: dict[str, Any] | None = None
    ) -> Build:
        raise NotImplementedError

    def validate(self, build: Build, settings: dict[str, Any] | None = None) -> list[RuleViolation]:
        raise NotImplementedError

    def review(self, build: Build, settings: dict[str, Any] | None = None) -> Review:
        """Systems without a review step: the build's errors, nothing waits for the game master."""
        return Review(errors=list(self.validate(build, settings)))

    def derive(self, build: Build) -> dict[str, Any]:
        raise NotImplementedError

    def apply(self, build: Build, entry: Entry) -> Build:
        raise NotImplementedError

    def replay(self, creation_build: Build, entries: list[Entry]) -> Build:
        return replay_ledger(creation_build, entries, self.apply)

    def is_dead(self, build: Build) -> bool | None:
        """Whether the build records its character's death; None: this system records none (the
        character's status is then left as it is)."""
        return None

    def sheet(self, build: Build) -> SheetData:
        raise NotImplementedError

    # -- rolls from the character page --------------------------------------
    def rolls(self, build: Build, settings: dict[str, Any] | None = None) -> list[RollSpec]:
        """Every roll the character page offers for this build (none by default)."""
        return []

    def plan_roll(
        self,
        build: Build,
        key: str,
        modifiers: Any,
        settings: dict[str, Any] | None = None,
        *,
        specs: list[RollSpec] | None = None,
    ) -> RollPlan:
        """The dice of roll ``key`` with these modifiers; RuleError naming the field otherwise.
        ``specs``: ``rolls(build, settings)`` when the caller has it (not worked out again)."""
        spec = find_roll(self.rolls(build, settings) if specs is None else specs, key)
        plan = self.roll_plan(build, spec, spec.checked(modifiers), settings)
        if plan.kind not in ROLLER_KINDS:  # pragma: no cover - a system's bug, not the user's
            raise ValueError(f"{self.key} plans a roll of unknown kind {plan.kind!r}")
        return plan

    def read_roll(
        self,
        build: Build,
        key: str,
        modifiers: Any,
        dice: DiceResult,
        settings: dict[str, Any] | None = None,
        *,
        specs: list[RollSpec] | None = None,
    ) -> dict[str, Any]:
        """What the dice of roll ``key`` mean under this system's rules (``specs``: as plan_roll)."""
        spec = find_roll(self.rolls(build, settings) if specs is None else specs, key)
        return self.roll_reading(build, spec, spec.checked(modifiers), dice, settings)

    def roll(
        self,
        build: Build,
        key: str,
        modifiers: Any,
        rng: random.Random,
        settings: dict[str, Any] | None = None,
    ) -> RollOutcome:
        """Plan, roll and read in one step (pure: the platform rolls the plan on fair dice)."""
        plan = self.plan_roll(build, key, modifiers, settings)
        dice = roll_kind(rng, plan.kind, plan.count, plan.modifier)
        return RollOutcome(plan, dice, self.read_roll(build, key, modifiers, dice, settings))

    # A system with rolls implements these two; ``values`` are the spec's checked options.
    def roll_plan(
        self, build: Build, spec: RollSpec, values: dict[str, Any], settings: dict[str, Any] | None
    ) -> RollPlan:
        raise NotImplementedError

    def roll_reading(
        self,
        build: Build,
        spec: RollSpec,
        values: dict[str, Any],
        dice: DiceResult,
        settings: dict[str, Any] | None,
    ) -> dict[str, Any]:
        raise NotImplementedError
