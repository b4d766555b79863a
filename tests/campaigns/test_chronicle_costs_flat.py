"""The chronicle costs the same number of queries at 100 play sessions as at 10 (issue 50): the
overview's recap, a session's handout and the timeline read each kind of row once, whatever the
campaign's age (bench/chronicle.py gives the times; a test asserts no time)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaigns import missions
from campaigns.models import Mission, Note, NoteVisibility, PlaySession
from tests.secrets import worlds

pytestmark = pytest.mark.django_db


def _sessions(world, count: int) -> None:
    """``count`` ended sessions, a day apart, each with a shared and a GM-only note, and a published
    mission of a destination every tenth session (the timeline's eras), as the services leave them."""
    campaign, gm = world.campaign, world.users["gm"]
    already = campaign.play_sessions.count()
    start = timezone.now() - datetime.timedelta(days=count + 1)
    made = PlaySession.objects.bulk_create(
        PlaySession(
            campaign=campaign,
            number=already + i + 1,
            title=f"Evening {already + i + 1}",
            date=(start + datetime.timedelta(days=i)).date(),
            started_at=start + datetime.timedelta(days=i),
            ended_at=start + datetime.timedelta(days=i, hours=4),
            started_by=gm,
        )
        for i in range(count)
    )
    Note.objects.bulk_create(
        Note(campaign=campaign, play_session=s, author=gm, visibility=v, body=f"{v} note of {s.title}.")
        for s in made
        for v in (NoteVisibility.SHARED, NoteVisibility.GM)
    )
    for index, session in enumerate(made):
        if index % 10:
            continue
        mission = Mission.objects.create(
            campaign=campaign,
            title=f"Mission {session.number}",
            parallel="T-0",
            place="Vienna",
            start_year=1000 + 10 * session.number,
            end_year=1000 + 10 * session.number,
            status=Mission.Status.COMPLETED,
            started_at=session.started_at,
            closed_at=session.started_at,
        )
        missions.publish_mission(mission, gm)
        Mission.objects.filter(pk=mission.pk).update(published_at=session.started_at)


def _queries(client, world, reader: str) -> dict[str, int]:
    client.force_login(world.users[reader])
    c = world.campaign.pk
    last = world.campaign.play_sessions.order_by("-number").first().number
    counts = {}
    for name, path in (
        ("overview", f"/campaigns/{c}/"),
        ("handout", f"/campaigns/{c}/play-sessions/{last}/recap/"),
        ("timeline", f"/campaigns/{c}/timeline/"),
    ):
        client.get(path)  # the first view fills the caches every later one reads
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        counts[name] = len(queries)
    return counts


@pytest.mark.parametrize("reader", ["gm", "player"])
def test_the_recap_and_the_timeline_run_as_many_queries_at_100_sessions_as_at_10(world, client, reader):
    harry = worlds._agent(world.campaign, world.users["player"], "Harry Adams")
    assert harry.pk
    _sessions(world, 10)
    at_10 = _queries(client, world, reader)
    _sessions(world, 90)
    assert world.campaign.play_sessions.count() == 100
    at_100 = _queries(client, world, reader)
    assert at_10 == at_100, (at_10, at_100)
    page = client.get(f"/campaigns/{world.campaign.pk}/timeline/").content.decode()
    assert "Evening 100" in page and "Evening 1<" in page and "Mission 91" in page
