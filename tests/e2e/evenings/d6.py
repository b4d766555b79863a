"""D6's evening: the GM sets up an encounter with the player's character and a group of thugs (their
names and statistics are the GM's), starts it and plays the character's first action, on which the
character spends a Character Point (its ledger's entry), then ends the scene. D6 has no page that
awards Character Points (the rules give them at an adventure's end): the award is written through
the ledger's service."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.evenings import Evening, Table, beside_the_server


def play(table: Table) -> Evening:
    from characters import services

    gm, campaign, hero = table.gm, table.campaign, table.hero

    def award() -> None:  # once: a try whose live news failed after its commit is not made again
        if not hero.entries.filter(kind="character_points_gained").exists():
            entry = {"kind": "character_points_gained", "count": 5, "reason": "the rope bridge"}
            services.append_entry(hero, entry, table.gm_user)

    beside_the_server(award)

    gm.goto(f"/campaigns/{campaign.pk}/encounters/")
    gm.get_by_label("Name").fill("Ambush at the bridge")
    gm.get_by_label("Initiative method").select_option(label="Method 1: the first significant move")
    gm.get_by_role("button", name="Create encounter").click()
    expect(gm.get_by_role("heading", name="Ambush at the bridge")).to_be_visible()
    gm.get_by_label("Character", exact=True).select_option(
        label=f"{hero.name} ({table.player_user.username})"
    )
    gm.get_by_role("button", name="Add character").click()
    expect(gm.get_by_test_id("participants")).to_contain_text(hero.name)
    gm.get_by_label("Name", exact=True).fill("Dock thugs")
    gm.get_by_label("Kind").select_option("group")
    gm.get_by_label("Group members, comma-separated").fill("Thug Ardo, Thug Bex")
    gm.get_by_label("Perception", exact=True).fill("1D")
    gm.get_by_label("Reflexes", exact=True).fill("1D")
    gm.get_by_label("Other skills, one a line").fill("brawling, Reflexes, 4D+2")
    gm.get_by_role("button", name="Add NPC").click()
    expect(gm.get_by_test_id("participants")).to_contain_text("Dock thugs")
    gm.get_by_role("button", name="Start the encounter").click()
    gm.get_by_role("button", name="Begin round 1").click()
    gm.locator(f"#first-character-{hero.pk}").check()
    gm.get_by_role("button", name="Settle the order").click()
    expect(gm.get_by_test_id("whose-turn")).to_have_text(hero.name)
    gm.get_by_label("How many actions this round").fill("1")
    gm.get_by_role("button", name="Declare").click()
    gm.get_by_label("Roll with").select_option(index=1)
    gm.get_by_label("Character Points", exact=True).fill("1")
    gm.get_by_role("button", name="Act", exact=True).click()
    expect(gm.get_by_test_id("pending")).to_be_visible()
    gm.get_by_label("Result", exact=True).fill("the first thug goes into the river")
    gm.get_by_role("button", name="Announce the result").click()
    expect(gm.get_by_test_id("log")).to_contain_text("the first thug goes into the river")
    # the scene ends (asked first, in a dialog): the recap tells how it ended
    gm.get_by_label("Why the scene ends").fill("the thugs scatter")
    gm.get_by_role("button", name="End the scene").click()
    gm.get_by_role("dialog").get_by_role("button", name="End the scene").click()
    expect(gm.get_by_test_id("log")).to_contain_text("the thugs scatter")
    return Evening(
        recap=["Ambush at the bridge ended after 1 round: the thugs scatter."],
        shown=["Encounter set up: Ambush at the bridge", "Encounter played: Ambush at the bridge"]
        + ["Kim Lark: character points gained", "Kim Lark: character points spent"],
        hidden=["Thug Ardo", "4D+2"],
        through_services=["the Character Points award (D6 has no award page)"],
    )
