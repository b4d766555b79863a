"""A play session in a browser, with the keyboard only (issue 50): the GM starts it, the table
rolls, the GM writes a shared and a GM-only note and ends it, offered the fair dice's seed reveal;
a player on a phone (390 px) reads the session page: the shared note with its mentions linked,
the rolls as the log shows them, and nothing of the GM's note or the secret roll's result. The
pages fit the phone and axe-core finds no serious problem at either width.

DOSSIER_SCREENSHOTS=docs/screenshots/chronicle saves the session page at 1280 and 390 px, as the GM
and as a player.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

from playwright.sync_api import expect

from campaigns.table import rolling
from tests.e2e.test_charts import small
from tests.e2e.test_every_page import axe_problems, resize

PASSWORD = "zebra-lantern-93"
SCREENSHOTS = os.environ.get("DOSSIER_SCREENSHOTS", "")


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Password").press("Enter")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def keyboard_to(page, locator, limit: int = 80) -> None:
    """Tab until ``locator`` has the focus (fails if it never does: not reachable by keyboard)."""
    for _ in range(limit):
        if locator.evaluate("el => el === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{locator} is not reachable with the Tab key")


def look(page, name: str) -> None:
    for width in (1280, 390):
        resize(page, width)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} overflows at {width}"
        assert axe_problems(page) == [], name
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            shot = Path(SCREENSHOTS) / f"{name}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            small(shot)


def test_a_session_played_with_the_keyboard_and_read_on_a_phone(new_page, transactional_db):
    from django.contrib.auth import get_user_model

    from campaigns import npc_services, services
    from campaigns.models import Membership, Role
    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    users = {n: get_user_model().objects.create_user(n, password=PASSWORD) for n in ("gm", "alice", "bob")}
    campaign = services.create_campaign(users["gm"], name="Chronos Watch", system="timemaster")
    for name in ("alice", "bob"):
        Membership.objects.create(campaign=campaign, user=users[name], role=Role.PLAYER)
    draft = character_services.create_draft(
        campaign, users["alice"], choices=agent_choices(name="Harry Adams")
    )
    character_services.finalize(draft, is_gm=True, rng=random.Random(3))
    npc_services.create_npc(
        campaign, users["gm"], {"name": "Countess Ilse", "revealed": True, "significance_rating": 40}
    )
    npc_services.create_npc(
        campaign, users["gm"], {"name": "The Clockmaker", "revealed": False, "significance_rating": 9}
    )

    gm = new_page()
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/play-sessions/")
    expect(gm.get_by_role("heading", name="Play sessions of Chronos Watch")).to_be_visible()
    title = gm.get_by_label("Title")
    keyboard_to(gm, title)
    gm.keyboard.type("The clock tower")
    start = gm.get_by_role("button", name="Start the session")
    keyboard_to(gm, start)
    gm.keyboard.press("Enter")
    expect(gm.get_by_role("heading", name="Session 1: The clock tower")).to_be_visible()
    # on the session's own page (the list's live section can show the new session a moment before
    # the start's redirect lands: a reload then would reload the list)
    expect(gm).to_have_url(re.compile(rf"/campaigns/{campaign.pk}/play-sessions/1/$"))

    members = {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}
    rolling.record_roll(members["alice"], kind="d6", count=2, purpose="Climb the tower", rng=random.Random(1))
    rolling.record_roll(
        members["gm"], kind="percent", secret=True, purpose="Does the guard wake?", rng=random.Random(2)
    )

    gm.reload()
    for body, who, heading in (
        ("We climbed with **[[Harry Adams]]** and met [[Countess Ilse]].", "Shared with the table", "Recap"),
        ("[[The Clockmaker]] watched them from the gears.", "Game master only", "Plot"),
    ):
        summary = gm.locator("#write-note summary")
        expect(summary).to_be_visible()
        keyboard_to(gm, summary)
        if not gm.locator("#write-note").evaluate("el => el.open"):
            gm.keyboard.press("Enter")
        keyboard_to(gm, gm.locator("#write-note").get_by_label("Title"))
        gm.keyboard.type(heading)
        keyboard_to(gm, gm.get_by_role("textbox", name="Note"))
        gm.keyboard.type(body)
        choice = gm.get_by_label(who)
        keyboard_to(gm, gm.get_by_label("Shared with the table"))
        if who != "Shared with the table":
            gm.keyboard.press("ArrowDown")
        expect(choice).to_be_checked()
        keyboard_to(gm, gm.get_by_role("button", name="Save the note"))
        gm.keyboard.press("Enter")
        expect(gm.get_by_role("heading", name=heading)).to_be_visible()
    expect(gm.locator("#notes")).to_contain_text("The Clockmaker watched them")
    look(gm, "session-gm")

    keyboard_to(gm, gm.get_by_role("link", name="End the session"))
    gm.keyboard.press("Enter")
    expect(gm.get_by_label("Reveal the fair dice's seed and start a new one")).not_to_be_checked()
    look(gm, "session-end-gm")  # the ticked choices, each hint under its label; the award pages apart
    keyboard_to(gm, gm.get_by_label("Reveal the fair dice's seed and start a new one"))
    gm.keyboard.press("Space")
    keyboard_to(gm, gm.get_by_role("button", name="End the session"))
    gm.keyboard.press("Enter")
    expect(gm.locator("main")).to_contain_text("Session 1 ended.")
    expect(gm.locator("main")).to_contain_text("seed 1 is revealed")

    player = new_page(390, 844)
    log_in(player, "bob")
    player.goto(f"/campaigns/{campaign.pk}/")
    player.get_by_role("navigation", name="Campaign").get_by_role("link", name="Sessions").click()
    player.get_by_role("link", name="Session 1: The clock tower").click()
    main = player.locator("main")
    expect(main).to_contain_text("We climbed with Harry Adams and met Countess Ilse.")
    expect(main.get_by_role("link", name="Countess Ilse")).to_be_visible()
    expect(main).to_contain_text("Climb the tower")
    expect(main).to_contain_text("made a secret roll")
    for secret in ("Clockmaker", "Plot", "Does the guard wake"):
        expect(main).not_to_contain_text(secret)
    look(player, "session-player")


def test_a_long_sessions_rolls_are_read_page_by_page_with_the_keyboard(
    new_page, transactional_db, monkeypatch
):
    """A session with more rolls than a page holds (play_sessions.ROLLS_PER_PAGE, set to 4 here): the
    player reads on with "The next rolls", on a phone and with the keyboard, and goes back."""
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.chronicle import play_sessions
    from campaigns.models import Membership, Role

    monkeypatch.setattr(play_sessions, "ROLLS_PER_PAGE", 4)
    users = {n: get_user_model().objects.create_user(n, password=PASSWORD) for n in ("gm", "alice")}
    campaign = services.create_campaign(users["gm"], name="Long Night", system="timemaster")
    Membership.objects.create(campaign=campaign, user=users["alice"], role=Role.PLAYER)
    members = {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}
    session = play_sessions.start(members["gm"], title="The long night")
    for n in range(1, 7):
        rolling.record_roll(members["alice"], kind="d6", purpose=f"Watch {n}", rng=random.Random(n))
    play_sessions.end(members["gm"], session)

    page = new_page(390, 844)
    log_in(page, "alice")
    page.goto(f"/campaigns/{campaign.pk}/play-sessions/1/")
    rolls = page.locator("#session-rolls li")
    expect(rolls).to_have_count(4)
    expect(rolls.first).to_contain_text("Watch 1")
    look(page, "session-rolls-first-page")
    resize(page, 390)
    onward = page.get_by_role("link", name="The next rolls")
    keyboard_to(page, onward, limit=200)
    page.keyboard.press("Enter")
    expect(rolls).to_have_count(2)
    expect(rolls.first).to_contain_text("Watch 5")
    expect(page.get_by_role("link", name="The next rolls")).to_have_count(0)
    look(page, "session-rolls-next-page")
    resize(page, 390)
    back = page.get_by_role("link", name="Back to the session's first rolls")
    keyboard_to(page, back, limit=200)
    page.keyboard.press("Enter")
    expect(rolls).to_have_count(4)
    expect(rolls.first).to_contain_text("Watch 1")


def test_the_gm_lets_the_first_roll_of_a_day_start_a_session_and_a_players_roll_does(
    new_page, transactional_db
):
    """The settings page's time zone and session start, set in the browser; the player's roll on the
    dice page then starts session 1, which the sessions page shows (issue 50, part 1)."""
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role

    users = {n: get_user_model().objects.create_user(n, password=PASSWORD) for n in ("gm", "alice")}
    campaign = services.create_campaign(users["gm"], name="Night Watch", system="d6")
    Membership.objects.create(campaign=campaign, user=users["alice"], role=Role.PLAYER)

    gm = new_page()
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/play-sessions/")
    gm.get_by_role("link", name="turn this on in the settings").click()
    gm.get_by_label("The group's time zone").select_option("America/New_York")
    gm.get_by_label("The first roll of a day starts a play session").check()
    look(gm, "settings-session-start")
    resize(gm, 1280)
    gm.get_by_role("button", name="Save settings").click()
    expect(gm.get_by_text("Settings saved.")).to_be_visible()

    player = new_page(390, 844)
    log_in(player, "alice")
    player.goto(f"/campaigns/{campaign.pk}/play-sessions/")
    expect(player.get_by_text("The first roll of a day starts one")).to_be_visible()
    player.goto(f"/campaigns/{campaign.pk}/dice/")
    form = player.locator("form").filter(has=player.get_by_label("What for")).first
    form.get_by_label("What for").fill("Who goes first")
    form.get_by_role("button", name="Roll", exact=True).click()
    expect(player.locator("#roll-log li").filter(has_text="Who goes first")).to_have_count(1)
    player.goto(f"/campaigns/{campaign.pk}/play-sessions/")
    expect(player.get_by_test_id("open-session")).to_contain_text("Session 1")
    expect(player.get_by_text("the day in America/New York time")).to_be_visible()
    look(player, "sessions-started-by-a-roll")
    player.get_by_role("link", name="Open its page").click()
    expect(player.locator("#session-rolls li").filter(has_text="Who goes first")).to_have_count(1)
