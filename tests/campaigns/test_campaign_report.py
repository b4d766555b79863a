"""The campaign report: the campaign in pictures from the charts its system registers, for every
role; what the GM sees (every closed mission, its significance, roll and difference, every agent) and
what a player sees (published results, the lines shown to players, their own agents); the PDF
job and who may read its copies."""

from __future__ import annotations

import base64
import os
import re
import shutil
from pathlib import Path

import pytest
from django.core.cache import cache
from django.utils import timezone
from django.utils.text import slugify

from campaigns import charts, missions
from characters import registry
from sheets.models import SheetRender
from sheets.tasks import run_render
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, mistake, new_agent, roll_of, started
from tests.sheets.conftest import pdf_text

#: A folder to copy the rendered PDFs to, to look at them (unset: not copied).
LOOK_AT = os.environ.get("DOSSIER_LOOK_AT", "")
ROLES = {"gm": 200, "player": 200, "other_player": 200, "observer": 200, "outsider": 404}


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def campaign_played(world):
    """Two missions: the first published (history changed at a tie), the second closed only."""
    harry = new_agent(world, "player", "Harry Adams")
    ida = new_agent(world, "other_player", "Ida Brandt")
    first = started(world, [harry, ida], significance_rating=500, title="Vienna")
    mistake(world, first, "event_changed", 100, description="Clock tower burnt")
    mistake(world, first, "other", 80, description="Kept a newspaper", shown_to_players=False)
    first = tm_missions.close_mission(gm_membership(world), first, "success", rng=roll_of(180))
    missions.publish_mission(first, world.users["gm"])
    second = started(
        world, [harry, ida], significance_rating=640, title="Lisbon quake", start_year=1755, end_year=1755
    )
    mistake(world, second, "npc_death", 40, description="Harbour master")
    second = tm_missions.close_mission(gm_membership(world), second, "success", rng=roll_of(700))
    return {"first": first, "second": second, "harry": harry, "ida": ida}


def url(world):
    return f"/campaigns/{world.campaign.pk}/report/"


def tables(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def pictures(html: str) -> list[str]:
    return [
        base64.b64decode(src).decode()
        for src in re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    ]


@pytest.mark.parametrize("role", [*ROLES, "anonymous"])
def test_the_campaign_report_answers_each_role(world, client, campaign_played, role):
    if role != "anonymous":
        client.force_login(world.users[role])
    response = client.get(url(world))
    assert response.status_code == ROLES.get(role, 302)


def test_a_system_that_registers_no_charts_gets_a_report_page_that_says_so(
    world, client, make_user, monkeypatch
):
    import dataclasses

    from campaigns import services

    monkeypatch.setitem(registry._APPS, "d6", dataclasses.replace(registry.get("d6"), charts=""))
    gm = make_user("d6gm")
    d6 = services.create_campaign(gm, name="Game Time", system="d6")
    client.force_login(gm)
    html = client.get(f"/campaigns/{d6.pk}/report/").content.decode()
    assert "keeps no charts yet" in html and pictures(html) == []
    assert "The campaign in pictures" not in client.get(f"/campaigns/{d6.pk}/").content.decode()


@pytest.mark.parametrize("system", [app.key for app in registry.installed() if app.charts])
def test_a_report_with_nothing_drawn_yet_offers_no_print_and_says_why(client, make_user, system):
    """Every chart of a new campaign is still its empty sentence: the page says there is nothing to
    print yet instead of offering a PDF of empty sentences (a walk's finding)."""
    from tests.system_kit import make_campaign

    gm = make_user(f"{system}-gm")
    campaign = make_campaign(gm, system, "New Table")
    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.pk}/report/").content.decode()
    assert 'data-testid="print-campaign-report"' not in html
    assert "Nothing to print yet" in html


def test_a_played_report_offers_its_print(world, client, campaign_played):
    client.force_login(world.users["gm"])
    html = client.get(url(world)).content.decode()
    assert 'data-testid="print-campaign-report"' in html and "Nothing to print yet" not in html


def test_the_gm_sees_every_closed_mission_with_its_significance_roll_and_difference(
    world, client, campaign_played
):
    client.force_login(world.users["gm"])
    html = client.get(url(world)).content.decode()
    text = tables(html)
    assert "Mistakes per mission against significance" in text
    # Vienna: 180 against a roll of 180 (difference 0); Lisbon: 40 against 700 (difference -660)
    assert "1 Vienna History changed 180 500 180 0" in text
    assert "2 Lisbon quake History intact 40 640 700 -660" in text
    assert "Harry Adams" in text and "Ida Brandt" in text
    # no Success Points published yet: that chart is a sentence, not empty axes
    assert len(pictures(html)) == 2
    assert "Success Points appear here once a mission" in html
    assert "Print the campaign report" in html


