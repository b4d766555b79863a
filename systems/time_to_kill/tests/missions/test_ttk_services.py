"""Mission runs through the services: events stored and replayable, the ledger, the dice log, refusals."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import Roll
from systems.time_to_kill import services
from systems.time_to_kill.engine import replay
from systems.time_to_kill.models import MissionEvent, MissionRun

from .helpers import VICTORY_MOVES, VICTORY_SCRIPT


def play(run, move, moves):
    for side, kind, params in moves:
        move(run, side, kind, **params)
    run.refresh_from_db()
    return run


def test_a_short_mission_to_victory_adds_the_die_rolls_to_the_ninjas_record(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = play(start(), move, VICTORY_MOVES)
    assert run.status == "over" and run.outcome == "victory"
    assert run.state["die_roll_count"] == 1
    ttk.ninja.refresh_from_db()
    assert ttk.ninja.build["record"] == {"ranking_points": 1, "missions_completed": 1}
    entry = run.result_entry
    assert entry.kind == "mission_result" and entry.payload["outcome"] == "victory"
    assert entry.payload["die_rolls"] == 1 and entry.payload["mission"] == run.pk
    assert ttk.ninja.revision == 2


def test_the_current_state_is_the_stored_events_replayed(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = play(start(), move, VICTORY_MOVES[:6])
    events = [row.event for row in MissionEvent.objects.filter(run=run).order_by("seq")]
    assert [e["type"] for e in events] == [kind for _, kind, _ in VICTORY_MOVES[:6]]
    assert replay(run.initial_state, events) == run.state
    assert services.state_after(run, 2)["turn"] == 1
    assert run.event_count == 6


def test_the_fate_dice_go_to_the_log_in_secret_and_the_action_die_in_the_open(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    play(start(), move, VICTORY_MOVES)
    fate = Roll.objects.get(kind="fudge")
    assert fate.secret and fate.faces == [-1, 0, 1, 0] and fate.roller == ttk.users["gm"]
    action = Roll.objects.get(kind="d6")
    assert not action.secret and action.faces == [5] and action.character == ttk.ninja


def test_a_refused_event_says_why_and_changes_nothing(ttk, start, move):
    run = start()
    with pytest.raises(ValidationError) as error:
        move(run, "gm", "roll_fates")
    assert "Preparation" in error.value.message_dict["type"][0]
    with pytest.raises(ValidationError) as error:
        move(run, "gm", "prepare_draw")
    assert "player" in error.value.message_dict["by"][0]
    with pytest.raises(ValidationError) as error:
        move(run, "player", "fly_away")
    assert "type" in error.value.message_dict
    run.refresh_from_db()
    assert run.event_count == 0 and not MissionEvent.objects.exists()


def test_a_client_cannot_bring_its_own_dice_or_speak_for_the_other_side(ttk, start):
    run = start()
    for field in ("results", "by"):
        with pytest.raises(ValidationError) as error:
            services.post_event(
                run, ttk.users["player"], "player", {"type": "prepare_draw", field: {"drawn": "target"}}
            )
        assert field in error.value.message_dict
    assert MissionEvent.objects.count() == 0


def test_a_move_from_a_stale_page_is_refused(ttk, start, script):
    script(draws=["o"])
    run = start()
    services.post_event(run, ttk.users["player"], "player", {"type": "prepare_draw"}, expected_count=0)
    with pytest.raises(services.StaleMove):
        services.post_event(run, ttk.users["player"], "player", {"type": "prepare_draw"}, expected_count=0)
    assert MissionEvent.objects.count() == 1


def test_a_ninja_runs_one_mission_at_a_time(ttk, start):
    start()
    with pytest.raises(ValidationError) as error:
        start()
    assert "already on a mission" in error.value.message_dict["ninja"][0]


def test_running_out_of_time_kills_the_ninja_through_the_ledger(ttk, start, move, script):
    script(draws=["o"])
    run = start(stones=1)
    move(run, "player", "prepare_draw")
    run.refresh_from_db()
    assert run.outcome == "out_of_time"
    ttk.ninja.refresh_from_db()
    assert ttk.ninja.build["status"] == "dead"
    with pytest.raises(ValidationError) as error:
        start()
    assert "dead" in str(error.value.message_dict)


def test_bad_setup_is_refused_by_field(ttk):
    gm = ttk.membership["gm"]
    cases = [
        ({"ninja": 999999}, "ninja"),
        ({"ninja": ttk.ninja.pk, "mission_stones": 0}, "mission_stones"),
        ({"ninja": ttk.ninja.pk, "briefing": {"escape_required": "yes"}}, "escape_required"),
        ({"ninja": ttk.ninja.pk, "mission": 424242}, "mission"),
    ]
    for kwargs, field in cases:
        with pytest.raises(ValidationError) as error:
            services.start_run(gm, **kwargs)
        assert field in error.value.message_dict, error.value.message_dict
    with pytest.raises(ValidationError):
        services.start_run(ttk.membership["player"], ninja=ttk.ninja.pk)
    assert not MissionRun.objects.exists()


def test_the_fate_record_data_for_the_printed_sheet(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = play(start(), move, VICTORY_MOVES[:4])
    sheet = services.fate_record_sheet_for_run(run)
    assert sheet["gm_only"] and sheet["turn"] == 1
    assert {b["fate"]: b["value"] for b in sheet["boxes"]} == VICTORY_MOVES[3][2]["fates"]
