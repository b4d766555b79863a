"""Pages that show play state update from the live feed by themselves (issue 44, finding 2): two
people on one campaign, each in their own browser context, served by uvicorn (ASGI) as make run
serves it. Each page's fallback poll is far longer than what a test waits here, so a page that
updates in time was woken by its topic on the feed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_live import asgi_url, demo, table  # noqa: F401 (fixtures)

#: How long a page may take to show what happened: far below every fallback poll it has.
WOKEN_MS = 5_000


def _tempo_conflict():
    from systems.tempo.models import Conflict

    return Conflict.objects.get(campaign__name__startswith="Demo: ", title="The Checkpoint")


def test_a_round_the_gm_rolls_reaches_the_players_open_conflict_page(table, demo):
    conflict = _tempo_conflict()
    rounds = conflict.events.count()
    gm, alice = table("gm"), table("alice")
    alice.goto(f"/conflicts/{conflict.pk}/")
    gm.goto(f"/conflicts/{conflict.pk}/")
    expect(alice.get_by_test_id("latest")).to_contain_text(f"Round {rounds}:")
    alice.wait_for_timeout(500)  # connected
    gm.get_by_role("button", name="Roll both sides").click()
    expect(gm.get_by_test_id("latest")).to_contain_text(f"Round {rounds + 1}:")
    expect(alice.get_by_test_id("latest")).to_contain_text(f"Round {rounds + 1}:", timeout=WOKEN_MS)
    # and the GM's own second page, whose roll form has a select left at its default
    gm_too = table("gm")
    gm_too.goto(f"/conflicts/{conflict.pk}/")
    gm_too.wait_for_timeout(500)
    gm.get_by_role("button", name="Roll both sides").click()
    expect(gm_too.get_by_test_id("latest")).to_contain_text(f"Round {rounds + 2}:", timeout=WOKEN_MS)


pytestmark = pytest.mark.e2e
