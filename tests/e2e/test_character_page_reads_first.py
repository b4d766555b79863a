"""The player's character page reads first (issue 44, finding 3): the TIMEMASTER condition panel's
"What happened" form was sixteen fields in the middle of the page, pushing Derived scores and Skills
2,000-3,900 px down. It is now a compact action: "Record what happened" opens the list of events,
and choosing one shows only the fields it takes. Checked in a real browser on the demo, by keyboard,
and by recording a wound (the GM, 1280 px) and a rest (the player, 390 px)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign
from characters.models import Character
from systems.timemaster import condition_services as cond
from tests.e2e.test_every_page import axe_problems, log_in
from tests.e2e.test_first_hour import demo  # noqa: F401  (the fixture: `make run`'s demo)
from tests.e2e.test_first_hour_round2 import OVERFLOW, photo

pytestmark = pytest.mark.usefixtures("demo")


def alices_agent() -> Character:
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="timemaster")
    return Character.objects.filter(campaign=campaign, owner__username="alice", status="active").first()


def top(page, locator) -> float:
    """A locator's top edge from the top of the page (not the viewport)."""
    return locator.evaluate("e => e.getBoundingClientRect().top + window.scrollY")


def test_the_sheet_comes_first_and_a_wound_is_recorded_through_the_compact_action(new_page):
    agent = alices_agent()
    page = new_page(1280, 900)
    log_in(page, "gm")  # the GM's form is the longest: every kind of event
    page.goto(f"/characters/{agent.pk}/")
    skills = page.get_by_role("heading", name="Skills", exact=True)
    derived = page.get_by_role("heading", name="Derived scores")
    # the sheet reads first: derived scores on the first screen, skills right after one row of cards
    assert top(page, derived) < 900, top(page, derived)
    assert top(page, skills) < 1200, top(page, skills)
    # the form is folded: no field of it shows until the action is opened
    action = page.get_by_test_id("condition-action")
    expect(action.locator("summary")).to_have_text(f"Record what happened to {agent.name}")
    for label in ("Stamina lost", "Wounds to mark", "Rounds rested", "Note (for the ledger)"):
        expect(page.get_by_label(label, exact=True)).to_be_hidden()
    expect(page.get_by_role("radio", name="Damage taken")).to_be_hidden()
    photo(page, "character-page-folded-1280", full=True)
    page.evaluate("window.scrollTo(0, 0)")

    # opened with the keyboard: the events, and no event's fields until one is chosen
    action.locator("summary").focus()
    page.keyboard.press("Enter")
    damage = page.get_by_role("radio", name="Damage taken")
    expect(damage).to_be_visible()
    expect(page.get_by_role("radio", name="Rounds of rest")).to_be_visible()
    expect(page.get_by_label("Stamina lost", exact=True)).to_be_hidden()
    damage.focus()
    page.keyboard.press("Space")
    expect(damage).to_be_checked()
    # the chosen event's fields, and only those
    for label in ("Stamina lost", "Wounds to mark", "Willpower lost", "Source of the damage"):
        expect(page.get_by_label(label, exact=True)).to_be_visible()
    for label in ("Rounds rested", "Hours slept", "Days in bed", "Luck points", "Cause", "Treatment"):
        expect(page.get_by_label(label, exact=True)).to_be_hidden()
    page.keyboard.press("Tab")  # the keyboard goes from the chosen event straight to its fields
    expect(page.get_by_label("Stamina lost", exact=True)).to_be_focused()
    page.keyboard.type("7")
    page.get_by_label("Wounds to mark", exact=True).fill("2")
    page.get_by_label("Source of the damage", exact=True).fill("a thug's knife")
    assert not page.evaluate(OVERFLOW)
    photo(page, "character-page-damage-1280")
    page.get_by_role("button", name="Record", exact=True).click()

    expect(page.get_by_text("Damage taken: recorded.")).to_be_visible()
    expect(page.get_by_test_id("condition-stamina")).to_have_text("33 of 40")
    expect(page.get_by_test_id("condition-wounds")).to_contain_text("2 of 12")
    agent.refresh_from_db()
    summary = cond.summary(agent)
    assert (summary["current_stamina"], summary["wounds_marked"]) == (33, 2)
    entry = agent.entries.order_by("-id").first()
    assert entry.kind == "damage_taken" and entry.payload.get("source") == "a thug's knife", entry.payload
    # after recording the form is folded again and the sheet still reads first
    expect(page.get_by_label("Stamina lost", exact=True)).to_be_hidden()
    assert top(page, page.get_by_role("heading", name="Skills", exact=True)) < 1300
    assert axe_problems(page) == []


