"""The dice page's jump links on a phone (issue 49, new-user walk point 1): at 390 px the GM's
fight panel sat thousands of pixels down the page. Near the top, one link per panel (Roll, Check,
Attack, Fight, Log) leads to the panel's heading, by tap or by keyboard, and the heading takes the
focus; a player's page offers no link to the GM's panels."""

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_three_guards import PASSWORD, log_in

WIDTH, HEIGHT = 390, 844


def _in_view(page, heading_id: str) -> bool:
    return page.evaluate(
        """(id) => { const r = document.getElementById(id).getBoundingClientRect();
                     return r.top >= 0 && r.bottom <= window.innerHeight; }""",
        heading_id,
    )


def _top(page, heading_id: str) -> float:
    return page.evaluate(
        "(id) => document.getElementById(id).getBoundingClientRect().top + scrollY", heading_id
    )


def test_the_gm_reaches_each_panel_in_one_tap_at_390_px(new_page, shot, transactional_db):
    from django.contrib.auth import get_user_model

    from campaigns import npc_services, services
    from campaigns.models import Membership, Role

    users = {name: get_user_model().objects.create_user(name, password=PASSWORD) for name in ("gm", "player")}
    campaign = services.create_campaign(users["gm"], name="Chronos Watch", system="timemaster")
    Membership.objects.create(campaign=campaign, user=users["player"], role=Role.PLAYER)
    npc_services.create_npc(campaign, users["gm"], {"name": "Guard 1", "quick": True, "kind": "human"})

    gm = new_page(WIDTH, HEIGHT)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    jumps = gm.get_by_role("navigation", name="Panels of this page")
    expect(jumps.get_by_role("link")).to_have_text(["Roll", "Attack", "Fight", "Log"])
    assert _top(gm, "fight-heading") > 3 * HEIGHT, "the fight panel is no longer far down: test moot"
    shot(gm, "dice-jump-links-390")
    # by tap
    for label, target in (("Fight", "fight-heading"), ("Attack", "attack-heading"), ("Log", "log-heading")):
        gm.evaluate("() => window.scrollTo(0, 0)")
        jumps.get_by_role("link", name=label, exact=True).click()
        expect(gm).to_have_url(f"{gm.url.split('#')[0]}#{target}")
        gm.wait_for_function("(id) => document.activeElement && document.activeElement.id === id", arg=target)
        assert _in_view(gm, target), f"{label}: its heading is not in view after the jump"
    # by keyboard: the link is reached with Tab and followed with Enter; the heading takes the focus
    for label, target in (("Log", "log-heading"), ("Fight", "fight-heading"), ("Roll", "roll-heading")):
        gm.evaluate("() => { window.scrollTo(0, 0); document.activeElement.blur(); }")
        link = jumps.get_by_role("link", name=label, exact=True)
        link.focus()
        expect(link).to_be_focused()
        gm.keyboard.press("Enter")
        gm.wait_for_function("(id) => document.activeElement && document.activeElement.id === id", arg=target)
        assert _in_view(gm, target), f"{label} (keyboard): its heading is not in view"
    assert gm.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    # on a laptop the links lead there too (the log sits beside the forms, in view already)
    gm.set_viewport_size({"width": 1280, "height": 900})
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    jumps.get_by_role("link", name="Fight", exact=True).click()
    gm.wait_for_function("() => document.activeElement && document.activeElement.id === 'fight-heading'")
    assert _in_view(gm, "fight-heading")
    ARTIFACTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(ARTIFACTS / "dice-jump-fight-1280.png"))

    player = new_page(WIDTH, HEIGHT)
    log_in(player, "player")
    player.goto(f"/campaigns/{campaign.pk}/dice/")
    expect(player.get_by_role("heading", name="Roll")).to_be_visible()
    expect(player.get_by_role("link", name="Attack", exact=True)).to_have_count(0)  # the GM's panels
    expect(player.get_by_role("link", name="Fight", exact=True)).to_have_count(0)
