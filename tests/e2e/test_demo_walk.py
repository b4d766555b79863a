"""What a new user stumbled on walking make run's demo campaigns, in a real browser: a Tempo roll
from an aspect spends no fate point unless the player picks the invoke, and the roll panel and the
fate points follow the roll without a reload; Time to Kill's Fate selects start on the dice as
rolled; TIMEMASTER's "Record a mistake" starts on no kind; the end-session page's button and link
sit on one line; the party bundle's page has the campaign's tabs. Screens at 1280 and 390 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign, Membership, Mission, SignificanceEntry
from tests.e2e.test_every_page import (
    LAPTOP,
    PHONE,
    demo,  # noqa: F401  (the fixture: the demo, one campaign per system)
    log_in,
    resize,
)
from tests.e2e.test_sheet_rolls import hero, screen

pytestmark = pytest.mark.usefixtures("demo")


def test_an_aspects_roll_spends_no_fate_point_by_default_and_the_page_follows_the_roll(new_page, shot):
    finn = hero("tempo")
    page = new_page(LAPTOP, 900)
    log_in(page, "alice")
    page.goto(f"/characters/{finn.pk}/")
    agent_points = page.get_by_test_id("fate-points")
    panel_points = page.get_by_test_id("panel-fate-points")
    expect(agent_points).to_have_text("1")
    panel = page.locator("#tempo-roll-panel")
    before = panel.locator("[data-testid=recent-rolls] li").count()

    page.get_by_test_id("roll-aspect:primary").click()
    popover = page.locator(".roll-popover:popover-open")
    use = popover.get_by_label("Use of the aspect")
    # starts on the use that costs nothing; the invoke is one pick away and says what it costs
    expect(use).to_have_value("none")
    expect(use.locator("option:checked")).to_have_text(re.compile("costs nothing"))
    expect(use.locator("option[value=invoke]")).to_have_text(re.compile("costs 1 fate point"))
    expect(use.locator("option[value=invoke]")).to_be_enabled()
    screen(page, "walk-tempo-popover-laptop")
    popover.get_by_role("button", name="Roll").click()
    expect(popover.get_by_test_id("roll-line")).to_be_visible()
    # nothing spent, and the panel's recent rolls show the roll without a reload
    expect(panel.locator("[data-testid=recent-rolls] li")).to_have_count(before + 1)
    expect(agent_points).to_have_text("1")
    expect(panel_points).to_have_text("1")
    finn.refresh_from_db()
    assert finn.build["fate_points"] == 1

    # the invoke, picked: the one fate point goes, and both counts on the page say so at once
    use.select_option("invoke")
    popover.get_by_role("button", name="Roll").click()
    expect(popover.get_by_test_id("roll-sheet-changed")).to_be_visible()
    expect(agent_points).to_have_text("0")
    expect(panel_points).to_have_text("0")
    expect(panel.locator("[data-testid=recent-rolls] li")).to_have_count(before + 2)
    finn.refresh_from_db()
    assert finn.build["fate_points"] == 0
    page.keyboard.press("Escape")
    shot(page, "walk-tempo-after-rolls-laptop")
    resize(page, PHONE)
    shot(page, "walk-tempo-after-rolls-phone")


def test_the_fate_selects_start_on_the_dice_rolled_and_place_as_they_come(new_page, shot):
    from systems.time_to_kill.engine.mission import FATE_KEYS
    from systems.time_to_kill.models import MissionRun

    # the run under way (the demo also keeps finished and abandoned runs for its report)
    run = MissionRun.objects.get(
        campaign__name__startswith="Demo: ", campaign__system="time_to_kill", status=MissionRun.Status.RUNNING
    )
    page = new_page(PHONE, 844)
    log_in(page, "gm")
    page.goto(f"/ttk/{run.pk}/")
    rolled = page.locator(".ttk-secret p", has_text="Dice rolled").locator(".faces").inner_text().split()
    assert len(rolled) == 4
    form = page.locator("form.ttk-move", has=page.get_by_role("button", name="Place the dice on the Fates"))
    selects = form.locator("select")
    assert [selects.nth(i).input_value() for i in range(4)] == rolled
    shot(page, "walk-ttk-place-phone")
    resize(page, LAPTOP)
    shot(page, "walk-ttk-place-laptop")
    form.get_by_role("button", name="Place the dice on the Fates").click()
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(
        page.locator("form.ttk-move", has=page.get_by_role("button", name="Place the dice on the Fates"))
    ).to_have_count(0)
    run.refresh_from_db()
    fates = run.state["current"]["fates"]
    assert [fates[key]["value"] for key in FATE_KEYS] == rolled


def test_record_a_mistake_starts_on_no_kind_and_refuses_it_left_so(new_page, shot):
    mission = Mission.objects.get(title="The Lost Dispatch")
    count = SignificanceEntry.objects.filter(mission=mission).count()
    page = new_page(LAPTOP, 900)
    log_in(page, "gm")
    page.goto(f"/campaigns/{mission.campaign_id}/missions/{mission.pk}/")
    kind = page.get_by_label("Kind of mistake")
    expect(kind).to_have_value("")
    expect(kind.locator("option:checked")).to_have_text("Choose…")
    page.get_by_label("What happened").fill("Left without choosing a kind")
    page.get_by_role("button", name="Record mistake").click()
    expect(page.locator("#tally")).to_contain_text("Choose the kind of mistake the team made.")
    assert SignificanceEntry.objects.filter(mission=mission).count() == count
    shot(page, "walk-mistake-refused-laptop")
    resize(page, PHONE)
    shot(page, "walk-mistake-refused-phone")


#: How far the middle of the link's text is from the middle of the button, in px.
MIDDLES = """() => {
  const row = document.querySelector('form .actions');
  const button = row.querySelector('button').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(row.querySelector('a'));
  const text = range.getBoundingClientRect();
  return Math.abs((text.top + text.bottom) / 2 - (button.top + button.bottom) / 2);
}"""


def test_the_end_session_pages_button_and_link_sit_on_one_line(new_page, shot):
    from campaigns.chronicle import play_sessions

    campaign = Campaign.objects.get(name__startswith="Demo: ", system="d6")
    gm = Membership.objects.select_related("campaign", "user").get(campaign=campaign, user__username="gm")
    session = campaign.play_sessions.filter(ended_at__isnull=True).first() or play_sessions.start(
        gm, title="Harbour night"
    )
    page = new_page(LAPTOP, 900)
    log_in(page, "gm")
    page.goto(f"/campaigns/{campaign.pk}/play-sessions/{session.number}/end/")
    expect(page.get_by_role("link", name="Not yet")).to_be_visible()
    for width, name in ((LAPTOP, "laptop"), (PHONE, "phone")):
        resize(page, width)
        assert page.evaluate(MIDDLES) <= 1.5, width
        shot(page, f"walk-end-session-{name}")


def test_the_party_bundles_page_has_the_campaign_tabs_with_sheets_marked(new_page, shot, monkeypatch):
    from sheets import services as sheet_services
    from sheets.models import SheetKind

    monkeypatch.setattr(sheet_services, "enqueue", lambda render_id: None)
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="tempo")
    gm = Membership.objects.select_related("campaign", "user").get(campaign=campaign, user__username="gm")
    render, _ = sheet_services.request_render(gm.user, SheetKind.PARTY_BUNDLE, campaign, gm)
    page = new_page(LAPTOP, 900)
    log_in(page, "gm")
    page.goto(f"/sheets/{render.pk}/")
    tabs = page.get_by_role("navigation", name="Campaign")
    expect(tabs).to_be_visible()
    expect(tabs.locator("[aria-current=page]")).to_have_text("Sheets")
    shot(page, "walk-party-bundle-laptop")
    resize(page, PHONE)
    page.reload()  # a phone scrolls its tabs to the marked one as the page loads (app.js)
    expect(tabs.locator("[aria-current=page]")).to_be_in_viewport()
    shot(page, "walk-party-bundle-phone")
