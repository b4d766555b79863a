import json
import random

from characters.systems import get_system
from systems.time_to_kill.engine import SYSTEM
from systems.time_to_kill.engine.tables import ABILITY_KEYS, EVENT_TYPES, STEP_EVENTS, STEPS


def test_the_registry_returns_time_to_kill():
    system = get_system("time_to_kill")
    assert system is SYSTEM
    assert system.key == "time_to_kill"
    assert set(system.entry_kinds) == {"mission_result", "rename", "rebuild", "reversal"}


def test_the_settings_default_to_the_digest_readings():
    assert SYSTEM.default_settings() == {
        "mission_stones": 25,
        "players_see_stone_count": False,
        "wait_stones_persist": False,
        "fate_assignment": "gm_arranges",
        "survivor_rebuild": False,
    }
    assert all(spec.rule for spec in SYSTEM.settings)


def test_bad_settings_are_reported():
    merged, problems = SYSTEM.validate_settings({"mission_stones": 0, "colour": "red"})
    assert {p.field for p in problems} == {"settings.mission_stones", "settings.colour"}
    assert merged["mission_stones"] == 25


def test_new_build_accepts_an_rng_and_needs_none():
    assert SYSTEM.new_build({}, random.Random(1)) == SYSTEM.new_build({}, None)


def test_derive_lists_every_ability_and_is_json_able():
    derived = SYSTEM.derive(SYSTEM.new_build({"abilities": {"stealth": "+"}}))
    assert list(derived["abilities"]) == list(ABILITY_KEYS)
    assert derived["abilities"]["stealth"]["value"] == 1
    json.dumps(derived)


def test_every_step_knows_its_events_and_every_event_has_a_step():
    assert set(STEP_EVENTS) == set(STEPS)
    reachable = {e for events in STEP_EVENTS.values() for e in events} | {"declare_escape"}
    assert reachable == set(EVENT_TYPES)
