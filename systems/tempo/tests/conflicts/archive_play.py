"""A campaign with Tempo conflicts for the archive and hardening tests (tests/archive/conftest.py
``play_campaign``, through this system's testkit.ARCHIVE_PLAY): made through the system's own
services, one finished and one in progress, their rolls in the dice log and their ledger
entries."""

from __future__ import annotations

import random


def play(world, campaign, make_hero, monkeypatch):
    from systems.tempo import services

    gm = campaign.memberships.select_related("campaign", "user").get(user=world.users["gm"])
    finn = make_hero(campaign, "player", name="Finn Marlowe")
    nora = make_hero(campaign, "other_player", name="Nora Vale")
    rng = random.Random(5)

    def conflict(title, agent):
        return services.create_conflict(
            gm,
            {
                "title": title,
                "scene_aspects": ["Rain on the rooftops"],
                "sides": [
                    {"name": agent.name, "characters": [agent.pk]},
                    {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm"},
                ],
            },
        )

    def round_(fight):
        services.add_event(
            gm, fight, {"type": "roll", "sides": {"a": {"rating": 2}, "b": {"rating": 1}}}, rng
        )

    over = conflict("The chase", finn)
    round_(over)
    round_(over)
    services.add_event(gm, over, {"type": "end", "reason": "the Stasi lose them in the rain"})
    running = conflict("The checkpoint", nora)
    round_(running)
    return campaign


def more(world, campaign):
    """One more conflict, through the app's services."""
    from systems.tempo import services
    from systems.tempo.models import Conflict

    gm = campaign.memberships.select_related("campaign", "user").get(user=world.users["gm"])
    services.create_conflict(
        gm, {"title": f"Fight {Conflict.objects.count()}", "sides": [{"npcs": ["A"]}, {"npcs": ["B"]}]}
    )
