"""Click to roll from the character page, in a real browser (issue 32): on a 390 px phone a player
taps a skill of their agent, sets the popover's options with the keyboard and thumb, rolls, reads
the result in the popover and finds the roll in the campaign's dice log. Every system's character
page passes axe-core at 390 and 1280 px with a roll's popover open, and is photographed so."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign, Roll
from characters.models import Character
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_every_page import (
    LAPTOP,
    PHONE,
    axe_problems,
    demo,  # noqa: F401  (the fixture: the demo, one campaign per system)
    log_in,
    resize,
)

pytestmark = pytest.mark.usefixtures("demo")

OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def screen(page, name: str) -> None:
    """What the screen shows (the popover sits over the part of the page in view)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def hero(system: str) -> Character:
    campaign = Campaign.objects.get(name__startswith="Demo: ", system=system)
    return Character.objects.filter(campaign=campaign, owner__username="alice", status="active").first()


def test_a_player_taps_a_skill_on_a_phone_and_the_roll_reaches_the_log(new_page, shot):
    agent = hero("timemaster")
    page = new_page(PHONE, 844)
    log_in(page, "alice")
    page.goto(f"/characters/{agent.pk}/")
    button = page.get_by_test_id("roll-skill:pistol")
    expect(button).to_be_visible()
    button.click()
    popover = page.locator(".roll-popover:popover-open")
    expect(popover).to_be_visible()
    expect(popover).to_contain_text("percentile dice against")
    popover.get_by_label("Kind of check", exact=True).select_option("specific")
    popover.get_by_label("Modifier to the score").fill("-5")
    assert not page.evaluate(OVERFLOW)
    shot(page, "sheet-roll-timemaster-popover-phone")
    popover.get_by_role("button", name="Roll").click()
    line = popover.get_by_test_id("roll-line")
    expect(line).to_contain_text("Pistol")
    expect(line).to_contain_text("against")
    roll = Roll.objects.get(character=agent, detail__sheet_roll__key="skill:pistol")
    assert roll.detail["check"] == "specific" and roll.roller.username == "alice"
    shot(page, "sheet-roll-timemaster-result-phone")
    # Escape closes the popover (keyboard), the page is still there
    page.keyboard.press("Escape")
    expect(page.locator(".roll-popover:popover-open")).to_have_count(0)
    page.goto(f"/campaigns/{agent.campaign_id}/dice/")
    expect(page.get_by_test_id("log-check").first).to_contain_text("Pistol")


def test_the_keyboard_opens_a_roll_and_rolls_it(new_page):
    ninja = hero("time_to_kill")
    page = new_page(1280, 900)
    log_in(page, "alice")
    page.goto(f"/characters/{ninja.pk}/")
    button = page.get_by_test_id("roll-ability:stealth")
    button.focus()
    page.keyboard.press("Enter")
    popover = page.locator(".roll-popover:popover-open")
    expect(popover).to_be_visible()
    popover.get_by_label("Fate revealed").focus()
    popover.get_by_role("button", name="Roll").focus()
    page.keyboard.press("Enter")
    expect(popover.get_by_test_id("roll-result")).not_to_be_empty()
    assert Roll.objects.filter(character=ninja).count() + popover.locator("[role=alert]").count() >= 1


@pytest.mark.parametrize(
    ("system", "key"),
    [
        ("timemaster", "skill:pistol"),
        ("tempo", "aspect:primary"),
        ("time_to_kill", "ability:stealth"),
        ("d6", "code:Perception"),
    ],
)
def test_every_systems_character_page_passes_axe_with_a_popover_open(new_page, shot, system, key):
    character = hero(system)
    page = new_page(PHONE, 844)
    log_in(page, "alice")
    page.goto(f"/characters/{character.pk}/")
    buttons = page.locator("button.roll-button")
    assert buttons.count() >= 4, system
    problems = [f"{PHONE} px: {p}" for p in axe_problems(page)]
    button = page.get_by_test_id(f"roll-{key}")
    if not button.count():  # the demo hero may lack this one: take the first roll on the page
        button = buttons.first
    button.click()
    expect(page.locator(".roll-popover:popover-open")).to_be_visible()
    assert not page.evaluate(OVERFLOW)
    problems += [f"{PHONE} px, popover open: {p}" for p in axe_problems(page)]
    screen(page, f"sheet-roll-{system}-phone")
    resize(page, LAPTOP)
    problems += [f"{LAPTOP} px, popover open: {p}" for p in axe_problems(page)]
    screen(page, f"sheet-roll-{system}-laptop")
    page.keyboard.press("Escape")
    expect(page.locator(".roll-popover:popover-open")).to_have_count(0)
    shot(page, f"sheet-roll-{system}-page-laptop")
    assert not problems, "\n".join(problems)
