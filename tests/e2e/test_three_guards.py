"""A GM on a phone (390 px) fights three guards to the end on the dice page (issue 49): each attack
is read by the engine (the log line names the column and why), each hit goes to the guard's
GM-only condition, and the last blow on each unconscious or held-down guard is a killing called
shot; the guards' pages then say Dead, and a player's page shows none of it."""

from playwright.sync_api import expect

PASSWORD = "zebra-lantern-93"


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def _attack(gm, guard, *, kill=False):
    panel = gm.get_by_test_id("attack-panel")
    panel.get_by_label("Attack", exact=True).select_option("melee")
    panel.get_by_label("NPC attacker's base chance").fill("70")
    panel.get_by_label("NPC defender from the campaign's NPCs").select_option(label=guard)
    if kill:
        panel.get_by_label("Defender helpless (bound, asleep …)").check()
        panel.locator("summary", has_text="Called shot").click()  # a folded part of the form
        panel.get_by_label("Called kill (helpless defender only)").check()
    panel.get_by_role("button", name="Resolve attack").click()
    result = gm.get_by_test_id("attack-result")
    expect(result).to_be_visible()
    return result


def test_a_gm_on_a_phone_fights_three_guards_to_the_end(new_page, shot, transactional_db):
    from django.contrib.auth import get_user_model

    from campaigns import npc_services, services
    from campaigns.models import Membership, Role
    from systems.timemaster import npc_condition_services as npc_cond

    users = {name: get_user_model().objects.create_user(name, password=PASSWORD) for name in ("gm", "player")}
    campaign = services.create_campaign(users["gm"], name="Chronos Watch", system="timemaster")
    Membership.objects.create(campaign=campaign, user=users["player"], role=Role.PLAYER)
    guards = [
        npc_services.create_npc(campaign, users["gm"], {"name": f"Guard {n}", "quick": True, "kind": "human"})
        for n in (1, 2, 3)
    ]

    gm = new_page(390, 844)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    for guard in guards:
        line = _attack(gm, guard.name)
        expect(line).to_contain_text("column")  # the engine's column and why, whatever the dice
        expect(line).to_contain_text("Unskilled Melee")
        line = _attack(gm, guard.name, kill=True)
        expect(line).to_contain_text("killing shot")
        assert npc_cond.summary(guard)["status"] == "dead"
    shot(gm, "three-guards-dice-390")
    width = gm.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the dice page scrolls sideways at 390 px ({width} px)"

    gm.goto(f"/campaigns/{campaign.pk}/npcs/{guards[0].pk}/")
    expect(gm.get_by_test_id("npc-condition")).to_contain_text("Dead")

    player = new_page(390, 844)
    log_in(player, "player")
    player.goto(f"/campaigns/{campaign.pk}/dice/")
    expect(player.locator("main")).to_contain_text("killing shot")  # the table saw the blows
    expect(player.get_by_test_id("attack-panel")).to_have_count(0)
    expect(player.locator("main")).not_to_contain_text("Guard 1")  # never revealed: "NPC" in the log
