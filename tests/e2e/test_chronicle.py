"""The chronicle in a browser (issue 50, parts 3-4): a player reads "Previously on…" on the
overview, opens the printable handout by keyboard and the timeline with its eras chart and table;
each page fits 1280 and 390 px and axe-core finds no serious problem. The play is made through the
services with fixed dice (tests/campaigns/test_chronicle.py's evening), so no roll decides the test.

DOSSIER_SCREENSHOTS=docs/screenshots/chronicle saves the recap (overview), the handout and the
timeline at 1280 and 390 px (the timeline also as the GM).
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.test_play_sessions import PASSWORD, keyboard_to, log_in, look


def _world():
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role

    users = {
        n: get_user_model().objects.create_user(n, password=PASSWORD)
        for n in ("gm", "player", "other_player", "observer")
    }
    campaign = services.create_campaign(users["gm"], name="Chronos Watch", system="timemaster")
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)

    class World:
        pass

    world = World()
    world.users, world.campaign = users, campaign
    world.membership = {m.user.username: m for m in campaign.memberships.select_related("user")}
    return world


def test_a_player_reads_the_recap_prints_the_handout_and_follows_the_timeline(new_page, transactional_db):
    from tests.campaigns.test_chronicle import _evening

    world = _world()
    _evening(world, hidden=True)
    c = world.campaign.pk

    player = new_page()
    log_in(player, "player")
    player.goto(f"/campaigns/{c}/")
    recap = player.get_by_test_id("recap")
    expect(recap.get_by_role("heading", name="Previously on…")).to_be_visible()
    expect(recap.get_by_role("link", name="Ida Brandt took a fatal blow.")).to_be_visible()
    expect(recap).not_to_contain_text("Rome")
    expect(recap).not_to_contain_text("uncle")
    recap.scroll_into_view_if_needed()
    look(player, "recap-player")

    handout = recap.get_by_role("link", name="Printable handout")
    keyboard_to(player, handout)
    player.keyboard.press("Enter")
    expect(player.get_by_role("heading", name="Previously on… Session 1: The Vienna evening")).to_be_visible()
    player.emulate_media(media="print")
    expect(player.get_by_role("navigation", name="Campaign")).to_be_hidden()
    player.emulate_media(media="screen")
    look(player, "handout-player")

    player.goto(f"/campaigns/{c}/timeline/")
    expect(player.get_by_role("heading", name="On the table's calendar")).to_be_visible()
    expect(player.get_by_role("link", name="Session 1: The Vienna evening")).to_be_visible()
    expect(player.get_by_role("img", name="For each century, the missions sent there")).to_be_visible()
    expect(player.get_by_role("region", name="The eras the agents have been to: the numbers")).to_be_visible()
    expect(player.locator("main")).not_to_contain_text("Rome")
    look(player, "timeline-player")

    gm = new_page()
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{c}/timeline/")
    expect(gm.get_by_role("link", name="Rome")).to_be_visible()
    look(gm, "timeline-gm")
