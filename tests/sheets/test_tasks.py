"""The render task: idempotent, atomic file writes, bundles without GM pages for players, reconciler."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from campaigns.access import get_campaign_for_user
from sheets import services
from sheets.models import RenderStatus, SheetRender
from sheets.tasks import MAX_ATTEMPTS, requeue_stuck, run_render
from tests.sheets.conftest import pdf_metadata, pdf_text


def request(user, kind, campaign, character=None):
    _, membership = get_campaign_for_user(user, campaign.pk)
    render, _ = services.request_render(user, kind, campaign, membership, character)
    return render


def test_a_render_writes_its_pdf_and_records_size_pages_and_timings(world, party, media_root):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    path = Path(render.file.path)
    assert path.is_relative_to(media_root) and path.is_file()
    assert render.size == path.stat().st_size > 0 and render.pages == 1
    assert render.started_at <= render.finished_at and render.attempts == 1
    pages, text = pdf_text(path.read_bytes())
    assert pages == 1 and "Harry Adams" in text and "revision 1" in text
    assert pdf_metadata(path.read_bytes()).title == "Harry Adams, revision 1"
    assert not list(path.parent.glob(".render-*"))  # no temporary file left behind


def test_a_done_render_is_not_redone(world, party):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    run_render(render.pk)
    render.refresh_from_db()
    before = (render.finished_at, Path(render.file.path).stat().st_mtime_ns)
    assert run_render(render.pk) == "skipped"
    render.refresh_from_db()
    assert (render.finished_at, Path(render.file.path).stat().st_mtime_ns) == before
    assert render.attempts == 1


def test_a_render_interrupted_while_running_runs_again_to_the_same_file(world, party):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    SheetRender.objects.filter(pk=render.pk).update(status=RenderStatus.RUNNING, attempts=1)
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    assert render.status == "done" and render.attempts == 2


def test_the_sheet_shows_the_revision_asked_for_even_after_a_later_edit(world, party):
    character = party["player"]
    render = request(world.users["player"], "character", world.campaign, character)
    character.name, character.revision = "Renamed Later", 2
    character.build = {**character.build, "name": "Renamed Later"}
    character.save()
    run_render(render.pk)
    render.refresh_from_db()
    _, text = pdf_text(Path(render.file.path).read_bytes())
    assert "Harry Adams" in text and "Renamed Later" not in text


def test_a_broken_build_fails_with_a_readable_error(world, party):
    render = request(world.users["player"], "character", world.campaign, party["player"])
    render.snapshot["pages"][0]["build"] = {"name": "Broken"}
    render.save()
    assert run_render(render.pk) == "failed"
    render.refresh_from_db()
    assert render.status == "failed" and render.error.startswith("The sheet could not be rendered")
    assert not render.file


def test_the_players_bundle_has_every_character_and_no_gm_pages(world, ttk_world, make_character):
    make_character(ttk_world, world.users["other_player"], name="Yoru")
    player_copy = request(world.users["player"], "party_bundle", ttk_world)
    gm_copy = request(world.users["gm"], "party_bundle", ttk_world)
    for render in (player_copy, gm_copy):
        assert run_render(render.pk) == "done"
        render.refresh_from_db()
    pages, text = pdf_text(Path(player_copy.file.path).read_bytes())
    assert pages == 2 and "Kage" in text and "Yoru" in text
    assert "Fate Record Sheet" not in text
    gm_pages, gm_text = pdf_text(Path(gm_copy.file.path).read_bytes())
    assert gm_pages == 3 and "Fate Record Sheet" in gm_text and "page 3 of 3" in gm_text


def test_the_reconciler_requeues_stuck_renders_and_gives_up_after_too_many_tries(
    world, party, settings, django_capture_on_commit_callbacks
):
    settings.SHEET_RENDER_DEADLINE_SECONDS = 60
    stuck = request(world.users["player"], "character", world.campaign, party["player"])
    tired = request(world.users["gm"], "party_bundle", world.campaign)
    fresh = request(world.users["player"], "party_bundle", world.campaign)
    long_ago = timezone.now() - timedelta(minutes=5)
    SheetRender.objects.filter(pk=stuck.pk).update(status="running", started_at=long_ago, attempts=1)
    SheetRender.objects.filter(pk=tired.pk).update(queued_at=long_ago, attempts=MAX_ATTEMPTS)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert requeue_stuck() == [stuck.pk]
    assert len(callbacks) == 1  # one task sent, after commit
    stuck.refresh_from_db()
    tired.refresh_from_db()
    fresh.refresh_from_db()
    assert stuck.status == "queued" and stuck.queued_at > long_ago
    assert tired.status == "failed" and "Gave up" in tired.error
    assert fresh.status == "queued"


def test_the_reconcile_command_reports_what_it_did(world, party, capsys, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        call_command("reconcile_sheets")
    assert "re-queued 0 render(s)" in capsys.readouterr().out


def test_a_request_queues_the_task_only_after_commit(world, party, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        request(world.users["player"], "character", world.campaign, party["player"])
        request(world.users["player"], "character", world.campaign, party["player"])  # reused, no 2nd task
    # the others wake the live feed's readers: "a render was asked for" (issue 44)
    queued = [c for c in callbacks if c.__qualname__.startswith("enqueue.")]
    assert len(queued) == 1


@pytest.mark.parametrize("kind", ["character", "party_bundle"])
def test_a4_and_letter_are_separate_renders(world, party, kind):
    _, membership = get_campaign_for_user(world.users["gm"], world.campaign.pk)
    character = party["player"] if kind == "character" else None
    letter, _ = services.request_render(
        world.users["gm"], kind, world.campaign, membership, character, "letter"
    )
    a4, _ = services.request_render(world.users["gm"], kind, world.campaign, membership, character, "a4")
    assert letter.pk != a4.pk
