"""The engine contract (characters/systems/base.py): every registered system keeps it, and what the
base implementation gives a system that writes only its rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

from characters.systems import Engine, GameSystem, Review, RuleError, SettingSpec, all_systems
from characters.systems.base import (
    RuleViolation,
    SheetData,
    refuse,
    replay_events,
    resolve_settings,
    reversed_ids,
)
from tests import system_kit


def test_the_registered_engines_are_the_installed_systems():
    assert [s.key for s in all_systems()] == system_kit.installed_keys()


def check_contract(key: str) -> None:
    """The engine contract, for one system (the toy system's test calls it too)."""
    from characters.systems import get_system

    system = get_system(key)
    assert isinstance(system, Engine), system.key
    assert isinstance(system.settings, tuple) and isinstance(system.entry_kinds, tuple)
    assert "reversal" in system.entry_kinds
    # Its sample build (the demo's choices) is valid, derives and makes a sheet of its own.
    build = system_kit.sample_build(key)
    assert system.validate(build) == []
    assert isinstance(system.derive(build), dict)
    assert system.sheet(build).system == key


@pytest.mark.parametrize("key", system_kit.params())
def test_every_registered_system_keeps_the_contract(key):
    check_contract(key)


class Counter(GameSystem):
    """A toy system that writes only its rules: a build counts ticks, up to a limit."""

    key = "counter"
    label = "Counter"
    settings = (SettingSpec("limit", "Limit", "int", 3, minimum=1, maximum=9),)
    entry_kinds = ("tick", "reversal")

    def new_build(
        self, choices: dict[str, Any], rng: random.Random, settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return {"ticks": 0, "limit": resolve_settings(self.settings, settings)["limit"]}

    def validate(self, build: dict[str, Any], settings: dict[str, Any] | None = None) -> list[RuleViolation]:
        return [] if build["ticks"] <= build["limit"] else [RuleViolation("ticks", "Too many ticks.")]

    def derive(self, build: dict[str, Any]) -> dict[str, Any]:
        return {"left": build["limit"] - build["ticks"]}

    def apply(self, build: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
        if build["ticks"] >= build["limit"]:
            raise refuse("ticks", "No ticks left.")
        return {**build, "ticks": build["ticks"] + 1}

    def sheet(self, build: dict[str, Any]) -> SheetData:
        return SheetData(self.key, "sheets/counter.html", "Counter", {"ticks": build["ticks"]})


def _ledger(*kinds_and_targets: tuple[str, str | None]) -> list[dict[str, Any]]:
    entries = []
    for number, (kind, target) in enumerate(kinds_and_targets, start=1):
        entry: dict[str, Any] = {"id": number, "kind": kind}
        if target is not None:
            entry.update(reverses=target, reason="mistake")
        entries.append(entry)
    return entries


def test_a_system_that_writes_only_its_rules_gets_replay_review_and_death_from_the_base():
    system = Counter()
    assert isinstance(system, Engine)
    build = system.new_build({}, random.Random(1), {"limit": 2})
    entries = _ledger(("tick", None), ("tick", None), ("reversal", "1"), ("tick", None))
    assert system.replay(build, entries)["ticks"] == 2
    assert system.review({"ticks": 5, "limit": 2}).errors == [RuleViolation("ticks", "Too many ticks.")]
    assert system.review(build).pending == [] and system.review(build).ok
    assert system.is_dead(build) is None  # records no death: the character's status stays as it is


def test_the_base_replay_names_the_entry_a_reversal_leaves_illegal():
    system = Counter()
    build = system.new_build({}, random.Random(1), {"limit": 1})
    with pytest.raises(RuleError) as refused:
        # with entry 2 reversed, entry 4 is a second tick against a limit of one
        system.replay(build, _ledger(("tick", None), ("tick", None), ("reversal", "2"), ("tick", None)))
    assert refused.value.violations[0].field == "ledger.4"
    assert refused.value.violations[0].message.startswith("Entry 4 (tick) no longer fits:")


@pytest.mark.parametrize(
    "entries, field, message",
    [
        ([{"kind": "tick"}], "ledger", "Every ledger entry needs an id."),
        (_ledger(("tick", None), ("tick", None))[:1] * 2, "ledger", "Two ledger entries share the id 1."),
        (_ledger(("reversal", "9")), "ledger.1", "Reversal 1 names no earlier entry."),
        (_ledger(("tick", None), ("reversal", "1"), ("reversal", "2")), "ledger.3", "A reversal cannot be"),
        (_ledger(("tick", None), ("reversal", "1"), ("reversal", "1")), "ledger.3", "Entry 1 was already"),
    ],
)
def test_malformed_reversals_are_refused_in_the_same_words_for_every_system(entries, field, message):
    with pytest.raises(RuleError) as refused:
        reversed_ids(entries)
    assert refused.value.violations[0].field == field
    assert refused.value.violations[0].message.startswith(message)


def test_settings_resolution_refuses_illegal_values_and_can_keep_other_engines_names():
    specs = Counter.settings
    assert resolve_settings(specs, None) == {"limit": 3}
    assert resolve_settings(specs, {"limit": 5, "other": 1}) == {"limit": 5}
    assert resolve_settings(specs, {"limit": 5, "other": 1}, keep_unknown=True) == {"limit": 5, "other": 1}
    with pytest.raises(RuleError, match="at most 9"):
        resolve_settings(specs, {"limit": 10})
    with pytest.raises(RuleError, match="Settings must be an object"):
        resolve_settings(specs, [1])


def test_validate_settings_reports_unknown_names_before_illegal_values():
    merged, problems = Counter().validate_settings({"colour": "red", "limit": 0})
    assert merged == {"limit": 3}
    assert [p.field for p in problems] == ["settings.colour", "settings.limit"]


def test_event_replay_names_the_refused_event_by_position():
    def add(state: dict[str, Any], event: Any) -> dict[str, Any]:
        if event.get("type") != "add":
            raise refuse("type", "Only add.")
        return {"total": state["total"] + 1}

    assert replay_events({"total": 0}, [{"type": "add"}] * 3, add) == {"total": 3}
    with pytest.raises(RuleError) as refused:
        replay_events({"total": 0}, [{"type": "add"}, {"type": "sub"}], add)
    assert [v.field for v in refused.value.violations] == ["events.1", "type"]


def test_a_review_without_confirmations_is_the_same_for_every_system():
    review = Review(errors=[RuleViolation("a", "b")])
    assert not review.ok and review.as_dict()["errors"] == [{"field": "a", "message": "b", "rule": ""}]
