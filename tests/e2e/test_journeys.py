"""The three user journeys of Dossier, end to end in a real browser (issue 9), each on its own world:

1. a campaign group: a GM signs up, creates a TIMEMASTER campaign and invites two players, who sign
   up, join and build agents through the wizard; the GM runs two missions and publishes them; the
   players shop and watch rank/grade and Success Points change on their agents' pages;
2. a GM auditing: a second GM opens a published mission's audit page, finds a wrong mistake entry,
   reverses it with a reason, and sees the awards worked out again as ledger entries, with the
   agent's history saying who did what;
3. a player downloading: a player asks for their sheet on the Sheets tab, a real Celery worker
   renders it, and the player downloads the PDF; then the party bundle.

Screenshots go to tests/e2e/artifacts/ (ignored by git).
"""

from __future__ import annotations

import io
import random
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.characters.conftest import agent_choices
from tests.e2e.journey_steps import (
    Agent,
    HighRoll,
    MissionPlan,
    build_agent_as_player,
    close_as_completed,
    fact,
    finalize_as_gm,
    log_in,
    plan_and_start_mission,
    publish,
    record_mistake,
    result_section,
    sign_up,
    tab,
    wait_and_download,
)

CAMPAIGN = "Chronos Watch"


def open_campaign(page, name=CAMPAIGN):
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Campaigns").click()
    page.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()


def open_agent(page, agent_name, campaign=CAMPAIGN):
    open_campaign(page, campaign)
    tab(page, "Characters")
    page.locator("#character-list").get_by_role("link", name=agent_name).click()
    expect(page.get_by_role("heading", name=agent_name)).to_be_visible()


def standing(page) -> tuple[int, str]:
    """(banked Success Points, rank/grade) as the agent's page shows them."""
    return int(page.get_by_test_id("success-points").inner_text()), page.get_by_test_id(
        "rank-grade"
    ).inner_text()


# -- 1. a campaign group ------------------------------------------------------------------------
PLAYERS = {
    # username: (the agent they build, the skill they raise in the shop, viewport)
    "ada": (Agent("Ada Stone"), "Pistol", (1280, 900)),
    "bo": (
        Agent("Bo Reyes", first_skill="pistol", second_skill="investigation"),
        "Investigation",
        (390, 844),
    ),
}


