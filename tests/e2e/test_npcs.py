"""A GM creates an NPC and reveals it; a player on a phone sees its name but not its statistics."""

from playwright.sync_api import expect

PASSWORD = "zebra-lantern-93"


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def test_gm_creates_and_reveals_an_npc_and_a_player_sees_only_its_name(new_page, shot, transactional_db):
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role

    users = {name: get_user_model().objects.create_user(name, password=PASSWORD) for name in ("gm", "player")}
    campaign = services.create_campaign(users["gm"], name="Chronos Watch", system="timemaster")
    Membership.objects.create(campaign=campaign, user=users["player"], role=Role.PLAYER)

    gm = new_page()
    log_in(gm, "gm")
    gm.get_by_role("link", name="Chronos Watch").click()
    gm.get_by_role("navigation", name="Campaign").get_by_role("link", name="NPCs").click()
    expect(gm.get_by_role("heading", name="NPCs of Chronos Watch")).to_be_visible()
    unlabelled = gm.evaluate(
        """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
              .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""
    )
    assert unlabelled == 0

    gm.get_by_label("Name", exact=True).fill("Countess Ilse")
    gm.get_by_label("Public description").fill("A patron of clockmakers in old Vienna.")
    gm.get_by_label("GM notes").fill("Secretly funds the renegades.")
    gm.get_by_label("Quick NPC").uncheck()
    gm.get_by_label("Strength").fill("77")
    gm.get_by_label("Significance rating").fill("123")
    gm.get_by_label("Status rating").fill("3")
    gm.get_by_role("button", name="Create NPC").click()

    expect(gm.get_by_role("heading", name="Countess Ilse")).to_be_visible()
    expect(gm.locator("main")).to_contain_text("$3000")  # status 3 x 1000 (the engine's minimum bribe)
    expect(gm.locator("main")).to_contain_text("Secretly funds the renegades.")
    gm.get_by_role("button", name="Reveal").click()
    expect(gm.locator("main")).to_contain_text("revealed to the players")
    shot(gm, "npcs-gm-detail")

    player = new_page(390, 844)  # a phone
    log_in(player, "player")
    player.get_by_role("link", name="Chronos Watch").click()
    player.get_by_role("navigation", name="Campaign").get_by_role("link", name="NPCs").click()
    expect(player.get_by_role("link", name="Countess Ilse")).to_be_visible()
    player.get_by_role("link", name="Countess Ilse").click()
    main = player.locator("main")
    expect(main).to_contain_text("A patron of clockmakers in old Vienna.")
    for secret in ("Secretly funds", "123", "77", "3000", "Strength", "Significance", "bribe"):
        expect(main).not_to_contain_text(secret)
    assert player.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(player, "npcs-player-phone")
