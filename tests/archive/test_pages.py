"""The export and import pages for every persona, and the import error list on the page."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from archive import services
from campaigns.models import Campaign
from characters.models import Character
from tests.archive.conftest import SECRET_NOTES, SECRET_PURPOSE


def page_client(client, world, persona):
    if persona != "anonymous":
        client.force_login(world.users[persona])
    return client


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 200),
        ("player", 200),
        ("other_player", 200),
        ("observer", 200),
        ("outsider", 404),
        ("anonymous", 302),
    ],
)
def test_the_archive_page_shows_each_member_what_they_may_download(
    world, full_campaign, client, persona, status
):
    response = page_client(client, world, persona).get(f"/campaigns/{full_campaign.pk}/archive/")
    assert response.status_code == status
    if status != 200:
        return
    html = response.content.decode()
    is_gm = persona == "gm"
    assert ("Download the campaign archive" in html) == is_gm
    assert ("Import a character" in html) == is_gm
    assert ("Harry Adams" in html) == (persona in ("gm", "player"))
    assert ("Mae Lin" in html) == (persona in ("gm", "other_player"))
    assert SECRET_NOTES not in html and SECRET_PURPOSE not in html


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 200),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 302),
    ],
)
def test_the_campaign_download_is_the_gms(world, full_campaign, client, persona, status):
    response = page_client(client, world, persona).get(f"/campaigns/{full_campaign.pk}/archive/export/")
    assert response.status_code == status
    assert (SECRET_PURPOSE.encode() in response.content) == (status == 200)
    if status == 200:
        assert response["Content-Disposition"] == 'attachment; filename="time-corps.json"'
        assert json.loads(response.content)["format"] == "dossier.campaign"


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 200),
        ("player", 200),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 302),
    ],
)
def test_a_character_download_is_its_owners_and_the_gms(world, full_campaign, client, persona, status):
    harry = full_campaign.characters.get(name="Harry Adams")
    url = f"/campaigns/{full_campaign.pk}/archive/characters/{harry.pk}/export/"
    response = page_client(client, world, persona).get(url)
    assert response.status_code == status
    if status == 200:
        assert json.loads(response.content)["name"] == "Harry Adams"


def upload(document) -> SimpleUploadedFile:
    return SimpleUploadedFile("archive.json", json.dumps(document).encode(), content_type="application/json")


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 302),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 302),
    ],
)
def test_only_the_gm_imports_a_character_on_the_page(world, make_hero, client, persona, status):
    document = services.export_character(make_hero(world.campaign))
    before = Character.objects.count()
    url = f"/campaigns/{world.campaign.pk}/archive/characters/import/"
    response = page_client(client, world, persona).post(
        url, {"file": upload(document), "owner": "player", "on_duplicate": "copy"}
    )
    assert response.status_code == status
    assert Character.objects.count() == before + (persona == "gm")


def test_a_refused_character_upload_shows_every_problem(world, make_hero, client):
    document = services.export_character(make_hero(world.campaign))
    document["build"]["success_points"] = 999
    before = Character.objects.count()
    client.force_login(world.users["gm"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/archive/characters/import/",
        {"file": upload(document), "owner": "player"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "nothing was imported" in html and "<code>build</code>" in html and "ledger replayed" in html
    assert Character.objects.count() == before


def test_the_campaign_import_page_makes_a_new_campaign_run_by_the_uploader(world, full_campaign, client):
    client.force_login(world.users["gm"])
    assert client.get("/campaigns/import/").status_code == 200
    response = client.post("/campaigns/import/", {"file": upload(services.export_campaign(full_campaign))})
    copy = Campaign.objects.exclude(pk__in=[full_campaign.pk, world.elsewhere.pk]).get()
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{copy.pk}/"
    assert copy.memberships.get(user=world.users["gm"]).role == "gm"


def test_the_campaign_import_page_lists_the_members_it_left_out(world, full_campaign, client):
    client.force_login(world.users["outsider"])
    response = client.post(
        "/campaigns/import/", {"file": upload(services.export_campaign(full_campaign))}, follow=True
    )
    copy = Campaign.objects.exclude(pk__in=[full_campaign.pk, world.elsewhere.pk]).get()
    assert list(copy.memberships.values_list("user__username", flat=True)) == ["outsider"]
    html = response.content.decode()
    assert "&#x27;player&#x27; was not brought into the imported campaign" in html


def test_the_campaign_import_page_shows_a_truncated_file_and_creates_nothing(world, full_campaign, client):
    client.force_login(world.users["gm"])
    text = json.dumps(services.export_campaign(full_campaign))[:100]
    before = Campaign.objects.count()
    response = client.post("/campaigns/import/", {"file": SimpleUploadedFile("a.json", text.encode())})
    assert response.status_code == 400
    assert "truncated" in response.content.decode()
    assert Campaign.objects.count() == before


def test_the_campaign_import_page_needs_an_account(client):
    response = client.get("/campaigns/import/")
    assert response.status_code == 302 and "/login" in response["Location"]


def test_an_import_without_a_file_says_so(world, client):
    client.force_login(world.users["gm"])
    response = client.post("/campaigns/import/", {})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
