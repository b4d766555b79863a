"""A player builds a ninja; the GM runs a short mission to victory in another browser; the player's
page never holds a Fate that has not been revealed. Dice and draws are scripted through the engine's
dice injection (systems.time_to_kill.services.make_rng), so every run plays the same mission."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from systems.time_to_kill.tests.missions.helpers import PLACEMENT, VICTORY_SCRIPT, ScriptedRng

PASSWORD = "zebra-lantern-93"
GM_NOTES = "The abbot keeps the key under the bell"
GM_ONLY_TEXT = ("Fate Record Sheet", "Fate dice:", "Placed:", GM_NOTES)


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def assert_nothing_secret(page, run_id):
    """The player's page shows a Fate's value only once the stored state says it is revealed."""
    from systems.time_to_kill.models import MissionRun

    html = page.content()
    for text in GM_ONLY_TEXT:
        assert text not in html, text
    state = MissionRun.objects.get(pk=run_id).state
    fates = (state["current"] or {}).get("fates") or {}
    revealed = {key for key, entry in fates.items() if entry["revealed"]}
    items = page.locator("ul.ttk-fates li")
    shown = set()
    for index in range(items.count()):
        item = items.nth(index)
        key = item.get_attribute("data-fate")
        if item.get_attribute("data-revealed") == "true":
            shown.add(key)
            assert item.locator("strong").inner_text() == fates[key]["value"]
        else:
            assert item.locator("strong").count() == 0
            assert re.fullmatch(r"\w+\s+hidden", item.inner_text().strip()), item.inner_text()
    assert shown == revealed


def test_a_short_mission_to_victory_as_gm_and_player(new_page, shot, transactional_db, monkeypatch):
    from django.contrib.auth import get_user_model

    from campaigns import services as campaign_services
    from campaigns.models import Membership, Role
    from characters.models import Character
    from systems.time_to_kill import services
    from systems.time_to_kill.models import MissionRun

    scripted = ScriptedRng(**VICTORY_SCRIPT)
    monkeypatch.setattr(services, "make_rng", lambda: scripted)
    monkeypatch.setattr("characters.systems.fair_dice.FairRandom", lambda key: scripted)  # the dice
    users = {name: get_user_model().objects.create_user(name, password=PASSWORD) for name in ("gm", "player")}
    campaign = campaign_services.create_campaign(users["gm"], name="Night Work", system="time_to_kill")
    Membership.objects.create(campaign=campaign, user=users["player"], role=Role.PLAYER)

    # The player builds a ninja on a phone.
    player = new_page(390, 844)
    log_in(player, "player")
    player.get_by_role("link", name="Night Work").click()
    player.get_by_role("navigation", name="Campaign").get_by_role("link", name="Characters").click()
    player.get_by_role("button", name="New ninja").click()
    expect(player.get_by_role("heading", name="Step 1: the nine abilities")).to_be_visible()
    player.get_by_label("Name (optional)").fill("Kage")
    player.get_by_label(re.compile(r"^Stealth")).select_option("+")
    player.get_by_label(re.compile(r"^Athletics")).select_option("+")
    player.get_by_label(re.compile(r"^Knowledge")).select_option("-")
    player.get_by_label(re.compile(r"^Awareness")).select_option("+")
    player.get_by_role("button", name="Save and review").click()
    player.get_by_role("button", name="Finalize the ninja").click()
    expect(player.get_by_test_id("ranking")).to_have_text("-")
    ninja = Character.objects.get(name="Kage")

    # The GM starts the mission.
    gm = new_page()
    log_in(gm, "gm")
    gm.get_by_role("link", name="Night Work").click()
    gm.get_by_role("navigation", name="Campaign").get_by_role("link", name="Missions").click()
    gm.get_by_label("Ninja").select_option(label="Kage")
    gm.get_by_label("Title").fill("The Bell Tower")
    gm.get_by_label("Stones in the bag").fill("3")
    gm.get_by_label("Victory conditions (told to the player)").fill("Silence the abbot")
    gm.get_by_label("GM notes (never shown to players)").fill(GM_NOTES)
    gm.get_by_role("button", name="Start the mission").click()
    expect(gm.get_by_role("heading", name="The Bell Tower")).to_be_visible()
    run_id = MissionRun.objects.get().pk
    expect(gm.locator("#ttk-panel")).to_contain_text("Waiting for the player")

    player.goto(f"/ttk/{run_id}/")
    expect(player.locator("main")).to_contain_text("Silence the abbot")
    assert_nothing_secret(player, run_id)
    player.get_by_role("button", name="Draw a preparation stone").click()
    expect(player.get_by_test_id("preparation-stones")).to_have_text("1")
    player.get_by_role("button", name="Start the mission").click()
    expect(player.locator("#ttk-panel")).to_contain_text("Waiting for the GM")

    # The GM's console picks the player's move up by itself (htmx polling), no reload.
    gm.get_by_role("button", name="Roll the Fate dice").click()
    for fate, value in PLACEMENT.items():
        gm.get_by_label(fate.title(), exact=True).select_option(value)
    gm.get_by_role("button", name="Place the dice on the Fates").click()
    expect(gm.locator("#ttk-panel")).to_contain_text("Waiting for the player")
    shot(gm, "ttk-gm-console")

    expect(player.get_by_role("button", name="Spend a stone to reveal a Fate")).to_be_visible()
    assert_nothing_secret(player, run_id)
    player.get_by_label("Fate", exact=True).select_option("opposition")
    player.get_by_role("button", name="Spend a stone to reveal a Fate").click()
    expect(player.locator('li[data-fate="opposition"] strong')).to_have_text("-")
    assert_nothing_secret(player, run_id)

    gm.get_by_label("Scene (no numbers)").fill("Fog over the monastery wall.")
    gm.get_by_role("button", name="Describe the scene").click()

    expect(player.get_by_role("button", name="Wait", exact=True)).to_be_visible()
    expect(player.locator("main")).to_contain_text("Fog over the monastery wall.")
    assert_nothing_secret(player, run_id)
    player.get_by_role("button", name="Wait", exact=True).click()
    expect(player.locator("main")).to_contain_text("The target is in sight")
    assert_nothing_secret(player, run_id)
    player.get_by_label("Ability").select_option("stealth")
    player.get_by_label(re.compile("Go for the objective")).check()
    player.get_by_role("button", name="Act", exact=True).click()
    expect(player.locator("#ttk-panel")).to_contain_text("Waiting for the GM")
    assert_nothing_secret(player, run_id)
    shot(player, "ttk-player-view")

    gm.get_by_label("Concealment", exact=True).check()
    gm.get_by_role("button", name="Name the Fates this action faces").click()
    expect(gm.locator("#ttk-panel")).to_contain_text("Mission accomplished")
    expect(player.locator("#ttk-panel")).to_contain_text("Mission accomplished")
    assert_nothing_secret(player, run_id)

    ninja.refresh_from_db()
    assert ninja.build["record"] == {"ranking_points": 1, "missions_completed": 1}
    player.goto(f"/characters/{ninja.pk}/")
    expect(player.get_by_test_id("ranking")).to_have_text("1.00")
    expect(player.get_by_test_id("victory-points")).to_have_text("1")
    player.goto(f"/ttk/{run_id}/history/")
    expect(player.locator("main")).to_contain_text("roll 5")
    assert "[-1, 0, 1, 0]" not in player.content()
