"""The demo's open mission can be closed as seeded, and a close the rules refuse says so in the
close form, with a link to the field that fixes it (issue 30, finding 8)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaigns.demo import DEMO_CAMPAIGN
from campaigns.models import Mission
from tests.campaigns.test_missions import new_agent, started


@pytest.mark.django_db
def test_the_seeded_open_mission_closes_from_its_page(client):
    call_command("seed_demo", stdout=StringIO())
    mission = Mission.objects.get(campaign__name=DEMO_CAMPAIGN, title="The Lost Dispatch")
    assert mission.significance_rating is not None and mission.historical_changes_chart
    client.force_login(get_user_model().objects.get(username="gm"))
    url = f"/campaigns/{mission.campaign_id}/missions/{mission.pk}/close/"
    assert client.post(url, {"result": "success"}).status_code == 302
    mission.refresh_from_db()
    assert mission.is_closed


@pytest.mark.django_db
def test_seeding_again_completes_a_mission_an_older_seed_left_without_significance():
    call_command("seed_demo", stdout=StringIO())
    mission = Mission.objects.get(campaign__name=DEMO_CAMPAIGN, title="The Lost Dispatch")
    Mission.objects.filter(pk=mission.pk).update(significance_rating=None, historical_changes_chart=[])
    call_command("seed_demo", stdout=StringIO())
    mission.refresh_from_db()
    assert mission.significance_rating is not None and mission.historical_changes_chart


def test_a_refused_close_points_at_the_significance_field_and_links_to_it(world, client):
    agents = [new_agent(world, "player", "Harry Adams")]
    mission = started(world, agents, significance_rating=None, historical_changes_chart=[])
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    response = client.post(f"/campaigns/{c}/missions/{mission.pk}/close/", {"result": "success"})
    assert response.status_code == 400
    page = response.content.decode()
    box = page[page.index('data-testid="close-errors"') :]
    box = box[: box.index("</div>")]
    assert "Set the adventure&#x27;s significance before closing." in box
    assert f'href="/campaigns/{c}/missions/{mission.pk}/edit/#id_significance_rating"' in box
    # said once, in the close form's section (not flashed at the top of the page)
    assert page.count("significance before closing") == 1
    assert page.index('id="close"') < page.index('data-testid="close-errors"')
    edit = client.get(f"/campaigns/{c}/missions/{mission.pk}/edit/").content.decode()
    assert 'id="id_significance_rating"' in edit
    mission.refresh_from_db()
    assert mission.status == Mission.Status.ACTIVE
