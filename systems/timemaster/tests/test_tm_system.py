"""The registry object: settings, the lazy hand-off to the advancement engine, purity."""

from __future__ import annotations

import random
import sys

import pytest

from characters.systems import get_system
from characters.systems.base import RuleError
from systems.timemaster.engine import SYSTEM

from .helpers import choices, make_build


def test_registry_returns_the_timemaster_system():
    assert get_system("timemaster") is SYSTEM
    assert SYSTEM.key == "timemaster"


def test_settings_include_the_creation_choices_with_the_digest_readings_as_defaults():
    defaults = SYSTEM.default_settings()
    assert defaults["hopeless_reroll_rounds"] == 1
    assert defaults["corps_present_year"] == 7192
    _, problems = SYSTEM.validate_settings({"hopeless_reroll_rounds": -1})
    assert [p.field for p in problems] == ["settings.hopeless_reroll_rounds"]


def test_bad_settings_are_refused_by_new_build():
    with pytest.raises(RuleError):
        SYSTEM.new_build(choices(), random.Random(0), settings={"corps_present_year": 100})


def test_system_methods_agree_with_the_modules():
    build = SYSTEM.new_build(choices(), random.Random(0))
    assert SYSTEM.validate(build) == []
    assert SYSTEM.review(build).ok
    assert SYSTEM.validate_step("talents", choices()).ok
    assert SYSTEM.derive(build)["rank_grade"] == "Trainee/0"


def test_engine_works_without_the_advancement_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "systems.timemaster.engine.advancement", None)
    assert SYSTEM.entry_kinds == ()
    with pytest.raises(ImportError):
        SYSTEM.apply(make_build(), {"kind": "mission_started", "mission": "m1"})


def test_apply_hands_entries_to_the_advancement_engine_and_the_result_still_validates():
    pytest.importorskip("systems.timemaster.engine.advancement")
    build = make_build()
    after = SYSTEM.apply(build, {"kind": "mission_started", "mission": "m1"})
    assert after is not build
    assert SYSTEM.validate(after) == []
