"""Tempo fixtures: a Flashpoints campaign with the usual personas, and finished agents."""

from __future__ import annotations

import random

import pytest

from characters import services as character_services
from systems.tempo.tests.helpers import choices as agent_choices


class Scripted(random.Random):
    """Dice in a given order (the engine draws d6 faces with randint)."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


@pytest.fixture
def tempo(world):
    """world's users in a Tempo/Flashpoints campaign that starts agents with 2 fate points."""
    from campaigns import services
    from campaigns.models import Membership, Role

    campaign = services.create_campaign(
        world.users["gm"],
        name="Cell Nine",
        system="tempo",
        module="flashpoints",
        settings={"starting_fate_points": 2},
    )
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=world.users[name], role=role)
    world.tempo = campaign
    world.tempo_membership = {
        m.user.username: m for m in campaign.memberships.select_related("user", "campaign")
    }
    return campaign


@pytest.fixture
def make_tempo_agent(world, tempo):
    def make(owner="player", **changes):
        draft = character_services.create_draft(tempo, world.users[owner], choices=agent_choices(**changes))
        return character_services.finalize(draft, is_gm=True)

    return make


@pytest.fixture
def agent(make_tempo_agent):
    return make_tempo_agent("player")


@pytest.fixture
def scripted():
    return Scripted
