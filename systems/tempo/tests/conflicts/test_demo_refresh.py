"""The Tempo demo's GM has filled in a fate point refresh (rules README ruling 7 leaves it to the
campaign): the conflicts page's "Refresh fate points" button raises the demo agents, where a
refresh of 0 answered "No agent gained fate points"."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters.models import Character
from systems.tempo import demo, services


@pytest.fixture
def berlin(db):
    call_command("seed_demo", system=["tempo"], stdout=StringIO())
    return Campaign.objects.get(name=demo.CAMPAIGN[0], system="tempo")


def test_the_demo_campaign_has_a_refresh_above_zero(berlin):
    settings = services.campaign_settings(berlin)
    assert settings["fate_refresh"] == 2
    assert settings["fate_refresh_mode"] == "top_up"


def test_the_gms_refresh_raises_both_demo_agents(berlin, client):
    gm = Membership.objects.select_related("campaign", "user").get(campaign=berlin, role="gm")
    agents = {c.name: c for c in Character.objects.filter(campaign=berlin)}
    before = {name: agent.build["fate_points"] for name, agent in agents.items()}
    assert before == {"Finn Marlowe": 1, "Nora Vale": 1}
    client.force_login(gm.user)
    response = client.post(reverse("tempo-fate-refresh", args=[berlin.pk]), follow=True)
    page = response.content.decode()
    assert "No agent gained fate points" not in page
    assert "Fate points refreshed" in page
    after = {c.name: c.build["fate_points"] for c in Character.objects.filter(campaign=berlin)}
    assert after == {"Finn Marlowe": 2, "Nora Vale": 2}


def test_reseeding_keeps_a_refresh_the_gm_has_changed(berlin):
    berlin.settings = {**berlin.settings, "fate_refresh": 5}
    berlin.save()
    call_command("seed_demo", system=["tempo"], stdout=StringIO())
    berlin.refresh_from_db()
    assert berlin.settings["fate_refresh"] == 5
