"""The GM runs two rounds of a D6 encounter with three participants (two characters and a group of
thugs) in a real browser and sees the order, why each stands where it does, and the multi-action
penalty on each roll; the player, on a phone, sees the order and her own declaration, declares for
her own character, and never sees the thugs' numbers."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from campaigns import services as campaign_services
from campaigns.models import Membership, Role
from systems.d6.models import Encounter
from systems.d6.tests.encounters.conftest import character_choices, make_character

PASSWORD = "a-long-test-password"
UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""


def _log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()


def _declare(page, count):
    page.get_by_label("How many actions this round").fill(str(count))
    page.get_by_role("button", name="Declare").click()


def test_two_rounds_with_three_participants(new_page, shot, transactional_db, make_user):
    gm_user, player_user, other = make_user("gm"), make_user("player"), make_user("other")
    campaign = campaign_services.create_campaign(gm_user, name="Night Run", system="d6")
    Membership.objects.create(campaign=campaign, user=player_user, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=other, role=Role.PLAYER)
    ada = make_character(campaign, player_user, character_choices("Ada", "4D", "3D+1"))
    bo = make_character(campaign, other, character_choices("Bo", "3D", "2D+2"))
    ada_row, bo_row = f"character-{ada.pk}", f"character-{bo.pk}"

    gm = new_page()
    _log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/")
    gm.get_by_role("link", name="Encounters").click()
    gm.get_by_label("Name").fill("Dockside")
    gm.get_by_label("Initiative method").select_option(label="Method 1: the first significant move")
    gm.get_by_role("button", name="Create encounter").click()
    expect(gm.get_by_role("heading", name="Dockside")).to_be_visible()

    gm.get_by_label("Character", exact=True).select_option(label="Ada (player)")
    gm.get_by_role("button", name="Add character").click()
    expect(gm.get_by_test_id("participants")).to_contain_text("Ada")
    gm.get_by_label("Character", exact=True).select_option(label="Bo (other)")
    gm.get_by_role("button", name="Add character").click()
    expect(gm.get_by_test_id("participants")).to_contain_text("Bo")
    gm.get_by_label("Name", exact=True).fill("Thugs")
    gm.get_by_label("Kind").select_option("group")
    gm.get_by_label("Group members, comma-separated").fill("Thug 1, Thug 2")
    gm.get_by_label("Perception", exact=True).fill("2D+1")
    gm.get_by_label("Reflexes", exact=True).fill("3Q")
    gm.get_by_role("button", name="Add NPC").click()
    expect(gm.get_by_test_id("errors")).to_contain_text("Attributes Reflexes: '3Q' is not a die code")
    gm.get_by_label("Reflexes", exact=True).fill("3D")
    gm.get_by_label("Other skills, one a line").fill("brawling, Reflexes, 4D+2")
    gm.get_by_role("button", name="Add NPC").click()
    expect(gm.get_by_test_id("participants")).to_contain_text("Thugs")
    assert gm.evaluate(UNLABELLED) == 0
    gm.get_by_role("button", name="Start the encounter").click()

    # Round 1, Method 1: Ada made the first move; Bo is ahead of the thugs on Perception.
    gm.get_by_role("button", name="Begin round 1").click()
    gm.locator(f"#first-{ada_row}").check()
    gm.get_by_role("button", name="Settle the order").click()
    rows = gm.get_by_test_id("order").locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Ada")
    expect(rows.nth(1)).to_contain_text("Bo")
    expect(rows.nth(2)).to_contain_text("Thugs")
    expect(gm.get_by_test_id(f"reason-{ada_row}")).to_contain_text("made the first significant move")
    expect(gm.get_by_test_id(f"reason-{bo_row}")).to_contain_text("tie-break 2: Perception (3D against 2D+1)")
    expect(gm.get_by_test_id("whose-turn")).to_have_text("Ada")

    _declare(gm, 2)
    expect(gm.get_by_test_id(f"penalty-{ada_row}")).to_have_text("-1D")
    gm.get_by_label("Action", exact=True).select_option("punch")
    gm.get_by_label("Roll with").select_option("brawling")
    gm.get_by_role("button", name="Act", exact=True).click()
    expect(gm.get_by_test_id("pending")).to_contain_text("brawling 3D (−1D)")
    shot(gm, "d6-encounter-gm-pending")
    gm.get_by_label("Result", exact=True).fill("a glancing blow")
    gm.get_by_role("button", name="Announce the result").click()
    gm.get_by_role("button", name="Done", exact=True).click()

    expect(gm.get_by_test_id("whose-turn")).to_have_text("Bo")
    _declare(gm, 1)
    expect(gm.get_by_test_id(f"penalty-{bo_row}")).to_have_text("none")
    # Bo's one declared action, used: Act is no longer offered, and the page says why (defect 9).
    gm.get_by_label("Action", exact=True).select_option("punch")
    gm.get_by_role("button", name="Act", exact=True).click()  # no roll: nothing to announce
    expect(gm.get_by_test_id("no-actions-left")).to_be_visible()
    expect(gm.get_by_role("button", name="Act", exact=True)).to_have_count(0)
    gm.get_by_role("button", name="Done", exact=True).click()

    expect(gm.get_by_test_id("whose-turn")).to_have_text("Thugs")
    _declare(gm, 3)
    expect(gm.get_by_test_id("penalty-group-1")).to_have_text("-2D")
    gm.get_by_label("Action", exact=True).select_option("punch")
    gm.get_by_label("Roll with").select_option("brawling")
    gm.get_by_role("button", name="Act", exact=True).click()
    expect(gm.get_by_test_id("pending")).to_contain_text("brawling 2D+2 (−2D)")
    gm.get_by_label("Result", exact=True).fill("Bo ducks")
    gm.get_by_role("button", name="Announce the result").click()
    # the group's name takes a bare apostrophe (issue 44, finding 7: it read "Thugs's Punch")
    expect(gm.get_by_test_id("log")).to_contain_text("Result for Thugs' Punch: Bo ducks")
    gm.get_by_role("button", name="Done", exact=True).click()
    expect(gm.get_by_test_id("log")).to_contain_text("Round 1 ends")
    shot(gm, "d6-encounter-gm-round-1")

    # The player, on a phone, sees the order and her own declaration, not the thugs' numbers.
    player = new_page(390, 844)
    _log_in(player, "player")
    player.goto(f"/campaigns/{campaign.pk}/encounters/{Encounter.objects.get().pk}/")
    player_rows = player.get_by_test_id("order").locator("tbody tr")
    expect(player_rows.nth(0)).to_contain_text("Ada")
    expect(player_rows.nth(2)).to_contain_text("Thugs")
    expect(player.get_by_test_id(f"penalty-{ada_row}")).to_have_text("-1D")
    expect(player.get_by_test_id("penalty-group-1")).to_have_text("—")
    expect(player.get_by_test_id(f"penalty-{bo_row}")).to_have_text("—")
    content = player.content()
    assert "2D+1" not in content and "4D+2" not in content and "Thug 1" not in content

    # Round 2: the same order (Method 1 holds for the scene); Ada's player declares for her.
    gm.get_by_role("button", name="Begin round 2").click()
    expect(gm.get_by_test_id("round")).to_have_text("Round 2")
    expect(gm.get_by_test_id("whose-turn")).to_have_text("Ada")
    player.reload()
    expect(player.get_by_role("heading", name="Your move")).to_be_visible()
    _declare(player, 1)
    expect(player.get_by_test_id(f"penalty-{ada_row}")).to_have_text("none")
    shot(player, "d6-encounter-player-phone")
    player.get_by_role("button", name="Done", exact=True).click()
    expect(player.get_by_test_id("whose-turn")).to_have_text("Bo")
    assert not player.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1")

    gm.reload()
    expect(gm.get_by_test_id("whose-turn")).to_have_text("Bo")
    _declare(gm, 4)
    expect(gm.get_by_test_id(f"penalty-{bo_row}")).to_have_text("-3D")
    expect(gm.get_by_test_id("traits")).to_contain_text("cannot be used")  # Bo's 2D+2 Reflexes at -3D
    gm.get_by_role("button", name="Done", exact=True).click()
    _declare(gm, 1)
    expect(gm.get_by_test_id("penalty-group-1")).to_have_text("none")
    gm.get_by_role("button", name="Done", exact=True).click()
    expect(gm.get_by_test_id("log")).to_contain_text("Round 2 ends")
    expect(gm.get_by_test_id("order").locator("tbody tr").nth(0)).to_contain_text("Ada")
    shot(gm, "d6-encounter-gm-round-2")

    # Ending the scene asks first, in a dialog over the live panel; Cancel keeps it running.
    gm.get_by_label("Why the scene ends").fill("the thugs flee")
    gm.get_by_role("button", name="End the scene").click()
    dialog = gm.get_by_role("dialog")
    expect(dialog).to_contain_text("End the scene?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    gm.get_by_role("button", name="End the scene").click()
    dialog.get_by_role("button", name="End the scene").click()
    expect(gm.get_by_test_id("log")).to_contain_text("the thugs flee")
    encounter = Encounter.objects.get(campaign=campaign)
    assert encounter.status != "running"