def test_a_player_sees_published_missions_the_shown_lines_and_only_their_own_agents(
    world, client, campaign_played
):
    client.force_login(world.users["player"])
    html = client.get(url(world)).content.decode()
    text = tables(html)
    assert "1 Vienna History changed 100" in text  # the hidden 80 is not in the player's total
    assert "Lisbon" not in html  # closed but not published
    assert "Significance" not in text.replace("significance", "")
    assert "Difference" not in text and "Roll" not in text
    assert "Harry Adams" in text and "Ida Brandt" not in html
    for svg in pictures(html):
        assert "Lisbon" not in svg and "Ida Brandt" not in svg and "Significance rating" not in svg


def _second_world(world, name):
    """The same people in another TIMEMASTER campaign (world's helpers then play in it)."""
    from campaigns import services
    from campaigns.models import Membership, Role

    campaign = services.create_campaign(world.users["gm"], name=name, system="timemaster")
    for user, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=world.users[user], role=role)
    world.campaign = campaign
    world.membership = {m.user.username: m for m in campaign.memberships.select_related("user")}
    return campaign


def _play(world, hidden_rating, unpublished_rating):
    harry = new_agent(world, "player", "Harry Adams")
    ida = new_agent(world, "other_player", "Ida Brandt")
    # significance 150 against 180 or more: nothing to share either way, so the published award
    # (which a player reads) is the same in both worlds and only the hidden line differs
    first = started(world, [harry, ida], significance_rating=150, title="Vienna")
    mistake(world, first, "event_changed", 100, description="Clock tower burnt")
    mistake(world, first, "other", hidden_rating, description="Kept a newspaper", shown_to_players=False)
    first = tm_missions.close_mission(gm_membership(world), first, "success", rng=roll_of(900))
    missions.publish_mission(first, world.users["gm"])
    second = started(
        world, [harry, ida], significance_rating=640, title="Lisbon", start_year=1755, end_year=1755
    )
    mistake(world, second, "npc_death", unpublished_rating, description="Harbour master")
    tm_missions.close_mission(gm_membership(world), second, "success", rng=roll_of(700))


