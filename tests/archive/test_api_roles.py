"""Every archive API route against every persona, and what a player's export may hold."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from archive import services
from campaigns.models import Campaign
from characters.models import Character
from tests.archive.conftest import SECRET_NOTES, SECRET_PURPOSE

WALKED_ROUTES = {
    "api-character-export",
    "api-character-import",
    "api-campaign-export",
    "api-campaign-import",
    # walked for every persona in tests/archive/test_export_jobs.py
    "api-campaign-export-start",
    "api-campaign-export-job",
    "api-campaign-export-download",
}
PERSONAS = ("gm", "player", "other_player", "observer", "outsider", "anonymous")


def client_for(api, world, persona):
    return api(None if persona == "anonymous" else world.users[persona])


def assert_error_format(response, status):
    assert response.status_code == status, response.content
    if status >= 400:
        body = response.json()
        assert body["status"] == status and body["errors"], body


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 200),
        ("player", 200),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_the_owner_and_the_gm_export_a_character(world, full_campaign, api, persona, status):
    harry = full_campaign.characters.get(name="Harry Adams")
    url = f"/api/v1/campaigns/{full_campaign.pk}/characters/{harry.pk}/export/"
    response = client_for(api, world, persona).get(url)
    assert_error_format(response, status)
    if status == 200:
        assert response.json()["format"] == "dossier.character"
        assert response["Content-Disposition"] == 'attachment; filename="harry-adams.json"'


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 200),
        ("player", 200),
        ("other_player", 404),
        ("observer", 404),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_a_draft_is_exported_only_by_its_owner_and_the_gm(world, full_campaign, api, persona, status):
    draft = full_campaign.characters.get(status="draft")
    url = f"/api/v1/campaigns/{full_campaign.pk}/characters/{draft.pk}/export/"
    assert_error_format(client_for(api, world, persona).get(url), status)


def test_a_character_is_not_exported_through_another_campaigns_url(world, full_campaign, api):
    harry = full_campaign.characters.get(name="Harry Adams")
    response = api(world.users["gm"]).get(
        f"/api/v1/campaigns/{world.elsewhere.pk}/characters/{harry.pk}/export/"
    )
    assert_error_format(response, 404)


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 200),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_only_the_gm_exports_the_whole_campaign(world, full_campaign, api, persona, status):
    response = client_for(api, world, persona).get(f"/api/v1/campaigns/{full_campaign.pk}/export/")
    assert_error_format(response, status)
    text = response.content.decode()
    assert (SECRET_PURPOSE in text) == (status == 200)
    assert (SECRET_NOTES in text) == (status == 200)


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 201),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_only_the_gm_imports_a_character_into_the_campaign(world, make_hero, api, persona, status):
    hero = make_hero(world.campaign)
    document = json.dumps(services.export_character(hero))
    before = Character.objects.count()
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/import/?owner=player&on_duplicate=copy"
    response = client_for(api, world, persona).post(url, document, content_type="application/json")
    assert_error_format(response, status)
    assert Character.objects.count() == before + (status == 201)
    if status == 201:
        assert response.json()["owner"] == "player"


def test_a_character_upload_goes_to_the_owner_named_in_the_form(world, make_hero, api):
    hero = make_hero(world.campaign)
    upload = SimpleUploadedFile("hero.json", json.dumps(services.export_character(hero)).encode())
    response = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/characters/import/",
        {"file": upload, "owner": "other_player", "on_duplicate": "copy"},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert Character.objects.get(pk=response.json()["id"]).owner == world.users["other_player"]


@pytest.mark.parametrize("owner", ["observer", "outsider", "nobody"])
def test_an_imported_character_belongs_to_a_player_or_the_gm(world, make_hero, api, owner):
    document = json.dumps(services.export_character(make_hero(world.campaign)))
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/import/?owner={owner}"
    response = api(world.users["gm"]).post(url, document, content_type="application/json")
    assert_error_format(response, 400)
    assert response.json()["errors"][0]["field"] == "owner"


@pytest.mark.parametrize(
    "persona, status",
    [
        ("gm", 201),
        ("player", 201),
        ("other_player", 201),
        ("observer", 201),
        ("outsider", 201),
        ("anonymous", 401),
    ],
)
def test_a_campaign_is_imported_by_any_account_as_its_only_member(world, full_campaign, api, persona, status):
    """The copy's GM is whoever imports it, and nobody else joins it: the other members are left out,
    their characters are the importer's, and the answer lists them (issue 18, finding 7)."""
    document = json.dumps(services.export_campaign(full_campaign))
    before = Campaign.objects.count()
    response = client_for(api, world, persona).post(
        "/api/v1/campaigns/import/", document, content_type="application/json"
    )
    assert_error_format(response, status)
    assert Campaign.objects.count() == before + (status == 201)
    if status == 201:
        copy = Campaign.objects.get(pk=response.json()["id"])
        assert list(copy.memberships.values_list("user__username", "role")) == [(persona, "gm")]
        assert set(copy.characters.values_list("owner__username", flat=True)) == {persona}
        named = {u for u in copy.rolls.values_list("roller__username", flat=True)} - {None}
        assert named <= {persona}
        left_out = {"gm", "player", "other_player", "observer"} - {persona}
        warnings = response.json()["warnings"]
        assert len(warnings) == len(left_out) and all(repr(name) in " ".join(warnings) for name in left_out)


def test_a_refused_api_import_lists_each_problem_with_its_path(world, make_hero, api):
    document = services.export_character(make_hero(world.campaign))
    document["build"]["success_points"] = 999
    document["ledger"][0]["kind"] = ""
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/import/"
    response = api(world.users["gm"]).post(url, json.dumps(document), content_type="application/json")
    assert_error_format(response, 400)
    body = response.json()
    assert body["detail"] == "The archive was refused; nothing was imported."
    assert {"field": "ledger[0].kind", "message": "must not be empty."} in body["errors"]


def test_a_truncated_api_body_gets_the_archive_message(world, full_campaign, api):
    text = json.dumps(services.export_campaign(full_campaign))[:-10]
    response = api(world.users["gm"]).post("/api/v1/campaigns/import/", text, content_type="application/json")
    assert_error_format(response, 400)
    assert "truncated" in response.json()["errors"][0]["message"]


def test_a_players_export_never_holds_gm_only_data(world, full_campaign, api):
    """A player's own character document: no secret roll, no NPC, no GM notes, no other character."""
    player = api(world.users["player"])
    for character in full_campaign.characters.filter(owner=world.users["player"]):
        url = f"/api/v1/campaigns/{full_campaign.pk}/characters/{character.pk}/export/"
        response = player.get(url)
        assert response.status_code == 200
        text = response.content.decode()
        for secret in (SECRET_PURPOSE, SECRET_NOTES, "Innkeeper", "Shifter", "Mae Lin", "Operation Lantern"):
            assert secret not in text
        assert set(response.json()) == {
            "format", "format_version", "exported_at", "exported_by", "name", "system", "module", "status",
            "owner", "revision", "creation_build", "build", "choices", "ledger",
        }  # fmt: skip
