"""Two game masters closing the same mission at once on PostgreSQL: exactly one close happens.

Both requests go through the API in their own threads (own connections); the engine's outcome
is slowed down so that, without the mission row lock, both would pass the "still active" check
before either wrote. Run with DATABASE_URL=postgres://.../dossier_missions (the services layer).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from campaigns.models import Membership, Mission, Role, Roll
from characters.models import AdvancementEntry
from characters.systems.timemaster import significance
from tests.campaigns.test_missions import new_agent, started

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SLOW_SECONDS = 0.5


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")


@pytest.fixture
def slow_outcome(monkeypatch):
    original = significance.resolve_mission

    def slow(*args, **kwargs):
        time.sleep(SLOW_SECONDS)
        return original(*args, **kwargs)

    monkeypatch.setattr(significance, "resolve_mission", slow)


def _together(calls):
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_gms_closing_the_same_mission_close_it_once(world, api, make_user, slow_outcome):
    second_gm = make_user("second_gm")
    Membership.objects.create(campaign=world.campaign, user=second_gm, role=Role.GM)
    agents = [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]
    mission = started(world, agents)
    url = f"/api/v1/campaigns/{world.campaign.pk}/missions/{mission.pk}/close/"

    def close(user):
        return lambda: api(user).post(url, {"result": "success"}, format="json")

    responses = _together([close(world.users["gm"]), close(second_gm)])
    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 400], [r.content for r in responses]
    refused = next(r for r in responses if r.status_code == 400).json()
    assert "already closed" in refused["errors"][0]["message"]
    mission.refresh_from_db()
    assert mission.status == Mission.Status.COMPLETED
    assert Roll.objects.filter(mission=mission).count() == 1
    for agent in agents:
        assert AdvancementEntry.objects.filter(character=agent, kind="sp_awarded").count() == 1
        assert AdvancementEntry.objects.filter(character=agent, kind="adventure_closed").count() == 1
