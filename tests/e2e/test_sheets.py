"""In a real browser: a player prints their agent's sheet, watches it finish and downloads a PDF; a
player asking for the GM's Fate Record Sheet gets 403 and no PDF.

The render is queued by the page as in production; here the test plays the worker and runs the task
body (a real WeasyPrint render) itself, since the live server's database is not shared with a worker
process. tests/sheets/test_worker_kill.py covers real worker processes.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

PASSWORD = "zebra-lantern-93"


@pytest.fixture
def queued(monkeypatch):
    """Render ids sent to the broker, caught instead of sent (no worker shares this database)."""
    from sheets import tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.render_sheet, "delay", lambda render_id: sent.append(render_id))
    return sent


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def make_table(system: str, campaign_name: str, character_name: str):
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role
    from characters.models import Character
    from tests.sheets.conftest import BUILDERS

    users = get_user_model().objects
    gm = users.filter(username="gm").first() or users.create_user("gm", password=PASSWORD)
    player = users.filter(username="player").first() or users.create_user("player", password=PASSWORD)
    campaign = services.create_campaign(gm, name=campaign_name, system=system)
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    build = BUILDERS[system](name=character_name)
    character = Character.objects.create(
        campaign=campaign,
        owner=player,
        system=system,
        name=character_name,
        status="active",
        build=build,
        creation_build=build,
        revision=1,
    )
    return campaign, character


def test_a_player_downloads_their_sheet_as_a_pdf(
    new_page, shot, transactional_db, queued, tmp_path, settings
):
    from sheets.tasks import run_render

    settings.MEDIA_ROOT = tmp_path / "media"
    campaign, character = make_table("timemaster", "Chronos Watch", "Harry Adams")
    page = new_page()
    log_in(page, "player")
    page.goto(f"/campaigns/{campaign.pk}/")
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Sheets").click()
    expect(page).to_have_url(re.compile(rf"/campaigns/{campaign.pk}/sheets/$"))
    page.get_by_test_id(f"print-character-{character.pk}").click()
    expect(page).to_have_url(re.compile(r"/sheets/\d+/$"))
    expect(page.get_by_role("status")).to_contain_text("Queued")

    assert len(queued) == 1
    assert run_render(queued[0]) == "done"  # the worker's part
    download_link = page.get_by_test_id("download")
    expect(download_link).to_be_visible(timeout=10_000)  # htmx polling picked it up
    shot(page, "sheets-ready")
    with page.expect_download() as info:
        download_link.click()
    path = tmp_path / "sheet.pdf"
    info.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    assert info.value.suggested_filename.endswith(".pdf")


def test_a_player_asking_for_the_fate_record_sheet_gets_403_and_no_pdf(new_page, transactional_db, queued):
    from sheets.models import SheetRender

    campaign, _ = make_table("time_to_kill", "Night Work", "Kage")
    page = new_page()
    log_in(page, "player")
    page.goto(f"/campaigns/{campaign.pk}/sheets/")
    expect(page.get_by_test_id("print-fate-record")).to_have_count(0)
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(
        f"/campaigns/{campaign.pk}/sheets/",
        form={"kind": "fate_record", "csrfmiddlewaretoken": token},
        headers={"Referer": page.url},
    )
    assert response.status == 403
    assert not response.body().startswith(b"%PDF")
    api = page.request.post(
        f"/api/v1/campaigns/{campaign.pk}/sheets/",
        data={"kind": "fate_record"},
        headers={"X-CSRFToken": token, "Referer": page.url},
    )
    assert api.status == 403
    assert not SheetRender.objects.exists() and queued == []
