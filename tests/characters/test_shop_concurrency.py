"""Two simultaneous purchases on PostgreSQL never spend the same Success Points twice.

Both requests go through the API in their own threads (own database connections); the engine is
slowed down so that, without the row lock in advancement_services/services, both would read the
same balance before either wrote. Run with DATABASE_URL=postgres://... (the services layer).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from characters import services
from characters.models import Character
from characters.systems import get_system

from .test_advancement_services import after_adventure

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SLOW_APPLY_SECONDS = 0.4


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")


@pytest.fixture
def slow_engine(monkeypatch):
    """Every engine apply takes a while, so two requests overlap inside it."""
    system = get_system("timemaster")
    original = type(system).apply

    def slow_apply(self, build, entry):
        time.sleep(SLOW_APPLY_SECONDS)
        return original(self, build, entry)

    monkeypatch.setattr(type(system), "apply", slow_apply)


def _together(requests):
    """Run the callables at the same moment in threads; return their results in order."""
    barrier = threading.Barrier(len(requests))
    results: list = [None] * len(requests)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _buy(api, user, agent, body):
    url = f"/api/v1/campaigns/{agent.campaign_id}/characters/{agent.pk}/shop/"
    return lambda: api(user).post(url, body, format="json")


def test_two_simultaneous_purchases_cannot_both_spend_the_last_points(world, api, make_agent, slow_engine):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=100)
    before = agent.revision
    responses = _together(
        [
            _buy(api, world.users["player"], agent, {"purchase": "specialist_to_expert", "skill": "pistol"}),
            _buy(
                api, world.users["gm"], agent, {"purchase": "specialist_to_expert", "skill": "investigation"}
            ),
        ]
    )
    assert sorted(r.status_code for r in responses) == [201, 400], [r.content for r in responses]
    refused = next(r for r in responses if r.status_code == 400).json()
    assert refused["errors"][0]["field"] == "success_points"
    agent = Character.objects.get(pk=agent.pk)
    assert agent.build["success_points"] == 0 and agent.revision == before + 1
    assert agent.entries.filter(kind="sp_spent").count() == 1
    levels = {agent.build["skills"][k]["level"] for k in ("pistol", "investigation")}
    assert levels == {"specialist", "expert"}
    assert services.replay(agent) == agent.build


def test_two_simultaneous_affordable_purchases_both_count(world, api, make_agent, slow_engine):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=100)
    before = agent.revision
    responses = _together(
        [
            _buy(api, world.users["player"], agent, {"purchase": "ability_point", "ability": "LUCK"}),
            _buy(api, world.users["player"], agent, {"purchase": "ability_point", "ability": "PER"}),
        ]
    )
    assert [r.status_code for r in responses] == [201, 201], [r.content for r in responses]
    assert sorted(r.json()["revision"] for r in responses) == [before + 1, before + 2]
    agent = Character.objects.get(pk=agent.pk)
    assert agent.build["success_points"] == 0 and agent.revision == before + 2
    assert agent.build["abilities"]["LUCK"] == agent.creation_build["abilities"]["LUCK"] + 1
    assert agent.build["abilities"]["PER"] == agent.creation_build["abilities"]["PER"] + 1
    assert services.replay(agent) == agent.build


def test_the_same_stale_form_sent_twice_at_once_buys_once(world, api, make_agent, slow_engine):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=300)
    body = {"purchase": "ability_point", "ability": "LUCK", "revision": agent.revision}
    responses = _together([_buy(api, world.users["player"], agent, body) for _ in range(2)])
    assert sorted(r.status_code for r in responses) == [201, 409]
    assert Character.objects.get(pk=agent.pk).build["success_points"] == 250
