"""Lists that grow with a campaign's age page without counting or rendering the whole of it:
the roll log API pages by cursor, the campaign list page by page (issue 22)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import services
from campaigns.models import Campaign, Membership, Role, Roll


def _rolls(world, how_many, secret_every=0):
    Roll.objects.bulk_create(
        Roll(
            campaign=world.campaign,
            roller=world.users["player"],
            kind="d6",
            faces=[3],
            kept=[3],
            total=3,
            purpose=f"roll {i}",
            secret=bool(secret_every) and i % secret_every == 0,
        )
        for i in range(how_many)
    )


def _queries(client, url, **params):
    client.get(url, params)  # warm: sessions, content types
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200, response.content[:300]
    return len(captured.captured_queries), response


def test_the_roll_log_api_runs_no_count_and_the_same_queries_for_60_rolls_as_for_600(world, api):
    client = api(world.users["gm"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/rolls/"
    _rolls(world, 60)
    few, _ = _queries(client, url)
    _rolls(world, 540)
    many, response = _queries(client, url)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    assert few == many
    assert not any("COUNT(" in query["sql"].upper() for query in captured.captured_queries)
    assert set(response.json()) == {"next", "previous", "results"}


@pytest.mark.parametrize("persona,secret_seen", [("gm", True), ("player", False)])
def test_following_next_walks_the_whole_log_newest_first_once(world, api, persona, secret_seen):
    _rolls(world, 130, secret_every=10)
    client = api(world.users[persona])
    url, seen = f"/api/v1/campaigns/{world.campaign.pk}/rolls/", []
    while url:
        body = client.get(url).json()
        seen += [roll["id"] for roll in body["results"]]
        url = body["next"]
    expected = Roll.objects.filter(campaign=world.campaign)
    if not secret_seen:  # announced secret rolls are listed (sealed); the unannounced ones are not
        expected = expected.exclude(secret=True, announced=False)
    assert seen == list(expected.order_by("-created_at", "-id").values_list("id", flat=True))


def test_a_page_number_or_a_made_up_cursor_is_refused_naming_the_parameter(world, api):
    client = api(world.users["player"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/rolls/"
    for params, field in (({"page": 2}, "page"), ({"cursor": "not-a-cursor"}, "cursor")):
        response = client.get(url, params)
        assert response.status_code == 400
        assert [error["field"] for error in response.json()["errors"]] == [field]


sqlite_plans = pytest.mark.skipif(
    connection.vendor != "sqlite",
    reason="SQLite's planner (the one that chose the wrong index); PostgreSQL picks a plan by table "
    "size, so a test-sized table reads best by a scan: bench/explain.py checks its plans at 100x",
)


@sqlite_plans
def test_the_roll_log_query_walks_the_index_that_holds_its_order(world):
    """The ordering with its id tie-break is indexed, so the planner needs no sort of the log."""
    _rolls(world, 50)
    plan = Roll.objects.filter(campaign=world.campaign).order_by("-created_at", "-id")[:50].explain()
    assert "roll_log_order" in plan
    assert "TEMP B-TREE" not in plan.upper() and "SORT" not in plan.upper().replace("ROLL_LOG_ORDER", "")


@sqlite_plans
def test_with_planner_statistics_an_empty_campaigns_log_still_uses_the_log_index(world):
    """After ANALYZE, SQLite walked the created_at index of every campaign's rolls to find none of
    an empty campaign's, when the index did not hold the id tie-break (issue 22)."""
    _rolls(world, 400)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    plan = Roll.objects.filter(campaign=world.elsewhere).order_by("-created_at", "-id")[:50].explain()
    assert "roll_log_order" in plan, plan


def _memberships(user, how_many):
    campaigns = Campaign.objects.bulk_create(
        Campaign(name=f"Campaign {i:03d}", system="timemaster") for i in range(how_many)
    )
    Membership.objects.bulk_create(Membership(campaign=c, user=user, role=Role.PLAYER) for c in campaigns)


def test_the_campaign_list_shows_a_page_of_cards_and_the_same_queries_at_any_length(world, client):
    player = world.users["player"]
    client.force_login(player)
    few, _ = _queries(client, "/campaigns/")
    _memberships(player, 120)
    with CaptureQueriesContext(connection) as captured:
        many, response = _queries(client, "/campaigns/")
    assert few == many
    assert not any("COUNT(" in query["sql"].upper() for query in captured.captured_queries)
    page = response.content.decode()
    assert page.count('class="card"') == 50 and 'rel="next"' in page and 'rel="prev"' not in page
    assert "your role: <strong>Player</strong>" in page


def test_the_campaign_list_walks_every_campaign_once_newest_membership_first(world, client):
    player = world.users["player"]
    client.force_login(player)
    _memberships(player, 120)
    expected = list(
        Membership.objects.filter(user=player).order_by("-id").values_list("campaign__name", flat=True)
    )
    seen, params = [], {}
    while True:
        page = client.get("/campaigns/", params).content.decode()
        seen += [line.split(">")[-1] for line in page.split("</a></h2>")[:-1]]
        if 'rel="next"' not in page:
            break
        params = {"before": page.split('href="?before=')[1].split('"')[0]}
    assert seen == expected and len(seen) == 121
    last = page
    assert last.count('class="card"') == 121 - 100 and 'rel="prev"' in last
    assert client.get("/campaigns/", {"before": "nonsense"}).status_code == 400


@sqlite_plans
def test_a_page_of_the_campaign_list_walks_the_memberships_index_without_a_sort(world):
    _memberships(world.users["player"], 60)
    plan = Membership.objects.filter(user=world.users["player"]).order_by("-id")[:51].explain()
    assert "my_campaigns_newest_first" in plan or "user_id" in plan.lower(), plan
    assert "TEMP B-TREE" not in plan.upper(), plan


def test_the_campaign_list_names_each_role_in_words(world, client):
    gm = world.users["gm"]
    services.create_campaign(gm, name="Another", system="d6")
    client.force_login(gm)
    page = client.get("/campaigns/").content.decode()
    assert page.count("your role: <strong>Game master</strong>") == 2
