"""The GM's attack form on the dice page (walk of the attack form, points 1-3): its choices wrap
inside the card at 390 and 1280 px, under headings, the long lists folded; a refused attack shows
why at the form, with the focus there; after an attack the attacker, defender, armor, mission and
purpose stay for the round's next attack while the round's one-off choices start blank."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_three_guards import PASSWORD, log_in

SHOTS = ARTIFACTS  # reduced copies are kept in docs/screenshots/combat


@pytest.fixture
def table(transactional_db):
    from django.contrib.auth import get_user_model

    from campaigns import npc_services, services
    from campaigns.models import Mission

    gm = get_user_model().objects.create_user("gm", password=PASSWORD)
    campaign = services.create_campaign(gm, name="Chronos Watch", system="timemaster")
    guard = npc_services.create_npc(campaign, gm, {"name": "Guard Ilse", "quick": True, "kind": "human"})
    mission = Mission.objects.create(campaign=campaign, title="The Vienna clockmaker")
    return campaign, guard, mission


@pytest.fixture(autouse=True)
def _shots_folder():
    ARTIFACTS.mkdir(exist_ok=True)


def _within(page, panel):
    """How far the panel's content reaches past its own box and past the page (px)."""
    return page.evaluate(
        """(panel) => ({
            inside: panel.scrollWidth - panel.clientWidth,
            page: document.documentElement.scrollWidth - window.innerWidth,
            boxes: Array.from(panel.querySelectorAll('input[type=checkbox]'))
              .filter((b) => b.getClientRects().length)
              .filter((b) => b.getBoundingClientRect().right > panel.getBoundingClientRect().right).length,
        })""",
        panel.element_handle(),
    )


def _unfold(panel, title):
    """Open a folded part of the form (a <details>), where there is one."""
    summary = panel.locator("summary", has_text=title)
    if summary.count():
        summary.click()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_the_attack_forms_choices_wrap_inside_the_card(new_page, table, width, height):
    campaign, _, _ = table
    gm = new_page(width, height)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    panel = gm.get_by_test_id("attack-panel")
    _unfold(panel, "Round modifiers")
    _unfold(panel, "Armor of an NPC defender")
    assert _within(gm, panel) == {"inside": 0, "page": 0, "boxes": 0}
    crumpled = panel.get_by_role("group", name="NPC defender's armor already crumpled at")
    height_px = crumpled.bounding_box()["height"]
    assert height_px < 600, f"the crumpled locations take {height_px} px"
    # each box is reached and ticked with the keyboard, and is on screen when focused
    box = panel.get_by_label("target running (-20)")
    box.focus()
    gm.keyboard.press("Space")
    expect(box).to_be_checked()
    expect(box).to_be_in_viewport()
    gm.screenshot(path=f"{SHOTS}/attack-modifiers-{width}.png")
    # under headings; the long lists folded on a fresh page
    gm.reload()
    panel = gm.get_by_test_id("attack-panel")
    expect(panel.get_by_role("heading", name="Attacker")).to_be_visible()
    expect(panel.get_by_role("heading", name="Defender")).to_be_visible()
    happened = panel.locator("details", has=gm.locator("summary", has_text="Round modifiers"))
    armor = panel.locator("details", has=gm.locator("summary", has_text="Armor of an NPC defender"))
    expect(happened).not_to_have_attribute("open", "")
    expect(armor).not_to_have_attribute("open", "")
    panel.screenshot(path=f"{SHOTS}/attack-form-{width}.png")
    happened.locator("summary").click()
    expect(panel.get_by_role("group", name="Missile attack this round")).to_be_visible()
    expect(panel.get_by_role("group", name="Melee attack this round")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_a_refused_attack_shows_why_at_the_form_with_the_focus_there(new_page, table, width, height):
    campaign, _, _ = table
    gm = new_page(width, height)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    panel = gm.get_by_test_id("attack-panel")
    panel.get_by_role("button", name="Resolve attack").click()  # no attacker, no base chance
    errors = gm.get_by_test_id("attack-panel").get_by_role("alert")
    expect(errors).to_be_in_viewport()
    expect(errors).to_be_focused()
    expect(errors).to_contain_text("The attack was not made")
    assert gm.evaluate("() => document.getElementById('announcer')?.textContent || ''").find("not made") >= 0
    if width == 390:
        gm.screenshot(path=f"{SHOTS}/attack-refused-{width}.png")


def test_the_attack_form_keeps_who_and_what_for_the_rounds_next_attack(new_page, table):
    campaign, guard, mission = table
    gm = new_page(1280, 900)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    panel = gm.get_by_test_id("attack-panel")
    panel.get_by_label("Attack", exact=True).select_option("melee")
    panel.get_by_label("NPC attacker's base chance").fill("70")
    panel.get_by_label("NPC defender from the campaign's NPCs").select_option(label=guard.name)
    _unfold(panel, "Round modifiers")
    panel.get_by_label("attack from behind (+20)").check()
    _unfold(panel, "Armor of an NPC defender")
    panel.get_by_role("group", name="NPC defender's armor", exact=True).get_by_role("checkbox").first.check()
    panel.get_by_label("Mission of the attack").select_option(label=mission.title)
    panel.get_by_label("What the attack is for").fill("Stop the courier")
    panel.get_by_role("button", name="Resolve attack").click()
    expect(gm.get_by_test_id("attack-result")).to_be_visible()

    panel = gm.get_by_test_id("attack-panel")
    expect(panel.get_by_label("Attack", exact=True)).to_have_value("melee")
    expect(panel.get_by_label("NPC attacker's base chance")).to_have_value("70")
    expect(panel.get_by_label("NPC defender from the campaign's NPCs")).to_have_value(str(guard.pk))
    expect(panel.get_by_label("Mission of the attack")).to_have_value(str(mission.pk))
    expect(panel.get_by_label("What the attack is for")).to_have_value("Stop the courier")
    armor = panel.get_by_role("group", name="NPC defender's armor", exact=True)
    expect(armor.get_by_role("checkbox").first).to_be_checked()  # its part is open: it holds a choice
    expect(panel.get_by_label("attack from behind (+20)")).not_to_be_checked()  # the round's own choice
