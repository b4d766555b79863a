"""Every list endpoint and list page runs as many queries for 30 rows as for 3 (no N+1).

Each test grows one kind of row from 3 to 30 and compares the query counts of the same request,
after one warm-up request (sessions, content types and other per-process caches).
"""

from __future__ import annotations

import itertools
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import services
from campaigns.models import Membership, Mission, Role
from campaigns.table import rolling

FEW, MANY = 3, 30
_serial = itertools.count()


def _queries(client, url: str) -> tuple[int, str]:
    assert client.get(url).status_code == 200  # warm-up
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    return len(captured), response.content.decode()


def _grow(kind: str, world, make_user, upto: int) -> None:
    """Make the campaign have ``upto`` rows of ``kind`` (each row with its relations filled in)."""
    from characters.models import Character

    campaign, gm = world.campaign, world.users["gm"]
    if kind == "campaigns":
        have = Membership.objects.filter(user=gm).count()
        for _ in range(upto - have):
            services.create_campaign(gm, name=f"Campaign {next(_serial)}", system="d6")
    elif kind == "members":
        have = campaign.memberships.count()
        for _ in range(upto - have):
            user = make_user(f"member{next(_serial)}")
            Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    elif kind == "invitations":
        for _ in range(upto - campaign.invitations.count()):
            services.create_invitation(campaign, gm, days=3, max_uses=5)
    elif kind == "missions":
        for _ in range(upto - campaign.missions.count()):
            Mission.objects.create(campaign=campaign, title=f"Mission {next(_serial)}")
    elif kind == "characters":
        for _ in range(upto - campaign.characters.count()):
            Character.objects.create(
                campaign=campaign,
                owner=make_user(f"owner{next(_serial)}"),
                system="timemaster",
                name=f"Agent {next(_serial)}",
                status="active",
            )
    elif kind == "rolls":
        # Open rolls by different members, on different missions and characters, and as many secret.
        while campaign.rolls.filter(secret=False).count() < upto:
            n = next(_serial)
            user = make_user(f"roller{n}")
            membership = Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
            mission = Mission.objects.create(campaign=campaign, title=f"Mission {n}")
            character = Character.objects.create(
                campaign=campaign, owner=user, system="timemaster", name=f"Agent {n}", status="active"
            )
            rolling.record_roll(membership, kind="d6", count=2, mission=mission, character=character)
            rolling.record_roll(world.membership["gm"], kind="d1000", secret=True, purpose=f"secret {n}")
    else:  # pragma: no cover - a typo in the parametrization below
        raise ValueError(kind)


def _api(world, persona):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(world.users[persona])
    return client


def _page(world, persona):
    from django.test import Client

    client = Client()
    client.force_login(world.users[persona])
    return client


# (kind of row, client, url, persona)
CASES = [
    ("campaigns", _api, "/api/v1/campaigns/", "gm"),
    ("members", _api, "/api/v1/campaigns/{c}/members/", "player"),
    ("invitations", _api, "/api/v1/campaigns/{c}/invitations/", "gm"),
    ("missions", _api, "/api/v1/campaigns/{c}/missions/", "observer"),
    ("rolls", _api, "/api/v1/campaigns/{c}/rolls/", "gm"),
    ("rolls", _api, "/api/v1/campaigns/{c}/rolls/", "player"),
    ("campaigns", _page, "/campaigns/", "gm"),
    ("members", _page, "/campaigns/{c}/members/", "gm"),
    ("invitations", _page, "/campaigns/{c}/members/", "gm"),
    ("members", _page, "/campaigns/{c}/", "player"),
    ("missions", _page, "/campaigns/{c}/", "player"),
    ("characters", _page, "/campaigns/{c}/", "gm"),
    ("rolls", _page, "/campaigns/{c}/dice/", "gm"),
    ("rolls", _page, "/campaigns/{c}/dice/", "player"),
    ("rolls", _page, "/campaigns/{c}/dice/log/", "observer"),
    ("missions", _page, "/campaigns/{c}/dice/", "player"),
]


@pytest.mark.parametrize(
    "kind,client_for,url,persona",
    CASES,
    ids=[f"{c[0]}-{c[1].__name__.strip('_')}-{c[2]}-{c[3]}" for c in CASES],
)
def test_query_count_does_not_grow_with_rows(world, make_user, kind, client_for, url, persona):
    url = url.format(c=world.campaign.pk)
    client = client_for(world, persona)
    _grow(kind, world, make_user, FEW)
    few, _ = _queries(client, url)
    _grow(kind, world, make_user, MANY)
    many, _ = _queries(client, url)
    assert few == many, f"{url} as {persona}: {few} queries with {FEW} {kind}, {many} with {MANY}"


@pytest.mark.parametrize("persona,visible", [("gm", 2 * MANY), ("player", 2 * MANY)])
def test_the_roll_lists_measured_really_hold_the_rows(world, make_user, persona, visible):
    """Guards the test above: the grown rows are in the lists it measures (secret ones sealed for
    the player: listed without their result)."""
    _grow("rolls", world, make_user, MANY)
    _, body = _queries(_api(world, persona), f"/api/v1/campaigns/{world.campaign.pk}/rolls/")
    assert len(json.loads(body)["results"]) == min(visible, 50)
    _, page = _queries(_page(world, persona), f"/campaigns/{world.campaign.pk}/dice/log/")
    assert page.count("<li") == min(visible, 50)
