"""A Time to Kill campaign with every persona, a ninja for the player, and scripted dice."""

from __future__ import annotations

import random

import pytest

from characters.systems import get_system

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")
SECRET_NOTES = "The abbot keeps the key under the bell"


class ScriptedRng(random.Random):
    """Dice injection for the engine: draws ("o" ordinary / "t" target), Fudge faces and d6 rolls
    come from the queues; anything not scripted comes from a seeded generator."""

    def __init__(self, draws=(), fudge=(), d6=()):
        super().__init__(7)
        self.draws, self.fudge, self.d6 = list(draws), list(fudge), list(d6)

    def randrange(self, start, stop=None, step=1):
        if stop is None and self.draws:
            return start - 1 if self.draws.pop(0) == "t" else 0
        return super().randrange(start, stop, step)

    def choice(self, seq):
        if tuple(seq) == (-1, 0, 1) and self.fudge:
            return self.fudge.pop(0)
        return super().choice(seq)

    def randint(self, a, b):
        if (a, b) == (1, 6) and self.d6:
            return self.d6.pop(0)
        return super().randint(a, b)


@pytest.fixture
def script(monkeypatch):
    """script(draws=..., fudge=..., d6=...) makes the server's next draws and rolls those."""
    from ttk_missions import services

    def set_script(**queues):
        rng = ScriptedRng(**queues)
        monkeypatch.setattr(services, "make_rng", lambda: rng)
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
    from ttk_missions import services

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
    from ttk_missions import services

    def make(run, side, kind, **params):
        user = ttk.users["gm" if side == "gm" else "player"]
        return services.post_event(run, user, side, {"type": kind, **params})

    return make
