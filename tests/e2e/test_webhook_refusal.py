"""A refused chat webhook in a real browser (issue 44, finding 8): the add goes back to the settings
page with what was typed and why it was refused, so the page the browser shows can be reloaded or
bookmarked (the add's own address answers POST only: it was a 400 page there, 405 on reload)."""

from __future__ import annotations

import socket
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign, Webhook
from tests.e2e.test_every_page import log_in

pytestmark = pytest.mark.e2e

MISSING_HOST = "nowhere.example"


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", stdout=StringIO())


@pytest.fixture
def missing_host(monkeypatch):
    """A host the name lookup cannot find, without asking the network (the live server runs in this
    process; every other name is looked up as usual)."""
    real = socket.getaddrinfo

    def lookup(host, *args, **kwargs):
        if host == MISSING_HOST:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)


def test_a_refused_webhook_lands_on_the_settings_page_which_reloads(new_page, demo, missing_host):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="timemaster")
    settings_path = f"/campaigns/{campaign.pk}/settings/"
    page = new_page()
    log_in(page, "gm")
    page.goto(settings_path)
    page.get_by_label("Webhook URL").fill(f"https://{MISSING_HOST}/hook")
    page.get_by_label("Format").select_option("discord")
    page.get_by_role("button", name="Add webhook").click()

    page.wait_for_url(f"**{settings_path}#webhooks-title")
    summary = page.locator(".error-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text(f"The host {MISSING_HOST} could not be found.")
    expect(page.get_by_label("Webhook URL")).to_have_value(f"https://{MISSING_HOST}/hook")
    expect(page.get_by_label("Webhook URL")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Format")).to_have_value("discord")
    assert not Webhook.objects.filter(campaign=campaign).exists()

    # What the browser shows is a page it can load again (and a bookmark of it works): the settings.
    response = page.reload()
    assert response.status == 200
    expect(page.get_by_role("heading", name="Chat webhooks")).to_be_visible()
    expect(page.locator(".error-summary")).to_have_count(0)  # the refusal was said once
    assert not Webhook.objects.filter(campaign=campaign).exists()
