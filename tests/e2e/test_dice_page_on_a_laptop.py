"""The dice page uses a laptop's width (issue 44, the new-user walk's point 6): at 1280 px the log
sat under every form, 5,400 px down on TIMEMASTER's page, and the attack form was a 364 px column.
The forms now take the left and the log the right, in view beside them as the page scrolls; the
attack form spans the forms' width; a lone Roll form sets its fields side by side. A phone keeps
the forms, then the log."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign
from tests.e2e.test_every_page import log_in
from tests.e2e.test_first_hour import demo  # noqa: F401  (the fixture: `make run`'s demo)
from tests.e2e.test_first_hour_round2 import OVERFLOW, photo

pytestmark = pytest.mark.usefixtures("demo")


def box(locator) -> dict:
    return locator.evaluate(
        "e => { const r = e.getBoundingClientRect(); return {x: r.left, y: r.top + window.scrollY,"
        " right: r.right, width: r.width, top: r.top, bottom: r.bottom}; }"
    )


def settled(page) -> None:
    """The page laid out for good: its fonts loaded (a fallback font wraps labels otherwise) and two
    frames drawn since (a busy machine, as CI's, measured before either)."""
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() =>"
        " requestAnimationFrame(r))))"
    )


def until(check, seconds: float = 5.0) -> None:
    """``check`` holds, asked again while the page settles (live lines and panels arrive after load)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            check()
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_log_is_beside_the_forms_and_stays_in_view(new_page):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="timemaster")
    page = new_page(1280, 900)
    log_in(page, "gm")
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    log, roll = (
        page.get_by_test_id("dice-log"),
        page.locator("form").filter(has=page.get_by_role("heading", name="Roll", exact=True)),
    )
    expect(log.get_by_role("heading", name="Log")).to_be_in_viewport()
    assert box(log)["x"] >= box(roll)["right"], (box(log), box(roll))  # beside, not under
    assert abs(box(log)["y"] - box(roll)["y"]) < 5
    attack = page.get_by_test_id("attack-panel")
    assert box(attack)["width"] > 600, box(attack)  # no longer a 364 px column
    assert box(attack)["right"] <= box(log)["x"]
    photo(page, "dice-tm-1280")
    # scrolled down to the attack form, the log is still on the screen beside it
    page.get_by_role("button", name="Resolve attack").scroll_into_view_if_needed()
    expect(log.get_by_role("heading", name="Log")).to_be_in_viewport()
    assert box(log)["top"] >= 0
    assert not page.evaluate(OVERFLOW)
    photo(page, "dice-tm-attack-1280")


def test_a_lone_roll_form_sets_its_fields_side_by_side_and_rolls(new_page):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="d6")
    page = new_page(1280, 900)
    log_in(page, "alice")
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    form = page.locator("form").filter(has=page.get_by_role("heading", name="Roll", exact=True))
    dice, count = form.get_by_label("Dice", exact=True), form.get_by_label("How many (extra dice for 3d6)")
    settled(page)

    def one_row():
        assert abs(box(dice)["bottom"] - box(count)["bottom"]) < 5, (box(dice), box(count))

    until(one_row)
    button = form.get_by_role("button", name="Roll", exact=True)
    assert box(button)["y"] < 700, box(button)
    form.get_by_label("What for").fill("Pick the lock")
    button.click()
    expect(page.get_by_test_id("dice-log").locator("li").first).to_contain_text("Pick the lock")
    photo(page, "dice-d6-1280")


def test_on_a_phone_the_forms_come_first_then_the_log(new_page):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="tempo")
    page = new_page(390, 844)
    log_in(page, "alice")
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    log = page.get_by_test_id("dice-log")
    roll = page.locator("form").filter(has=page.get_by_role("heading", name="Roll", exact=True))
    settled(page)

    def log_under_the_form():
        assert box(log)["y"] > box(roll)["y"] + box(roll)["bottom"] - box(roll)["top"] - 1, (
            box(log),
            box(roll),
        )

    until(log_under_the_form)
    assert log.evaluate("e => getComputedStyle(e).position") == "static"
    assert not page.evaluate(OVERFLOW)
