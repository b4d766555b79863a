"""Tempo's evening: the GM gives the player's agent a fate point on the agent's page (the system's
award) and starts a conflict with the agent on one side, rolls its first exchange and ends it."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.evenings import Evening, Table


def play(table: Table) -> Evening:
    gm, campaign, hero = table.gm, table.campaign, table.hero
    gm.goto(f"/characters/{hero.pk}/")
    held = int(gm.get_by_test_id("panel-fate-points").inner_text())
    gm.get_by_label("Why the agent gains a fate point").select_option(index=0)
    gm.get_by_label("Note", exact=True).fill("held the rope")
    gm.get_by_role("button", name="Give a fate point").click()
    expect(gm.get_by_test_id("panel-fate-points")).to_have_text(str(held + 1))

    gm.goto(f"/campaigns/{campaign.pk}/conflicts/")
    gm.get_by_role("link", name="New conflict").click()
    gm.get_by_label("Title").fill("The harbour chase")
    gm.get_by_label("Side A: name").fill("The crew")
    gm.get_by_label(hero.name).first.check()
    gm.get_by_label("Side B: name").fill("Harbour police")
    gm.get_by_label("Side B: NPCs (comma-separated)").fill("Sergeant Vogt")
    gm.get_by_role("button", name="Start the conflict").click()
    expect(gm.get_by_test_id("tempo-state")).to_have_text("Even")
    gm.get_by_label("Who rolls").first.select_option(f"{hero.pk}:observer")
    gm.locator("#rating-b").fill("0")
    gm.get_by_role("button", name="Roll both sides").click()
    expect(gm.get_by_test_id("conflict-log")).to_contain_text("Round 1")
    # the GM ends it (asked first, in a dialog): the recap tells how it ended
    gm.get_by_label("Why", exact=True).fill("the tide turns")
    gm.get_by_role("button", name="End", exact=True).click()
    gm.get_by_role("dialog").get_by_role("button", name="End the conflict").click()
    expect(gm.get_by_test_id("conflict-log")).to_contain_text("the tide turns")
    return Evening(
        shown=["Kim Lark: Gained a fate point", "Conflict started: The harbour chase"],
        recap=["The harbour chase: the GM ended it (the tide turns)."],
    )
