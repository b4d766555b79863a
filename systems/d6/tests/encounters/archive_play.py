"""A campaign with D6 encounters for the archive and hardening tests (tests/archive/conftest.py
``play_campaign``, through this system's testkit.ARCHIVE_PLAY): made through the system's own
services, one finished and one in progress plus one still being set up, their rolls in the dice
log and their ledger entries."""

from __future__ import annotations

import random


def play(world, campaign, make_hero, monkeypatch):
    from systems.d6 import services

    gm = campaign.memberships.select_related("campaign", "user").get(user=world.users["gm"])
    ana = make_hero(campaign, "player", name="Ana", ledger=False)
    rey = make_hero(campaign, "other_player", name="Rey", ledger=False)
    thugs = {
        "kind": "group",
        "name": "Thugs",
        "members": ["Thug 1", "Thug 2"],
        "attributes": {"Perception": "2D+1", "Reflexes": "3D"},
        "skills": {"brawling": {"attribute": "Reflexes", "code": "4D+2"}},
    }
    rng = random.Random(7)

    def encounter(name, hero):
        made = services.create_encounter(campaign, world.users["gm"], name=name, method="once_per_scene")
        services.add_character(made, hero.pk)
        services.add_npc(made, thugs)
        made = services.start_encounter(made)
        services.record_event(made, gm, {"type": "begin_round"}, rng)
        services.record_event(made, gm, {"type": "roll_initiative"}, rng)
        pid = made.state["active"][-1]["participant"]
        services.record_event(made, gm, {"type": "declare", "participant": pid, "actions": 1}, rng)
        return made

    over = encounter("Dockside", ana)
    services.record_event(over, gm, {"type": "end_scene", "reason": "the thugs run"}, rng)
    encounter("Warehouse", rey)
    waiting = services.create_encounter(campaign, world.users["gm"], name="Rooftop", method="once_per_scene")
    services.add_npc(waiting, {"name": "Sniper", "attributes": {"Perception": "4D", "Reflexes": "2D"}})
    return campaign


def more(world, campaign):
    """One more encounter, started, through the app's services."""
    from systems.d6 import services
    from systems.d6.models import Encounter

    gm = campaign.memberships.select_related("campaign", "user").get(user=world.users["gm"])
    made = services.create_encounter(campaign, world.users["gm"], name=f"Scene {Encounter.objects.count()}")
    services.add_npc(made, {"name": "Guard", "attributes": {"Perception": "2D", "Reflexes": "2D"}})
    made = services.start_encounter(made)
    services.record_event(made, gm, {"type": "begin_round"})
