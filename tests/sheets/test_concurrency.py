"""Two requests for the same sheet at the same moment: exactly one render row and one queued task.

Runs on PostgreSQL (``DATABASE_URL``), where two connections really race: both requests pass the
"already rendered?" check before either inserts, and the partial unique constraint decides.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from sheets.models import SheetRender

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the race needs PostgreSQL: set DATABASE_URL=postgres://...")


def test_a_sheet_requested_twice_at_once_is_rendered_once(world, party, api, monkeypatch):
    from sheets import tasks

    queued = []
    monkeypatch.setattr(tasks.render_sheet, "delay", lambda render_id: queued.append(render_id))

    # Hold both requests just before their INSERT, so both have already seen "no render yet".
    both_checked = threading.Barrier(2, timeout=20)
    real_create = SheetRender.objects.create

    def create_after_both_checked(**fields):
        both_checked.wait()
        return real_create(**fields)

    monkeypatch.setattr(SheetRender.objects, "create", create_after_both_checked)

    url = f"/api/v1/campaigns/{world.campaign.pk}/sheets/"
    body = {"kind": "character", "character": party["player"].pk}
    answers: list = [None, None]

    def ask(slot: int, persona: str) -> None:
        try:
            answers[slot] = api(world.users[persona]).post(url, body, format="json")
        finally:
            connections.close_all()  # this thread's own connection

    threads = [threading.Thread(target=ask, args=(0, "player")), threading.Thread(target=ask, args=(1, "gm"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert [a.status_code for a in answers] == [202, 202], [a.content for a in answers]
    ids = {a.json()["id"] for a in answers}
    assert len(ids) == 1
    assert SheetRender.objects.count() == 1
    assert queued == list(ids)  # one task queued, for the one row
