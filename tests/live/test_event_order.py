"""A campaign's live events commit in the order of their ids (campaigns/table/live.py, docs/live.md:
"Cursor: nothing missed, nothing twice"). On PostgreSQL an event's INSERT takes the campaign's
advisory lock in the same statement (live._insert_in_order, issue 47): the id is drawn from the
sequence only once the lock is held, so a writer that waits for the lock holds no id smaller than
one committed after it."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from campaigns.models import LiveEvent
from campaigns.table import live

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")


def _sequence_value() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [LiveEvent._meta.db_table])
        sequence = cursor.fetchone()[0]
        cursor.execute(f"SELECT last_value, is_called FROM {sequence}")  # noqa: S608 - the table's own
        value, called = cursor.fetchone()
    return value if called else 0


def _waiting_on_the_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row == ("Lock", "advisory")


def test_an_event_draws_its_id_only_once_its_campaigns_lock_is_held(world):
    campaign_id = world.campaign.pk
    live.publish_change(campaign_id, "first")  # the sequence has begun
    before = _sequence_value()
    holding, release, written = threading.Event(), threading.Event(), []
    writer_pid: list[int] = []

    def hold_the_lock():  # another transaction of the same campaign, not yet committed
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [live.LOCK_SPACE, campaign_id % 2**31])
                holding.set()
                release.wait(30)
        finally:
            connections.close_all()

    def write():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                writer_pid.append(cursor.fetchone()[0])
            live.publish_change(campaign_id, "second")
            written.append(LiveEvent.objects.filter(topic="second").values_list("id", flat=True).get())
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    assert holding.wait(30)
    writer = threading.Thread(target=write)
    writer.start()
    try:
        for _ in range(300):  # until the writer waits on the lock (at most 30 s)
            if writer_pid and _waiting_on_the_lock(writer_pid[0]):
                break
            writer.join(0.1)
        assert writer_pid and _waiting_on_the_lock(writer_pid[0])
        # waiting for the lock, the writer has drawn no id: the sequence has not moved
        assert _sequence_value() == before
        assert not LiveEvent.objects.filter(topic="second").exists()
    finally:
        release.set()
        holder.join(30)
        writer.join(30)
    assert written and written[0] > before
    assert list(LiveEvent.objects.filter(campaign_id=campaign_id).values_list("topic", flat=True)) == [
        "first",
        "second",
    ]
