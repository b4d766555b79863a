"""Sign up, create a campaign, invite a second user who joins, and roll dice, in a real browser."""

import re

from playwright.sync_api import expect


def sign_up(page, username, password="zebra-lantern-93"):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Create account").click()


def test_signup_campaign_invite_join_and_roll(new_page, shot, transactional_db):
    gm = new_page()
    gm.goto("/accounts/signup/")
    sign_up(gm, "gamemaster")
    expect(gm.get_by_role("heading", name="Your campaigns")).to_be_visible()

    gm.get_by_role("link", name="New campaign").click()
    gm.get_by_label("Campaign name").fill("Chronos Watch")
    gm.get_by_label("Game system").select_option(label="TIMEMASTER")
    gm.get_by_role("button", name="Create campaign").click()
    expect(gm.get_by_role("heading", name="Chronos Watch")).to_be_visible()

    gm.get_by_role("navigation", name="Campaign").get_by_role("link", name="Members").click()
    gm.get_by_role("button", name="Create invitation").click()
    link = gm.get_by_label("Invitation link").first.input_value()
    assert re.search(r"/join/[\w-]+/$", link)
    shot(gm, "platform-invitation")

    player = new_page(390, 844)  # a phone
    player.goto(link)
    player.get_by_role("main").get_by_role("link", name="Sign up").click()
    sign_up(player, "newplayer")
    player.get_by_role("button", name="Join as a player").click()
    expect(player.get_by_role("heading", name="Chronos Watch")).to_be_visible()

    player.get_by_role("navigation", name="Campaign").get_by_role("link", name="Dice").click()
    player.get_by_label("Dice", exact=True).select_option("d10")
    player.get_by_label("How many (extra dice for 3d6)").fill("3")
    player.get_by_label("What for").fill("Sneak past the guard")
    player.get_by_role("button", name="Roll").click()
    total = player.get_by_test_id("roll-total")
    expect(total).to_be_visible()
    assert 3 <= int(total.inner_text()) <= 30
    expect(player.locator("#roll-log")).to_contain_text("Sneak past the guard")
    shot(player, "platform-player-roll-phone")

    gm.get_by_role("navigation", name="Campaign").get_by_role("link", name="Dice").click()
    expect(gm.locator("#roll-log")).to_contain_text("newplayer")
    gm.get_by_label("Secret (the table sees only that it was made)").check()
    gm.get_by_label("What for").fill("hidden thing")
    gm.get_by_role("button", name="Roll").click()
    expect(gm.locator("#roll-log")).to_contain_text("hidden thing")

    player.reload()
    expect(player.locator("#roll-log")).to_contain_text("Sneak past the guard")
    expect(player.locator("#roll-log")).not_to_contain_text("hidden thing")


def test_pages_work_with_the_keyboard(new_page, transactional_db):
    page = new_page()
    page.goto("/accounts/signup/")
    # The form puts the cursor in its first field (autofocus); from the top of the page instead,
    # the first Tab must reach the skip link.
    assert page.evaluate("document.activeElement.id") == "id_username"
    page.evaluate("document.body.tabIndex = -1; document.body.focus()")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "id_username":
            break
    assert page.evaluate("document.activeElement.id") == "id_username"
    page.keyboard.type("keys")
    page.keyboard.press("Tab")
    page.keyboard.type("zebra-lantern-93")
    page.keyboard.press("Tab")
    page.keyboard.type("zebra-lantern-93")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
              .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""
    )
    assert unlabelled == 0
