"""Every sheets endpoint against every persona: who may request, watch and download which PDF."""

from __future__ import annotations

import pytest

from sheets import services
from sheets.models import RenderStatus, SheetRender
from sheets.tasks import run_render

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")


def request_url(campaign):
    return f"/api/v1/campaigns/{campaign.pk}/sheets/"


def done_render(user, kind, campaign, character=None):
    from campaigns.access import get_campaign_for_user

    _, membership = get_campaign_for_user(user, campaign.pk)
    render, _ = services.request_render(user, kind, campaign, membership, character)
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    return render


# -- requesting ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 202), ("player", 202), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_only_the_owner_and_the_gm_may_request_a_character_sheet(world, party, api, persona, expected):
    response = api(world.users[persona]).post(
        request_url(world.campaign), {"kind": "character", "character": party["player"].pk}, format="json"
    )
    assert response.status_code == expected, response.content
    assert SheetRender.objects.exists() == (expected == 202)
    if expected != 202:
        assert set(response.json()) == {"status", "detail", "errors"}


def test_anonymous_requests_are_refused(world, party, api):
    response = api().post(request_url(world.campaign), {"kind": "party_bundle"}, format="json")
    assert response.status_code == 401


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 202), ("player", 202), ("other_player", 202), ("observer", 403), ("outsider", 404)],
)
def test_players_and_the_gm_may_request_the_party_bundle(world, party, api, persona, expected):
    response = api(world.users[persona]).post(
        request_url(world.campaign), {"kind": "party_bundle"}, format="json"
    )
    assert response.status_code == expected, response.content


def test_the_gm_bundle_and_the_players_bundle_are_separate_renders(world, party, api):
    gm = api(world.users["gm"]).post(request_url(world.campaign), {"kind": "party_bundle"}, format="json")
    player = api(world.users["player"]).post(
        request_url(world.campaign), {"kind": "party_bundle"}, format="json"
    )
    other = api(world.users["other_player"]).post(
        request_url(world.campaign), {"kind": "party_bundle"}, format="json"
    )
    assert gm.json()["id"] != player.json()["id"]
    # each player's copy carries the documents of that player's own characters (sheets/archival.py)
    assert player.json()["id"] != other.json()["id"]
    other_copy = api(world.users["player"]).get(f"/api/v1/sheets/{other.json()['id']}/")
    assert other_copy.status_code == 403


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 202), ("player", 403), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_only_the_gm_gets_the_fate_record_sheet(world, ttk_world, api, persona, expected):
    response = api(world.users[persona]).post(request_url(ttk_world), {"kind": "fate_record"}, format="json")
    assert response.status_code == expected, response.content
    assert SheetRender.objects.filter(kind="fate_record").exists() == (expected == 202)


def test_the_fate_record_sheet_belongs_to_time_to_kill(world, api):
    response = api(world.users["gm"]).post(
        request_url(world.campaign), {"kind": "fate_record"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "kind"


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "kind"),
        ({"kind": "character"}, "character"),
        ({"kind": "nonsense"}, "kind"),
        ({"kind": "character", "character": "x"}, "character"),
        ({"kind": "character", "character": 10**30}, "character"),
        ({"kind": "party_bundle", "paper": "tabloid"}, "paper"),
        ({"kind": "after_action"}, "mission"),
    ],
)
def test_bad_requests_get_400_in_the_house_format(world, party, api, body, field):
    response = api(world.users["gm"]).post(request_url(world.campaign), body, format="json")
    assert response.status_code == 400
    assert field in {e["field"] for e in response.json()["errors"]}


def test_a_missing_character_is_404_and_a_draft_has_no_sheet(world, party, api):
    client = api(world.users["gm"])
    missing = client.post(
        request_url(world.campaign), {"kind": "character", "character": 999999}, format="json"
    )
    assert missing.status_code == 404
    party["player"].status = "draft"
    party["player"].save()
    draft = client.post(
        request_url(world.campaign), {"kind": "character", "character": party["player"].pk}, format="json"
    )
    assert draft.status_code == 400


def test_a_non_member_gets_404_even_for_a_bad_body(world, api):
    response = api(world.users["outsider"]).post(request_url(world.campaign), {"kind": 5}, format="json")
    assert response.status_code == 404


def test_a_bundle_of_an_empty_party_is_refused(world, api):
    response = api(world.users["gm"]).post(
        request_url(world.campaign), {"kind": "party_bundle"}, format="json"
    )
    assert response.status_code == 400


