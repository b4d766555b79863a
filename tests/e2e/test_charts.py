"""The charts in a real browser at 390 and 1280 px: the GM's audit of a mission decided at the
threshold (which mistake mattered), the campaign report for the GM and for a player, and the
player's after-action record. On each: no serious or critical axe-core violation, nothing wider
than the screen, every picture loaded with its alt text and its table of numbers beside it, and no
Content-Security-Policy report (the pictures are images: their styles stay inside them).

DOSSIER_SCREENSHOTS=docs/screenshots/charts saves a full-page screenshot of each page and width.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns import missions
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, mistake, new_agent, roll_of, started
from tests.e2e.test_every_page import axe_problems, resize

PASSWORD = "a-long-test-password"  # tests/conftest.py make_user
SCREENSHOTS = os.environ.get("DOSSIER_SCREENSHOTS", "")
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"
PICTURES = """() => [...document.querySelectorAll('img.chart-picture')].map(img => ({
  loaded: img.complete && img.naturalWidth > 0, alt: img.alt,
  table: !!img.closest('figure').querySelector('table caption'),
}))"""


def played(world):
    """Eight missions of two agents: the first decided at the threshold (roll = total), the others
    with mistakes of every kind, one hidden from players each, all published but the last."""
    agents = [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]
    tie = started(world, agents, title="Vienna at the threshold", significance_rating=500)
    mistake(world, tie, "event_changed", 100, description="Clock tower burnt")
    mistake(world, tie, "npc_death", 50, description="Coachman")
    mistake(world, tie, "other", 30, description="Kept a newspaper", shown_to_players=False)
    tie = tm_missions.close_mission(gm_membership(world), tie, "success", rng=roll_of(180))
    missions.publish_mission(tie, world.users["gm"])
    for n in range(1, 8):
        year = 1500 + 10 * n
        mission = started(
            world,
            agents,
            title=f"Mission {n + 1}",
            significance_rating=300 + 60 * n,
            start_year=year,
            end_year=year,
        )
        mistake(world, mission, "event_changed", 20 * n, description="a date moved")
        mistake(world, mission, "npc_death", 15 + n, description="a guard")
        mistake(world, mission, "other", 25, description="hidden", shown_to_players=False)
        closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(90 * n + 40))
        if n < 7:
            missions.publish_mission(closed, world.users["gm"])
    return tie


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def look(page, name: str) -> list[str]:
    """Every problem of the page at 390 and at 1280 px; screenshots when asked for."""
    problems = []
    for width in (390, 1280):
        resize(page, width)
        if page.evaluate(OVERFLOW):
            problems.append(f"{name} at {width}: wider than the screen")
        for picture in page.evaluate(PICTURES):
            if not (picture["loaded"] and picture["alt"] and picture["table"]):
                problems.append(f"{name} at {width}: a picture without its image, alt or table: {picture}")
        problems += [f"{name} at {width}: {p}" for p in axe_problems(page)]
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SCREENSHOTS}/{name}-{width}.png", full_page=True)
    return problems


@pytest.mark.django_db(transaction=True)
def test_the_charts_read_well_on_a_phone_and_a_laptop_for_the_gm_and_a_player(new_page, world):
    tie = played(world)
    c = world.campaign.pk
    problems = []

    gm = new_page(width=390)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{c}/missions/{tie.pk}/audit/")
    expect(gm.get_by_role("heading", name="Which mistake mattered")).to_be_visible()
    expect(gm.get_by_text("Fewest lines whose removal would have kept history intact")).to_be_visible()
    problems += look(gm, "gm-mission-audit")
    gm.goto(f"/campaigns/{c}/report/")
    expect(gm.get_by_text("Mistakes per mission against significance").first).to_be_visible()
    problems += look(gm, "gm-campaign-report")

    player = new_page(width=390)
    log_in(player, "player")
    player.goto(f"/campaigns/{c}/report/")
    expect(player.get_by_text("Mistakes per mission", exact=True).first).to_be_visible()
    assert "Mission 8" not in player.content()  # closed, not published
    problems += look(player, "player-campaign-report")
    player.goto(f"/campaigns/{c}/missions/{tie.pk}/report/")
    expect(player.get_by_text("Mistakes shown to players").first).to_be_visible()
    problems += look(player, "player-after-action")
    assert problems == []
