"""D6's part of the non-interference worlds (tests/secrets/worlds.py, found through the system's
testkit.SECRET_WORLD): an encounter being set up with an NPC whose statistics (the GM's: die
codes) differ between world A and world B. Players see the encounter and the NPC's name, never its
statistics; the encounter is not started, so no roll of the NPC's changes what they see. A second
encounter, of the player's character alone, is running (its events: a round begun, initiative
rolled), so the walk reads the encounter log too (tests/secrets: every play record is walked)."""

from __future__ import annotations

import random

from campaigns.table import rolling

NPC_STATS = {
    "A": {"attributes": {"Perception": "2D", "Reflexes": "2D+1"}},
    "B": {"attributes": {"Perception": "5D+2", "Reflexes": "4D"}},
}


def build(users, variant: str, members_of) -> dict:
    from campaigns import services as campaign_services
    from systems.d6 import services

    d6 = campaign_services.create_campaign(users["gm"], name="Night Run", system="d6")
    members = members_of(d6, users)
    encounter = services.create_encounter(d6, users["gm"], name="Dockside", method="once_per_scene")
    npc = services.add_npc(encounter, {"name": "Harbour guard", **NPC_STATS[variant]})
    rolling.record_roll(members["player"], kind="d6_wild", count=3, purpose="Sneaking in")
    from tests import system_kit

    hero = system_kit.make_character(d6, users["player"], name="Rook", player="player")
    running = services.create_encounter(d6, users["gm"], name="Rooftops", method="once_per_scene")
    services.add_character(running, hero.pk)
    services.start_encounter(running)
    services.record_event(running, members["gm"], {"type": "begin_round"}, random.Random(5))
    services.record_event(running, members["gm"], {"type": "roll_initiative"}, random.Random(6))
    return {
        "ids": {
            "campaign": d6.pk,
            "encounter": encounter.pk,
            "participant": npc.pk,
            "running": {"campaign": d6.pk, "encounter": running.pk, "character": hero.pk},
        },
        "made": {"campaign": d6, "gm": members["gm"]},
    }


def hidden(made: dict, users) -> dict:
    return {}


def scenes(ids: dict, common: dict) -> list[dict]:
    """What a reader might name in this system's campaign: the encounter and its NPC, the running
    encounter and the character in it."""
    setup = {key: value for key, value in ids.items() if key != "running"}
    return [{**common, **setup}, {**common, **ids["running"]}]
