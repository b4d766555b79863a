"""Mission pages: every page for every role, the GM's flow, secrecy before publishing, and
query counts that do not grow with the number of missions."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import missions
from campaigns.models import Mission, SignificanceEntry
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import (
    closed_and_published,
    gm_membership,
    mistake,
    new_agent,
    planned,
    roll_of,
    started,
)

ROLES = ("gm", "player", "observer", "outsider", "anonymous")
SECRET_WORDS = ("Clock tower burnt", "Significance roll", "Mistakes total", "Success Point pool", "History")

CSRF_TOKEN = re.compile(r"[A-Za-z0-9]{32,}")
#: Random public ids (kernel.fields.random_public_id, 2^40 to 2^53: 13 to 16 digits), such as the
#: live feed's cursor: one holds "777" by chance about once in seventy pages.
RANDOM_ID = re.compile(r"\b\d{13,16}\b")


@pytest.fixture
def agents(world):
    return [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]


def as_role(client, world, role):
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def closed_unpublished(world, agents, roll=900):
    mission = started(world, agents)
    mistake(world, mission, "event_changed", 100, description="Clock tower burnt")
    mistake(world, mission, "equipment_left_behind", None, equipment_item="communicator")
    return tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(roll))


def paths(world, mission, entry):
    c, m = world.campaign.pk, mission.pk
    return {
        "list": f"/campaigns/{c}/missions/",
        "new": f"/campaigns/{c}/missions/new/",
        "campaign_audit": f"/campaigns/{c}/missions/audit/",
        "detail": f"/campaigns/{c}/missions/{m}/",
        "edit": f"/campaigns/{c}/missions/{m}/edit/",
        "report": f"/campaigns/{c}/missions/{m}/report/",
        "audit": f"/campaigns/{c}/missions/{m}/audit/",
        "start": f"/campaigns/{c}/missions/{m}/start/",
        "tally": f"/campaigns/{c}/missions/{m}/tally/",
        "reverse": f"/campaigns/{c}/missions/{m}/tally/{entry.pk}/reverse/",
        "shown": f"/campaigns/{c}/missions/{m}/tally/{entry.pk}/shown/",
        "close": f"/campaigns/{c}/missions/{m}/close/",
        "publish": f"/campaigns/{c}/missions/{m}/publish/",
        "delete": f"/campaigns/{c}/missions/{m}/delete/",
    }


MEMBER_PAGE = {"gm": 200, "player": 200, "observer": 200, "outsider": 404, "anonymous": 302}
GM_PAGE = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 302}
GM_POST = {"gm": 302, "player": 403, "observer": 403, "outsider": 404, "anonymous": 302}
PAGES = [
    ("get", "list", MEMBER_PAGE),
    ("get", "detail", MEMBER_PAGE),
    ("get", "report", MEMBER_PAGE),
    ("get", "new", GM_PAGE),
    ("get", "edit", GM_PAGE),
    ("get", "audit", GM_PAGE),
    ("get", "campaign_audit", GM_PAGE),
    ("post", "reverse", GM_POST),
    ("post", "shown", GM_POST),
    ("post", "publish", GM_POST),
    ("post", "tally", GM_POST),
    ("post", "start", GM_POST),
    ("post", "close", GM_POST),
    ("post", "delete", GM_POST),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", PAGES, ids=[f"{p[0]} {p[1]}" for p in PAGES])
def test_every_mission_page_answers_each_role_as_it_must(world, agents, client, role, page):
    method, name, expected = page
    mission = closed_unpublished(world, agents)
    entry = mission.tally_entries.first()
    body = {
        "reason": "typo",
        "shown": "0",
        "result": "success",
        "mistake-kind": "other",
        "mistake-rating": "5",
        "confirm": "1",  # the confirm step of publish and delete (tests/test_confirm_step.py)
    }
    response = getattr(as_role(client, world, role), method)(paths(world, mission, entry)[name], body)
    assert response.status_code == expected[role]
    html = response.content.decode()
    if role not in ("gm",):
        for word in SECRET_WORDS:
            assert word not in html, (name, word)


def test_non_timemaster_campaigns_have_no_mission_pages(world, client):
    client.force_login(world.users["outsider"])
    assert client.get(f"/campaigns/{world.elsewhere.pk}/missions/").status_code == 404


def test_players_see_nothing_of_an_open_or_unpublished_mission(world, agents, client):
    mission = closed_unpublished(world, agents, roll=777)
    c = world.campaign.pk
    for role in ("player", "other_player", "observer"):
        client.force_login(world.users[role])
        for path in (
            f"/campaigns/{c}/missions/",
            f"/campaigns/{c}/missions/{mission.pk}/",
            f"/campaigns/{c}/missions/{mission.pk}/report/",
            f"/campaigns/{c}/dice/",
            f"/campaigns/{c}/dice/log/",
            f"/campaigns/{c}/",
        ):
            # CSRF tokens and random ids are random letters and digits: one could hold "777" by chance.
            html = RANDOM_ID.sub("<id>", CSRF_TOKEN.sub("<token>", client.get(path).content.decode()))
            for word in (*SECRET_WORDS, "777", "Significance check", "Completed"):
                assert word not in html, (role, path, word)
            if "/dice/" not in path and not path.endswith("/report/"):
                assert "Closed (result not yet published)" in html, (role, path)
        assert "not published" in client.get(f"/campaigns/{c}/missions/{mission.pk}/report/").content.decode()


def test_after_publishing_a_player_reads_their_award_and_the_shared_tally(world, agents, client):
    mission = closed_unpublished(world, agents, roll=900)  # 300 mistakes, pool 400, 200 each
    missions.publish_mission(mission, world.users["gm"])
    client.force_login(world.users["player"])
    html = client.get(f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/report/").content.decode()
    assert "History intact" in html and "Harry Adams" in html and "Ida Brandt" not in html
    assert ">200<" in html and "Trainee/1" in html
    assert "Clock tower burnt" in html and "Time Corps Communicator" in html


def test_an_entry_hidden_by_the_gm_stays_out_of_the_players_record(world, agents, client):
    mission = started(world, agents)
    secret = mistake(world, mission, "other", 10, description="Renegade cache found", shown_to_players=False)
    tm_missions.close_mission(gm_membership(world), mission, "failure")
    missions.publish_mission(mission, world.users["gm"])
    client.force_login(world.users["player"])
    html = client.get(f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/report/").content.decode()
    assert "Renegade cache found" not in html
    client.force_login(world.users["gm"])
    html = client.get(f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/audit/").content.decode()
    assert "Renegade cache found" in html and secret.recorded_by.username in html


def test_the_gm_plans_starts_tallies_closes_and_publishes_through_the_pages(world, agents, client):
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    response = client.post(
        f"/campaigns/{c}/missions/new/",
        {
            "title": "Vienna",
            "parallel": "t0",
            "place": "Vienna",
            "start_year": "1805",
            "end_year": "1805",
            "significance_rating": "500",
            "agents": [a.pk for a in agents],
            "historical_changes_chart": "0-99: A clock stops\n100+: The city keeps another time",
        },
    )
    mission = Mission.objects.get(title="Vienna")
    assert response.status_code == 302 and mission.parallel == "T-0"
    assert mission.historical_changes_chart[1] == {
        "low": 100,
        "high": None,
        "text": "The city keeps another time",
    }
    assert client.post(f"/campaigns/{c}/missions/{mission.pk}/start/").status_code == 302
    response = client.post(
        f"/campaigns/{c}/missions/{mission.pk}/tally/",
        {
            "mistake-kind": "equipment_left_behind",
            "mistake-equipment_item": "communicator",
            "mistake-shown_to_players": "on",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and 'id="tally"' in response.content.decode()
    assert "Time Corps Communicator" in response.content.decode()
    assert SignificanceEntry.objects.get(mission=mission).rating == 200
    refused = client.post(
        f"/campaigns/{c}/missions/{mission.pk}/tally/",
        {"mistake-kind": "npc_death", "mistake-rating": "900"},
        HTTP_HX_REQUEST="true",
    )
    assert (
        refused.status_code == 200 and "0 to 500" in refused.content.decode()
    )  # the NPC limit, shown in place
    assert SignificanceEntry.objects.filter(mission=mission).count() == 1
    assert (
        client.post(f"/campaigns/{c}/missions/{mission.pk}/close/", {"result": "failure"}).status_code == 302
    )
    mission.refresh_from_db()
    assert mission.status == Mission.Status.FAILED
    assert client.post(f"/campaigns/{c}/missions/{mission.pk}/publish/", {"confirm": "1"}).status_code == 302
    mission.refresh_from_db()
    assert mission.is_published


def test_a_new_mistake_line_is_hidden_from_the_players_unless_the_gm_ticks_the_box(world, agents, client):
    """Issue 44, finding 6: the box is unticked on the form, and a line sent as the form came stays
    GM-only after publication; ticking it is the choice that shows the line."""
    c = world.campaign.pk
    as_role(client, world, "gm")
    mission = started(world, agents)
    page = client.get(f"/campaigns/{c}/missions/{mission.pk}/").content.decode()
    box = re.search(r'<input[^>]*name="mistake-shown_to_players"[^>]*>', page)
    assert box is not None and "checked" not in box.group(0), box
    for description, extra in (("left as it came", {}), ("ticked", {"mistake-shown_to_players": "on"})):
        response = client.post(
            f"/campaigns/{c}/missions/{mission.pk}/tally/",
            {"mistake-kind": "other", "mistake-rating": "10", "mistake-description": description, **extra},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200, response.content.decode()[:500]
    lines = SignificanceEntry.objects.filter(mission=mission)
    shown = dict(lines.values_list("description", "shown_to_players"))
    assert shown == {"left as it came": False, "ticked": True}


def test_a_chart_line_that_cannot_be_read_is_shown_on_its_field(world, agents, client):
    client.force_login(world.users["gm"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/missions/new/",
        {"title": "Bad chart", "historical_changes_chart": "zero to ninety: nothing"},
    )
    assert response.status_code == 400 and "Line 1" in response.content.decode()
    response = client.post(
        f"/campaigns/{world.campaign.pk}/missions/new/",
        {"title": "Overlap", "historical_changes_chart": "0-50: a\n40-90: b"},
    )
    assert response.status_code == 400 and "overlaps" in response.content.decode()
    assert not Mission.objects.exists()


def test_a_loop_trap_is_refused_on_the_page_naming_the_earlier_visit(world, agents, client):
    first = started(world, agents[:1], title="Austerlitz", start_year=1800, end_year=1806)
    closed_and_published(world, first)
    second = planned(world, agents[:1], title="Again", start_year=1806, end_year=1807)
    client.force_login(world.users["gm"])
    response = client.post(f"/campaigns/{world.campaign.pk}/missions/{second.pk}/start/", follow=True)
    html = response.content.decode()
    assert "Loop trap" in html and "Austerlitz" in html
    second.refresh_from_db()
    assert second.status == Mission.Status.PLANNED


def _count(client, path):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize("role", ["gm", "player"])
@pytest.mark.parametrize("page", ["list", "campaign_audit"])
def test_list_pages_make_the_same_number_of_queries_for_more_missions(world, agents, client, role, page):
    if page == "campaign_audit" and role != "gm":
        pytest.skip("the campaign audit is the GM's")
    c = world.campaign.pk
    path = {"list": f"/campaigns/{c}/missions/", "campaign_audit": f"/campaigns/{c}/missions/audit/"}[page]
    client.force_login(world.users[role])

    def add_closed(n):
        for i in range(n):
            year = 1000 + 20 * Mission.objects.count()
            mission = started(world, agents, title=f"M{i}", start_year=year, end_year=year + 1)
            mistake(world, mission, "other", 5)
            closed_and_published(world, mission, "success", rng=roll_of(999))

    add_closed(1)
    few = _count(client, path)
    add_closed(3)
    assert _count(client, path) == few


def test_the_campaign_audit_filters_by_agent_and_date(world, agents, client):
    mine = started(world, agents[:1], title="Harry alone")
    closed_and_published(world, mine)
    both = started(world, agents, title="Both", start_year=1500, end_year=1500)
    tm_missions.close_mission(gm_membership(world), both, "failure")
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    html = client.get(f"/campaigns/{c}/missions/audit/?agent={agents[1].pk}").content.decode()
    assert "Both" in html and "Harry alone" not in html
    html = client.get(f"/campaigns/{c}/missions/audit/?closed_from=2999-01-01").content.decode()
    assert "No missions match" in html
    bad = client.get(f"/campaigns/{c}/missions/audit/?closed_from=yesterday")
    assert bad.status_code == 400 and "valid date" in bad.content.decode()


@pytest.mark.parametrize("page", ["detail", "audit", "report"])
def test_mission_pages_make_the_same_number_of_queries_for_a_longer_tally(world, agents, client, page):
    mission = started(world, agents)
    mistake(world, mission, "other", 5)
    c = world.campaign.pk
    path = (
        f"/campaigns/{c}/missions/{mission.pk}/"
        + {"detail": "", "audit": "audit/", "report": "report/"}[page]
    )
    client.force_login(world.users["gm"])
    few = _count(client, path)
    for n in range(4):
        mistake(world, mission, "npc_death", n, description=f"Guard {n}")
    tm_missions.reverse_mistake(mission, mission.tally_entries.first().pk, world.users["gm"], "typo")
    assert _count(client, path) == few


def test_a_correction_after_closing_through_the_page_reworks_the_awards(world, agents, client):
    mission = started(world, agents)
    wrong = mistake(world, mission, "event_changed", 300, description="Not our doing")
    tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(250))
    client.force_login(world.users["gm"])
    url = f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/tally/{wrong.pk}/reverse/"
    html = client.post(url, {"reason": "A renegade did it"}, follow=True).content.decode()
    assert "worked out again" in html and "History intact" in html
    agents[0].refresh_from_db()
    assert agents[0].build["success_points"] == 0  # not published: the ledger waits
    html = client.post(
        f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/publish/", {"confirm": "1"}, follow=True
    ).content.decode()
    assert "the awards are on the agents&#x27; records" in html
    agents[0].refresh_from_db()
    assert agents[0].build["success_points"] == 350  # 700 split two ways, same roll 250
    audit = client.get(f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/audit/").content.decode()
    assert "Outcomes replaced by corrections" in audit and "A renegade did it" in audit


def test_publishing_asks_first_and_the_confirm_page_posts_the_same_with_confirm(world, agents, client):
    """Issue 21, defect 6: without JavaScript, a POST without confirm=1 answers a page that asks."""
    mission = closed_unpublished(world, agents)
    url = f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/publish/"
    client.force_login(world.users["gm"])
    page = client.post(url)
    html = page.content.decode()
    assert page.status_code == 200 and f"Publish the result of {mission.title}?" in html
    assert f'<form method="post" action="{url}"' in html
    assert '<input type="hidden" name="confirm" value="1">' in html
    mission.refresh_from_db()
    assert not mission.is_published
    assert client.post(url, {"confirm": "1"}).status_code == 302
    mission.refresh_from_db()
    assert mission.is_published


def _cells(html: str, label: str) -> list[str]:
    """The text of every table cell with this data-label (the phone's header for the cell)."""
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(rf'data-label="{label}">(.*?)</td>', html, re.S)
    ]


