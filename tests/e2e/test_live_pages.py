"""Pages that show play state update from the live feed by themselves (issue 44, finding 2): two
people on one campaign, each in their own browser context, served by uvicorn (ASGI) as make run
serves it. Each page's fallback poll is far longer than what a test waits here, so a page that
updates in time was woken by its topic on the feed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

#: How long a page may take to show what happened: far below every fallback poll it has.
WOKEN_MS = 5_000


def _tempo_conflict():
    from systems.tempo.models import Conflict

    return Conflict.objects.get(campaign__name__startswith="Demo: ", title="The Checkpoint")


def test_a_round_the_gm_rolls_reaches_the_players_open_conflict_page(table, demo):
    conflict = _tempo_conflict()
    rounds = conflict.events.count()
    gm, alice = table("gm"), table("alice")
    alice.goto(f"/conflicts/{conflict.pk}/")
    gm.goto(f"/conflicts/{conflict.pk}/")
    expect(alice.get_by_test_id("latest")).to_contain_text(f"Round {rounds}:")
    alice.wait_for_timeout(500)  # connected
    gm.get_by_role("button", name="Roll both sides").click()
    expect(gm.get_by_test_id("latest")).to_contain_text(f"Round {rounds + 1}:")
    expect(alice.get_by_test_id("latest")).to_contain_text(f"Round {rounds + 1}:", timeout=WOKEN_MS)
    # and the GM's own second page, whose roll form has a select left at its default
    gm_too = table("gm")
    gm_too.goto(f"/conflicts/{conflict.pk}/")
    gm_too.wait_for_timeout(500)
    gm.get_by_role("button", name="Roll both sides").click()
    expect(gm_too.get_by_test_id("latest")).to_contain_text(f"Round {rounds + 2}:", timeout=WOKEN_MS)


pytestmark = pytest.mark.e2e


def _timemaster():
    from campaigns.models import Campaign

    return Campaign.objects.get(name__startswith="Demo: ", system="timemaster")


def test_a_missions_publication_reaches_the_players_open_mission_and_campaign_pages(table, demo):
    from campaigns import missions
    from campaigns.models import Membership, Mission
    from systems.timemaster import missions as tm_missions
    from tests.campaigns.test_missions import roll_of

    campaign = _timemaster()
    mission = Mission.objects.get(campaign=campaign, title="The Lost Dispatch")
    gm = Membership.objects.get(campaign=campaign, role="gm")
    if mission.status == Mission.Status.PLANNED:
        missions.start_mission(mission, gm.user)
    tm_missions.close_mission(gm, mission, "success", rng=roll_of(500))
    alice, alice_home = table("alice"), table("alice")
    alice.goto(f"/campaigns/{campaign.pk}/missions/{mission.pk}/")
    alice_home.goto(f"/campaigns/{campaign.pk}/")
    facts = alice.locator("section.card").filter(has=alice.get_by_role("heading", name="Briefing"))
    expect(facts).to_contain_text("Closed (result not yet published)")
    expect(facts.get_by_role("link", name="After-action record")).to_have_count(0)
    missions_card = alice_home.locator(".card").filter(has=alice_home.get_by_role("heading", name="Missions"))
    listed = missions_card.locator("li").filter(has_text="The Lost Dispatch")
    expect(listed).to_contain_text("result not yet published")
    alice.wait_for_timeout(500)  # connected
    missions.publish_mission(Mission.objects.get(pk=mission.pk), gm.user)
    expect(facts.get_by_role("link", name="After-action record")).to_have_count(1, timeout=WOKEN_MS)
    expect(facts).not_to_contain_text("not yet published")
    expect(listed).not_to_contain_text("not yet published", timeout=WOKEN_MS)


def test_a_draft_the_gm_finalises_becomes_its_sheet_on_the_owners_open_page(table, demo):
    from django.contrib.auth import get_user_model

    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    campaign = _timemaster()
    owner = get_user_model().objects.get(username="alice")
    draft = character_services.create_draft(campaign, owner, choices=agent_choices(name="Ida Brandt"))
    alice = table("alice")
    alice.goto(f"/characters/{draft.pk}/")
    expect(alice.get_by_text("This character is still being built.")).to_be_visible()
    alice.wait_for_timeout(500)  # connected
    character_services.finalize(draft, is_gm=True)
    expect(alice.get_by_text("This character is still being built.")).to_have_count(0, timeout=WOKEN_MS)
    expect(alice.locator("h1")).to_contain_text("Ida Brandt")
    expect(alice.locator("h1 .badge")).to_have_count(0)


def test_a_sheet_a_worker_renders_reaches_the_open_character_page(
    table, demo, monkeypatch, settings, tmp_path
):
    """The worker is another process: it wakes no stream of the web process directly (no local
    listener), so what brings its event is the web process's poll of the newest event id, as under
    make run. The pages' own polls are made too slow to bring it within the wait."""
    from campaigns.models import Membership
    from campaigns.table import live
    from characters.models import Character
    from sheets import services as sheet_services
    from sheets import views
    from sheets.tasks import run_render
    from sheets.templatetags import sheet_status

    settings.MEDIA_ROOT = str(tmp_path)
    for module in (sheet_services, views, sheet_status):
        monkeypatch.setattr(module, "POLL_SECONDS", 60)
    campaign = _timemaster()
    agent = Character.objects.filter(campaign=campaign, owner__username="alice", status="active").first()
    membership = Membership.objects.get(campaign=campaign, user=agent.owner)
    render, _ = sheet_services.request_render(
        agent.owner, "character", campaign, membership, agent, campaign.paper
    )
    alice, alice_render = table("alice"), table("alice")
    alice.goto(f"/characters/{agent.pk}/")
    alice_render.goto(f"/sheets/{render.pk}/")
    box = alice.locator("#sheet-box")
    expect(box.locator("#render-status")).not_to_have_attribute("data-status", "done")
    alice.wait_for_timeout(500)  # connected
    monkeypatch.setattr(live, "local_listeners", [])
    assert run_render(render.pk) == "done"
    expect(box.get_by_test_id("download")).to_be_visible(timeout=WOKEN_MS)
    expect(alice_render.get_by_test_id("download")).to_be_visible(timeout=WOKEN_MS)
