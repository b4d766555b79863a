"""Campaign exports written as they are read: the same bytes as the whole document dumped at once,
and large campaigns prepared by a job with progress and a download (issue 22)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.renderers import JSONRenderer

from archive import services, streaming
from archive.models import CampaignExport, ExportStatus
from archive.tasks import run_export
from campaigns import services as campaign_services
from campaigns.models import Campaign
from campaigns.table import rolling
from tests.archive.conftest import SECRET_PURPOSE
from tests.archive.test_api_roles import client_for
from tests.archive.test_round_trip import campaign_rows

PERSONAS = [
    ("gm", None),
    ("player", 403),
    ("other_player", 403),
    ("observer", 403),
    ("outsider", 404),
    ("anonymous", 401),
]


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    """Export files in this test's own folder, not the project's var/media."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def frozen_now(monkeypatch):
    moment = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(services.timezone, "now", lambda: moment)


@pytest.fixture
def awkward_rolls(world, full_campaign, rng):
    """Rolls whose text JSON writers treat specially: non-ASCII, and the two line separators
    JSONRenderer escapes."""
    player = world.membership["player"]
    for purpose in ("Zürich, 1519 — Zwingli", "line\u2028separator\u2029here", 'quote " and \\ back'):
        rolling.record_roll(player, kind="d10", count=2, purpose=purpose, rng=rng)
    return full_campaign


def test_the_streamed_archive_is_byte_for_byte_the_whole_document_dumped(world, awkward_rolls, frozen_now):
    document = services.export_campaign(awkward_rolls, world.users["gm"])
    pretty = "".join(services.stream_campaign(awkward_rolls, world.users["gm"], streaming.PRETTY))
    compact = "".join(services.stream_campaign(awkward_rolls, world.users["gm"], streaming.COMPACT))
    assert pretty == json.dumps(document, ensure_ascii=False, indent=1)
    assert compact.encode() == JSONRenderer().render(document)
    assert len(document["rolls"]) > 3 and SECRET_PURPOSE in pretty


def test_a_campaign_with_empty_sections_streams_the_same_bytes_too(world, make_user, frozen_now):
    gm = make_user("lonely-gm")
    campaign = campaign_services.create_campaign(gm, name="Empty", system="d6")
    document = services.export_campaign(campaign, gm)
    assert document["rolls"] == []
    assert "".join(services.stream_campaign(campaign, gm)) == json.dumps(
        document, ensure_ascii=False, indent=1
    )


def test_the_web_and_api_downloads_of_a_small_campaign_are_the_old_bytes(
    world, full_campaign, api, client, frozen_now
):
    # As stored: PostgreSQL's jsonb keeps an object's keys in its own order, not the order written.
    full_campaign.refresh_from_db()
    document = services.export_campaign(full_campaign, world.users["gm"])
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{full_campaign.pk}/archive/export/")
    assert page.content == json.dumps(document, ensure_ascii=False, indent=1).encode()
    response = api(world.users["gm"]).get(f"/api/v1/campaigns/{full_campaign.pk}/export/")
    assert response.content == JSONRenderer().render(document)


@pytest.fixture
def large(monkeypatch, full_campaign):
    """full_campaign counts as large: more rolls than a request writes."""
    monkeypatch.setattr(services, "DIRECT_EXPORT_ROLLS", 2)
    return full_campaign


def test_a_large_campaign_is_prepared_by_a_job_whose_file_imports_back_whole(
    world, large, client, django_capture_on_commit_callbacks
):
    client.force_login(world.users["gm"])
    archive_page = client.get(f"/campaigns/{large.pk}/archive/").content.decode()
    assert "Prepare the campaign archive" in archive_page
    assert client.get(f"/campaigns/{large.pk}/archive/export/").status_code == 302
    with django_capture_on_commit_callbacks() as queued:
        response = client.post(f"/campaigns/{large.pk}/archive/exports/")
    export = CampaignExport.objects.get()
    assert response.status_code == 302 and response.url.endswith(f"/archive/exports/{export.pk}/")
    assert len(queued) == 1 and export.status == ExportStatus.QUEUED
    assert "Queued" in client.get(response.url).content.decode()
    assert client.post(f"/campaigns/{large.pk}/archive/exports/").url == response.url  # one job at a time

    assert run_export(export.pk) == "done"
    assert run_export(export.pk) == "skipped"  # a redelivered job does not write again
    export.refresh_from_db()
    assert export.rolls_written == export.rolls_total == large.rolls.count() and export.percent == 100
    page = client.get(response.url).content.decode()
    assert "Download the campaign archive" in page
    download = client.get(f"/campaigns/{large.pk}/archive/exports/{export.pk}/download/")
    body = b"".join(download.streaming_content)
    assert download["Content-Disposition"] == 'attachment; filename="time-corps.json"'
    assert len(body) == export.size and SECRET_PURPOSE.encode() in body
    document = json.loads(body)
    assert {k: v for k, v in document.items() if k != "exported_at"} == {
        k: v for k, v in services.export_campaign(large, world.users["gm"]).items() if k != "exported_at"
    }
    copy = services.import_campaign(body, world.users["gm"], trusted=True)  # keeps every member
    assert campaign_rows(copy) == campaign_rows(large)