# -- reuse -------------------------------------------------------------------------------------------
def test_the_same_request_twice_reuses_the_render_and_a_done_one_comes_back_at_once(world, party, api):
    client = api(world.users["player"])
    body = {"kind": "character", "character": party["player"].pk}
    first = client.post(request_url(world.campaign), body, format="json")
    second = client.post(request_url(world.campaign), body, format="json")
    assert first.json()["id"] == second.json()["id"]
    assert run_render(first.json()["id"]) == "done"
    third = client.post(request_url(world.campaign), body, format="json")
    assert third.status_code == 200
    assert third.json()["status"] == "done" and third.json()["download_url"]
    assert SheetRender.objects.count() == 1


def test_a_new_revision_is_a_new_render(world, party, api):
    client = api(world.users["player"])
    body = {"kind": "character", "character": party["player"].pk}
    first = client.post(request_url(world.campaign), body, format="json").json()
    party["player"].revision += 1
    party["player"].save()
    second = client.post(request_url(world.campaign), body, format="json").json()
    assert first["id"] != second["id"]
    assert (first["revision"], second["revision"]) == (1, 2)


# -- status and download --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 200), ("player", 200), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_status_and_download_of_a_character_sheet(world, party, api, persona, expected):
    render = done_render(world.users["player"], "character", world.campaign, party["player"])
    client = api(world.users[persona])
    assert client.get(f"/api/v1/sheets/{render.pk}/").status_code == expected
    response = client.get(f"/api/v1/sheets/{render.pk}/download/")
    assert response.status_code == expected
    if expected == 200:
        body = b"".join(response.streaming_content)
        assert body.startswith(b"%PDF")
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"].startswith("attachment;")
        # the paper is in the name: an A4 and a Letter print of one revision are two files
        assert 'filename="harry-adams-timemaster-sheet-r1-letter.pdf"' in response["Content-Disposition"]


# A GM-only print answers anyone else as an id nobody holds (404): that the GM printed one is the
# GM's (docs/secrets.md); asking to print one is still a 403 (above).
@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 200), ("player", 404), ("other_player", 404), ("observer", 404), ("outsider", 404)],
)
def test_nobody_but_the_gm_downloads_a_fate_record_sheet(world, ttk_world, api, persona, expected):
    render = done_render(world.users["gm"], "fate_record", ttk_world)
    client = api(world.users[persona])
    assert client.get(f"/api/v1/sheets/{render.pk}/").status_code == expected
    response = client.get(f"/api/v1/sheets/{render.pk}/download/")
    assert response.status_code == expected
    if expected != 200:
        assert b"%PDF" not in response.content


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 200), ("player", 404), ("other_player", 404), ("observer", 404), ("outsider", 404)],
)
def test_the_gm_copy_of_a_bundle_is_the_gms_only(world, ttk_world, api, persona, expected):
    render = done_render(world.users["gm"], "party_bundle", ttk_world)
    assert render.gm_copy
    assert api(world.users[persona]).get(f"/api/v1/sheets/{render.pk}/download/").status_code == expected


def test_download_before_the_pdf_is_ready_is_409(world, party, api):
    client = api(world.users["player"])
    body = {"kind": "character", "character": party["player"].pk}
    render_id = client.post(request_url(world.campaign), body, format="json").json()["id"]
    response = client.get(f"/api/v1/sheets/{render_id}/download/")
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "status"


@pytest.mark.parametrize("render_id", ["999999", "0", "99999999999999999999"])
def test_unknown_renders_are_404(world, api, render_id):
    client = api(world.users["gm"])
    assert client.get(f"/api/v1/sheets/{render_id}/").status_code == 404
    assert client.get(f"/api/v1/sheets/{render_id}/download/").status_code == 404


def test_a_failed_render_says_why(world, party, api):
    render = done_render(world.users["player"], "character", world.campaign, party["player"])
    SheetRender.objects.filter(pk=render.pk).update(status=RenderStatus.FAILED, error="The sheet broke.")
    data = api(world.users["player"]).get(f"/api/v1/sheets/{render.pk}/").json()
    assert data["status"] == "failed" and data["error"] == "The sheet broke." and data["download_url"] is None


#: The API routes whose every persona this module walks (read by the route-coverage test in
#: tests/campaigns/test_api_roles.py).
WALKED_ROUTES = {"api-sheet-request", "api-sheet-render", "api-sheet-download"}
