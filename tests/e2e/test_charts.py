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

PASSWORD = "a-long-test-password"  # conftest.py make_user
SCREENSHOTS = os.environ.get("DOSSIER_SCREENSHOTS", "")
OVERFLOW = "() => document.documentElement.scrollWidth > window.innerWidth + 1"
#: Each table in a card: whether it is wider than the card, whether it is wider than the box that
#: shows it (its scrolling wrap, else the card: then some of it is out of sight), and whether that
#: box scrolls.
TABLES = """() => [...document.querySelectorAll('.card table')].map(table => {
  const card = table.closest('.card'), wrap = table.closest('.table-wrap');
  const style = getComputedStyle(card);
  const inner = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const width = table.getBoundingClientRect().width;
  return {caption: (table.caption && table.caption.textContent || '').slice(0, 60),
          wider: width > inner + 1 || (!!wrap && width > wrap.clientWidth + 1),
          scrolls: !!wrap && getComputedStyle(wrap).overflowX === 'auto' && wrap.clientWidth <= inner + 1};
})"""
EMPTY = """() => [...document.querySelectorAll('figure.chart-empty')].map(f => ({
  axes: !!f.querySelector('img, svg, table'),
  text: (f.querySelector('.chart-empty-text') || {}).textContent || '',
}))"""
#: Table cells with nothing in them: a cell says what it holds, or why it holds nothing yet.
BLANK_CELLS = """() => [...document.querySelectorAll('.card table td')]
  .filter(td => !td.textContent.trim())
  .map(td => (td.closest('table').caption || {}).textContent + ': ' + (td.dataset.label || '?'))"""
PICTURES = """() => [...document.querySelectorAll('img.chart-picture')].map(img => ({
  loaded: img.complete && img.naturalWidth > 0, alt: img.alt,
  table: !!img.closest('figure').querySelector('table caption'),
  shown: img.getBoundingClientRect().width,
}))"""
#: The smallest letters a chart may show, in CSS px (its labels' units scaled to the picture's width).
SMALLEST_LETTERS = 12


def letters(picture: dict) -> float:
    """The px height of a picture's labels as shown: the drawing's label size times the shown
    width over the drawing's width."""
    from campaigns.charts import MEDIA

    return float(MEDIA["screen"]["label"]) * picture["shown"] / float(MEDIA["screen"]["width"])


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


def look(page, name: str, report: bool = False) -> list[str]:
    """Every problem of the page at 390 and at 1280 px; screenshots when asked for. Every table
    fits its card or scrolls inside it; on the report (``report``), every table fits its card."""
    problems = []
    for width in (390, 1280):
        resize(page, width)
        if page.evaluate(OVERFLOW):
            problems.append(f"{name} at {width}: wider than the screen")
        for table in page.evaluate(TABLES):
            if table["wider"] and (report or not table["scrolls"]):
                problems.append(f"{name} at {width}: a table wider than its card: {table}")
        for blank in page.evaluate(BLANK_CELLS):
            problems.append(f"{name} at {width}: a blank table cell: {blank}")
        for empty in page.evaluate(EMPTY):
            if empty["axes"] or not empty["text"]:
                problems.append(
                    f"{name} at {width}: an empty chart with axes or without its sentence: {empty}"
                )
        for picture in page.evaluate(PICTURES):
            if not (picture["loaded"] and picture["alt"] and picture["table"]):
                problems.append(f"{name} at {width}: a picture without its image, alt or table: {picture}")
            if letters(picture) < SMALLEST_LETTERS:
                problems.append(f"{name} at {width}: labels of {letters(picture):.1f} px: {picture}")
        problems += [f"{name} at {width}: {p}" for p in axe_problems(page)]
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            shot = Path(SCREENSHOTS) / f"{name}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            small(shot)
    return problems


def small(path: Path) -> None:
    """A screenshot kept small enough to commit: 64 colours (the pages have few)."""
    from PIL import Image

    with Image.open(path) as image:
        image.convert("RGB").quantize(colors=64).save(path, optimize=True)


@pytest.mark.django_db(transaction=True)
def test_the_charts_read_well_on_a_phone_and_a_laptop_for_the_gm_and_a_player(new_page, world):
    tie = played(world)
    # a mission under way, before its award: its audit says the roll and the awards come later
    under_way = started(
        world,
        [new_agent(world, "player", "Jo Novak")],
        title="Mission 9, under way",
        start_year=1620,
        end_year=1620,
    )
    c = world.campaign.pk
    problems = []

    gm = new_page(width=390)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{c}/missions/{tie.pk}/audit/")
    expect(gm.get_by_role("heading", name="Which mistake mattered")).to_be_visible()
    expect(gm.get_by_text("Fewest lines whose removal would have kept history intact")).to_be_visible()
    problems += look(gm, "gm-mission-audit")
    gm.goto(f"/campaigns/{c}/missions/{under_way.pk}/audit/")
    expect(gm.get_by_text("The awards are worked out when the mission is closed")).to_be_visible()
    expect(gm.get_by_text("not rolled yet")).to_be_visible()
    problems += look(gm, "timemaster-empty-mission-audit")
    gm.goto(f"/campaigns/{c}/report/")
    expect(gm.get_by_text("Mistakes per mission against significance").first).to_be_visible()
    problems += look(gm, "gm-campaign-report", report=True)
    gm.goto(f"/campaigns/{c}/missions/audit/")
    problems += look(gm, "gm-campaign-audit")

    player = new_page(width=390)
    log_in(player, "player")
    player.goto(f"/campaigns/{c}/report/")
    expect(player.get_by_text("Mistakes per mission", exact=True).first).to_be_visible()
    assert "Mission 8" not in player.content()  # closed, not published
    problems += look(player, "player-campaign-report", report=True)
    player.goto(f"/campaigns/{c}/missions/{tie.pk}/report/")
    expect(player.get_by_text("Mistakes shown to players").first).to_be_visible()
    problems += look(player, "player-after-action")
    assert problems == [], "\n".join(problems)


