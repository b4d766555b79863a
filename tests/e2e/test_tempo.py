"""A player builds a Flashpoints agent through the builder (with the live rating check), rolls
invoking an aspect, and sees the fate point balance drop on the sheet; the GM runs a conflict."""

from __future__ import annotations

from playwright.sync_api import expect

from characters.models import Character

UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).length"""
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"

ASPECTS = [
    ("Primary", "GOOD ENOUGH IS GOOD ENOUGH", "his old sergeant"),
    ("Origin", "DOCKSIDE KID", "the Hamburg docks"),
    ("Service", "EX-SPECIAL FORCES", "a battered beret"),
    ("Flashpoint 1", "THE BERLIN TUNNEL", "Checkpoint Charlie"),
    ("Flashpoint 2", "SHARP EYES", "Leanne"),
]
RATINGS = {
    "Athlete": "seasoned",
    "Diplomat": "elite",
    "Observer": "world_class",
    "Politician": "trained",
    "Scholar": "elite",
    "Soldier": "seasoned",
    "Technician": "trained",
    "Thief": "untrained",
}


def _check_page(page):
    assert page.evaluate(UNLABELLED) == 0, page.url
    assert not page.evaluate(OVERFLOW), page.url


def _log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("zebra-lantern-93")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def _campaign(django_user_model):
    from campaigns import services
    from campaigns.models import Membership, Role

    gm = django_user_model.objects.create_user("control", password="zebra-lantern-93")
    player = django_user_model.objects.create_user("kestrel", password="zebra-lantern-93")
    campaign = services.create_campaign(
        gm, name="Cell Nine", system="tempo", module="flashpoints", settings={"starting_fate_points": 2}
    )
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    return campaign


def test_a_player_builds_an_agent_rolls_with_an_aspect_and_sees_the_balance_drop(
    new_page, shot, transactional_db, django_user_model
):
    campaign = _campaign(django_user_model)
    page = new_page(390, 844)
    _log_in(page, "kestrel")
    page.goto(f"/campaigns/{campaign.pk}/characters/")
    page.get_by_role("button", name="New agent").click()

    expect(page.get_by_role("heading", name="Step 1: the agent and five aspects")).to_be_visible()
    expect(page.get_by_text("TRUST NO ONE")).to_be_visible()
    _check_page(page)
    page.get_by_label("Agent's name").fill("Finn Marlowe")
    page.get_by_label("Codename").fill("KESTREL")
    for slot, text, anchor in ASPECTS:
        page.get_by_label(f"{slot} aspect").fill(text)
        if slot != "Service":
            page.get_by_label(f"{slot} anchor").fill(anchor)
    page.get_by_role("button", name="Save and continue").click()
    expect(page.locator(".field.invalid")).to_contain_text("needs an anchor")
    page.get_by_label("Service anchor").fill("a battered beret")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 2: rate the roles")).to_be_visible()
    _check_page(page)
    live = page.get_by_test_id("live-check")
    for role in ("Athlete", "Diplomat", "Observer"):
        page.get_by_label(role, exact=True).select_option("elite")
    expect(live).to_contain_text("Elite: 3 of 2")
    expect(live).to_contain_text("Move 1 to another rating")
    shot(page, "tempo-builder-live-check-phone")
    for role, rank in RATINGS.items():
        page.get_by_label(role, exact=True).select_option(rank)
    expect(live).to_contain_text("No problems so far")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 3: benefits")).to_be_visible()
    _check_page(page)
    page.get_by_label("Gambler", exact=False).check()
    page.get_by_label("Plant Seed:", exact=False).check()
    expect(page.get_by_test_id("live-check")).to_contain_text("Remove 1")
    page.get_by_label("Plant Seed:", exact=False).uncheck()
    page.get_by_label("Cold Read:", exact=False).check()
    page.get_by_label("Elementary:", exact=False).check()
    page.get_by_label("Linguist", exact=False).check()
    expect(page.get_by_test_id("live-check")).to_contain_text("No problems so far")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Step 4: review")).to_be_visible()
    _check_page(page)
    page.get_by_role("button", name="Finalize the agent").click()

    expect(page.get_by_role("heading", name="Finn Marlowe")).to_be_visible()
    expect(page.get_by_test_id("fate-points")).to_have_text("2")
    expect(page.get_by_test_id("aspects")).to_contain_text("a battered beret")
    expect(page.get_by_test_id("roles")).to_contain_text("World Class")
    _check_page(page)

    page.get_by_label("Role", exact=True).select_option("soldier")
    page.get_by_label("EX-SPECIAL FORCES (Service)").select_option("invoke")
    page.get_by_label("DOCKSIDE KID (Origin)").select_option("invoke")
    page.get_by_role("button", name="Roll 3d6").click()
    expect(page.locator("#tempo-roll-panel .errors")).to_contain_text("only 1 aspect")
    expect(page.get_by_test_id("fate-points")).to_have_text("2")
    page.get_by_label("DOCKSIDE KID (Origin)").select_option("")
    page.get_by_role("button", name="Roll 3d6").click()
    expect(page.get_by_test_id("roll-band")).to_be_visible()
    expect(page.get_by_test_id("fate-points")).to_have_text("1")
    expect(page.get_by_test_id("panel-fate-points")).to_have_text("1")
    kept = page.get_by_test_id("roll-kept").inner_text().split()
    assert len(kept) == 3
    _check_page(page)
    shot(page, "tempo-agent-rolled-phone")

    page.reload()
    expect(page.get_by_test_id("fate-points")).to_have_text("1")
    agent = Character.objects.get(name="Finn Marlowe")
    assert agent.build["fate_points"] == 1
    assert agent.entries.get().kind == "fate_point_spent"


def test_the_gm_runs_a_conflict_and_the_player_sees_the_tempo(
    new_page, shot, transactional_db, django_user_model
):
    from characters import services as character_services
    from systems.tempo.tests.helpers import choices

    campaign = _campaign(django_user_model)
    player = django_user_model.objects.get(username="kestrel")
    agent = character_services.finalize(
        character_services.create_draft(campaign, player, choices=choices()), is_gm=True
    )
    page = new_page()
    _log_in(page, "control")
    page.goto(f"/campaigns/{campaign.pk}/conflicts/")
    page.get_by_role("link", name="New conflict").click()
    page.get_by_label("Title").fill("Rooftop chase")
    page.get_by_label("Side A: name").fill("Kestrel")
    page.get_by_label(agent.name).first.check()
    page.get_by_label("Side B: name").fill("Stasi")
    page.get_by_label("Side B: NPCs (comma-separated)").fill("Major Brandt")
    page.get_by_role("button", name="Start the conflict").click()
    expect(page.get_by_test_id("tempo-state")).to_have_text("Even")
    _check_page(page)
    page.get_by_label("Who rolls").first.select_option(f"{agent.pk}:observer")
    page.locator("#rating-b").fill("0")
    page.get_by_role("button", name="Roll both sides").click()
    expect(page.get_by_test_id("conflict-log")).to_contain_text("Round 1")
    shot(page, "tempo-conflict-gm")

    player_page = new_page(390, 844)
    _log_in(player_page, "kestrel")
    player_page.goto(f"/campaigns/{campaign.pk}/conflicts/")
    player_page.get_by_role("link", name="Rooftop chase").click()
    expect(player_page.get_by_test_id("conflict-log")).to_contain_text("Round 1")
    expect(player_page.get_by_role("button", name="Roll both sides")).to_have_count(0)
    _check_page(player_page)
