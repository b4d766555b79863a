"""A ninja's Character.status follows the build the ledger gives: dead after a failed mission, active
again when the GM reverts that result, and still listed and shown to the campaign while dead."""

from __future__ import annotations

from django.test import Client

from characters import services as character_services
from characters.models import AdvancementEntry, Character

from .helpers import VICTORY_MOVES, VICTORY_SCRIPT


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def run_out_of_time(ttk, start, move, script):
    """A one-stone mission: the first preparation draw empties the bag and the ninja dies (§B12)."""
    script(draws=["o"])
    run = start(stones=1)
    move(run, "player", "prepare_draw")
    run.refresh_from_db()
    assert run.outcome == "out_of_time"
    return run


def test_a_run_that_ends_in_death_marks_the_ninja_dead(ttk, start, move, script):
    run = run_out_of_time(ttk, start, move, script)
    ninja = Character.objects.get(pk=ttk.ninja.pk)
    assert ninja.build["status"] == "dead" and ninja.status == Character.Status.DEAD
    assert ninja.revision == run.result_entry.revision_after == 2


def test_reverting_the_death_brings_the_ninja_back_to_active(ttk, start, move, script):
    run = run_out_of_time(ttk, start, move, script)
    reversal = character_services.revert_entry(run.result_entry, ttk.users["gm"], "The GM misread the bag")
    ninja = Character.objects.get(pk=ttk.ninja.pk)
    assert ninja.build["status"] == "alive" and ninja.build["death"] is None
    assert ninja.status == Character.Status.ACTIVE and ninja.revision == reversal.revision_after == 3


def test_the_gms_revert_page_brings_the_ninja_back_to_active(ttk, start, move, script):
    run = run_out_of_time(ttk, start, move, script)
    gm = client_for(ttk.users["gm"])
    response = gm.post(
        f"/characters/{ttk.ninja.pk}/entries/{run.result_entry_id}/revert/", {"reason": "Wrong bag size"}
    )
    assert response.status_code == 302
    assert AdvancementEntry.objects.filter(reverses=run.result_entry_id).exists()
    assert Character.objects.get(pk=ttk.ninja.pk).status == Character.Status.ACTIVE


def test_a_run_ending_in_victory_leaves_the_ninja_active(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES:
        move(run, side, kind, **params)
    ninja = Character.objects.get(pk=ttk.ninja.pk)
    assert ninja.build["status"] == "alive" and ninja.status == Character.Status.ACTIVE


def test_reverting_a_victory_leaves_the_ninja_active(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES:
        move(run, side, kind, **params)
    run.refresh_from_db()
    character_services.revert_entry(run.result_entry, ttk.users["gm"], "Counted twice")
    ninja = Character.objects.get(pk=ttk.ninja.pk)
    assert ninja.status == Character.Status.ACTIVE and ninja.build["record"]["missions_completed"] == 0


def test_the_ninja_page_and_the_campaign_list_show_a_dead_ninja(ttk, start, move, script):
    run_out_of_time(ttk, start, move, script)
    for persona in ("gm", "player", "other_player", "observer"):
        client = client_for(ttk.users[persona])
        page = client.get(f"/characters/{ttk.ninja.pk}/")
        assert page.status_code == 200, persona
        text = page.content.decode()
        assert "· Dead ·" in text and 'data-testid="ninja-status">dead' in text
        listing = client.get(f"/campaigns/{ttk.campaign.pk}/characters/").content.decode()
        assert "Kage" in listing and "<td>Dead</td>" in listing
    assert client_for(ttk.users["outsider"]).get(f"/characters/{ttk.ninja.pk}/").status_code == 404


def test_the_ninja_page_shows_active_again_after_the_revert(ttk, start, move, script):
    run = run_out_of_time(ttk, start, move, script)
    character_services.revert_entry(run.result_entry, ttk.users["gm"], "The GM misread the bag")
    text = client_for(ttk.users["player"]).get(f"/characters/{ttk.ninja.pk}/").content.decode()
    assert "· Active ·" in text and 'data-testid="ninja-status">alive' in text
