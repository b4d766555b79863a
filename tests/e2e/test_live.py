"""The live table in a browser (issue 32): two people on one campaign, each in their own browser
context, served by uvicorn (ASGI) as make run serves it. A roll the player makes appears in the
GM's dice page and campaign page without a reload; a secret roll of the GM appears to the player
only as made, and its result once the GM shares it."""

from __future__ import annotations

from playwright.sync_api import expect


def _campaign():
    from campaigns.models import Campaign

    return Campaign.objects.get(name__startswith="Demo: ", system="timemaster")


def _roll_from_form(page, purpose: str, secret: bool = False):
    form = page.locator("form").filter(has=page.get_by_label("What for")).first
    form.get_by_label("What for").fill(purpose)
    if secret:
        form.get_by_label("Secret (the table sees only that it was made)").check()
    form.get_by_role("button", name="Roll", exact=True).click()


def test_a_players_roll_reaches_the_gms_dice_page_and_campaign_page_without_a_reload(table, demo):
    campaign = _campaign()
    gm_dice, gm_home, alice = table("gm"), table("gm"), table("alice")
    gm_dice.goto(f"/campaigns/{campaign.pk}/dice/")
    gm_home.goto(f"/campaigns/{campaign.pk}/")
    for page in (gm_dice, gm_home):
        expect(page.locator("main[data-live-feed]")).to_have_count(1)
    gm_dice.wait_for_timeout(500)  # connected
    alice.goto(f"/campaigns/{campaign.pk}/dice/")
    _roll_from_form(alice, "Pick the lock of the archive")
    expect(alice.locator("#roll-log li").filter(has_text="Pick the lock of the archive")).to_have_count(1)
    for page in (gm_dice, gm_home):
        line = page.locator("#roll-log li").filter(has_text="Pick the lock of the archive")
        expect(line).to_have_count(1)
        expect(line).to_contain_text("alice rolled")
    # the roller's own stream brings the same line: replaced in place, never twice
    alice.wait_for_timeout(1000)
    expect(alice.locator("#roll-log li").filter(has_text="Pick the lock of the archive")).to_have_count(1)


def test_a_dice_log_filtered_by_a_mission_takes_that_missions_new_rolls_only(table, demo):
    campaign = _campaign()
    mission = campaign.missions.order_by("id").first()
    gm, alice = table("gm"), table("alice")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    gm.locator("#log-mission").select_option(str(mission.pk))  # the filter (htmx swaps the log)
    gm.wait_for_timeout(800)  # filtered and connected
    alice.goto(f"/campaigns/{campaign.pk}/dice/")
    with alice.expect_response(lambda r: r.request.method == "POST"):  # the form is drawn again after
        _roll_from_form(alice, "Bribe the porter")  # no mission
    expect(alice.locator("#roll-log li").filter(has_text="Bribe the porter")).to_have_count(1)
    form = alice.locator("form").filter(has=alice.get_by_label("What for")).first
    expect(form.get_by_label("What for")).to_have_value("")  # the new form is in
    form.locator("select[name=mission]").select_option(str(mission.pk))
    _roll_from_form(alice, "Read the ledger")
    expect(gm.locator("#roll-log li").filter(has_text="Read the ledger")).to_have_count(1)
    gm.wait_for_timeout(500)
    expect(gm.locator("#roll-log li").filter(has_text="Bribe the porter")).to_have_count(0)


def test_a_secret_roll_shows_the_player_only_that_it_was_made_until_shared(table, demo):
    from campaigns.models import Roll

    campaign = _campaign()
    gm, alice = table("gm"), table("alice")
    alice.goto(f"/campaigns/{campaign.pk}/dice/")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    alice.wait_for_timeout(500)
    _roll_from_form(gm, "Does the sentry wake?", secret=True)
    expect(gm.locator("#roll-log li").filter(has_text="Does the sentry wake?")).to_have_count(1)
    roll = Roll.objects.filter(purpose="Does the sentry wake?").get()
    line = alice.locator(f"#roll-{roll.pk}")
    expect(line).to_contain_text("gm made a secret roll")
    expect(line).not_to_contain_text("Does the sentry wake?")
    expect(line.get_by_test_id("log-sealed")).to_be_visible()
    gm_line = gm.locator(f"#roll-{roll.pk}")
    expect(gm_line).to_contain_text("Does the sentry wake?")
    gm_line.get_by_role("button", name="Share the result").click()
    expect(line).to_contain_text("Does the sentry wake?")
    expect(line).to_contain_text(f"→ {roll.total}")
    expect(line).to_contain_text("secret, shared")