def test_a_campaign_group_plays_two_missions_and_sees_its_agents_advance(new_page, shot, transactional_db):
    gm = new_page()
    gm.goto("/accounts/signup/")
    sign_up(gm, "chief")
    expect(gm.get_by_role("heading", name="Your campaigns")).to_be_visible()
    gm.get_by_role("link", name="New campaign").click()
    gm.get_by_label("Campaign name").fill(CAMPAIGN)
    gm.get_by_label("Game system").select_option(label="TIMEMASTER")
    gm.get_by_role("button", name="Create campaign").click()
    expect(gm.get_by_role("heading", name=CAMPAIGN)).to_be_visible()

    tab(gm, "Members")
    gm.get_by_label("Maximum uses (blank: any)").fill("2")
    gm.get_by_role("button", name="Create invitation").click()
    link = gm.get_by_label("Invitation link").first.input_value()

    pages = {}
    for username, (agent, _, viewport) in PLAYERS.items():
        player = pages[username] = new_page(*viewport)
        player.goto(link)
        player.get_by_role("main").get_by_role("link", name="Sign up").click()
        sign_up(player, username)
        player.get_by_role("button", name="Join as a player").click()
        expect(player.get_by_role("heading", name=CAMPAIGN)).to_be_visible()
        build_agent_as_player(player, agent)
    shot(pages["bo"], "journey1-player-review-phone")

    gm.reload()
    members = gm.get_by_role("table").filter(has_text="Who is in the campaign")
    for username in PLAYERS:
        expect(members.get_by_role("row").filter(has_text=username)).to_contain_text("Player")
    invitations = gm.get_by_role("table").filter(has_text="Invitation links")
    expect(invitations.locator("tbody tr")).to_contain_text("2 / 2")  # one link, used twice
    for agent, _, _ in PLAYERS.values():
        finalize_as_gm(gm, CAMPAIGN, agent.name)
    labels = tuple(f"{agent.name} ({username})" for username, (agent, _, _) in PLAYERS.items())

    # Mission 1: a clean run. With no mistakes the significance check cannot fail (ruling 4), so
    # the pool is the whole significance, split two ways.
    open_campaign(gm)
    plan_and_start_mission(gm, MissionPlan("The Vienna clockmaker", 500, "Vienna", 1805, labels))
    expect(gm.locator("#tally")).to_contain_text("No mistakes recorded.")
    verdict, awards = close_as_completed(gm)
    assert verdict == "History intact"
    expect(fact(result_section(gm), "Success Point pool")).to_have_text("500")
    assert {name: (a.regular, a.grade_step) for name, a in awards.items()} == {
        "Ada Stone": (250, True),
        "Bo Reyes": (250, True),
    }
    publish(gm)
    shot(gm, "journey1-gm-mission1-published")

    banked = {}
    for username, (agent, skill, _) in PLAYERS.items():
        player = pages[username]
        open_agent(player, agent.name)
        assert standing(player) == (250, "Trainee/1")
        player.get_by_test_id("shop-link").click()
        expect(player.get_by_test_id("shop-balance")).to_have_text("250")
        buy = player.get_by_role("button", name=re.compile(rf"^Buy {skill}: Specialist to Expert for \d+ "))
        cost = int(re.search(r"for (\d+) Success Points", buy.get_attribute("aria-label")).group(1))
        buy.click()
        player.get_by_role("dialog").get_by_role("button", name="Buy").click()  # the confirm step
        expect(player.get_by_test_id("shop-balance")).to_have_text(str(250 - cost))
        player.get_by_role("link", name="back to the character").click()
        expect(player.get_by_test_id("skills").get_by_role("row").filter(has_text=skill)).to_contain_text(
            "Expert"
        )
        banked[agent.name] = 250 - cost
        assert standing(player) == (banked[agent.name], "Trainee/1")
    shot(pages["bo"], "journey1-player-after-shop-phone")

    # Mission 2: two small mistakes. The check is rolled for real, so what follows is read off the
    # page: the verdict, and each agent's award and grade step.
    open_campaign(gm)
    plan_and_start_mission(gm, MissionPlan("The London fire", 600, "London", 1666, labels))
    record_mistake(gm, "NPC death", "A night watchman drowned in the Thames", 12)
    record_mistake(gm, "Event changed", "The baker's shop opened an hour late", 8)
    expect(gm.locator("#tally")).to_contain_text("total 20")
    verdict, awards = close_as_completed(gm)
    assert verdict in ("History intact", "History changed")
    expect(result_section(gm)).to_contain_text(re.compile(r"Significance roll \(secret\)\s*\d+"))
    for award in awards.values():  # intact: (600 - 20) / 2 each and a grade; changed: nothing
        assert (award.regular, award.grade_step) == (
            (290, True) if verdict == "History intact" else (0, False)
        )
    shot(gm, "journey1-gm-mission2-closed")
    publish(gm)

    for username, (agent, _, _) in PLAYERS.items():
        player = pages[username]
        award = awards[agent.name]
        player.reload()
        assert standing(player) == (banked[agent.name] + award.regular, f"Trainee/{1 + award.grade_step}")
        open_campaign(player)
        tab(player, "Missions")
        player.get_by_role("row").filter(has_text="The London fire").get_by_role("link").first.click()
        player.get_by_role("link", name="After-action record").click()
        expect(player.locator("main")).to_contain_text(verdict)
        expect(player.get_by_role("row").filter(has_text=agent.name)).to_contain_text(str(award.regular))
    shot(pages["ada"], "journey1-player-after-action")


# -- 2. a GM auditing ---------------------------------------------------------------------------
@pytest.fixture
def published_mission_with_a_wrong_entry(transactional_db, django_user_model):
    """A mission run and published by "chief": the tally says the communicator was left behind
    (rated 200) although the agents brought it back. "auditor" is a second GM of the campaign."""
    from campaigns import missions, services
    from campaigns.models import Membership, Role
    from characters import services as character_services
    from systems.timemaster import missions as tm_missions

    users = {
        name: django_user_model.objects.create_user(name, password="zebra-lantern-93")
        for name in ("chief", "auditor", "rookie", "ace")
    }
    campaign = services.create_campaign(users["chief"], name=CAMPAIGN, system="timemaster")
    Membership.objects.create(campaign=campaign, user=users["auditor"], role=Role.GM)
    agents = []
    for username, name in (("rookie", "Ada Stone"), ("ace", "Bo Reyes")):
        Membership.objects.create(campaign=campaign, user=users[username], role=Role.PLAYER)
        draft = character_services.create_draft(campaign, users[username], choices=agent_choices(name=name))
        agents.append(character_services.finalize(draft, is_gm=True, rng=random.Random(3)))
    mission = missions.create_mission(
        campaign,
        {
            "title": "The Vienna clockmaker",
            "briefing": "Keep the clockmaker alive.",
            "parallel": "T-0",
            "place": "Vienna",
            "start_year": 1805,
            "end_year": 1805,
            "significance_rating": 700,
            "historical_changes_chart": [{"low": 0, "high": None, "text": "A clock stops a day early."}],
            "agents": agents,
        },
    )
    missions.start_mission(mission, users["chief"])
    mistake = {"description": "", "rating": None, "npc": None, "equipment_item": "", "shown_to_players": True}
    tm_missions.record_mistake(
        mission,
        users["chief"],
        {
            **mistake,
            "kind": "equipment_left_behind",
            "equipment_item": "communicator",
            "description": "Communicator left at the inn",
        },
    )
    tm_missions.record_mistake(
        mission,
        users["chief"],
        {**mistake, "kind": "npc_death", "rating": 50, "description": "A coachman died"},
    )
    gm = campaign.memberships.get(user=users["chief"])
    mission = tm_missions.close_mission(gm, mission, "success", rng=HighRoll())  # reads 999: intact
    missions.publish_mission(mission, users["chief"])
    return mission


