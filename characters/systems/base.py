"""The interface every game system implements, and the plain data it shares.

Pure Python: nothing here (or anywhere under ``characters.systems``) may import Django,
DRF, Celery or WeasyPrint. A test enforces it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

Build = dict[str, Any]


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

    def __init__(self, violations: list[RuleViolation] | RuleViolation):
        if isinstance(violations, RuleViolation):
            violations = [violations]
        self.violations = list(violations)
        super().__init__("; ".join(f"{v.field}: {v.message}" for v in self.violations))


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


class GameSystem:
    """Base class of the per-system objects held in the registry.

    Subclasses set ``key``, ``label``, ``settings`` and implement the methods that
    their system supports. Builds are JSON-serialisable dicts; ledger entries are
    dicts ``{"kind": str, ...}`` that ``apply`` folds into a build.
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
        known = {spec.name: spec for spec in self.settings}
        problems = [
            RuleViolation(f"settings.{name}", f"{self.label} has no setting called {name!r}.")
            for name in values
            if name not in known
        ]
        merged = self.default_settings()
        for name, value in values.items():
            spec = known.get(name)
            if spec is None:
                continue
            problem = spec.check(value)
            if problem:
                problems.append(problem)
            else:
                merged[name] = value
        return merged, problems

    # -- characters --------------------------------------------------------
    def new_build(self, choices: dict[str, Any], rng: random.Random) -> Build:
        raise NotImplementedError

    def validate(self, build: Build) -> list[RuleViolation]:
        raise NotImplementedError

    def derive(self, build: Build) -> dict[str, Any]:
        raise NotImplementedError

    def apply(self, build: Build, entry: dict[str, Any]) -> Build:
        raise NotImplementedError

    def sheet(self, build: Build) -> SheetData:
        raise NotImplementedError
