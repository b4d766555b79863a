"""Regression tests for what the API fuzzer (test_fuzz_api.py) found, one per finding."""

from __future__ import annotations

import pytest

from campaigns.models import Invitation, Mission

INVALID_BODIES = {
    "invitations": {"days": 1, "max_uses": "null"},
    "missions": {"title": ""},
}


@pytest.mark.parametrize("resource", sorted(INVALID_BODIES))
def test_an_outsider_posting_an_invalid_body_gets_404_not_a_validation_error(world, api, resource):
    """Validating before checking access told a non-member that the campaign exists (400 vs 404)."""
    url = f"/api/v1/campaigns/{world.campaign.pk}/{resource}/"
    response = api(world.users["outsider"]).post(url, INVALID_BODIES[resource], format="json")
    assert response.status_code == 404
    assert response.json()["errors"][0]["field"] == ""


@pytest.mark.parametrize("persona", ["player", "observer"])
@pytest.mark.parametrize("resource", sorted(INVALID_BODIES))
def test_a_non_gm_posting_an_invalid_body_gets_403(world, api, resource, persona):
    url = f"/api/v1/campaigns/{world.campaign.pk}/{resource}/"
    response = api(world.users[persona]).post(url, INVALID_BODIES[resource], format="json")
    assert response.status_code == 403
    assert "game master" in response.json()["detail"]


def test_the_gm_still_creates_invitations_and_missions(world, api):
    client = api(world.users["gm"])
    base = f"/api/v1/campaigns/{world.campaign.pk}"
    assert client.post(f"{base}/invitations/", {"days": 3}, format="json").status_code == 201
    assert client.post(f"{base}/missions/", {"title": "Sundial"}, format="json").status_code == 201
    assert Invitation.objects.filter(campaign=world.campaign).count() == 1
    assert Mission.objects.filter(campaign=world.campaign, title="Sundial").exists()
    assert client.post(f"{base}/missions/", {"title": ""}, format="json").status_code == 400