def test_a_gm_reverses_a_wrong_mistake_and_the_awards_are_worked_out_again(
    new_page, shot, published_mission_with_a_wrong_entry
):
    mission = published_mission_with_a_wrong_entry
    gm = new_page()
    log_in(gm, "auditor")
    open_campaign(gm)
    tab(gm, "Missions")
    gm.get_by_role("link", name=mission.title).click()
    gm.get_by_role("link", name="Audit").click()
    expect(gm.get_by_role("heading", name=f"Audit: {mission.title}")).to_be_visible()
    record = gm.locator("section").filter(has=gm.get_by_role("heading", name="Record"))
    expect(fact(record, "Mistakes total")).to_have_text("250")
    expect(fact(record, "Pool, share, remainder")).to_have_text("450, 225 each, 0 not awarded")
    tally = gm.get_by_role("table").filter(has_text="Who recorded what")
    wrong = tally.get_by_role("row").filter(has_text="Communicator left at the inn")
    expect(wrong.locator("td[data-label='Recorded by']")).to_have_text("chief")
    entry = wrong.locator("td[data-label='#']").inner_text()
    ledger = gm.get_by_role("table").filter(has_text="Ledger entries this mission wrote")
    expect(ledger.get_by_role("row").filter(has_text="Success Points awarded")).to_have_count(2)
    expect(ledger.get_by_role("row").filter(has_text="Success Points awarded").first).to_contain_text(
        "225 points"
    )
    shot(gm, "journey2-audit-before")

    gm.get_by_role("link", name="← The mission").click()
    reason = "The agents brought the communicator back"
    gm.get_by_label(f"Why reverse line {entry}").fill(reason)
    gm.get_by_role("button", name=f"Reverse #{entry}").click()
    expect(gm.get_by_role("status")).to_contain_text(
        "The outcome and the agents' awards were worked out again"
    )

    gm.get_by_role("link", name="Audit").click()
    record = gm.locator("section").filter(has=gm.get_by_role("heading", name="Record"))
    expect(fact(record, "Mistakes total")).to_have_text("50")
    expect(fact(record, "Pool, share, remainder")).to_have_text("650, 325 each, 0 not awarded")
    reversal = tally.get_by_role("row").filter(has_text=f"Reverses #{entry}")
    expect(reversal).to_contain_text(reason)
    expect(reversal.locator("td[data-label='Recorded by']")).to_have_text("auditor")
    expect(gm.locator("main")).to_contain_text("Outcomes replaced by corrections")
    expect(gm.get_by_role("listitem").filter(has_text="pool 450, 225 each")).to_be_visible()
    by_auditor = ledger.get_by_role("row").filter(has_text="auditor")
    expect(by_auditor.filter(has_text="reversal")).to_have_count(4)  # per agent: grade step, then award
    expect(by_auditor.filter(has_text="Success Points awarded")).to_have_count(2)
    expect(by_auditor.filter(has_text="Success Points awarded").first).to_contain_text("325 points")
    shot(gm, "journey2-audit-after")

    gm.get_by_role("link", name="← The mission").click()
    gm.get_by_role("link", name="Ada Stone").first.click()
    assert standing(gm) == (325, "Trainee/1")
    gm.get_by_role("link", name="Advancement history").click()
    history = gm.locator("#ledger")
    # each entry reads as a sentence (issue 30), its fields folded under it
    old_award = history.get_by_role("listitem").filter(has_text="Awarded 225 Success Points for")
    expect(old_award).to_contain_text("chief")
    expect(old_award).to_contain_text("Reverted")
    new_award = history.get_by_role("listitem").filter(has_text="Awarded 325 Success Points for")
    expect(new_award).to_contain_text("auditor")
    expect(new_award).not_to_contain_text("Reverted")
    reversals = history.get_by_role("listitem").filter(has_text="Reverses entry #")
    expect(reversals).to_have_count(2)
    for index in range(2):
        expect(reversals.nth(index)).to_contain_text("auditor")
        # the ledger says a correction happened, never the GM's reason (docs/secrets.md)
        expect(reversals.nth(index)).to_contain_text("corrected this mission's tally after closing")
        expect(reversals.nth(index)).not_to_contain_text(reason)
    shot(gm, "journey2-history")

    player = new_page(390, 844)
    log_in(player, "rookie")
    open_agent(player, "Ada Stone")
    assert standing(player) == (325, "Trainee/1")


