"""Time to Kill's evening: the GM starts a mission for the player's ninja (with notes the player never
reads) and the two play it to its victory on the run's page, which writes the ninja's victory on
its ledger (the system's award). The stone draws and dice are scripted through the engine's dice
injection, as in tests/e2e/test_ttk_mission.py, so every run plays the same mission."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from systems.time_to_kill.tests.missions.helpers import PLACEMENT, VICTORY_SCRIPT, ScriptedRng
from tests.e2e.evenings import Evening, Table

GM_NOTES = "The abbot hid the ledger in the well"


def play(table: Table) -> Evening:
    from systems.time_to_kill import services
    from systems.time_to_kill.models import MissionRun

    gm, player, campaign, hero = table.gm, table.player, table.campaign, table.hero
    with pytest.MonkeyPatch.context() as patch:
        scripted = ScriptedRng(**VICTORY_SCRIPT)
        patch.setattr(services, "make_rng", lambda: scripted)
        patch.setattr("characters.systems.fair_dice.FairRandom", lambda key: scripted)

        gm.goto(f"/campaigns/{campaign.pk}/ttk/")
        gm.get_by_label("Ninja").select_option(label=hero.name)
        gm.get_by_label("Title").fill("The well of the abbey")
        gm.get_by_label("Stones in the bag").fill("3")
        gm.get_by_label("Victory conditions (told to the player)").fill("Bring back the seal")
        gm.get_by_label("GM notes (never shown to players)").fill(GM_NOTES)
        gm.get_by_role("button", name="Start the mission").click()
        expect(gm.get_by_role("heading", name="The well of the abbey")).to_be_visible()
        run = MissionRun.objects.get(campaign=campaign)

        player.goto(f"/ttk/{run.pk}/")
        expect(player.locator("main")).to_contain_text("Bring back the seal")
        player.get_by_role("button", name="Draw a preparation stone").click()
        expect(player.get_by_test_id("preparation-stones")).to_have_text("1")
        player.get_by_role("button", name="Start the mission").click()
        expect(player.locator("#ttk-panel")).to_contain_text("Waiting for the GM")

        gm.get_by_role("button", name="Roll the Fate dice").click()
        for fate, value in PLACEMENT.items():
            gm.get_by_label(fate.title(), exact=True).select_option(value)
        gm.get_by_role("button", name="Place the dice on the Fates").click()
        expect(gm.locator("#ttk-panel")).to_contain_text("Waiting for the player")

        player.get_by_label("Fate", exact=True).select_option("opposition")
        player.get_by_role("button", name="Spend a stone to reveal a Fate").click()
        expect(player.locator('li[data-fate="opposition"] strong')).to_have_text("-")
        gm.get_by_label("Scene (no numbers)").fill("Mist over the abbey well.")
        gm.get_by_role("button", name="Describe the scene").click()
        player.get_by_role("button", name="Wait", exact=True).click()
        expect(player.locator("main")).to_contain_text("The target is in sight")
        player.get_by_label("Ability").select_option("stealth")
        player.get_by_label(re.compile("Go for the objective")).check()
        player.get_by_role("button", name="Act", exact=True).click()
        expect(player.locator("#ttk-panel")).to_contain_text("Waiting for the GM")
        gm.get_by_label("Concealment", exact=True).check()
        gm.get_by_role("button", name="Name the Fates this action faces").click()
        expect(gm.locator("#ttk-panel")).to_contain_text("Mission accomplished")
    return Evening(
        shown=["Mission started: The well of the abbey", "Kim Lark: mission result"],
        hidden=[GM_NOTES],
    )
