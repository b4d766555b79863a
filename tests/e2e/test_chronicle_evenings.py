"""An evening of each installed game system, told back by the chronicle (issue 50, "Done when"):
the GM starts a play session in the browser, the table plays (a player's roll and the GM's secret
roll on the dice page, then the system's own part: an advancement through its award flow and a step
of a scene, tests/e2e/evenings/), the GM ends the session and writes a note shared with the table
and a GM-only one. The player's session page, the recap on the overview, search and the chronicle
PDF (queued by the sessions page's button, rendered by the render job's body) hold the shared story
and nothing hidden; the GM's hold both.

One world per system, parametrised over the registry: a system whose testkit names no evening
(``BROWSER_EVENING``) fails here.

DOSSIER_SCREENSHOTS=docs/screenshots/chronicle saves each copy's first page (60 dpi) there, and the
player's recap on the overview at 1280 and 390 px.
"""

from __future__ import annotations

import importlib
import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests import system_kit
from tests.e2e.evenings import Table, beside_the_server
from tests.e2e.test_play_sessions import PASSWORD, SCREENSHOTS, log_in, look
from tests.sheets.conftest import pdf_text

pytestmark = pytest.mark.django_db(transaction=True)

OPEN_ROLL = "Cross the rope bridge"
SECRET_ROLL = "Is the ferryman lying"
SHARED_NOTE = ("The lantern road", "We crossed the bridge by **lantern** light and kept our word.")
GM_NOTE = ("Ferryman's debt", "The lantern belongs to the ferryman's drowned brother.")
SECRETS = (GM_NOTE[0], "drowned brother", SECRET_ROLL)


@pytest.fixture
def queued(monkeypatch):
    """Render ids sent to the broker, caught instead of sent (no worker shares this database)."""
    from sheets import tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.render_sheet, "delay", lambda render_id: sent.append(render_id))
    return sent


def _table(key: str):
    from django.contrib.auth import get_user_model

    from campaigns.models import Membership, Role

    users = {n: get_user_model().objects.create_user(n, password=PASSWORD) for n in ("gm", "ana")}
    campaign = system_kit.make_campaign(users["gm"], key, name="The Long Evening")
    Membership.objects.create(campaign=campaign, user=users["ana"], role=Role.PLAYER)
    hero = system_kit.make_character(campaign, users["ana"], name="Kim Lark", player="ana")
    return users, campaign, hero


def _roll(page, campaign, purpose: str, secret: bool = False) -> None:
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    form = page.locator("form").filter(has=page.get_by_label("What for")).first
    form.get_by_label("What for").fill(purpose)
    if secret:
        form.get_by_label("Secret (the table sees only that it was made)").check()
    form.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator("#roll-log li").filter(has_text=purpose)).to_have_count(1)


def _write_note(gm, title: str, body: str, who: str) -> None:
    details = gm.locator("#write-note")
    if not details.evaluate("el => el.open"):
        details.locator("summary").click()
    details.get_by_label("Title").fill(title)
    details.get_by_role("textbox", name="Note").fill(body)
    details.get_by_label(who).check()
    details.get_by_role("button", name="Save the note").click()
    expect(gm.locator("#notes").get_by_role("heading", name=title)).to_be_visible()


def _chronicle_text(page, campaign, queued, name: str) -> str:
    """The reader's chronicle: asked for on the sessions page, rendered by the job, read back (and
    its first page rasterised at 60 dpi into DOSSIER_SCREENSHOTS, to look at, when that is set)."""
    from sheets.models import SheetRender
    from sheets.tasks import run_render

    page.goto(f"/campaigns/{campaign.pk}/play-sessions/")
    page.get_by_test_id("print-chronicle").get_by_role("button", name="Print the chronicle").click()
    expect(page).to_have_url(re.compile(r"/sheets/\d+/$"))
    render_id = queued.pop()
    assert beside_the_server(lambda: run_render(render_id)) == "done"  # the worker's part
    # the page learns of the finished render from the live feed (or its slower poll)
    expect(page.get_by_test_id("download")).to_be_visible(timeout=15_000)
    pdf = Path(SheetRender.objects.get(pk=render_id).file.path)
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        first_page = ["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", "-singlefile"]
        subprocess.run([*first_page, str(pdf), f"{SCREENSHOTS}/{name}-1"], check=True)
    _pages, text = pdf_text(pdf.read_bytes())
    return " ".join(text.split())


