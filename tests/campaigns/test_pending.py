"""Issue 21: the campaign page's header says what is waiting for this user — a draft to finish, a
result to publish, a sheet still rendering — and only what is theirs to see."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Mission
from characters.models import Character
from sheets.models import RenderStatus, SheetKind, SheetRender

pytestmark = pytest.mark.django_db


def page(client, user, campaign) -> str:
    client.force_login(user)
    response = client.get(reverse("campaign-detail", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_nothing_waiting_shows_no_box(world, client):
    assert "Waiting for you" not in page(client, world.users["player"], world.campaign)


def test_a_draft_is_waiting_for_its_owner_only(world, client):
    draft = Character.objects.create(
        campaign=world.campaign, owner=world.users["player"], system="timemaster", name="Half-made Agent"
    )
    mine = page(client, world.users["player"], world.campaign)
    assert "Waiting for you" in mine and "Finish your draft “Half-made Agent”" in mine
    assert reverse("character-detail", args=[draft.pk]) in mine
    assert "Half-made Agent" not in page(client, world.users["other_player"], world.campaign)


def test_an_unpublished_result_waits_for_the_gm_and_is_not_hinted_to_players(world, client):
    Mission.objects.create(
        campaign=world.campaign,
        title="The Tunguska Job",
        status=Mission.Status.COMPLETED,
        closed_at=timezone.now(),
    )
    gm = page(client, world.users["gm"], world.campaign)
    assert "Publish the result of “The Tunguska Job”" in gm
    assert reverse("missions-list", args=[world.campaign.pk]) in gm
    for name in ("player", "observer"):
        assert "Publish the result" not in page(client, world.users[name], world.campaign)


def test_a_sheet_rendering_waits_for_its_owner_and_the_gm(world, client):
    agent = Character.objects.create(
        campaign=world.campaign,
        owner=world.users["player"],
        system="timemaster",
        name="Agent Vega",
        status=Character.Status.ACTIVE,
    )
    SheetRender.objects.create(
        kind=SheetKind.CHARACTER,
        system="timemaster",
        campaign=world.campaign,
        character=agent,
        revision=1,
        content_key="k" * 64,
        template_version="test",
        status=RenderStatus.QUEUED,
        queued_at=timezone.now(),
    )
    assert "A sheet is rendering" in page(client, world.users["player"], world.campaign)
    assert "A sheet is rendering" in page(client, world.users["gm"], world.campaign)
    assert "A sheet is rendering" not in page(client, world.users["other_player"], world.campaign)


@pytest.mark.parametrize(
    ("system", "tab"),
    [("timemaster", "Missions"), ("time_to_kill", "Missions"), ("tempo", "Conflicts"), ("d6", "Encounters")],
)
def test_each_system_adds_its_play_tab_from_the_registry(make_user, client, system, tab):
    from campaigns import services

    gm = make_user(f"gm-{system}")
    module = "flashpoints" if system == "tempo" else ""
    campaign = services.create_campaign(gm, name=f"A {system} campaign", system=system, module=module)
    html = page(client, gm, campaign)
    nav = html[html.index('<nav class="tabs"') :]
    nav = nav[: nav.index("</nav>")]
    assert f">{tab}</a>" in nav
    others = {"Missions", "Conflicts", "Encounters"} - {tab}
    assert not any(f">{other}</a>" in nav for other in others)
