"""A Time to Kill campaign with every persona, a ninja for the player, and scripted dice."""

from __future__ import annotations

import random

import pytest

from characters.systems import get_system

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")
SECRET_NOTES = "The abbot keeps the key under the bell"


@pytest.fixture
def script(monkeypatch):
    """script(draws=..., fudge=..., d6=...) makes the server's next draws and rolls those."""
    from systems.time_to_kill import services

    from .helpers import ScriptedRng

    def set_script(**queues):
        rng = ScriptedRng(**queues)
        monkeypatch.setattr(services, "make_rng", lambda: rng)  # the stone draws
        # the dice: rolled on the campaign's fair dice (characters/systems/fair_dice.py), fixed here
        monkeypatch.setattr("characters.systems.fair_dice.FairRandom", lambda key: rng)
        return rng

    return set_script


def ninja_build(name="Kage", abilities=None):
    return get_system("time_to_kill").new_build(
        {"name": name, "abilities": abilities or {"stealth": "+", "awareness": "+", "athletics": "+"}},
        random.Random(0),
    )


@pytest.fixture
def ttk(db, make_user):
    from campaigns import services
    from campaigns.models import Membership, Role
    from characters.models import Character

    users = {name: make_user(name) for name in PERSONAS}
    campaign = services.create_campaign(users["gm"], name="Night Work", system="time_to_kill")
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)
    services.create_campaign(users["outsider"], name="Elsewhere", system="time_to_kill")
    build = ninja_build()
    ninja = Character.objects.create(
        campaign=campaign,
        owner=users["player"],
        system="time_to_kill",
        name="Kage",
        status="active",
        build=build,
        creation_build=build,
        revision=1,
    )

    class World:
        pass

    w = World()
    w.users, w.campaign, w.ninja = users, campaign, ninja
    w.membership = {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}
    return w


@pytest.fixture
def start(ttk):
    from systems.time_to_kill import services

    def make(stones=3, **briefing):
        briefing = {"victory_conditions": "Silence the abbot", "gm_notes": SECRET_NOTES, **briefing}
        return services.start_run(
            ttk.membership["gm"],
            ninja=ttk.ninja.pk,
            title="The Bell Tower",
            mission_stones=stones,
            briefing=briefing,
        )

    return make


@pytest.fixture
def move(ttk):
    """move(run, side, type, **params): one event through the service, as the GM or the player."""
    from systems.time_to_kill import services

    def make(run, side, kind, **params):
        user = ttk.users["gm" if side == "gm" else "player"]
        return services.post_event(run, user, side, {"type": kind, **params})

    return make