@pytest.mark.parametrize("key", system_kit.params())
def test_an_evening_told_back_to_each_reader(key, new_page, queued, tmp_path, settings, record_property):
    settings.MEDIA_ROOT = tmp_path / "media"
    module = getattr(system_kit.extras(key), "BROWSER_EVENING", "")
    assert module, f"{key}: its testkit names no BROWSER_EVENING (tests/e2e/evenings/)"
    evening = importlib.import_module(module)
    users, campaign, hero = _table(key)

    gm = new_page()
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/play-sessions/")
    gm.get_by_label("Title").fill("The rope bridge")
    gm.get_by_role("button", name="Start the session").click()
    expect(gm.get_by_role("heading", name="Session 1: The rope bridge")).to_be_visible()
    session = campaign.play_sessions.get()

    player = new_page(390, 844)
    log_in(player, "ana")
    _roll(player, campaign, OPEN_ROLL)
    _roll(gm, campaign, SECRET_ROLL, secret=True)
    told = evening.play(Table(gm, player, campaign, hero, session, users["gm"], users["ana"]))
    record_property("through_services", told.through_services)  # in the JUnit report, by name

    here = f"/campaigns/{campaign.pk}/play-sessions/1/"
    gm.goto(here)
    gm.get_by_role("link", name="End the session").click()
    gm.get_by_role("button", name="End the session").click()
    expect(gm.locator("main")).to_contain_text("Session 1 ended.")
    gm.goto(here)
    _write_note(gm, *SHARED_NOTE, "Shared with the table")
    _write_note(gm, *GM_NOTE, "Game master only")

    # the player's copy: the session page, the recap, search and the chronicle
    player.goto(here)
    main = player.locator("main")
    for seen in ("We crossed the bridge by lantern light", OPEN_ROLL, "made a secret roll", *told.shown):
        expect(main).to_contain_text(seen)
    for secret in (*SECRETS, *told.hidden):
        expect(main).not_to_contain_text(secret)

    player.goto(f"/campaigns/{campaign.pk}/")
    recap = player.get_by_test_id("recap")
    expect(recap.get_by_role("heading", name="Previously on…")).to_be_visible()
    expect(recap).to_contain_text("We crossed the bridge by lantern light")
    for seen in told.recap:  # the system's highlights (a scene that ended in the session)
        expect(recap).to_contain_text(seen)
    for secret in (*SECRETS, *told.hidden):
        expect(recap).not_to_contain_text(secret)
    look(player, f"recap-player-{key}")  # the system's highlights, at 1280 and 390 px (ends at 390)

    player.goto(f"/campaigns/{campaign.pk}/search/?q=lantern")
    main = player.locator("main")
    expect(main.get_by_role("link", name=SHARED_NOTE[0])).to_be_visible()
    expect(main).not_to_contain_text(GM_NOTE[0])
    player.goto(f"/campaigns/{campaign.pk}/search/?q=ferryman")
    # neither the GM's note nor the secret roll (its purpose) is found
    expect(player.locator("#search-summary")).to_contain_text("Nothing found for ferryman")
    for secret in SECRETS:
        expect(main).not_to_contain_text(secret)

    book = _chronicle_text(player, campaign, queued, f"chronicle-pdf-player-{key}")
    assert "We crossed the bridge by lantern light" in book and OPEN_ROLL in book
    for secret in (*SECRETS, *told.hidden):
        assert secret not in book, (key, secret)

    # the GM's copy holds both
    gm.goto(here)
    main = gm.locator("main")
    for seen in (
        "We crossed the bridge by lantern light",
        "drowned brother",
        OPEN_ROLL,
        SECRET_ROLL,
        *told.shown,
    ):
        expect(main).to_contain_text(seen)
    gm.goto(f"/campaigns/{campaign.pk}/")
    expect(gm.get_by_test_id("recap")).to_contain_text("We crossed the bridge by lantern light")
    gm.goto(f"/campaigns/{campaign.pk}/search/?q=ferryman")
    expect(gm.locator("main").get_by_role("link", name=GM_NOTE[0])).to_be_visible()
    expect(gm.locator("main")).to_contain_text(SECRET_ROLL)
    book = _chronicle_text(gm, campaign, queued, f"chronicle-pdf-gm-{key}")
    for seen in ("We crossed the bridge by lantern light", "drowned brother", OPEN_ROLL, SECRET_ROLL):
        assert seen in book, (key, seen)
