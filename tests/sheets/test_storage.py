"""Rendered PDFs through Django's storage API: superseded files deleted, object-store downloads."""

from __future__ import annotations

import boto3
import pytest
from moto import mock_aws

from campaigns.access import get_campaign_for_user
from sheets import services, storage
from sheets.models import RenderStatus, SheetRender
from sheets.tasks import _finish, run_render
from tests.sheets.conftest import pdf_text


def request(user, kind, campaign, character=None):
    _, membership = get_campaign_for_user(user, campaign.pk)
    render, _ = services.request_render(user, kind, campaign, membership, character)
    return render


def test_a_rerun_replaces_its_file_and_deletes_the_one_it_supersedes(world, party):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    run_render(render.pk)
    render.refresh_from_db()
    first = render.file.name
    SheetRender.objects.filter(pk=render.pk).update(status=RenderStatus.RUNNING)  # as if redelivered
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    assert render.file.name != first and storage.exists(render.file.name)
    assert not storage.exists(first)


def test_a_copy_that_finishes_second_is_deleted_and_the_first_kept(world, party):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    run_render(render.pk)
    render.refresh_from_db()
    late_copy = storage.save("sheets/late-copy.pdf", b"%PDF-late")
    assert _finish(render.pk, late_copy, 9, 1) == "done"
    render.refresh_from_db()
    assert storage.exists(render.file.name) and not storage.exists(late_copy)


@pytest.fixture
def object_store(settings):
    """STORAGES["default"] on an S3 bucket (moto in this process; the multi-node test runs a server)."""
    with mock_aws():
        boto3.client("s3", region_name="us-east-1").create_bucket(Bucket="dossier-test")
        settings.STORAGES = {
            **settings.STORAGES,
            "default": {
                "BACKEND": "storages.backends.s3.S3Storage",
                "OPTIONS": {"bucket_name": "dossier-test", "region_name": "us-east-1"},
            },
        }
        # Django's setting_changed handler drops the cached default_storage (here and on restore).
        yield boto3.client("s3", region_name="us-east-1")


def test_a_render_on_an_object_store_streams_through_the_access_check(world, party, api, object_store):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    stored = object_store.get_object(Bucket="dossier-test", Key=render.file.name)["Body"].read()
    response = api(world.users["player"]).get(f"/api/v1/sheets/{render.pk}/download/")
    assert response.status_code == 200
    downloaded = b"".join(response.streaming_content)
    assert downloaded == stored and "Harry Adams" in pdf_text(downloaded)[1]
    assert api(world.users["other_player"]).get(f"/api/v1/sheets/{render.pk}/download/").status_code == 403
    assert api(world.users["outsider"]).get(f"/api/v1/sheets/{render.pk}/download/").status_code == 404


def test_signed_url_downloads_redirect_only_after_the_access_check(world, party, api, object_store, settings):
    settings.SHEET_DOWNLOAD_SIGNED_URLS = True
    render = request(world.users["player"], "character", world.campaign, party["player"])
    run_render(render.pk)
    render.refresh_from_db()
    response = api(world.users["player"]).get(f"/api/v1/sheets/{render.pk}/download/")
    assert response.status_code == 302
    assert render.file.name in response["Location"] and "Expires=" in response["Location"]
    assert "Signature=" in response["Location"]
    assert api(world.users["other_player"]).get(f"/api/v1/sheets/{render.pk}/download/").status_code == 403


def test_an_unreachable_object_store_is_a_transient_error_the_task_retries(world, party, settings):
    from botocore.config import Config

    from sheets.tasks import TRANSIENT_ERRORS
    from tests.test_health import closed_port

    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": "dossier",
                "endpoint_url": f"http://127.0.0.1:{closed_port()}",
                "access_key": "probe",
                "secret_key": "probe",
                "region_name": "us-east-1",
                "client_config": Config(connect_timeout=1, retries={"max_attempts": 0}),
            },
        },
    }
    render = request(world.users["player"], "character", world.campaign, party["player"])
    with pytest.raises(TRANSIENT_ERRORS):
        run_render(render.pk)
    render.refresh_from_db()
    assert render.status == RenderStatus.RUNNING and not render.file  # left for the retry, not failed


def test_a_done_render_whose_pdf_is_gone_is_made_again_on_the_next_request(world, party):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    run_render(render.pk)
    render.refresh_from_db()
    storage.delete(render.file.name)  # a lost bucket, a wrong storage setting on one node ...
    again = request(world.users["player"], "character", world.campaign, party["player"])
    render.refresh_from_db()
    assert again.pk != render.pk and again.status == RenderStatus.QUEUED
    assert render.status == RenderStatus.FAILED and "missing from the file storage" in render.error
    assert run_render(again.pk) == "done"