def test_on_a_phone_the_player_records_a_rest_from_the_folded_action(new_page):
    agent = alices_agent()
    from systems.timemaster.engine import recovery

    build, _ = recovery.take_damage(agent.build, stamina=9, wounds=0)  # tired, so a rest gives some back
    Character.objects.filter(pk=agent.pk).update(build=build)
    page = new_page(390, 844)
    log_in(page, "alice")
    page.goto(f"/characters/{agent.pk}/")
    expect(page.get_by_test_id("condition-stamina")).to_have_text("31 of 40")
    summary = page.get_by_test_id("condition-action").locator("summary")
    box = summary.bounding_box()
    assert box["height"] >= 44, box  # a tap target
    expect(page.get_by_label("Rounds rested", exact=True)).to_be_hidden()
    summary.click()
    # a player's events only: no damage, no treatment
    expect(page.get_by_role("radio", name="Damage taken")).to_have_count(0)
    page.get_by_role("radio", name="Rounds of rest").check()
    rounds = page.get_by_label("Rounds rested", exact=True)
    expect(rounds).to_be_visible()
    expect(page.get_by_label("Hours slept", exact=True)).to_be_hidden()
    rounds.fill("2")
    assert not page.evaluate(OVERFLOW)
    rounds.scroll_into_view_if_needed()
    photo(page, "character-page-rest-390")  # the screen (a full-page shot here lost the next click)
    page.get_by_role("button", name="Record", exact=True).click()
    expect(page.get_by_text("Rounds of rest: recorded.")).to_be_visible()
    expect(page.get_by_test_id("condition-stamina")).to_have_text("37 of 40")  # 2 rounds at 3
    assert cond.summary(Character.objects.get(pk=agent.pk))["current_stamina"] == 37
    assert axe_problems(page) == []


def test_on_a_phone_the_print_box_is_a_small_button_and_the_first_ability_is_on_the_first_screen(new_page):
    """Issue 44: on a phone the print box filled the first screen and pushed the sheet (abilities)
    ~1,150 px down. It is folded into a small button beside "Advancement history" on a phone, open by
    itself on a wide screen, and opened and closed by keyboard."""
    agent = alices_agent()
    page = new_page(390, 844)
    log_in(page, "alice")
    page.goto(f"/characters/{agent.pk}/")
    action = page.get_by_test_id("sheet-print")
    summary = action.locator("summary")
    expect(summary).to_have_text("Printable sheet")
    expect(page.locator("#sheet-box")).to_be_hidden()
    # the first ability, name and score, is on the first screen (the page not scrolled)
    abilities = page.locator("section", has=page.get_by_role("heading", name="Basic Abilities"))
    first = abilities.locator("tbody tr").first
    expect(first).to_contain_text("Strength")
    # where its words end (name and score), in the viewport: the row's padding may run past it
    text_bottom = first.evaluate(
        "row => { const walk = document.createTreeWalker(row, NodeFilter.SHOW_TEXT); const ends = [];"
        " while (walk.nextNode()) { if (!walk.currentNode.data.trim()) continue;"
        " const r = document.createRange(); r.selectNodeContents(walk.currentNode);"
        " ends.push(...[...r.getClientRects()].map(b => b.bottom)); } return Math.max(...ends); }"
    )
    assert text_bottom <= 844, text_bottom
    assert summary.bounding_box()["y"] < 844
    assert not page.evaluate(OVERFLOW)
    photo(page, "character-page-print-folded-390")

    # by keyboard: the summary opens the box, and Tab goes into it
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#sheet-box")).to_be_visible()
    expect(page.get_by_text("Keep this PDF")).to_be_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#sheet-status') !== null")
    assert not page.evaluate(OVERFLOW)
    photo(page, "character-page-print-open-390")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#sheet-box")).to_be_hidden()

    # on a wide screen the box is open by itself, the abilities still on the first screen
    wide = new_page(1280, 900)
    log_in(wide, "alice")
    wide.goto(f"/characters/{agent.pk}/")
    expect(wide.locator("#sheet-box")).to_be_visible()
    expect(wide.get_by_role("heading", name="Basic Abilities")).to_be_in_viewport()
    photo(wide, "character-page-print-open-1280")


def test_the_play_sessions_cards_line_up_with_the_page_on_a_phone(new_page):
    """Issue 44, the last walk: at 390 px the session cards were indented by the list's padding."""
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="d6")
    page = new_page(390, 844)
    log_in(page, "alice")
    page.goto(f"/campaigns/{campaign.pk}/play-sessions/")
    card = page.locator("ol.sessions > li").first
    expect(card).to_be_visible()
    heading = page.get_by_role("heading", level=1)
    assert abs(card.bounding_box()["x"] - heading.bounding_box()["x"]) <= 1
    assert not page.evaluate(OVERFLOW)
    photo(page, "play-sessions-390")
