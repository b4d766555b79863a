"""Browser test (Debian's Chromium via Playwright): on a phone, the GM downloads the campaign
archive from the Export tab, imports it back as a new campaign, and sees a truncated file refused
with its problem listed. Run with ``-m e2e`` (``make e2e``); the browser fixtures come from
tests/e2e/conftest.py, the campaign from tests/archive/conftest.py."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign
from tests.archive import conftest as archive

pytestmark = pytest.mark.e2e
full_campaign, make_hero = archive.full_campaign, archive.make_hero  # the campaign fixtures of tests/archive

UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def check_page(page):
    assert page.evaluate(UNLABELLED) == 0, page.url
    assert not page.evaluate(OVERFLOW), page.url


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()


def test_gm_downloads_the_archive_and_imports_it_back_on_a_phone(
    new_page, transactional_db, world, full_campaign, tmp_path
):
    page = new_page(390, 844)
    log_in(page, "gm")
    page.goto(f"/campaigns/{full_campaign.pk}/")
    page.get_by_role("link", name="Export", exact=True).click()
    expect(page.get_by_role("heading", name="Export and import · Time Corps")).to_be_visible()
    check_page(page)

    with page.expect_download() as caught:
        page.get_by_role("link", name="Download the campaign archive").click()
    path = tmp_path / "archive.json"
    caught.value.save_as(path)
    assert json.loads(path.read_text())["format"] == "dossier.campaign"

    page.get_by_role("link", name="Import a campaign").click()
    check_page(page)
    truncated = tmp_path / "truncated.json"
    truncated.write_text(path.read_text()[:200])
    page.get_by_label("Archive file (.json)").set_input_files(str(truncated))
    page.get_by_role("button", name="Import campaign").click()
    expect(page.get_by_test_id("archive-problems")).to_contain_text("truncated")
    assert Campaign.objects.filter(name="Time Corps").count() == 1

    page.get_by_label("Archive file (.json)").set_input_files(str(path))
    page.get_by_role("button", name="Import campaign").click()
    expect(page.get_by_text("Imported Time Corps (imported).")).to_be_visible()
    copy = Campaign.objects.get(name="Time Corps (imported)")
    assert page.url.endswith(f"/campaigns/{copy.pk}/")
    assert copy.characters.count() == full_campaign.characters.count()
