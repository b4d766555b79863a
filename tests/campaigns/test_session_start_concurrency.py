"""Two first rolls of a day at the same moment on PostgreSQL: both rolls stand, one play session
starts, and no start is undone by a lock error (issue 50).

The automatic start (campaigns.chronicle.play_sessions.roll_saved) checks for today's session,
then locks the campaign's row and checks again: both threads are held after their rolls' inserts
and before the first check, so both find none and meet at the lock every time; without the second
check each would start a session (two, numbered 1 and 2). Django's foreign keys on PostgreSQL are
checked at commit (deferred), so the rolls' inserts hold no lock on the campaign's row that the
lock could wait on. Run with DATABASE_URL=postgres://... (the services layer).
"""

from __future__ import annotations

import logging
import random
import threading

import pytest
from django.db import connection, connections

from campaigns.chronicle import play_sessions
from campaigns.models import Membership, Roll
from campaigns.table import rolling

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")


def test_two_first_rolls_at_once_make_one_session_and_keep_both_rolls(world, monkeypatch, caplog):
    world.campaign.sessions_start_on_roll = True
    world.campaign.save(update_fields=["sessions_start_on_roll"])
    both_inserted = threading.Barrier(2)
    original = play_sessions._day_began

    def after_both_inserts(campaign, at):
        both_inserted.wait(timeout=20)
        return original(campaign, at)

    monkeypatch.setattr(play_sessions, "_day_began", after_both_inserts)
    errors: list[BaseException] = []

    def roll(username: str, seed: int) -> None:
        try:
            member = Membership.objects.select_related("campaign", "user").get(
                campaign=world.campaign, user__username=username
            )
            # dice given (rng): no fair draw, whose seed lock would take the two rolls in turn
            rolling.record_roll(member, kind="d6", purpose=f"{username}'s first", rng=random.Random(seed))
        except BaseException as error:  # noqa: BLE001  (reported by the test)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=roll, args=(name, i)) for i, name in enumerate(("player", "gm"))]
    with caplog.at_level(logging.WARNING, logger="campaigns.chronicle.play_sessions"):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert errors == []
    assert Roll.objects.filter(campaign=world.campaign).count() == 2
    assert world.campaign.play_sessions.count() == 1
    assert [r.message for r in caplog.records] == []  # no start undone by a deadlock
