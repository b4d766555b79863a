"""A refused action inside a live panel (htmx) shows why inside the panel; the page around it stays,
and the panel keeps working (issue 21, defect 1). Run with DEBUG on, as `make run` serves it:
django-htmx's development helper used to swap the raw answer in for the whole page."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign, Membership, Role
from characters.models import Character
from systems.d6.models import Encounter
from systems.time_to_kill.models import MissionRun


@pytest.fixture
def demo(transactional_db, settings):
    settings.DEBUG = True
    call_command("seed_demo", stdout=StringIO())
    return {c.system: c for c in Campaign.objects.filter(name__startswith="Demo: ")}


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"dossier-{username}")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def page_still_whole(page, title):
    """The site's header and stylesheet are still there and the page is the same page."""
    expect(page.locator("header.top")).to_be_visible()
    expect(page).to_have_title(title)
    assert page.locator("link[rel=stylesheet]").count() >= 1


def test_refusals_show_inside_their_panel_and_the_panel_keeps_working(new_page, demo):
    alice = new_page(390, 800)
    log_in(alice, "alice")

    # The dice form: a count the form refuses (the browser's own limit taken off).
    timemaster = demo["timemaster"]
    alice.goto(f"/campaigns/{timemaster.pk}/dice/")
    title = alice.title()
    alice.locator("#id_count").evaluate("el => { el.removeAttribute('max'); el.value = '500'; }")
    alice.get_by_role("button", name="Roll", exact=True).click()
    expect(alice.locator("#dice-panel")).to_contain_text("less than or equal to 30")
    page_still_whole(alice, title)
    alice.locator("#id_count").fill("2")
    alice.get_by_role("button", name="Roll", exact=True).click()
    expect(alice.get_by_test_id("roll-total")).to_be_visible()

    # Tempo rolls: alice is made an observer after her page loaded; the server refuses (403).
    tempo = demo["tempo"]
    finn = Character.objects.get(campaign=tempo, owner__username="alice")
    alice.goto(f"/characters/{finn.pk}/")
    title = alice.title()
    panel = alice.locator("#tempo-roll-panel")
    Membership.objects.filter(campaign=tempo, user__username="alice").update(role=Role.OBSERVER)
    panel.get_by_role("button", name="Roll 3d6").click()
    expect(panel.get_by_role("alert")).to_contain_text("Only the agent's player or the game master")
    page_still_whole(alice, title)
    Membership.objects.filter(campaign=tempo, user__username="alice").update(role=Role.PLAYER)
    panel.get_by_role("button", name="Roll 3d6").click()
    expect(panel.get_by_role("alert")).to_have_count(0)
    expect(panel).to_contain_text("Rolled")

    gm = new_page(1280, 900)
    log_in(gm, "gm")

    # The Time to Kill GM console: a move made against an old view of the run (409).
    run = MissionRun.objects.get(campaign=demo["time_to_kill"], status="running")
    gm.goto(f"/ttk/{run.pk}/")
    title = gm.title()
    console = gm.locator("#ttk-panel")
    move = console.locator("form.ttk-move").first
    move.locator("input[name=after]").evaluate("el => { el.value = '0'; }")
    move.get_by_role("button").click()
    expect(console.get_by_role("alert").first).to_be_visible()
    page_still_whole(gm, title)
    # the fresh panel's form takes the real move: the rolled dice placed on the four Fates
    fresh = console.locator("form.ttk-move").first
    for fate, die in zip(
        ("Opposition", "Concealment", "Terrain", "Circumstance"), run.state["current"]["dice"], strict=True
    ):
        fresh.get_by_label(fate).select_option(die)
    fresh.get_by_role("button").click()
    expect(console.locator(".ttk-error")).to_have_count(0)
    expect(console).not_to_contain_text("places the dice on the four Fates")

    # A D6 encounter action the tracker refuses (400).
    encounter = Encounter.objects.get(campaign=demo["d6"], status="running")
    gm.goto(f"/campaigns/{demo['d6'].pk}/encounters/{encounter.pk}/")
    title = gm.title()
    tracker = gm.locator("#encounter-panel")
    form = tracker.locator("form").first
    form.locator("input[name=type]").evaluate("el => { el.value = 'no_such_event'; }")
    form.locator("button[type=submit]").first.click()
    expect(tracker.get_by_role("alert").first).to_be_visible()
    page_still_whole(gm, title)
    tracker.locator("form").first.locator("button[type=submit]").first.click()
    expect(tracker.get_by_test_id("errors")).to_have_count(0)
