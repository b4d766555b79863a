"""The render queue and render outcomes in /metrics, read from the SheetRender table and the task."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from campaigns.access import get_campaign_for_user
from sheets import services
from sheets.models import SheetRender
from sheets.tasks import run_render
from tests.test_metrics import TOKEN, scrape


def test_queue_depth_oldest_queued_age_and_render_outcomes(client, settings, world, make_character):
    settings.METRICS_TOKEN = TOKEN
    player = world.users["player"]
    _, membership = get_campaign_for_user(player, world.campaign.pk)
    character = make_character(world.campaign, player, name="Harry Adams")
    waiting, _ = services.request_render(player, "party_bundle", world.campaign, membership)
    SheetRender.objects.filter(pk=waiting.pk).update(queued_at=timezone.now() - timedelta(minutes=5))
    done_key = ("dossier_sheet_render_seconds_count", (("kind", "character"), ("outcome", "done")))
    before = scrape(client)
    rendered, _ = services.request_render(player, "character", world.campaign, membership, character)
    assert run_render(rendered.pk) == "done"
    after = scrape(client)
    assert after[("dossier_sheet_renders", (("status", "queued"),))] == 1
    assert after[("dossier_sheet_renders", (("status", "running"),))] == 0
    assert after[("dossier_sheet_render_oldest_queued_seconds", ())] >= 300
    assert after[done_key] == before.get(done_key, 0) + 1
