"""Characters fixtures: TIMEMASTER choices a player could type, drafts and a finalized agent."""

from __future__ import annotations

import copy
import random

import pytest

from characters import services
from systems.timemaster.tests.helpers import ASSIGNMENT, BACKGROUND


def agent_choices(**changes):
    """Complete, legal wizard choices with typed-in (manual) Ability numbers: what an API client
    can send, since a rolled record is made only by the server."""
    base = {
        "name": "Harry Adams",
        "player": "Pat",
        "ability_method": "manual",
        "abilities": dict(ASSIGNMENT),
        "background": copy.deepcopy(BACKGROUND),
        "skills": ["investigation", "pistol"],
        "profession_skill": "investigation",
        "historical_specialty": {"cultures": ["United States"]},
        "talent": "telepathic_probe",
    }
    base.update(changes)
    return base


@pytest.fixture
def choices():
    return agent_choices


@pytest.fixture
def make_agent(world):
    """A finalized agent owned by ``owner`` (finalized by the GM, who confirms what is pending)."""

    def make(owner="player", **changes):
        draft = services.create_draft(world.campaign, world.users[owner], choices=agent_choices(**changes))
        return services.finalize(draft, is_gm=True, rng=random.Random(3))

    return make


@pytest.fixture
def award(world):
    """Append a bonus Success Point award to an agent's ledger."""

    def give(agent, session, amount=10):
        entry = {"kind": "sp_awarded", "type": "bonus", "session": session, "amount": amount}
        return services.append_entry(agent, entry, world.users["gm"])

    return give
