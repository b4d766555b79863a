"""The GM's main action is on a phone's first screen (issue 44, finding 12): on the demo at 390 px,
D6's Declare sat 1,426 px down under the initiative order and Tempo's "Roll both sides" 1,495 px down
under the roll form's fields. Declare now comes before the order; the round's roll form is compact
and its button stays at the foot of the screen while the form is in view. Both still work."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign
from tests.e2e.test_every_page import axe_problems, log_in
from tests.e2e.test_first_hour import demo  # noqa: F401  (the fixture: `make run`'s demo)
from tests.e2e.test_first_hour_round2 import OVERFLOW, photo

pytestmark = pytest.mark.usefixtures("demo")

# the focused field is what the eye sees at its middle (not the sticky bar over it)
UNCOVERED = """() => { const e = document.activeElement, r = e.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === e; }"""
FIRST_SCREEN = 900  # px from the top of the page: the first screen of a phone, give or take


def top(locator) -> float:
    """The top edge of what the eye sees, from the top of the page, with the page at its top."""
    return locator.evaluate("e => e.getBoundingClientRect().top + window.scrollY")


def test_d6_declare_is_on_the_first_screen_of_a_phone_and_declares(new_page):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="d6")
    encounter = campaign.d6_encounters.first()
    page = new_page(390, 844)
    log_in(page, "gm")
    page.goto(f"/campaigns/{campaign.pk}/encounters/{encounter.pk}/")
    declare = page.get_by_role("button", name="Declare")
    expect(declare).to_be_visible()
    assert top(declare) <= FIRST_SCREEN, top(declare)
    expect(declare).to_be_in_viewport()
    # the order still follows, whole
    order = page.get_by_test_id("order")
    expect(order).to_be_visible()
    assert top(order) > top(declare)
    assert not page.evaluate(OVERFLOW)
    photo(page, "d6-declare-390")
    declare.click()
    expect(page.get_by_role("button", name="Act", exact=True)).to_be_visible()
    assert axe_problems(page) == []


def test_tempo_roll_both_sides_is_on_the_first_screen_of_a_phone_and_rolls(new_page):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="tempo")
    conflict = campaign.tempo_conflicts.first()
    rounds_before = conflict.events.filter(kind="roll").count()
    page = new_page(390, 844)
    log_in(page, "gm")
    page.goto(f"/conflicts/{conflict.pk}/")
    roll = page.get_by_role("button", name="Roll both sides")
    assert top(roll) <= FIRST_SCREEN, top(roll)
    expect(roll).to_be_in_viewport()
    form = page.get_by_test_id("roll-round")
    # the fields are all there, a side's numbers in one row
    numbers = [form.get_by_label(label).first for label in ("Rating (NPC)", "Bonus dice", "Penalty dice")]
    rows = {round(field.bounding_box()["y"]) for field in numbers}
    assert len(rows) == 1, rows
    # going through the fields with the keyboard, each one is shown above the bar, not under it,
    # and the button stays in view
    form.get_by_label("Who rolls").first.focus()
    for _ in range(7):  # who, three numbers; who, three numbers: the last field of the form
        page.keyboard.press("Tab")
        assert page.evaluate(UNCOVERED), page.evaluate("document.activeElement.id")
    last = form.get_by_label("Penalty dice").last
    expect(last).to_be_focused()
    page.keyboard.type("1")
    expect(roll).to_be_in_viewport()
    assert not page.evaluate(OVERFLOW)
    photo(page, "tempo-roll-both-sides-390")
    round_before = page.get_by_test_id("latest").inner_text()
    roll.click()
    expect(page.get_by_test_id("latest")).not_to_have_text(round_before)
    expect(page.get_by_test_id("latest")).to_contain_text("Round 2")
    assert conflict.events.filter(kind="roll").count() == rounds_before + 1
    assert axe_problems(page) == []


@pytest.mark.parametrize("system", ["d6", "tempo"])
def test_on_a_laptop_the_pages_read_as_before(new_page, system):
    """The wide layout is unchanged: the roll form's button follows its fields (no sticky bar)."""
    campaign = Campaign.objects.get(name__startswith="Demo: ", system=system)
    page = new_page(1280, 900)
    log_in(page, "gm")
    if system == "d6":
        page.goto(f"/campaigns/{campaign.pk}/encounters/{campaign.d6_encounters.first().pk}/")
        expect(page.get_by_role("button", name="Declare")).to_be_in_viewport()
    else:
        page.goto(f"/conflicts/{campaign.tempo_conflicts.first().pk}/")
        button = page.get_by_role("button", name="Roll both sides")
        assert button.evaluate("b => getComputedStyle(b.parentElement).position") == "static"
        expect(button).to_be_visible()
    assert not page.evaluate(OVERFLOW)
