"""A campaign's pages, its live feed and its chronicle show times in the group's time zone; the API
keeps UTC; a request never leaves its campaign's zone to the next (kernel/zones.py, issue 50)."""

from __future__ import annotations

import datetime
import random

import pytest
from django.utils import timezone

from campaigns.chronicle import book, play_sessions
from campaigns.models import PlaySession, Roll
from campaigns.table import live, rolling

pytestmark = pytest.mark.django_db

#: 23:13 UTC on 6 December: 18:13 in New York (UTC-5 in winter).
START = datetime.datetime(2026, 12, 6, 23, 13, tzinfo=datetime.UTC)


def _group_in(world, zone: str) -> PlaySession:
    world.campaign.time_zone = zone
    world.campaign.save(update_fields=["time_zone"])
    session = play_sessions.start(world.membership["gm"])
    PlaySession.objects.filter(pk=session.pk).update(started_at=START)
    return session


def test_a_campaign_page_shows_the_groups_time_and_the_api_keeps_utc(world, client):
    _group_in(world, "America/New_York")
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/").content.decode()
    assert "under way since 2026-12-06 18:13" in page
    api = client.get(f"/api/v1/campaigns/{world.campaign.pk}/play_sessions/").json()
    rows = api["results"] if isinstance(api, dict) else api
    assert rows[0]["started_at"] == "2026-12-06T23:13:00Z"


def test_the_next_request_does_not_keep_the_last_campaigns_zone(world, client):
    _group_in(world, "America/New_York")
    client.force_login(world.users["player"])
    client.get(f"/campaigns/{world.campaign.pk}/play-sessions/")
    assert timezone.get_current_timezone_name() == "UTC"  # reset when the request ended
    # a page that finds no campaign (the account's list of campaigns) is in the server's zone
    client.get("/campaigns/")
    assert timezone.get_current_timezone_name() == "UTC"
    world.campaign.time_zone = "UTC"
    world.campaign.save(update_fields=["time_zone"])
    page = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/").content.decode()
    assert "under way since 2026-12-06 23:13" in page


def test_a_character_page_shows_the_groups_time(world, client):
    from characters.models import AdvancementEntry
    from systems.timemaster import condition_services
    from tests.secrets import worlds

    world.campaign.time_zone = "Asia/Tokyo"  # UTC+9, no daylight saving
    world.campaign.save(update_fields=["time_zone"])
    harry = worlds._agent(world.campaign, world.users["player"], "Harry Adams")
    condition_services.record(harry, world.membership["gm"], "fatal_blow", {"cause": "fall_100_ft"})
    AdvancementEntry.objects.filter(character=harry).update(created_at=START)
    client.force_login(world.users["player"])
    page = client.get(f"/characters/{harry.pk}/history/").content.decode()
    assert "2026-12-07 08:13" in page and "2026-12-06 23:13" not in page  # 08:13 the next day in Tokyo


def test_the_live_feed_and_the_chronicle_give_a_roll_the_groups_time(world):
    _group_in(world, "America/New_York")
    roll = rolling.record_roll(world.membership["player"], kind="d6", purpose="Climb", rng=random.Random(1))
    Roll.objects.filter(pk=roll.pk).update(created_at=START + datetime.timedelta(minutes=5))
    live.forget()
    batch = live.render_batch(world.users["player"], world.campaign.pk, 0)
    assert "18:18:00" in batch.text and "23:18:00" not in batch.text
    record = book.record(world.campaign, world.users["player"], world.membership["player"])
    lines = [line for chapter in record["chapters"] for line in chapter["rolls"]]
    assert any(line.startswith("18:18 ") for line in lines), lines


def test_the_overview_says_in_which_zone_its_times_are(world, client):
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    assert "times in UTC<" in page
    world.campaign.time_zone = "America/New_York"
    world.campaign.save(update_fields=["time_zone"])
    page = client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    assert "times in America/New York time" in page


def test_the_timeline_puts_a_mission_on_the_groups_day(world, client):
    from campaigns.models import Mission
    from tests.secrets import worlds

    world.campaign.time_zone = "Asia/Tokyo"  # 23:13 UTC on the 6th is the 7th in Tokyo
    world.campaign.save(update_fields=["time_zone"])
    harry = worlds._agent(world.campaign, world.users["player"], "Harry Adams")
    mission = worlds._start(worlds._mission(world.campaign, [harry], "Vienna", 1805, 700), world.users["gm"])
    Mission.objects.filter(pk=mission.pk).update(started_at=START)
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/timeline/").content.decode()
    assert 'datetime="2026-12-07"' in page and 'datetime="2026-12-06"' not in page


def test_a_roll_found_by_search_is_dated_in_the_groups_time(world, client):
    _group_in(world, "America/New_York")
    roll = rolling.record_roll(world.membership["player"], kind="d6", purpose="Lantern", rng=random.Random(1))
    Roll.objects.filter(pk=roll.pk).update(created_at=START)
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/search/?q=lantern").content.decode()
    assert "06 Dec 2026 18:13" in page and "23:13" not in page


def test_a_chronicles_file_is_named_by_the_groups_day_from_the_page_and_the_api_alike(world):
    from sheets.models import SheetKind, SheetRender

    world.campaign.time_zone = "Asia/Tokyo"  # 23:13 UTC on the 6th is the 7th in Tokyo
    world.campaign.save(update_fields=["time_zone"])
    render = SheetRender(
        kind=SheetKind.CHRONICLE,
        campaign=world.campaign,
        snapshot={"campaign": "Time Corps"},
        queued_at=START,
    )
    assert render.download_name() == "time-corps-chronicle-2026-12-07.pdf"  # UTC active (the API)
    with timezone.override("America/Chicago"):  # whatever zone a page has active
        assert render.download_name() == "time-corps-chronicle-2026-12-07.pdf"