# -- 3. a player downloading ----------------------------------------------------------------------
@pytest.fixture
def sheet_worker(monkeypatch, settings, tmp_path):
    """A real Celery worker (consumer, broker messages, the task as registered) in a thread of
    this process, on kombu's in-memory broker. It has to be in this process: the browser tests'
    database is SQLite in memory, which no other process can open. Like the live server, the
    worker uses the test's connection to that database."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_prerun
    from django.db import connections

    from config.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    monkeypatch.setitem(app.conf, "broker_url", "memory://")
    monkeypatch.setitem(app.conf, "worker_hijack_root_logger", False)  # leave pytest's logging be
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    shared = connections["default"]
    in_memory = shared.vendor == "sqlite" and shared.is_in_memory_db()

    def use_the_test_database(**_):
        if in_memory:
            connections["default"] = shared

    if in_memory:
        shared.inc_thread_sharing()
    task_prerun.connect(use_the_test_database, weak=False)
    try:
        with start_worker(app, perform_ping_check=False, shutdown_timeout=60):
            yield
    finally:
        task_prerun.disconnect(use_the_test_database)
        if in_memory:
            shared.dec_thread_sharing()


@pytest.fixture
def party(transactional_db, django_user_model):
    from campaigns import services
    from campaigns.models import Membership, Role
    from characters import services as character_services

    gm = django_user_model.objects.create_user("chief", password="zebra-lantern-93")
    campaign = services.create_campaign(gm, name=CAMPAIGN, system="timemaster")
    agents = {}
    for username, name in (("rookie", "Ada Stone"), ("ace", "Bo Reyes")):
        user = django_user_model.objects.create_user(username, password="zebra-lantern-93")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        draft = character_services.create_draft(campaign, user, choices=agent_choices(name=name))
        agents[name] = character_services.finalize(draft, is_gm=True, rng=random.Random(3))
    return campaign, agents


def pdf_pages_and_text(data: bytes) -> tuple[int, str]:
    assert data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_a_player_downloads_their_sheet_and_the_party_bundle(new_page, shot, party, sheet_worker, tmp_path):
    campaign, agents = party
    page = new_page()
    log_in(page, "rookie")
    open_campaign(page)
    tab(page, "Sheets")
    expect(page.get_by_test_id(f"print-character-{agents['Bo Reyes'].pk}")).to_have_count(0)  # not theirs
    page.get_by_test_id(f"print-character-{agents['Ada Stone'].pk}").click()
    expect(page.get_by_role("heading", name="Character sheet: Ada Stone")).to_be_visible()
    shot(page, "journey3-sheet-requested")
    pages, text = pdf_pages_and_text(wait_and_download(page, tmp_path / "sheet.pdf"))
    expect(page.get_by_role("status")).to_contain_text("Ready: 1 page")
    assert pages == 1 and "Ada Stone" in text
    shot(page, "journey3-sheet-ready")

    page.get_by_role("link", name=f"All sheets of {campaign.name}").click()
    page.get_by_test_id("print-bundle").click()
    pages, text = pdf_pages_and_text(wait_and_download(page, tmp_path / "bundle.pdf"))
    assert pages == 2 and "Ada Stone" in text and "Bo Reyes" in text
    shot(page, "journey3-bundle-ready")

    page.get_by_role("link", name=f"All sheets of {campaign.name}").click()
    prints = page.get_by_role("table").filter(has_text="Sheet")
    expect(prints.get_by_role("link", name="Download PDF")).to_have_count(2)