def test_an_active_missions_audit_says_the_roll_and_the_awards_come_after_closing(world, agents, client):
    """Before the mission is closed there is no roll and no award: the audits say so in words, and
    list no agent under awards (a new-user walk read the agents there as 'awarded nothing')."""
    active = started(world, agents, title="Still in Vienna")
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    audit = client.get(f"/campaigns/{c}/missions/{active.pk}/audit/").content.decode()
    assert "<caption>Awards</caption>" not in audit
    assert "The awards are worked out when the mission is closed" in audit
    assert "not rolled yet" in audit
    every = client.get(f"/campaigns/{c}/missions/audit/").content.decode()
    assert _cells(every, "Roll") == ["not rolled yet"]
    awards = _cells(every, "Awards")
    assert awards == ["after the mission is closed"]
    assert "Harry Adams" not in awards[0]


def test_a_failed_missions_audit_says_no_check_was_rolled(world, agents, client):
    failed = started(world, agents, title="Lost in Vienna")
    tm_missions.close_mission(gm_membership(world), failed, "failure")
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    every = client.get(f"/campaigns/{c}/missions/audit/").content.decode()
    assert _cells(every, "Roll") == ["no check"]
    audit = client.get(f"/campaigns/{c}/missions/{failed.pk}/audit/").content.decode()
    assert "no check: only a successful mission rolls one" in audit
