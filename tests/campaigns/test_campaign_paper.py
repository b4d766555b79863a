"""A new campaign prints on the paper of the browser's region: US Letter in the United States and
Canada, A4 elsewhere; it was always Letter (issue 44, finding 10). Existing campaigns keep theirs."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from campaigns.paper import paper_for_languages

GERMAN = "de-DE,de;q=0.9,en;q=0.8"


@pytest.mark.parametrize(
    "header, paper",
    [
        ("en-US,en;q=0.9", "letter"),
        ("fr-CA,fr;q=0.9", "letter"),
        ("en-GB,en;q=0.9", "a4"),
        (GERMAN, "a4"),
        ("es-419,es;q=0.9", "a4"),  # a region by number: Latin America
        ("zh-Hant-TW,zh;q=0.9", "a4"),  # a script before the region
        ("en;q=0.9,en-US;q=0.8", "letter"),  # the first tag naming a region, by preference
        ("de-DE;q=0.5,en-CA;q=0.9", "letter"),  # preference, not order, decides
        ("en-US;q=0,fr-FR", "a4"),  # q=0: not acceptable at all
        ("de", "a4"),  # no region, not English
        ("en", None),  # English alone says nothing of the paper
        ("", None),
        (None, None),
        ("*", None),
        ("en-US;q=junk,de-DE", "a4"),  # a weight that is no number counts as unacceptable
    ],
)
def test_the_paper_follows_the_most_preferred_region(header, paper):
    assert paper_for_languages(header) == paper


def _create_on_the_web(client, user, name, **headers):
    client.force_login(user)
    response = client.post(
        "/campaigns/new/", {"name": name, "system": "timemaster", "description": ""}, **headers
    )
    assert response.status_code == 302, response.content.decode()[:1000]
    return Campaign.objects.get(name=name)


def test_a_campaign_made_from_a_german_browser_prints_on_a4(world, client):
    campaign = _create_on_the_web(client, world.users["gm"], "Berlin", HTTP_ACCEPT_LANGUAGE=GERMAN)
    assert campaign.paper == "a4"
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Its sheets print on A4 paper; change that in its settings." in page
    page = client.get(f"/campaigns/{campaign.pk}/settings/").content.decode()
    assert '<option value="a4" selected>' in page  # the settings page shows it, and the GM may change it


def test_a_campaign_made_from_a_us_or_canadian_browser_prints_on_letter(world, client):
    assert (
        _create_on_the_web(client, world.users["gm"], "Boston", HTTP_ACCEPT_LANGUAGE="en-US").paper
        == "letter"
    )
    assert (
        _create_on_the_web(client, world.users["gm"], "Quebec", HTTP_ACCEPT_LANGUAGE="fr-CA").paper
        == "letter"
    )


def test_without_a_region_the_default_stays_letter(world, client):
    assert _create_on_the_web(client, world.users["gm"], "Nowhere").paper == "letter"


def test_the_api_takes_the_paper_from_the_clients_region_too(world, api):
    client = api(world.users["gm"])
    body = {"name": "Lyon", "system": "timemaster"}
    response = client.post("/api/v1/campaigns/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr-FR,fr")
    assert response.status_code == 201, response.content
    assert Campaign.objects.get(pk=response.json()["id"]).paper == "a4"
    response = client.post(
        "/api/v1/campaigns/", {**body, "name": "Ottawa"}, format="json", HTTP_ACCEPT_LANGUAGE="en-CA"
    )
    assert Campaign.objects.get(pk=response.json()["id"]).paper == "letter"


def test_an_existing_campaign_keeps_its_paper_whatever_browser_visits(world, client, api):
    campaign = world.campaign
    assert campaign.paper == "letter"
    client.force_login(world.users["gm"])
    for path in ("", "settings/", "sheets/"):
        assert client.get(f"/campaigns/{campaign.pk}/{path}", HTTP_ACCEPT_LANGUAGE=GERMAN).status_code == 200
    response = api(world.users["gm"]).patch(
        f"/api/v1/campaigns/{campaign.pk}/",
        {"description": "Still Letter."},
        format="json",
        HTTP_ACCEPT_LANGUAGE=GERMAN,
    )
    assert response.status_code == 200, response.content
    assert Campaign.objects.get(pk=campaign.pk).paper == "letter"