def _agent_of_alice():
    from characters.models import Character

    return Character.objects.filter(campaign=_campaign(), owner__username="alice", status="active").first()


def _roll_from_the_sheet(page, agent, key: str):
    page.goto(f"/characters/{agent.pk}/")
    page.get_by_test_id(f"roll-{key}").click()
    popover = page.locator(".roll-popover:popover-open")
    expect(popover).to_be_visible()
    popover.get_by_role("button", name="Roll").click()
    expect(popover.get_by_test_id("roll-result")).not_to_be_empty()
    return popover


def test_a_skill_clicked_on_the_players_character_page_reaches_the_gms_feed_without_a_reload(table, demo):
    from campaigns.models import Roll

    campaign, agent = _campaign(), _agent_of_alice()
    gm_dice, gm_home, alice = table("gm"), table("gm"), table("alice")
    gm_dice.goto(f"/campaigns/{campaign.pk}/dice/")
    gm_home.goto(f"/campaigns/{campaign.pk}/")
    gm_dice.wait_for_timeout(500)  # connected
    _roll_from_the_sheet(alice, agent, "skill:pistol")
    roll = Roll.objects.get(character=agent, detail__sheet_roll__key="skill:pistol")
    for page in (gm_dice, gm_home):
        line = page.locator(f"#roll-{roll.pk}")
        expect(line).to_contain_text("alice rolled from the sheet")
        expect(line).to_contain_text("Pistol")
        expect(line).to_contain_text(f"→ {roll.total}")


def test_a_players_secret_check_from_the_sheet_shows_the_gm_the_result_and_the_player_only_that_it_was_made(
    table, demo
):
    from campaigns.models import Roll
    from characters.systems import get_system

    campaign, agent = _campaign(), _agent_of_alice()
    secret = [spec.key for spec in get_system("timemaster").rolls(agent.build) if spec.secret]
    assert secret, "the demo agent has no secret check to roll"
    gm, alice = table("gm"), table("alice")
    gm.goto(f"/campaigns/{campaign.pk}/dice/")
    gm.wait_for_timeout(500)
    popover = _roll_from_the_sheet(alice, agent, secret[0])
    expect(popover).to_contain_text("the game master has the result")
    roll = Roll.objects.get(character=agent, detail__sheet_roll__key=secret[0])
    assert roll.secret and roll.sealed
    gm_line = gm.locator(f"#roll-{roll.pk}")
    expect(gm_line).to_contain_text(f"→ {roll.total}")
    expect(gm_line.get_by_role("button", name="Share the result")).to_be_visible()
    alice.goto(f"/campaigns/{campaign.pk}/dice/")
    mine = alice.locator(f"#roll-{roll.pk}")
    expect(mine).to_contain_text("alice made a secret roll")
    expect(mine.get_by_test_id("log-sealed")).to_be_visible()
    expect(mine).not_to_contain_text(f"→ {roll.total}")


def test_one_tab_more_than_the_cap_says_why_and_connects_once_a_tab_closes(table, demo, settings, shot):
    """Issue 47, finding 2: a browser holds LIVE_STREAMS_PER_SESSION streams of the live table;
    the next tab's stream is refused (429) and the page says so in its own words
    (static/js/live.js), then connects by itself once a tab is closed."""
    settings.LIVE_STREAMS_PER_SESSION = 2
    campaign = _campaign()
    first = table("alice")
    url = f"/campaigns/{campaign.pk}/dice/"
    tabs = [first]
    first.goto(url)
    for _ in range(2):
        tab = first.context.new_page()  # the same browser: the same session
        tab.goto(url)
        tabs.append(tab)
    first.wait_for_timeout(500)
    refused = tabs[2].locator("#live-refused")
    expect(refused).to_contain_text("Too many open pages of this campaign's live table")
    expect(refused).to_contain_text("at most 2 in one browser")
    expect(refused).to_have_attribute("role", "status")
    for tab in tabs[:2]:
        expect(tab.locator("#live-refused")).to_have_count(0)
    shot(tabs[2], "live-too-many-tabs")
    tabs[1].close()
    # the extension retries (0.5 s, 1 s, 2 s ...): the stream opens and the notice goes
    expect(refused).to_have_count(0, timeout=20_000)
