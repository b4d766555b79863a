"""The character history page shows the ledger a page at a time, newest first (issue 22)."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters import services


def _history(client, agent, **params):
    url = reverse("character-history", args=[agent.pk])
    client.get(url, params)  # warm
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200
    return len(captured.captured_queries), response.content.decode()


def test_the_history_page_runs_the_same_queries_for_3_entries_as_for_70(world, client, make_agent, award):
    agent = make_agent("player")
    client.force_login(world.users["gm"])
    for session in range(3):
        award(agent, session=session)
    few, _ = _history(client, agent)
    for session in range(3, 52):
        award(agent, session=session)
    many, page = _history(client, agent)
    assert few == many
    assert page.count('<li class="card') == 50 and "Page 1 of 2" in page


def test_the_second_page_holds_the_oldest_entries_numbered_on_from_the_first_page(
    world, client, make_agent, award
):
    agent = make_agent("player")
    client.force_login(world.users["gm"])
    entries = [award(agent, session=session) for session in range(55)]
    _, first = _history(client, agent)
    _, second = _history(client, agent, page=2)
    assert f"#{entries[-1].pk} ·" in first and f"#{entries[0].pk} ·" not in first
    assert 'start="55"' in first and 'start="5"' in second
    assert [f"#{e.pk} ·" in second for e in entries[:5]] == [True] * 5
    assert second.count('<li class="card') == 5


def test_an_entry_reverted_by_a_later_page_shows_as_reverted(world, client, make_agent, award):
    agent = make_agent("player")
    client.force_login(world.users["gm"])
    first = award(agent, session="first")
    for session in range(60):
        award(agent, session=session)
    services.revert_entry(first, world.users["gm"], "wrong session")
    _, oldest = _history(client, agent, page=2)
    assert f"#{first.pk} ·" in oldest and "Reverted" in oldest