@pytest.mark.parametrize("persona, refused", PERSONAS)
def test_only_the_gm_starts_follows_and_downloads_an_export_job(world, large, api, persona, refused):
    client = client_for(api, world, persona)
    base = f"/api/v1/campaigns/{large.pk}/"
    assert client.get(base + "export/").status_code == (refused or 409)
    started = client.post(base + "exports/")
    if refused:
        assert started.status_code == refused and started.json()["errors"]
        export = services.request_export(large, world.users["gm"])
        for url in (f"{base}exports/{export.pk}/", f"{base}exports/{export.pk}/download/"):
            response = client.get(url)
            assert response.status_code == refused and SECRET_PURPOSE.encode() not in response.content
        return
    assert started.status_code == 202
    job = started.json()
    assert started["Location"] == job["url"] and job["status"] == "queued" and job["download"] is None
    assert client.get(f"{base}exports/{job['id']}/download/").status_code == 409
    run_export(job["id"])
    done = client.get(job["url"]).json()
    assert done["status"] == "done" and done["rolls_written"] == done["rolls_total"] == large.rolls.count()
    body = b"".join(client.get(done["download"]).streaming_content)
    assert json.loads(body)["format"] == "dossier.campaign" and SECRET_PURPOSE.encode() in body


def test_another_campaigns_export_is_not_found(world, large, api, make_user):
    export = services.request_export(large, world.users["gm"])
    other = Campaign.objects.get(pk=world.elsewhere.pk)
    outsider = client_for(api, world, "outsider")
    assert outsider.get(f"/api/v1/campaigns/{other.pk}/exports/{export.pk}/").status_code == 404


def test_a_lost_job_gives_way_to_a_new_one(world, large):
    lost = services.request_export(large, world.users["gm"])
    CampaignExport.objects.filter(pk=lost.pk).update(created_at=lost.created_at - timedelta(hours=1))
    again = services.request_export(large, world.users["gm"])
    assert again.pk != lost.pk and again.status == ExportStatus.QUEUED
    lost.refresh_from_db()
    assert lost.status == ExportStatus.FAILED and "ask for the archive again" in lost.error


def test_a_requested_export_is_queued_through_the_signal_once_committed(
    world, large, monkeypatch, django_capture_on_commit_callbacks
):
    """archive.services queues the job without importing archive.tasks: it sends
    archive.signals.export_requested after the commit, and archive.tasks queues the task."""
    import sys

    from archive import tasks

    queued: list[int] = []
    monkeypatch.setattr(tasks.export_campaign, "delay", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        export = services.request_export(large, world.users["gm"])
        assert queued == []  # nothing before the commit: a worker must find the row
    assert queued == [export.pk]
    # Asked again while it waits: the same job, nothing queued twice.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.request_export(large, world.users["gm"]) == export
    assert queued == [export.pk]
    assert not hasattr(services, "tasks")  # the services never import the task module
    assert "archive.tasks" in sys.modules  # connected by ArchiveConfig.ready()


@pytest.mark.parametrize(
    "base", ["/campaigns/{c}/archive/exports/{e}/download/", "/api/v1/campaigns/{c}/exports/{e}/download/"]
)
def test_an_export_streams_from_an_async_iterator_under_asgi(
    world, large, django_capture_on_commit_callbacks, base
):
    """Issue 44, finding 11: under ASGI a synchronous iterator is read whole into memory first."""
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    with django_capture_on_commit_callbacks(execute=False):  # the job is run here, not queued
        export = services.request_export(large, world.users["gm"])
    assert run_export(export.pk) == "done"
    export.refresh_from_db()

    async def fetch():
        client = AsyncClient()
        await client.aforce_login(world.users["gm"])
        response = await client.get(base.format(c=large.pk, e=export.pk))
        return response, b"".join([chunk async for chunk in response.streaming_content])

    response, body = async_to_sync(fetch)()
    assert response.status_code == 200 and response.is_async
    assert len(body) == export.size and json.loads(body)["campaign"]
