"""The first hour, round 2 (issue 44, findings 1, 4 and 5), in a real browser on the demo: a
Tempo aspect rolled with no fate point to spend, the TIMEMASTER check form keeping what was
entered when the agent changes, and the fair-dice page saying what each roll waits for and
marking what became checkable since a player's last visit. Each is photographed at 1280 and
390 px into the artifacts (the ones kept are in docs/screenshots/first-hour/, named 44-*)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign, Roll
from campaigns.table import rolling
from characters.models import Character
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_every_page import axe_problems, log_in
from tests.e2e.test_first_hour import demo  # noqa: F401  (the fixture: `make run`'s demo)

pytestmark = pytest.mark.usefixtures("demo")

SHOTS = ARTIFACTS / "first-hour-2"
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def photo(page, name: str, *, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def campaign_of(system: str) -> Campaign:
    return Campaign.objects.get(name__startswith="Demo: ", system=system)


# --- finding 4: the check form keeps what was entered ------------------------------------------


@pytest.mark.parametrize("width", [1280, 390])
def test_changing_the_agent_keeps_what_for_the_score_and_the_secret_box(new_page, width):
    campaign = campaign_of("timemaster")
    agents = list(
        Character.objects.filter(campaign=campaign, status="active")
        .order_by("name", "id")
        .values_list("name", flat=True)
    )
    assert len(agents) >= 2, agents
    page = new_page(width, 900)
    log_in(page, "gm")
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    form = page.locator("form").filter(has=page.get_by_role("heading", name="Check"))
    score = form.get_by_label("Score", exact=True)
    expect(form.get_by_label("Agent").locator("option:checked")).to_have_text(agents[0])
    # a score both agents have, a specific check, a note, a modifier and the secret box
    score.select_option("ability:PCN")
    form.get_by_label("Check", exact=True).select_option("specific")
    # a specific check reloads the form with its Defense column (issue 49): type once it is there,
    # as a reader does
    expect(form.get_by_label("Defense column (specific)")).to_be_visible()
    form.get_by_label("Score modifier").fill("-5")
    form.get_by_label("What for").fill("Spot the forger in the crowd")
    form.get_by_label("Secret (the table sees only that it was made)").check()
    plain = page.locator("form").filter(has=page.get_by_role("heading", name="Roll", exact=True))
    plain.get_by_label("What for").fill("Half-typed in the other form")
    form.get_by_label("Agent").focus()
    form.get_by_label("Agent").select_option(label=agents[1])
    # the panel is reloaded for the other agent (its condition card names it: the old form held
    # the same values, so wait for the new one) ...
    expect(page.get_by_role("heading", name=f"Condition of {agents[1]}")).to_be_visible()
    expect(form.get_by_label("Agent").locator("option:checked")).to_have_text(agents[1])
    # ... and what was entered is still there
    expect(form.get_by_label("What for")).to_have_value("Spot the forger in the crowd")
    expect(score).to_have_value("ability:PCN")
    expect(form.get_by_label("Check", exact=True)).to_have_value("specific")
    expect(form.get_by_label("Score modifier")).to_have_value("-5")
    expect(form.get_by_label("Secret (the table sees only that it was made)")).to_be_checked()
    expect(plain.get_by_label("What for")).to_have_value("Half-typed in the other form")
    # the keyboard stays on the agent select after the reload
    expect(form.get_by_label("Agent")).to_be_focused()
    assert not page.evaluate(OVERFLOW)
    form.scroll_into_view_if_needed()
    photo(page, f"check-form-kept-{width}")
    form.get_by_role("button", name="Roll check").click()
    expect(page.get_by_test_id("check-result")).to_contain_text("secret")
    roll = Roll.objects.get(campaign=campaign, purpose__contains="Spot the forger in the crowd")
    assert roll.secret and roll.detail["check"] == "specific"
    assert agents[1] in roll.purpose or (roll.character and roll.character.name == agents[1])
    assert axe_problems(page) == []


# --- finding 1: a Tempo aspect with no fate point ----------------------------------------------


@pytest.mark.parametrize("width", [1280, 390])
def test_a_tempo_aspect_at_zero_fate_points_rolls_as_trouble_and_a_refusal_is_in_view(new_page, width):
    agent = Character.objects.filter(
        campaign=campaign_of("tempo"), owner__username="alice", status="active"
    ).first()
    # the demo's agent plays with what its finished conflicts left it: spend it down to none first
    from characters import services as character_services

    gm = agent.campaign.memberships.get(role="gm").user
    for _ in range(agent.build.get("fate_points", 0)):
        entry = {"kind": "fate_point_spent", "reason": "bonus_die_from_aspect", "aspect": "THE BERLIN TUNNEL"}
        character_services.append_entry(agent, entry, by=gm)
    agent.refresh_from_db()
    assert agent.build.get("fate_points", 0) == 0
    page = new_page(width, 844)
    log_in(page, "alice")
    page.goto(f"/characters/{agent.pk}/")
    page.get_by_test_id("roll-aspect:primary").click()
    popover = page.locator(".roll-popover:popover-open")
    use = popover.get_by_label("Use of the aspect")
    # the use that costs nothing is preselected; invoke is there, disabled, with the reason beside it
    expect(use).to_have_value("none")
    expect(use.locator("option[value=invoke]")).to_be_disabled()
    use.select_option("trouble")
    expect(popover.get_by_test_id("roll-why-not")).to_contain_text("has none to spend")
    assert not page.evaluate(OVERFLOW)
    photo(page, f"tempo-aspect-popover-{width}")
    popover.get_by_role("button", name="Roll", exact=True).click()
    expect(popover.get_by_test_id("roll-line")).to_contain_text("with")
    expect(popover.get_by_test_id("roll-sheet-changed")).to_contain_text("changed")
    agent.refresh_from_db()
    assert agent.build["fate_points"] == 1  # trouble earned one
    # the open popover's options are drawn again from the sheet as the roll left it: invoke is open
    expect(use.locator("option[value=invoke]")).to_be_enabled()
    expect(popover.locator(".roll-title")).to_contain_text("(1 fate point to spend)")
    expect(popover).to_be_visible()
    photo(page, f"tempo-aspect-rolled-{width}")
    # a refusal (here: a number out of bounds, typed with the keyboard) shows next to the Roll
    # button, in view, and takes the focus
    popover.get_by_label("Penalty dice").fill("99")
    popover.get_by_label("Penalty dice").evaluate("input => input.removeAttribute('max')")
    popover.get_by_role("button", name="Roll", exact=True).click()
    refusal = popover.get_by_test_id("roll-result").get_by_role("alert")
    expect(refusal).to_contain_text("Penalty dice")
    expect(refusal).to_be_focused()
    expect(refusal).to_be_in_viewport()
    button = popover.get_by_role("button", name="Roll", exact=True).bounding_box()
    box = refusal.bounding_box()
    assert abs(box["y"] + box["height"] - button["y"]) < 80, (box, button)  # right above the button
    photo(page, f"tempo-aspect-refused-{width}")
    assert Roll.objects.filter(character=agent).count() == 1
    assert axe_problems(page) == []


# --- finding 5: fair dice say one thing, and what is new --------------------------------------


@pytest.mark.parametrize("width", [1280, 390])
def test_fair_dice_say_what_each_roll_waits_for_and_mark_what_is_new(new_page, width):
    from campaigns.models import Membership
    from campaigns.table import fairness

    campaign = campaign_of("timemaster")
    gm = Membership.objects.get(campaign=campaign, role="gm")
    alice = Membership.objects.get(campaign=campaign, user__username="alice")
    number = fairness.current_seed(campaign).number
    rolling.record_roll(alice, kind="d10", count=2, purpose="Open roll")
    shared = rolling.record_roll(gm, kind="percent", secret=True, purpose="Shared secret")
    rolling.reveal_roll(gm, shared)
    kept = rolling.record_roll(gm, kind="d6", secret=True, purpose="Kept secret")
    fairness.rotate(gm)  # the seed is revealed; its key stays in: a secret roll is still the GM's

    page = new_page(width, 844)
    log_in(page, "alice")
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    badge = page.get_by_test_id("fair-news-badge")
    expect(badge).to_have_text("New: 1 roll you can check")  # the open roll; the shared one waits
    photo(page, f"fair-news-badge-{width}")
    badge.click()
    news = page.get_by_test_id("fair-news")
    expect(news).to_contain_text("New since your last visit")
    expect(news).to_contain_text(f"Seed {number}: 1 roll")
    row = page.get_by_test_id(f"seed-{number}")
    expect(row.get_by_text("new to check")).to_be_visible()
    expect(row.get_by_test_id("seed-state")).to_contain_text(
        "Revealed: its open rolls can be checked. Its secret rolls wait for its secret key"
    )
    in_use = page.get_by_test_id(f"seed-{number + 1}")
    expect(in_use.get_by_test_id("seed-state")).to_contain_text(
        "In use: its rolls can be checked once it is revealed"
    )
    expect(in_use.get_by_text("new to check")).to_be_hidden()
    page.get_by_test_id("fair-verify").click()
    results = page.locator("#fair-results li")
    expect(page.locator("#fair-summary")).to_contain_text("1 verified")
    expect(results.filter(has_text="pending")).to_contain_text(
        f"pending (waits for seed {number}'s secret key: it comes out once every secret roll"
    )
    # this roll's and any the demo's own play left sealed
    sealed = results.filter(has_text="a secret roll")
    expect(sealed.first).to_contain_text("sealed")
    for index in range(sealed.count()):
        expect(sealed.nth(index)).to_contain_text("sealed")
    assert "not revealed yet" not in page.locator("#fair-results").inner_text()
    assert not page.evaluate(OVERFLOW)
    photo(page, f"fair-news-page-{width}", full=True)
    assert axe_problems(page) == []

    # seen: the next visit marks nothing ...
    page.reload()
    expect(page.get_by_test_id("seed-state").first).to_be_visible()
    expect(page.get_by_test_id("fair-news")).to_be_hidden()
    expect(row.get_by_text("new to check")).to_be_hidden()
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    expect(page.get_by_test_id("fair-news-badge")).to_be_hidden()
    # ... until the GM shares the last secret roll: the key comes out, both secret rolls are new
    rolling.reveal_roll(gm, kept)
    page.reload()
    expect(page.get_by_test_id("fair-news-badge")).to_have_text("New: 2 rolls you can check")
    page.get_by_test_id("fair-news-badge").click()
    expect(page.get_by_test_id(f"seed-{number}").get_by_test_id("seed-state")).to_have_text(
        "Revealed, secret key out: every roll under it can be checked."
    )
    page.get_by_test_id("fair-verify").click()
    # every roll of the seed is listed now, one the fixtures made without the fair dice with its
    # reason (the fair-dice page since the new-user walk); none fails
    expect(page.locator("#fair-summary")).to_contain_text("3 verified")
    expect(page.locator("#fair-summary")).not_to_contain_text("failed")
    photo(page, f"fair-news-verified-{width}", full=True)
