"""The roll log in a real browser (issue 48): a player visits the fair-dice page and the browser
keeps the log's signed head; more rolls are made and the next visit checks that the log only grew;
then the server's log is rewritten in the database (two rolls swapped in the table's tree, as a
dishonest server would), and the player's next visit, to the dice page or the fair-dice page,
shows the broken log in plain words."""

from __future__ import annotations

from playwright.sync_api import expect

from campaigns.table import rolling
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_fair_dice import PASSWORD, log_in


def _rewrite_the_tables_log(campaign) -> None:
    from campaigns.models import LogLeaf, LogNode, RollLog, TreeHead
    from campaigns.table import rolllog

    log = RollLog.objects.get(campaign=campaign, audience="table")
    leaves = [leaf.data for leaf in LogLeaf.objects.filter(log=log).order_by("index")]
    leaves[0], leaves[1] = leaves[1], leaves[0]
    LogLeaf.objects.filter(log=log).delete()
    LogNode.objects.filter(log=log).delete()
    TreeHead.objects.filter(log=log).delete()
    RollLog.objects.filter(pk=log.pk).update(size=0, frontier=[])
    for leaf in leaves:  # the same rolls, in another order, in a tree made again and signed anew
        rolllog._push(campaign.pk, [("table", leaf, leaf["roll"], "")])


def test_a_player_sees_the_broken_log_after_the_server_rewrites_it(new_page, transactional_db):
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role

    users = {n: get_user_model().objects.create_user(username=n, password=PASSWORD) for n in ("chief", "ana")}
    campaign = services.create_campaign(users["chief"], name="Time Corps", system="timemaster")
    ana = Membership.objects.create(campaign=campaign, user=users["ana"], role=Role.PLAYER)
    for count in (1, 2, 3):
        rolling.record_roll(ana, kind="d10", count=count, purpose=f"roll {count}")

    player = new_page(390, 844)
    log_in(player, "ana")
    fair = f"/campaigns/{campaign.pk}/dice/fair/"
    player.goto(fair)
    status = player.get_by_test_id("roll-log-status")
    expect(status).to_contain_text("this browser now keeps its head (3 entries)")
    expect(status).not_to_contain_text("could not check the head's signature")  # WebCrypto's Ed25519
    kept = player.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('dossier-roll-log:'))")
    assert kept == [f"dossier-roll-log:{users['ana'].pk}:campaign-{campaign.pk}/table"]

    rolling.record_roll(ana, kind="d6", count=2, purpose="a later roll")
    player.goto(fair)
    expect(status).to_contain_text("it only grew since your last visit (4 entries now)")
    expect(status).to_have_attribute("data-state", "ok")
    player.get_by_test_id("roll-log").screenshot(path=str(ARTIFACTS / "roll-log-checked-390.png"))

    _rewrite_the_tables_log(campaign)
    player.goto(f"/campaigns/{campaign.pk}/dice/")  # the dice page checks it too
    expect(status).to_have_attribute("data-state", "broken")
    expect(status).to_contain_text("the log was rewritten since the head you kept")
    player.screenshot(path=str(ARTIFACTS / "roll-log-dice-page-broken-390.png"))
    player.goto(fair)
    expect(status).to_have_attribute("data-state", "broken")
    expect(status).to_have_attribute("role", "alert")
    expect(status).to_contain_text("Broken log")
    expect(status).to_contain_text("the log was rewritten since the head you kept")
    player.get_by_test_id("roll-log").screenshot(path=str(ARTIFACTS / "roll-log-broken-390.png"))
    # the browser keeps the head it trusted, not the rewritten one: the next visit says it again
    player.set_viewport_size({"width": 1280, "height": 900})
    player.goto(fair)
    expect(status).to_contain_text("Broken log")
    player.get_by_test_id("roll-log").screenshot(path=str(ARTIFACTS / "roll-log-broken-1280.png"))


def test_a_new_roll_from_the_live_feed_is_checked_without_a_reload(table, transactional_db):
    """On the ASGI server, with the live feed: a roll made while the player's page is open reaches
    it as a live event, and the page checks the log again (a consistency proof from the head it
    kept a moment before)."""
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role

    users = {
        n: get_user_model().objects.create_user(username=n, password=f"dossier-{n}") for n in ("chief", "ana")
    }
    campaign = services.create_campaign(users["chief"], name="Time Corps", system="timemaster")
    ana = Membership.objects.create(campaign=campaign, user=users["ana"], role=Role.PLAYER)
    rolling.record_roll(ana, kind="d10", count=2, purpose="before the visit")
    player = table("ana")
    player.goto(f"/campaigns/{campaign.pk}/dice/fair/")
    expect(player.locator("main[data-live-feed]")).to_have_count(1)
    status = player.get_by_test_id("roll-log-status")
    expect(status).to_contain_text("this browser now keeps its head (1 entry)")
    player.wait_for_timeout(500)  # connected
    rolling.record_roll(ana, kind="d6", count=2, purpose="while the page is open")
    expect(status).to_contain_text("it only grew since your last visit (2 entries now)")
