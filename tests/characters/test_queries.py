"""The character list costs the same number of queries for 3 characters as for 30."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import Character


def _list_queries(world, api, count):
    Character.objects.all().delete()
    Character.objects.bulk_create(
        Character(
            campaign=world.campaign,
            owner=world.users["player" if n % 2 else "other_player"],
            system="timemaster",
            name=f"Agent {n}",
            status="active" if n % 3 else "draft",
        )
        for n in range(count)
    )
    client = api(world.users["gm"])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/api/v1/campaigns/{world.campaign.pk}/characters/")
    assert response.status_code == 200
    assert response.json()["count"] == count
    return len(queries)


def test_listing_3_or_30_characters_costs_the_same_queries(world, api):
    assert _list_queries(world, api, 3) == _list_queries(world, api, 30)
