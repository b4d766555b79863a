"""A fresh account creates a TIMEMASTER campaign and builds an agent through the wizard, on a phone,
then sees the derived scores on the character page."""

from __future__ import annotations

from playwright.sync_api import expect

from characters.models import Character
from characters.systems import get_system

UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def _check_page(page):
    """Every input has a label, and nothing is wider than the phone."""
    assert page.evaluate(UNLABELLED) == 0, page.url
    assert not page.evaluate(OVERFLOW), page.url


def test_fresh_account_builds_an_agent_and_sees_derived_scores(new_page, shot, transactional_db):
    page = new_page(390, 844)
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("chronos")
    page.get_by_label("Password", exact=True).fill("zebra-lantern-93")
    page.get_by_label("Password confirmation").fill("zebra-lantern-93")
    page.get_by_role("button", name="Create account").click()

    page.get_by_role("link", name="New campaign").click()
    page.get_by_label("Campaign name").fill("Time Corps Academy")
    page.get_by_label("Game system").select_option(label="TIMEMASTER")
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", name="Time Corps Academy")).to_be_visible()

    page.get_by_role("link", name="New agent").click()
    page.get_by_role("button", name="Start building").click()
    _check_page(page)
    page.get_by_role("button", name="Roll the dice").click()
    expect(page.get_by_test_id("rolled-numbers")).to_be_visible()  # the dice first, on the same step
    _check_page(page)
    page.get_by_role("link", name="Assign them").click()
    expect(page.get_by_role("heading", name="Step 2: assign the numbers")).to_be_visible()
    _check_page(page)
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 3: who the agent was")).to_be_visible()
    _check_page(page)
    page.get_by_label("Agent's name").fill("Ada Stone")
    page.get_by_label("Year of birth").fill("9000")  # past the Time Corps era: refused by the engine
    page.get_by_label("Place of birth").fill("Boston")
    page.get_by_label("Age at recruitment").fill("30")
    page.get_by_label("Sex").select_option("female")
    page.get_by_label("Profession").fill("police detective")
    page.get_by_label("Grew up in a town or city").check()
    page.get_by_label("Literate culture").check()
    page.get_by_role("button", name="Save and continue").click()
    expect(page.locator(".field.invalid")).to_contain_text("Year of birth")
    shot(page, "timemaster-wizard-error-phone")
    page.get_by_label("Year of birth").fill("1950")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 4: skills")).to_be_visible()
    _check_page(page)
    page.get_by_label("First skill").select_option("investigation")
    page.get_by_label("Second skill").select_option("pistol")
    page.get_by_label("Which one goes with the profession?").select_option("1")
    page.get_by_label("Historical Specialty: first culture").fill("United States")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 5: a paranormal talent")).to_be_visible()
    _check_page(page)
    page.get_by_label("Telepathic Probe", exact=False).check()
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 6: review")).to_be_visible()
    _check_page(page)
    shot(page, "timemaster-wizard-review-phone")
    page.get_by_role("button", name="Confirm and finalize").click()

    expect(page.get_by_role("heading", name="Ada Stone")).to_be_visible()
    agent = Character.objects.get(name="Ada Stone")
    derived = get_system("timemaster").derive(agent.build)
    expect(page.get_by_test_id("unskilled-melee")).to_have_text(str(derived["unskilled_melee"]))
    expect(page.get_by_test_id("penetration-bonus")).to_have_text(str(derived["penetration_bonus"]))
    expect(page.get_by_test_id("stamina-recovery")).to_have_text(str(derived["stamina_recovery_rate"]))
    expect(page.get_by_test_id("wounds")).to_have_text(str(derived["wounds"]))
    expect(page.get_by_test_id("rank-grade")).to_have_text("Trainee/0")
    expect(page.get_by_test_id("skills")).to_contain_text("Time Corps Stunner")
    expect(page.get_by_test_id("talents")).to_contain_text("Telepathic Probe")
    _check_page(page)
    shot(page, "timemaster-agent-page-phone")


def test_the_wizard_works_with_the_keyboard(new_page, transactional_db, django_user_model):
    from campaigns import services

    user = django_user_model.objects.create_user("keys", password="zebra-lantern-93")
    campaign = services.create_campaign(user, name="Keyboard Corps", system="timemaster")
    page = new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("keys")
    page.get_by_label("Password").fill("zebra-lantern-93")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    page.goto(f"/campaigns/{campaign.pk}/characters/new/")
    page.get_by_role("button", name="Start building").focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Roll the dice").focus()
    page.keyboard.press("Enter")
    page.get_by_role("link", name="Assign them").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Step 2: assign the numbers")).to_be_visible()
    page.get_by_label("Strength (STR)").focus()
    for _ in range(8):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Save and continue"
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Step 3: who the agent was")).to_be_visible()
