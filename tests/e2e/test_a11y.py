"""Accessibility basics on the main pages, in a real browser.

For every page: each visible input, select and textarea has an accessible name from a <label>
(for= or wrapping), aria-label or aria-labelledby; there is exactly one h1 and one main landmark;
and from the top of the page the Tab key reaches the main form's submit button (the form with the
most fields; on a page without a form, the first control in main) and the focused control shows a
visible outline.
Every problem on every page is collected, so one run lists them all.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from campaigns.table import rolling

PASSWORD = "zebra-lantern-93"
MAX_TABS = 400

UNLABELLED = """() => {
  const text = el => (el ? el.textContent : '').trim();
  const name = el => [...(el.labels || [])].map(text).join(' ').trim()
    || (el.getAttribute('aria-label') || '').trim()
    || (el.getAttribute('aria-labelledby') || '').split(/\\s+/)
         .map(id => text(document.getElementById(id))).join(' ').trim();
  return [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
    .filter(el => !name(el))
    .map(el => el.outerHTML.slice(0, 120));
}"""

LANDMARKS = """() => ({
  h1: document.querySelectorAll('h1').length,
  main: document.querySelectorAll('main, [role=main]').length,
})"""

# Mark the main form's submit button (or, without a form, the first control in main); say what.
# Visible: laid out and not folded away (a closed <details> keeps its content's boxes in Chromium,
# but neither shows it nor lets the keyboard reach it: the character page's condition form).
MARK_TARGET = """() => {
  const visible = el => el.getClientRects().length > 0
    && (el.checkVisibility ? el.checkVisibility() : true);
  const forms = [...document.querySelectorAll('main form')].filter(visible);
  const size = f => [...f.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter(visible).length;
  let target = null;
  if (forms.length) {
    const main = forms.reduce((best, f) => (size(f) > size(best) ? f : best), forms[0]);
    target = [...main.querySelectorAll('button, input[type=submit]')]
      .filter(b => visible(b) && (b.type === 'submit')).pop() || null;
  }
  if (!target) {
    target = [...document.querySelectorAll('main a[href], main button')].filter(visible)[0] || null;
  }
  if (!target) return null;
  target.setAttribute('data-a11y-target', '1');
  return (target.textContent || target.value || '').trim().slice(0, 60);
}"""

FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {target: false, visible: false, what: 'nothing'};
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow && style.boxShadow !== 'none';
  return {
    target: el.hasAttribute('data-a11y-target'),
    visible: Boolean(outline || shadow),
    what: el.outerHTML.slice(0, 100),
  };
}"""


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def problems_on(page, path: str) -> list[str]:
    """Everything the basic checks find wrong on one page."""
    response = page.goto(path)
    where = f"{path} ({page.url.split('/', 3)[-1]})"
    if response is None or response.status >= 400:
        return [f"{where}: answered {response.status if response else 'nothing'}"]
    out = [f"{where}: unlabelled field {html}" for html in page.evaluate(UNLABELLED)]
    counts = page.evaluate(LANDMARKS)
    if counts["h1"] != 1:
        out.append(f"{where}: {counts['h1']} h1 headings (want exactly one)")
    if counts["main"] != 1:
        out.append(f"{where}: {counts['main']} main landmarks (want exactly one)")
    name = page.evaluate(MARK_TARGET)
    if name is None:
        return [*out, f"{where}: no control in main to reach by keyboard"]
    page.locator("body").focus()
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS)
        if focus["target"]:
            if not focus["visible"]:
                out.append(f"{where}: focus on {name!r} has no visible outline")
            break
    else:
        out.append(f"{where}: Tab never reached {name!r} in {MAX_TABS} presses")
    return out


@pytest.fixture
def campaign_world(transactional_db):
    """A TIMEMASTER campaign: a GM, a player with a finished agent and a draft, an NPC, a roll."""
    from django.contrib.auth import get_user_model

    from campaigns import npc_services, services
    from campaigns.models import Membership, Role
    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    users = {name: get_user_model().objects.create_user(name, password=PASSWORD) for name in ("gm", "player")}
    campaign = services.create_campaign(users["gm"], name="Chronos Watch", system="timemaster")
    player = Membership.objects.create(campaign=campaign, user=users["player"], role=Role.PLAYER)
    agent = character_services.finalize(
        character_services.create_draft(campaign, users["player"], choices=agent_choices()),
        is_gm=True,
        rng=random.Random(3),
    )
    draft = character_services.create_draft(
        campaign, users["player"], choices=agent_choices(name="Draft Dora", ability_method="manual")
    )
    character_services.append_entry(
        agent, {"kind": "sp_awarded", "type": "bonus", "session": "s1", "amount": 10}, users["gm"]
    )
    npc = npc_services.create_npc(campaign, users["gm"], {"name": "Countess Ilse", "significance_rating": 5})
    rolling.record_roll(player, kind="d6", count=2, purpose="warm-up")
    return {"campaign": campaign, "agent": agent, "draft": draft, "npc": npc}


def test_main_pages_have_labels_one_h1_a_main_landmark_and_keyboard_reachable_submit(
    new_page, campaign_world
):
    from systems.timemaster.wizard import STEPS

    c = campaign_world["campaign"].pk
    agent, draft, npc = campaign_world["agent"].pk, campaign_world["draft"].pk, campaign_world["npc"].pk
    problems: list[str] = []

    anonymous = new_page()
    for path in ("/accounts/login/", "/accounts/signup/"):
        problems += problems_on(anonymous, path)

    gm = new_page()
    log_in(gm, "gm")
    for path in (
        "/campaigns/",
        "/campaigns/new/",
        f"/campaigns/{c}/",
        f"/campaigns/{c}/members/",
        f"/campaigns/{c}/dice/",
        f"/campaigns/{c}/npcs/",
        f"/campaigns/{c}/npcs/{npc}/",
        f"/campaigns/{c}/characters/",
        f"/characters/{agent}/",
        f"/characters/{agent}/history/",
        f"/campaigns/{c}/sheets/",
    ):
        problems += problems_on(gm, path)

    player = new_page(390, 844)  # a phone
    log_in(player, "player")
    for path in (
        f"/campaigns/{c}/dice/",
        f"/campaigns/{c}/dice/fair/",  # with the roll log's check (issue 48)
        f"/campaigns/{c}/characters/",
        *(f"/characters/{draft}/build/{step}/" for step, _ in STEPS),
        f"/characters/{agent}/",
        f"/campaigns/{c}/sheets/",
    ):
        problems += problems_on(player, path)

    assert problems == [], "\n".join(problems)


def test_the_checks_catch_an_unlabelled_field_a_missing_main_and_an_invisible_focus(new_page):
    page = new_page()
    page.set_content(
        """<style>button:focus { outline: none; }</style>
        <h1>One</h1><h1>Two</h1>
        <div><form><label for="a">A</label><input id="a"><input id="b" name="b"><label for="c"> </label>
        <select id="c"></select><input type="hidden" name="h">
        <button type="submit">Go</button></form></div>"""
    )
    unlabelled = page.evaluate(UNLABELLED)
    assert len(unlabelled) == 2 and 'id="b"' in unlabelled[0] and 'id="c"' in unlabelled[1]
    assert page.evaluate(LANDMARKS) == {"h1": 2, "main": 0}
    page.set_content(
        """<style>button:focus { outline: none; }</style><main><h1>Form</h1>
        <form><label>Name <input name="n"></label><button type="submit">Send</button></form></main>"""
    )
    assert page.evaluate(UNLABELLED) == []
    assert page.evaluate(MARK_TARGET) == "Send"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    focus = page.evaluate(FOCUS)
    assert focus["target"] and not focus["visible"]
