"""Issue 21, defect 6: a confirm step before destructive or final actions, without JavaScript.

A POST without ``confirm=1`` changes nothing and answers a page that asks, repeating what was
posted; the same POST with ``confirm=1`` (what that page's button sends) does the action. A shop
purchase can be undone right after, through the ledger's reversal. On the demo's campaigns.
"""

from __future__ import annotations

import html as html_lib
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from campaigns import missions
from campaigns.models import Campaign, Membership, Mission
from tests import rows_once

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    """The demo, seeded once for the module (tests/rows_once.py): each test starts from it as seeded
    and what it changes is rolled back after it."""
    yield from rows_once.kept(django_db_blocker, lambda: call_command("seed_demo", stdout=StringIO()))


@pytest.fixture
def demo(seeded, db):
    return {c.system: c for c in Campaign.objects.filter(name__startswith="Demo: ")}


def as_user(username: str) -> Client:
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def asks(response, question: str, posted: dict) -> None:
    """The answer is the confirm page: the question, and a form that posts the same with confirm=1."""
    html = html_lib.unescape(response.content.decode())
    assert response.status_code == 200, html[:400]
    assert question in html
    assert '<input type="hidden" name="confirm" value="1">' in html
    for name, value in posted.items():
        assert f'<input type="hidden" name="{name}" value="{value}">' in html, name
    assert re.search(r'<a class="button secondary" href="/[^"]+">Cancel</a>', html)


def test_deleting_a_mission_asks_first(demo):
    campaign = demo["timemaster"]
    mission = missions.create_mission(campaign, {"title": "Spare Errand"})
    url = f"/campaigns/{campaign.pk}/missions/{mission.pk}/delete/"
    gm = as_user("gm")
    asks(gm.post(url), "Delete the mission Spare Errand?", {})
    assert Mission.objects.filter(pk=mission.pk).exists()
    assert gm.post(url, {"confirm": "1"}).status_code == 302
    assert not Mission.objects.filter(pk=mission.pk).exists()


def test_removing_a_member_asks_first(demo):
    campaign = demo["tempo"]
    bob = Membership.objects.get(campaign=campaign, user__username="bob")
    url = f"/campaigns/{campaign.pk}/members/{bob.pk}/remove/"
    gm = as_user("gm")
    asks(gm.post(url), f"Remove bob from {campaign.name}?", {})
    assert Membership.objects.filter(pk=bob.pk).exists()
    assert gm.post(url, {"confirm": "1"}).status_code == 302
    assert not Membership.objects.filter(pk=bob.pk).exists()


def test_ending_a_d6_scene_asks_first_also_from_the_live_panel(demo):
    campaign = demo["d6"]
    encounter = campaign.d6_encounters.get(status="running")
    url = f"/campaigns/{campaign.pk}/encounters/{encounter.pk}/event/"
    posted = {"type": "end_scene", "reason": "they flee"}
    gm = as_user("gm")
    asks(gm.post(url, posted), f"End the scene {encounter.name}?", posted)
    # from the htmx panel: the question in place of the panel, not a whole page
    fragment = gm.post(url, posted, HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode()
    asks(fragment, "End the scene", posted)
    encounter.refresh_from_db()
    assert encounter.status == "running"
    assert gm.post(url, {**posted, "confirm": "1"}).status_code == 302
    encounter.refresh_from_db()
    assert encounter.status != "running"


def test_ending_a_tempo_conflict_asks_first(demo):
    conflict = demo["tempo"].tempo_conflicts.get(status="running")
    url = f"/conflicts/{conflict.pk}/events/"
    posted = {"type": "end", "reason": "truce"}
    gm = as_user("gm")
    asks(gm.post(url, posted), "End the conflict?", posted)
    conflict.refresh_from_db()
    assert conflict.status == "running"
    assert gm.post(url, {**posted, "confirm": "1"}).status_code == 302
    conflict.refresh_from_db()
    assert conflict.status != "running"


def test_abandoning_a_time_to_kill_run_asks_first(demo):
    run = demo["time_to_kill"].ttk_runs.get(status="running")
    gm = as_user("gm")
    asks(gm.post(f"/ttk/{run.pk}/abandon/"), f"Abandon {run.title}?", {})
    run.refresh_from_db()
    assert run.status == "running"
    assert gm.post(f"/ttk/{run.pk}/abandon/", {"confirm": "1"}).status_code == 302
    run.refresh_from_db()
    assert run.status != "running"
