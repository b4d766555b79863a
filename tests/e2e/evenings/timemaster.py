"""TIMEMASTER's evening: the GM awards bonus Success Points on the award page (it names the play
session under way by itself) and plans and starts a mission, sending the player's agent."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.evenings import Evening, Table


def play(table: Table) -> Evening:
    gm, campaign, hero = table.gm, table.campaign, table.hero
    gm.goto(f"/characters/{hero.pk}/bonus/")
    expect(gm.get_by_label("Session")).to_have_value("Session 1")  # the play session under way
    gm.get_by_label("Bonus Success Points").select_option("20")
    gm.get_by_role("button", name="Award").click()
    expect(gm.locator("main")).to_contain_text("20 bonus Success Points awarded.")

    gm.goto(f"/campaigns/{campaign.pk}/missions/")
    gm.get_by_role("link", name="Plan a mission").click()
    gm.get_by_label("Title").fill("The lighthouse keeper")
    gm.get_by_label("Briefing").fill("Keep the lamp lit until the convoy passes.")
    gm.get_by_label("Significance rating (1-1000)").fill("640")
    gm.get_by_label("Parallel").fill("T-0")
    gm.get_by_label("Place").fill("Brest")
    gm.get_by_label("Year entered").fill("1917")
    gm.get_by_label("Year left").fill("1917")
    gm.get_by_label(f"{hero.name} ({table.player_user.username})").check()
    gm.get_by_label("Historical Changes Chart").fill(
        "0-99: The convoy sinks offshore\n100+: The war ends early"
    )
    gm.get_by_role("button", name="Plan mission").click()
    expect(gm.get_by_role("heading", name="The lighthouse keeper")).to_be_visible()
    gm.get_by_role("button", name="Start mission (send the agents)").click()
    expect(gm.get_by_role("status")).to_contain_text("Times Visited recorded")
    return Evening(
        shown=["Awarded 20 Success Points as a bonus", "Sent on The lighthouse keeper"],
        hidden=["convoy sinks offshore"],  # the mission's Historical Changes Chart is the GM's
    )
