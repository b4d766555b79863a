"""Fair dice in a real browser (issue 32): with two contexts, a player sets their seed and rolls on
the dice page, a secret check is made for them, the GM shares it and rotates the seed, and the
player's page recomputes every roll of the session with the app's own SHA-256 (no crypto.subtle),
the secret check included, and the stand-alone script verifies the proofs the player downloads;
an edited roll fails there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

from campaigns.table import rolling

PASSWORD = "zebra-lantern-93"


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def test_after_rotation_the_players_page_verifies_every_roll_the_secret_check_included(
    new_page, transactional_db, tmp_path
):
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role, Roll

    users = {n: get_user_model().objects.create_user(username=n, password=PASSWORD) for n in ("chief", "ana")}
    campaign = services.create_campaign(users["chief"], name="Time Corps", system="timemaster")
    ana = Membership.objects.create(campaign=campaign, user=users["ana"], role=Role.PLAYER)

    player = new_page(390, 844)  # a phone
    log_in(player, "ana")
    player.goto(f"/campaigns/{campaign.pk}/dice/fair/")
    commitment = player.get_by_test_id("current-seed").locator("code").first.inner_text()
    player.get_by_label("Your seed").fill("my lucky socks")
    player.get_by_role("button", name="Set my seed").click()
    expect(player.get_by_text("Your seed is set")).to_be_visible()
    player.goto(f"/campaigns/{campaign.pk}/dice/")
    expect(player.get_by_test_id("fair-seed")).to_contain_text(commitment)
    player.get_by_label("Dice", exact=True).select_option("d10")
    player.get_by_label("How many (extra dice for 3d6)").fill("3")
    player.get_by_role("button", name="Roll", exact=True).click()
    expect(player.get_by_test_id("roll-total")).to_be_visible()
    secret = rolling.record_roll(ana, kind="percent", secret_by_rule=True, purpose="Investigation")

    gm = new_page()
    log_in(gm, "chief")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    gm.get_by_role("button", name="Share the result").click()
    gm.goto(f"/campaigns/{campaign.pk}/dice/fair/")
    gm.get_by_role("button", name="Rotate: reveal seed 1").click()
    expect(gm.get_by_text("Seed 1 is revealed")).to_be_visible()

    player.goto(f"/campaigns/{campaign.pk}/dice/fair/")
    player.get_by_test_id("fair-verify").click()
    expect(player.locator("#fair-summary")).to_have_text("2 verified")
    assert player.evaluate("() => typeof crypto.subtle") in ("object", "undefined")  # not used either way
    rolls = Roll.objects.filter(campaign=campaign)
    assert rolls.count() == 2 and all(r.proof.seed.number == 1 for r in rolls)
    assert "my lucky socks" in secret.proof.client_seeds

    # The stand-alone script (Python's standard library only) verifies the same proofs, as the
    # player downloads them with their own session: the secret check included.
    document = player.request.get(f"/api/v1/campaigns/{campaign.pk}/fair-dice/")
    assert document.ok, document.text()
    proofs = tmp_path / "proofs.json"
    proofs.write_bytes(document.body())
    script = Path(__file__).resolve().parents[2] / "scripts" / "verify_rolls.py"
    checked = subprocess.run([sys.executable, "-I", str(script), str(proofs)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 verified" in checked.stdout and "FAILED" not in checked.stdout, checked.stdout

    # The same page over an edited log: the edited roll fails.
    Roll.objects.filter(pk=secret.pk).update(total=secret.total % 100 + 1)
    player.reload()
    player.get_by_test_id("fair-verify").click()
    expect(player.locator("#fair-summary")).to_have_text("1 failed, 1 verified")


def test_a_log_rewritten_in_the_database_shows_as_failed_on_the_players_next_visit(
    new_page, transactional_db
):
    """Issue 48, findings 1 and 3, in the browser's check: the player checks the log, then the
    server's database is rewritten (a roll's modifier moved with its total, before the seed is even
    revealed; after it, another roll moved to a later counter); each next visit shows it failed."""
    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role, Roll, RollProof
    from campaigns.table import fairness

    users = {n: get_user_model().objects.create_user(username=n, password=PASSWORD) for n in ("chief", "ana")}
    campaign = services.create_campaign(users["chief"], name="Time Corps", system="timemaster")
    ana = Membership.objects.create(campaign=campaign, user=users["ana"], role=Role.PLAYER)
    first = rolling.record_roll(ana, kind="d10", count=2, modifier=1, purpose="Climb")
    second = rolling.record_roll(ana, kind="d10", count=1, purpose="Spot")

    player = new_page(390, 844)
    log_in(player, "ana")
    player.goto(f"/campaigns/{campaign.pk}/dice/fair/")
    player.get_by_test_id("fair-verify").click()
    expect(player.locator("#fair-summary")).to_have_text("2 pending")

    Roll.objects.filter(pk=first.pk).update(modifier=first.modifier + 3, total=first.total + 3)
    player.reload()
    player.get_by_test_id("fair-verify").click()
    expect(player.locator("#fair-summary")).to_have_text("1 failed, 1 pending")
    expect(player.locator("#fair-results li[data-verdict=failed]")).to_contain_text(
        "its modifier is not the one recorded when it was made"
    )

    fairness.rotate(campaign.memberships.get(user=users["chief"]))
    RollProof.objects.filter(roll=second).update(counter=8)
    player.reload()
    player.get_by_test_id("fair-verify").click()
    expect(player.locator("#fair-summary")).to_have_text("2 failed")
    expect(player.locator("#fair-results")).to_contain_text("a counter was skipped or a roll removed")


def test_the_page_lists_every_roll_of_the_seed_and_says_why_one_cannot_be_checked(new_page, transactional_db):
    """A new user's walk: the page checked two rolls of seed 1 and said nothing of the others (the
    GM's attacks, stored with no proof; the rolls made after the reveal, under seed 2). Every roll
    the player sees under the seed is listed; one that cannot be checked says why."""
    import random

    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Membership, Role
    from campaigns.table import fairness
    from characters.systems import fair_dice

    users = {n: get_user_model().objects.create_user(username=n, password=PASSWORD) for n in ("chief", "ana")}
    campaign = services.create_campaign(users["chief"], name="Time Corps", system="timemaster")
    ana = Membership.objects.create(campaign=campaign, user=users["ana"], role=Role.PLAYER)
    chief = campaign.memberships.get(user=users["chief"])
    rolling.record_roll(ana, kind="d10", purpose="Climb")
    rolling.enter_roll_by_hand(ana, kind="d6", faces=[5], purpose="Table dice")
    rolling.record_roll(chief, kind="percent", purpose="Old attack", rng=random.Random(7))  # no proof
    rolling.record_roll(ana, kind="percent", secret_by_rule=True, purpose="Investigation")
    fairness.rotate(chief)
    rolling.record_roll(chief, kind="d6", purpose="LIVE TEST")

    player = new_page()
    log_in(player, "ana")
    player.goto(f"/campaigns/{campaign.pk}/dice/fair/")
    expect(player.get_by_test_id("fair-list-note")).to_contain_text("seed 2 is in use now")
    player.get_by_test_id("fair-verify").click()
    expect(player.locator("#fair-summary")).to_have_text("1 by hand, 1 not verifiable, 1 sealed, 1 verified")
    results = player.locator("#fair-results")
    expect(results.locator("li[data-verdict='by hand']")).to_contain_text(fair_dice.WHY_BY_HAND)
    expect(results.locator("li[data-verdict='not verifiable']")).to_contain_text(fair_dice.WHY_UNPROVEN)
    expect(results.locator("li[data-verdict=sealed]")).to_contain_text(fair_dice.WHY_SEALED)
    expect(results.locator("li[data-verdict=verified]")).to_contain_text("Climb")
    player.get_by_role("link", name="The rolls of seed 2").click()
    player.get_by_test_id("fair-verify").click()
    expect(player.locator("#fair-summary")).to_have_text("1 pending")
    expect(results).to_contain_text("LIVE TEST")
