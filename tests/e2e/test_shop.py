"""After a closed adventure, a player on a phone opens the shop, raises a skill, and sees the
score and the banked Success Points change on the agent's page."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from characters import services as character_services
from characters.systems import get_system
from tests.characters.conftest import agent_choices

PASSWORD = "zebra-lantern-93"
UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def _agent_after_an_adventure(django_user_model):
    from campaigns import services
    from campaigns.models import Membership, Role

    gm = django_user_model.objects.create_user("chief", password=PASSWORD)
    player = django_user_model.objects.create_user("rookie", password=PASSWORD)
    campaign = services.create_campaign(gm, name="Time Corps", system="timemaster")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    draft = character_services.create_draft(campaign, player, choices=agent_choices(name="Ada Stone"))
    agent = character_services.finalize(draft, is_gm=True, rng=random.Random(3))
    for entry in (
        {"kind": "mission_started", "mission": "troy"},
        {"kind": "sp_awarded", "type": "regular", "mission": "troy", "amount": 300, "reason": "earned"},
        {"kind": "grade_advanced", "mission": "troy"},
        {"kind": "adventure_closed", "mission": "troy"},
    ):
        character_services.append_entry(agent, entry, gm)
    return agent


def _pistol_row(page):
    return page.get_by_test_id("skills").get_by_role("row").filter(has_text="Pistol")


FOCUS_IN_DIALOG_OR_NOWHERE = """() => {
  const el = document.activeElement;
  return !el || el === document.body || Boolean(el.closest('dialog[open]'));
}"""


def test_player_buys_a_skill_level_in_the_shop(new_page, shot, transactional_db, django_user_model):
    agent = _agent_after_an_adventure(django_user_model)
    before = get_system("timemaster").derive(agent.build)["skills"]["pistol"]["score"]

    page = new_page(390, 844)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("rookie")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/characters/{agent.pk}/")
    expect(page.get_by_test_id("success-points")).to_have_text("300")
    expect(page.get_by_test_id("rank-grade")).to_have_text("Trainee/1")
    expect(_pistol_row(page)).to_contain_text("Specialist")
    expect(_pistol_row(page)).to_contain_text(str(before))

    page.get_by_test_id("shop-link").click()
    expect(page.get_by_role("heading", name="Ada Stone: the shop")).to_be_visible()
    expect(page.get_by_test_id("shop-balance")).to_have_text("300")
    assert page.evaluate(UNLABELLED) == 0
    assert not page.evaluate(OVERFLOW)
    shot(page, "shop-phone")
    page.get_by_role("button", name="Buy Pistol: Specialist to Expert for 100 Success Points").click()
    # the confirm step: a modal dialog that holds the focus; Cancel sends nothing
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Buy Pistol: Specialist to Expert for 100 Success Points?")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    for _ in range(3):  # the page behind the modal dialog is inert: Tab never reaches it
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUS_IN_DIALOG_OR_NOWHERE)
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("shop-balance")).to_have_text("300")
    page.get_by_role("button", name="Buy Pistol: Specialist to Expert for 100 Success Points").click()
    dialog.get_by_role("button", name="Buy").click()
    expect(page.get_by_role("status")).to_contain_text("200 Success Points left")
    expect(page.get_by_role("button", name="Undo the purchase")).to_be_visible()
    expect(page.get_by_test_id("shop-balance")).to_have_text("200")
    # one level per skill per adventure: the next raise is offered with the reason it is refused
    expect(page.get_by_test_id("shop-raises").get_by_role("row").filter(has_text="Pistol")).to_contain_text(
        "already went up a level"
    )
    assert page.get_by_role("button", name="Buy Pistol: Expert to Master for 150 Success Points").count() == 0
    shot(page, "shop-after-purchase-phone")

    page.get_by_role("link", name="back to the character").click()
    expect(page.get_by_test_id("success-points")).to_have_text("200")
    expect(_pistol_row(page)).to_contain_text("Expert")
    expect(_pistol_row(page)).to_contain_text(str(before + 15))  # Specialist +15 -> Expert +30
    assert page.evaluate(UNLABELLED) == 0
    assert not page.evaluate(OVERFLOW)
    shot(page, "shop-agent-page-phone")
    agent.refresh_from_db()
    assert agent.build["skills"]["pistol"]["level"] == "expert"