def other_systems(world):
    """A campaign of each other system with finished play (and one of each with none), run by
    world's GM with world's player in it: (system, campaign with play, campaign without)."""
    from campaigns import services
    from campaigns.models import Membership, Role
    from characters.models import Character
    from systems.d6.models import Encounter
    from systems.tempo.models import Conflict, Participant
    from systems.time_to_kill.models import MissionRun

    gm, player = world.users["gm"], world.users["player"]
    made = []
    for system, module, name in (
        ("time_to_kill", "", "Shadow Clan"),
        ("tempo", "flashpoints", "Cell Nine"),
        ("d6", "", "Game Time"),
    ):
        pair = []
        for title in (name, f"{name} (new)"):
            campaign = services.create_campaign(gm, name=title, system=system, module=module)
            Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
            pair.append(campaign)
        full = pair[0]
        character = Character.objects.create(
            campaign=full,
            owner=player,
            system=system,
            module=module,
            name="Kage",
            status=Character.Status.ACTIVE,
            creation_build={},
            build={"fate_points": 2},
        )
        for n in range(1, 7):
            if system == "time_to_kill":
                won = n % 3 != 0
                # the stones drawn: two in preparation, n on waits, n + 1 at turns' ends, a target
                # missed on the third run; the rest left in a bag of 20
                draws = (
                    [{"when": "preparation", "stone": "ordinary"}] * 2
                    + [{"when": "wait", "stone": "ordinary"}] * n
                    + [{"when": "end_of_turn", "stone": "ordinary"}] * (n + 1)
                    + [{"when": "penalty", "stone": "ordinary"}] * (n == 3)
                )
                MissionRun.objects.create(
                    campaign=full,
                    ninja=character,
                    title=f"Run {n}",
                    status=MissionRun.Status.OVER,
                    outcome="victory" if won else "fatally_wounded",
                    initial_state={},
                    state={
                        "victory_points": 2 + n,
                        "die_roll_count": 2 + n,
                        "draws": draws,
                        "bag": {"start_ordinary": 20, "ordinary": 20 - len(draws)},
                    },
                )
            elif system == "tempo":
                winner = ("cell", "guards", None)[n % 3]
                # a conflict without a winner is one the GM ended, with the reason given
                ended = {"winner": None, "how": "ended", "reason": "the alarm rang"}
                state = {
                    "status": "over",
                    "round": 1 + n % 4,
                    "outcome": {"winner": winner, "how": "decisive", "goal": "the vault"}
                    if winner
                    else ended,
                    "sides": {"cell": {"name": "Cell Nine"}, "guards": {"name": "The guards"}},
                }
                conflict = Conflict.objects.create(
                    campaign=full,
                    title=f"Conflict {n}",
                    status=Conflict.Status.OVER,
                    initial_state=state,
                    state=state,
                )
                Participant.objects.create(conflict=conflict, side="cell", character=character)
                Participant.objects.create(conflict=conflict, side="guards", npc_name="Night watch")
            else:
                Encounter.objects.create(
                    campaign=full,
                    name=f"Encounter {n}",
                    method="first_move",
                    status=Encounter.Status.OVER,
                    state={"round": 1 + n % 5},
                )
        made.append((system, pair[0], pair[1]))
    return made


@pytest.mark.django_db(transaction=True)
def test_every_systems_report_full_and_empty_reads_well_on_a_phone_and_a_laptop(new_page, world):
    """Time to Kill, Tempo and D6 reports with six finished pieces of play and with none, and a
    TIMEMASTER campaign with no mission closed: each chart is a picture with its numbers, or one
    sentence without axes; no table wider than its card."""
    from campaigns import services

    fresh_tm = services.create_campaign(world.users["gm"], name="Time Corps (new)", system="timemaster")
    problems = []
    gm = new_page(width=1280)
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{fresh_tm.pk}/report/")
    expect(gm.locator("figure.chart-empty").first).to_be_visible()
    problems += look(gm, "timemaster-empty-report", report=True)
    gm.goto(f"/campaigns/{fresh_tm.pk}/missions/audit/")
    problems += look(gm, "timemaster-empty-campaign-audit")
    for system, full, empty in other_systems(world):
        gm.goto(f"/campaigns/{full.pk}/report/")
        expect(gm.locator("img.chart-picture").first).to_be_visible()
        problems += look(gm, f"{system}-report", report=True)
        gm.goto(f"/campaigns/{empty.pk}/report/")
        expect(gm.locator("figure.chart-empty").first).to_be_visible()
        assert gm.locator("img.chart-picture").count() == 0
        problems += look(gm, f"{system}-empty-report", report=True)
    assert problems == [], "\n".join(problems)
