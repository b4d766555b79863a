"""A player builds a D6 character on a phone: free-form attributes and skills as die codes, a bad
code refused with the field named, then the character page with initiative and the penalty strip."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from campaigns import services as campaign_services
from campaigns.models import Membership, Role
from characters.models import Character

PASSWORD = "a-long-test-password"
UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def _check_page(page):
    assert page.evaluate(UNLABELLED) == 0, page.url
    assert not page.evaluate(OVERFLOW), page.url


def test_a_player_builds_a_d6_character_on_a_phone(new_page, shot, transactional_db, make_user):
    gm, player = make_user("gm"), make_user("player")
    campaign = campaign_services.create_campaign(gm, name="Night Run", system="d6")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)

    page = new_page(390, 844)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("player")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.goto(f"/campaigns/{campaign.pk}/characters/")
    page.get_by_role("button", name="New character").click()

    expect(page.get_by_role("heading", name="Step 1: who, and what they can spend")).to_be_visible()
    _check_page(page)
    page.get_by_label("Character name").fill("Vesna")
    page.get_by_label("Action allotment").fill("2")
    page.get_by_label("Character Points").fill("5")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 2: attributes")).to_be_visible()
    _check_page(page)
    page.get_by_label("Perception code").fill("3D+1")
    page.get_by_label("Reflexes code").fill("3D+3")
    page.get_by_label("Attribute 3 name").fill("Strength")
    page.get_by_label("Attribute 3 code").fill("2D+2")
    page.get_by_role("button", name="Save and continue").click()
    invalid = page.locator(".field.invalid")
    expect(invalid).to_contain_text("Reflexes code: '3D+3' has 3 pips, but 3 pips make 1D")
    shot(page, "d6-builder-error-phone")
    page.get_by_label("Reflexes code").fill("4D")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 3: skills")).to_be_visible()
    _check_page(page)
    page.get_by_label("search code").fill("5D+1")
    page.get_by_label("Skill 3 name").fill("brawling")
    page.get_by_label("Skill 3 attribute").select_option("Strength")
    page.get_by_label("Skill 3 code").fill("3D+2")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 4: special abilities and equipment")).to_be_visible()
    _check_page(page)
    page.get_by_role("button", name="Save and continue").click()
    expect(page.get_by_role("heading", name="Step 5: review")).to_be_visible()
    page.get_by_role("button", name="Finalize the character").click()

    expect(page.get_by_role("heading", name="Vesna")).to_be_visible()
    expect(page.get_by_test_id("initiative")).to_have_text("3D+1")
    expect(page.get_by_test_id("allotment")).to_have_text("2")
    expect(page.get_by_test_id("attributes")).to_contain_text("brawling")
    expect(page.get_by_test_id("map")).to_contain_text("-1D")
    _check_page(page)
    shot(page, "d6-character-phone")
    character = Character.objects.get(name="Vesna")
    assert character.build["skills"]["dodge"] == {"attribute": "Reflexes", "code": "4D"}
