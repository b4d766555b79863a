"""Issue 21 in a real browser for the defects whose first tests were view tests: a form shows every
error at once with a summary linked to the fields (4), and what a new user meets in the demo (10):
the demo accounts on the login page, a campaign with a character to look at, and a favicon."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign

pytestmark = pytest.mark.e2e


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", stdout=StringIO())


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"dossier-{username}")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def test_the_settings_form_lists_every_error_at_the_top_and_each_link_leads_to_its_field(new_page, demo):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="timemaster")
    page = new_page(390, 800)
    log_in(page, "gm")
    page.goto(f"/campaigns/{campaign.pk}/settings/")
    form = page.locator("main form:not(.campaign-search)").first  # the search box is a form too
    required = form.locator("input[required], select[required]")
    assert required.count() >= 2
    # Empty every required field and let the server judge (the browser's own check stands aside).
    for index in range(required.count()):
        field = required.nth(index)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.evaluate("e => { e.required = false; e.add(new Option('', '')); e.value = ''; }")
        else:
            field.fill("")
    form.evaluate("f => { f.noValidate = true; }")
    form.locator("button[type=submit], input[type=submit]").first.click()

    summary = page.locator(".error-summary")
    expect(summary).to_be_visible()
    links = summary.locator("a")
    assert links.count() >= 2, summary.inner_text()
    # Every link names a field of the form, and that field shows its own error beside it.
    for index in range(links.count()):
        target = links.nth(index).get_attribute("href").lstrip("#")
        expect(page.locator(f"#{target}")).to_have_attribute("aria-invalid", "true")
        expect(page.locator(f"#{target}_error")).to_be_visible()
    first = links.first.get_attribute("href")
    links.first.click()
    assert page.url.endswith(first)
    expect(page.locator(first)).to_be_in_viewport()


def test_a_new_player_finds_the_demo_accounts_and_a_character_to_look_at(new_page, demo):
    page = new_page(1280, 900)
    page.goto("/accounts/login/")
    logins = page.get_by_role("region", name="Demo accounts")
    expect(logins).to_contain_text("alice")
    expect(logins).to_contain_text("gm")
    assert page.context.request.get("/favicon.ico").status == 200
    log_in(page, "alice")
    page.get_by_role("link", name="Demo: Shadows over Edo").first.click()
    characters = page.locator(".card", has=page.get_by_role("heading", name="Characters"))
    expect(characters.locator("a").first).to_be_visible()
    # alice's finished agent: its page opens, with its sheet's download or render state.
    characters.locator("a").first.click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
