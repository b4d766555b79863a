"""A campaign with Time to Kill runs for the archive and hardening tests (tests/archive/conftest.py
``play_campaign``, through this system's testkit.ARCHIVE_PLAY): made through the system's own
services, one finished and one in progress plus an abandoned run, their rolls in the dice log
and their ledger entries."""

from __future__ import annotations

import random

from characters import services as character_services

NINJA_ABILITIES = {"stealth": "+", "awareness": "+", "athletics": "+"}


def _ninja(world, campaign, owner, name):
    draft = character_services.create_draft(
        campaign, world.users[owner], choices={"name": name, "abilities": dict(NINJA_ABILITIES)}
    )
    return character_services.finalize(draft, is_gm=True, rng=random.Random(1))


def play(world, campaign, make_hero, monkeypatch):
    from systems.time_to_kill import services
    from systems.time_to_kill.tests.missions.helpers import VICTORY_MOVES, VICTORY_SCRIPT, ScriptedRng

    gm = campaign.memberships.get(user=world.users["gm"])
    kage = _ninja(world, campaign, "player", "Kage")
    yuki = _ninja(world, campaign, "other_player", "Yuki")
    monastery = campaign.missions.create(title="The monastery")
    briefing = {"brief": "Into the monastery.", "gm_notes": "The abbot keeps the key under the bell"}

    def play(run, moves, owner):
        for side, kind, params in moves:
            user = world.users["gm"] if side == "gm" else world.users[owner]
            services.post_event(run, user, side, {"type": kind, **params})

    dice = {"rng": ScriptedRng(**VICTORY_SCRIPT)}
    monkeypatch.setattr(services, "make_rng", lambda: dice["rng"])
    monkeypatch.setattr("characters.systems.fair_dice.FairRandom", lambda key: dice["rng"])  # the dice
    won = services.start_run(gm, ninja=kage.pk, mission=monastery.pk, briefing=briefing)
    play(won, VICTORY_MOVES, "player")
    dice["rng"] = ScriptedRng(draws=["o", "o"], fudge=[1, 0, -1, 0])
    running = services.start_run(gm, ninja=yuki.pk, title="Rooftops")
    play(running, VICTORY_MOVES[:5], "other_player")
    dropped = services.start_run(gm, ninja=kage.pk, title="A test run")
    services.abandon_run(dropped, gm)
    return campaign


def more(world, campaign):
    """One more mission run (the running one abandoned first), through the app's services."""
    from systems.time_to_kill import services
    from systems.time_to_kill.models import MissionRun

    gm = campaign.memberships.select_related("campaign", "user").get(user=world.users["gm"])
    yuki = campaign.characters.get(name="Yuki")
    services.abandon_run(campaign.ttk_runs.get(status="running"), gm)
    services.start_run(gm, ninja=yuki.pk, title=f"Run {MissionRun.objects.count()}")
