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
    with CaptureQueriesContext(connection) as captured:
        many, page = _history(client, agent)
    assert few == many
    assert not any("COUNT(" in query["sql"].upper() for query in captured.captured_queries)
    assert not any("OFFSET" in query["sql"].upper() for query in captured.captured_queries)
    assert page.count('<li class="card') == 50 and 'rel="next"' in page and 'rel="prev"' not in page


def test_next_walks_to_the_oldest_entries_and_previous_back(world, client, make_agent, award):
    agent = make_agent("player")
    client.force_login(world.users["gm"])
    entries = [award(agent, session=session) for session in range(55)]
    _, first = _history(client, agent)
    assert f"#{entries[-1].pk} ·" in first and f"#{entries[0].pk} ·" not in first
    assert f'href="?before={entries[5].pk}"' in first
    _, second = _history(client, agent, before=entries[5].pk)
    assert [f"#{e.pk} ·" in second for e in entries[:5]] == [True] * 5
    assert second.count('<li class="card') == 5 and 'rel="next"' not in second
    assert f'href="?after={entries[4].pk}"' in second
    _, back = _history(client, agent, after=entries[4].pk)
    assert back.count('<li class="card') == 50 and f"#{entries[-1].pk} ·" in back and 'rel="prev"' not in back


def test_a_position_that_is_not_a_number_is_a_400(world, client, make_agent):
    agent = make_agent("player")
    client.force_login(world.users["gm"])
    url = reverse("character-history", args=[agent.pk])
    assert client.get(url, {"before": "x"}).status_code == 400
    assert client.get(url, {"after": "9" * 40}).status_code == 400


def test_an_entry_reverted_by_a_later_page_shows_as_reverted(world, client, make_agent, award):
    agent = make_agent("player")
    client.force_login(world.users["gm"])
    first = award(agent, session="first")
    for session in range(60):
        award(agent, session=session)
    services.revert_entry(first, world.users["gm"], "wrong session")
    _, newest = _history(client, agent)
    _, oldest = _history(client, agent, before=newest.split('href="?before=')[1].split('"')[0])
    assert f"#{first.pk} ·" in oldest and "Reverted" in oldest


def _api_history(client, agent, url=None):
    url = url or f"/api/v1/campaigns/{agent.campaign_id}/characters/{agent.pk}/history/"
    client.get(url)  # warm
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    return captured.captured_queries, response.json()


def test_the_history_api_pages_by_cursor_with_the_same_queries_for_3_entries_as_for_70(
    world, api, make_agent, award
):
    agent = make_agent("player")
    client = api(world.users["player"])
    entries = [award(agent, session=session) for session in range(3)]
    few, _ = _api_history(client, agent)
    entries += [award(agent, session=session) for session in range(3, 70)]
    services.revert_entry(entries[60], world.users["gm"], "wrong session")
    many, body = _api_history(client, agent)
    assert len(few) == len(many)
    assert not any("COUNT(" in q["sql"].upper() or "OFFSET" in q["sql"].upper() for q in many)
    assert set(body) == {"next", "previous", "results"}
    seen, url = [], None
    while True:
        _, body = _api_history(client, agent, url)
        seen += body["results"]
        if not body["next"]:
            break
        url = body["next"]
    assert [row["id"] for row in seen[:70]] == [entry.pk for entry in entries]
    assert [row["id"] for row in seen if row["reversed"]] == [entries[60].pk]
    assert seen[-1]["kind"] == "reversal" and len(seen) == 71


def test_the_history_api_refuses_a_page_number_or_a_made_up_cursor(world, api, make_agent):
    agent = make_agent("player")
    url = f"/api/v1/campaigns/{agent.campaign_id}/characters/{agent.pk}/history/"
    client = api(world.users["player"])
    for params, field in (({"page": 2}, "page"), ({"cursor": "not-a-cursor"}, "cursor")):
        response = client.get(url, params)
        assert response.status_code == 400
        assert [error["field"] for error in response.json()["errors"]] == [field]