def _normalised(html: str, campaign) -> str:
    """Only what differs between any two campaigns: its id in the links, its name, the CSRF token,
    the live feed's cursor (a random id of the newest event the player sees: issue 32)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r"/live/\?after=\d+", "/live/?after=N", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    html = html.replace(f"/campaigns/{campaign.pk}/", "/campaigns/N/")
    html = re.sub(r"/characters/\d+/", "/characters/N/", html)
    return html.replace(campaign.name, "NAME")


def test_a_players_report_does_not_depend_on_a_hidden_line_or_an_unpublished_mission(world, client):
    """Two campaigns that differ only in a hidden line's rating and an unpublished mission's tally
    give the player byte-equal pictures and the same page."""
    seen = []
    for hidden, unpublished in ((80, 40), (81, 400)):
        campaign = _second_world(world, f"World {hidden}")
        _play(world, hidden, unpublished)
        client.force_login(world.users["player"])
        html = client.get(f"/campaigns/{campaign.pk}/report/").content.decode()
        seen.append((pictures(html), _normalised(html, campaign)))
    assert seen[0][0] == seen[1][0]
    assert seen[0][1] == seen[1][1]


def test_the_registry_names_the_systems_charts_module():
    assert registry.get("timemaster").charts == "systems.timemaster.charts"
    assert charts.provider("no_such_system") is None


def test_the_campaign_report_pdf_is_a_job_with_a_gm_copy_and_a_players_copy(world, api, campaign_played):
    def ask(persona):
        return api(world.users[persona]).post(
            f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "campaign_report"}, format="json"
        )

    gm = ask("gm")
    assert gm.status_code == 202, gm.content
    assert run_render(gm.json()["id"]) == "done"
    render = SheetRender.objects.get(pk=gm.json()["id"])
    assert render.gm_copy
    _pages, text = pdf_text(Path(render.file.path).read_bytes())
    if LOOK_AT:
        shutil.copy(render.file.path, f"{LOOK_AT}/campaign-report-gm.pdf")
    flat = " ".join(text.split())
    assert "GM COPY" in flat and "Lisbon quake" in flat and "Ida Brandt" in flat

    mine = ask("player")
    assert mine.status_code == 202, mine.content
    assert run_render(mine.json()["id"]) == "done"
    render = SheetRender.objects.get(pk=mine.json()["id"])
    assert not render.gm_copy
    _pages, text = pdf_text(Path(render.file.path).read_bytes())
    if LOOK_AT:
        shutil.copy(render.file.path, f"{LOOK_AT}/campaign-report-player.pdf")
    flat = " ".join(text.split())
    assert "PLAYERS' COPY" in flat.upper() and "Vienna" in flat
    assert "Lisbon" not in flat and "Ida Brandt" not in flat and "Significance rating" not in flat

    # another player may not read this player's copy; the outsider may not ask at all
    other = api(world.users["other_player"]).get(f"/api/v1/sheets/{render.pk}/")
    assert other.status_code == 403
    assert ask("outsider").status_code == 404


def test_success_points_and_standing_follow_the_ledger_with_offences_marked(world, campaign_played):
    """Lisbon published: 640 - 40 = 600 between two, 300 each, a grade step each; then an offence
    for Harry (first offence: one grade down, timemaster-characters.md §6.6) on Lisbon."""
    from characters import services as character_services
    from systems.timemaster.engine import regulations

    lisbon, harry = campaign_played["second"], campaign_played["harry"]
    missions.publish_mission(lisbon, world.users["gm"])
    harry.refresh_from_db()
    entry = regulations.violation_entry(harry.build, 4, mission=str(lisbon.pk), note="left a radio")
    character_services.append_entry(harry, entry, world.users["gm"], mission=lisbon)
    _missions_chart, points, standing = charts.campaign_charts(world.campaign, world.users["gm"], True)
    assert points.table_rows == (("Harry Adams", "300", "0", "0"), ("Ida Brandt", "300", "0", "0"))
    harry_line = next(s for s in standing.series if s.name == "Harry Adams")
    ida_line = next(s for s in standing.series if s.name == "Ida Brandt")
    assert harry_line.values == (0, 0)  # Trainee/0, up to Trainee/1 on Lisbon, then down again
    assert ida_line.values == (0, 1)
    marks = next(s for s in standing.series if s.name == "Offence or demotion")
    assert marks.values == (None, 0)
    # the table is the drawing: a row per mission, a column per series, the same standings
    assert standing.table_headers == ("Mission", "Harry Adams", "Ida Brandt", "Offence or demotion")
    assert standing.table_rows == (
        ("1", "Trainee/0", "Trainee/0", "none"),
        ("2", "Trainee/0", "Trainee/1", "Harry Adams: offence"),
    )
    # the y axis ticks on the standings that occur, by name
    assert standing.y_labels == ((0, "Trainee/0"), (1, "Trainee/1"))


def test_no_cell_of_the_gms_report_is_blank_a_failed_mission_says_no_check_was_rolled(world, campaign_played):
    """A failed mission rolls no significance check; its Roll and Difference cells read as such
    (they were blank), and an agent not yet on a mission reads so in the standing table."""
    missions.publish_mission(campaign_played["second"], world.users["gm"])
    failed = started(world, [campaign_played["ida"]], title="Lost at sea", start_year=1600, end_year=1600)
    missions.publish_mission(
        tm_missions.close_mission(gm_membership(world), failed, "failure"), world.users["gm"]
    )
    late = new_agent(world, "player", "Cora Late")
    third = started(world, [late], title="Cora's first", start_year=1700, end_year=1700)
    missions.publish_mission(
        tm_missions.close_mission(gm_membership(world), third, "failure"), world.users["gm"]
    )
    missions_chart, points, standing = charts.campaign_charts(world.campaign, world.users["gm"], True)
    lost = next(row for row in missions_chart.table_rows if row[1] == "Lost at sea")
    assert lost[5:] == ("no check", "no check")
    # Cora Late's column comes first (by name)
    assert ("1", "not on a mission yet", "Trainee/0", "Trainee/0") in standing.table_rows
    for chart in (missions_chart, points, standing):
        assert all(cell.strip() for row in chart.table_rows for cell in row), chart.table_rows


def test_the_report_has_a_tab_of_its_own_and_says_its_paper_and_file_by_their_names(
    world, client, api, campaign_played
):
    """It highlighted Overview, offered "LETTER" and named its PDF "…-sheet-r0.pdf"."""
    client.force_login(world.users["player"])
    html = client.get(url(world)).content.decode()
    assert re.search(r'<a[^>]*aria-current="page"[^>]*>Report</a>', html)
    assert not re.search(r'<a[^>]*aria-current="page"[^>]*>Overview</a>', html)
    assert ">Letter</option>" in html and "LETTER" not in html
    response = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "campaign_report"}, format="json"
    )
    render = SheetRender.objects.get(pk=response.json()["id"])
    day = timezone.localdate(render.queued_at)
    assert render.download_name() == f"{slugify(world.campaign.name)}-report-{day:%Y-%m-%d}.pdf"
