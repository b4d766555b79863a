"""A TIMEMASTER agent with a wounded, rested and treated ledger (the play entries of
systems/timemaster/engine/recovery.py) is exported and imported into another campaign: the
import folds every entry again through the engine and gets the same condition."""

from __future__ import annotations

import json

from archive import services
from characters import services as character_services
from characters.services import replay
from systems.timemaster.engine.condition import condition_of


def test_a_wounded_and_treated_agent_round_trips_with_its_condition(world, make_campaign, make_hero):
    source = make_campaign("timemaster")
    hero = make_hero(source)
    gm = world.users["gm"]
    for entry in (
        {"kind": "damage_taken", "stamina": 30, "wounds": 6, "willpower": 10, "source": "Armed H"},
        {"kind": "luck_spent", "points": 2},
        {"kind": "stamina_rested", "rounds": 3},
        {"kind": "willpower_slept", "hours": 1},
        {"kind": "wounds_healed", "days": 1, "medical_days": 1},
    ):
        character_services.append_entry(hero, entry, gm)
    rested = hero.entries.get(kind="stamina_rested")
    character_services.revert_entry(rested, gm, "he was attacked that round")
    hero.refresh_from_db()
    document = json.loads(json.dumps(services.export_character(hero, world.users["player"])))
    target = make_campaign("timemaster", name="Another table")
    copy = services.import_character(document, target, world.users["other_player"], gm)
    assert condition_of(copy.build) == condition_of(hero.build)
    assert copy.build["abilities"]["LUCK"] == hero.build["abilities"]["LUCK"]
    assert condition_of(copy.build)["wounds_marked"] == 2
    assert replay(copy) == copy.build
