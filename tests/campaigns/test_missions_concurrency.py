"""Two game masters closing, or publishing, the same mission at once on PostgreSQL: exactly one
close happens, and exactly one set of ledger entries is written at publishing.

Both requests go through the API in their own threads (own connections); the engine's outcome
(or the ledger write) is slowed down so that, without the mission row lock, both would pass the
"still active" (or "not yet published") check before either wrote. Run with
DATABASE_URL=postgres://.../dossier_missions2 (the services layer).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from campaigns.models import Membership, Mission, Role, Roll
from characters import services as character_services
from characters.models import AdvancementEntry
from systems.timemaster import missions as tm_missions
from systems.timemaster.engine import significance
from tests.campaigns.test_missions import AWARD_KINDS, gm_membership, new_agent, roll_of, started

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
    # closing writes no ledger entries: they wait for publishing
    assert not AdvancementEntry.objects.filter(kind__in=AWARD_KINDS).exists()


def test_two_gms_publishing_the_same_mission_write_one_set_of_entries(world, api, make_user, monkeypatch):
    second_gm = make_user("second_gm")
    Membership.objects.create(campaign=world.campaign, user=second_gm, role=Role.GM)
    agents = [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]
    mission = started(world, agents)
    tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    url = f"/api/v1/campaigns/{world.campaign.pk}/missions/{mission.pk}/publish/"

    def publish(user):
        return lambda: api(user).post(url)

    original = character_services.append_entry

    def slow(*args, **kwargs):  # the first write waits: without the lock both would pass the check
        time.sleep(SLOW_SECONDS)
        return original(*args, **kwargs)

    monkeypatch.setattr(character_services, "append_entry", slow)
    responses = _together([publish(world.users["gm"]), publish(second_gm)])
    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 400], [r.content for r in responses]
    refused = next(r for r in responses if r.status_code == 400).json()
    assert "already published" in refused["errors"][0]["message"]
    mission.refresh_from_db()
    assert mission.is_published
    for agent in agents:
        kinds = list(
            AdvancementEntry.objects.filter(character=agent, kind__in=AWARD_KINDS)
            .order_by("id")
            .values_list("kind", flat=True)
        )
        assert kinds == ["sp_awarded", "grade_advanced", "adventure_closed"]
        agent.refresh_from_db()
        assert agent.build["success_points"] == 350
        assert character_services.replay(agent) == agent.build
