"""A group's first hour, in a real browser (issue 30): the character page updates by itself from
"being prepared" to the download, and the D6 encounter's refresh keeps a message and a field being
typed in."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.e2e.test_every_page import axe_problems, log_in, resize


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", stdout=StringIO())


@pytest.fixture
def queued(monkeypatch):
    """Render ids sent to the broker, caught instead of sent (no worker shares this database)."""
    from sheets import prerender, tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.render_sheet, "delay", lambda render_id: sent.append(render_id))
    jobs: list[tuple] = []
    monkeypatch.setattr(
        prerender.prerender_character, "apply_async", lambda args, countdown: jobs.append(args)
    )
    return sent, jobs


def test_a_freshly_changed_character_page_updates_itself_to_the_download(new_page, demo, queued):
    from characters import services as character_services
    from characters.models import Character
    from sheets import prerender
    from sheets.tasks import run_render

    sent, jobs = queued
    hero = Character.objects.get(campaign__system="timemaster", owner__username="alice", status="active")
    gm = hero.campaign.memberships.get(role="gm").user
    character_services.append_entry(
        hero, {"kind": "sp_awarded", "type": "bonus", "session": 9, "amount": 10}, gm
    )
    hero.refresh_from_db()
    page = new_page(390, 844)
    log_in(page, "alice")
    page.goto(f"/characters/{hero.pk}/")
    # the print box is on the first screen of a phone, folded to a small button (issue 44: the
    # sheet reads first); opened, it says the sheet is being prepared
    assert page.locator("#sheet-status").bounding_box()["y"] < 844
    page.get_by_test_id("sheet-print").locator("summary").click()
    expect(page.get_by_text("being prepared")).to_be_visible()
    assert axe_problems(page) == []
    resize(page, 1280)
    assert axe_problems(page) == []
    # the worker's part: the debounced job asks for the renders, the renders run
    for character_id, revision in jobs or [(hero.pk, hero.revision)]:
        prerender.run_prerender(character_id, revision)
    for render_id in sent:
        run_render(render_id)
    expect(page.get_by_test_id("download")).to_be_visible(timeout=15_000)


def test_the_encounter_refresh_keeps_a_typed_result_and_a_message(new_page, demo):
    from campaigns.models import Campaign, Membership
    from systems.d6 import services as d6
    from systems.d6.views import POLL_SECONDS

    campaign = Campaign.objects.get(name__startswith="Demo: ", system="d6")
    encounter = campaign.d6_encounters.get(status="running")
    gm = Membership.objects.get(campaign=campaign, role="gm")
    acting = encounter.state["order"][0]
    d6.record_event(encounter, gm, {"type": "declare", "participant": acting, "actions": 2})
    page = new_page(390, 844)
    log_in(page, "gm")
    page.goto(f"/campaigns/{campaign.pk}/encounters/{encounter.pk}/")
    page.get_by_label("Roll with").select_option(index=1)
    page.get_by_role("button", name="Act", exact=True).click()
    expect(page.get_by_test_id("pending")).to_be_visible()
    expect(page.get_by_role("button", name="Done", exact=True)).to_be_disabled()
    # something else happens meanwhile (a player's screen, another tab): the panel has news
    page.get_by_label("Result", exact=True).fill("a glancing blow")
    page.get_by_label("Result", exact=True).blur()
    page.wait_for_timeout((POLL_SECONDS * 2 + 1) * 1000)
    expect(page.get_by_label("Result", exact=True)).to_have_value("a glancing blow")
    # a refusal's message stays on screen through the refreshes
    page.get_by_label("Result", exact=True).fill("")
    page.get_by_text("Move up, knock out, other rolls").click()
    page.get_by_label("Or a code (damage, resistance)").fill("3Q")
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.get_by_test_id("errors")).to_be_visible()
    page.wait_for_timeout((POLL_SECONDS * 2 + 1) * 1000)
    expect(page.get_by_test_id("errors")).to_be_visible()
    assert axe_problems(page) == []


def test_on_a_phone_the_main_actions_and_results_are_near(new_page, demo):
    from campaigns.models import Campaign

    tempo = Campaign.objects.get(name__startswith="Demo: ", system="tempo")
    conflict = tempo.tempo_conflicts.get(status="running")
    page = new_page(390, 844)
    log_in(page, "gm")
    page.goto(f"/conflicts/{conflict.pk}/")
    # the tabs row scrolls sideways and shows it (scroll shadows at the edge with more tabs)
    tabs = page.locator("nav.tabs")
    assert tabs.evaluate("t => t.scrollWidth > t.clientWidth")
    assert "radial-gradient" in tabs.evaluate("t => getComputedStyle(t).backgroundImage")
    # the round's form starts on the first screen, and its result comes back right by the button
    assert page.get_by_role("heading", name="Roll a round").bounding_box()["y"] < 844
    page.get_by_role("button", name="Roll both sides").click()
    latest = page.get_by_test_id("latest")
    expect(latest).to_contain_text("Round 2")
    expect(latest).to_be_in_viewport()
    assert axe_problems(page) == []
