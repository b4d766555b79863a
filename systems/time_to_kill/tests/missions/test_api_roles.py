"""Every ttk_missions API route against every persona: gm, the ninja's player, another player, an
observer, an outsider and an anonymous client; the players never get a secret."""

from __future__ import annotations

import json

import pytest

from systems.time_to_kill.models import MissionEvent, MissionRun

from .conftest import SECRET_NOTES
from .helpers import VICTORY_MOVES, VICTORY_SCRIPT

ALL = ("gm", "player", "other_player", "observer", "outsider", "anonymous")

#: The API routes whose every persona this module walks (read by the route-coverage test in
#: tests/campaigns/test_api_roles.py).
WALKED_ROUTES = {
    "api-ttk-runs",
    "api-ttk-run-events",
    "api-ttk-run-gm-state",
    "api-ttk-run-player-state",
    "api-ttk-run-abandon",
}


def client(api, ttk, persona):
    return api(None if persona == "anonymous" else ttk.users[persona])


def assert_error_format(response):
    body = response.json()
    assert set(body) == {"status", "detail", "errors"}, body


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("gm", 200),
        ("player", 200),
        ("other_player", 200),
        ("observer", 200),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_listing_runs(ttk, start, api, persona, expected):
    run = start()
    response = client(api, ttk, persona).get(f"/api/v1/campaigns/{ttk.campaign.pk}/ttk-runs/")
    assert response.status_code == expected
    if expected == 200:
        [row] = response.json()["results"]
        assert row["id"] == run.pk and row["title"] == "The Bell Tower"
        assert row["your_side"] == {"gm": "gm", "player": "player"}.get(persona)
        assert SECRET_NOTES not in json.dumps(response.json())
    else:
        assert_error_format(response)


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("gm", 201),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_starting_a_run(ttk, api, persona, expected):
    body = {"ninja": ttk.ninja.pk, "title": "Paper Lanterns", "mission_stones": 20, "escape_required": True}
    response = client(api, ttk, persona).post(
        f"/api/v1/campaigns/{ttk.campaign.pk}/ttk-runs/", body, format="json"
    )
    assert response.status_code == expected, response.content
    assert MissionRun.objects.exists() == (expected == 201)
    if expected == 201:
        run = MissionRun.objects.get()
        assert run.state["bag"] == {"start_ordinary": 20, "ordinary": 20, "target": "bag"}
        assert run.state["briefing"]["escape_required"] is True
    else:
        assert_error_format(response)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"ninja": 123456}, "ninja"),
        ({"ninja": "kage"}, "ninja"),
        ({}, "ninja"),
        ({"mission_stones": 500}, "mission_stones"),
        ({"mission": 99999}, "mission"),
        ({"title": "x" * 300}, "title"),
        ({"escape_required": "perhaps"}, "escape_required"),
    ],
)
def test_a_bad_start_is_a_400_naming_the_field(ttk, api, body, field):
    payload = {"ninja": ttk.ninja.pk, **body} if "ninja" not in body and body != {} else body
    response = api(ttk.users["gm"]).post(
        f"/api/v1/campaigns/{ttk.campaign.pk}/ttk-runs/", payload, format="json"
    )
    assert response.status_code == 400, response.content
    assert_error_format(response)
    assert field in [e["field"] for e in response.json()["errors"]], response.json()
    assert not MissionRun.objects.exists()


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("gm", 200),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_the_gm_state_is_for_the_gm_only(ttk, start, api, persona, expected):
    run = start()
    response = client(api, ttk, persona).get(f"/api/v1/ttk-runs/{run.pk}/gm-state/")
    assert response.status_code == expected
    if expected == 200:
        state = response.json()["state"]
        assert state["briefing"]["gm_notes"] == SECRET_NOTES and "fate_record_sheet" in state
    else:
        assert_error_format(response)
        assert SECRET_NOTES not in response.content.decode()


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("gm", 200),
        ("player", 200),
        ("other_player", 200),
        ("observer", 200),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_the_player_state(ttk, start, api, persona, expected):
    run = start()
    response = client(api, ttk, persona).get(f"/api/v1/ttk-runs/{run.pk}/player-state/")
    assert response.status_code == expected
    if expected == 200:
        state = response.json()["state"]
        assert "bag" not in state and "gm_notes" not in json.dumps(state)
        offered = [a["type"] for a in state["available_actions"]]
        assert offered == (["prepare_draw", "end_preparation"] if persona == "player" else [])
    else:
        assert_error_format(response)


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("gm", 400),
        ("player", 201),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_posting_an_event(ttk, start, api, script, persona, expected):
    script(draws=["o"])
    run = start()
    response = client(api, ttk, persona).post(
        f"/api/v1/ttk-runs/{run.pk}/events/", {"type": "prepare_draw", "after": 0}, format="json"
    )
    assert response.status_code == expected, response.content
    assert MissionEvent.objects.count() == (1 if expected == 201 else 0)
    if expected == 201:
        body = response.json()
        assert body["state"]["stones"]["preparation"] == 1 and body["run"]["events"] == 1
        assert "bag" not in body["state"]
    else:
        assert_error_format(response)


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("gm", 200),
        ("player", 200),
        ("other_player", 200),
        ("observer", 200),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_the_event_log(ttk, start, api, move, script, persona, expected):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES[:4]:
        move(run, side, kind, **params)
    response = client(api, ttk, persona).get(f"/api/v1/ttk-runs/{run.pk}/events/")
    assert response.status_code == expected
    if expected != 200:
        assert_error_format(response)
        return
    events = response.json()["events"]
    assert [e["type"] for e in events] == ["prepare_draw", "end_preparation", "roll_fates", "assign_fates"]
    text = json.dumps(response.json())
    if persona == "gm":
        assert events[2]["event"]["results"] == {"dice": [-1, 0, 1, 0]}
    else:
        assert "results" not in text and "opposition" not in text and "Placed" not in text


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"type": "teleport"}, 400, "type"),
        ({"type": "prepare_draw", "results": {"drawn": "target"}}, 400, "results"),
        ({"type": "prepare_draw", "by": "gm"}, 400, "by"),
        ({"type": "prepare_draw", "after": 5}, 409, "after"),
        ({"type": "prepare_draw", "after": "soon"}, 400, "after"),
        ({"type": "shift_fate", "justification": "x" * 3000}, 400, "justification"),
        ({"type": "reveal_fate", "fate": "weather"}, 400, "type"),
        ([1, 2], 400, "event"),
    ],
)
def test_bad_events_are_refused_clearly_and_change_nothing(ttk, start, api, body, status, field):
    run = start()
    response = api(ttk.users["player"]).post(f"/api/v1/ttk-runs/{run.pk}/events/", body, format="json")
    assert response.status_code == status, response.content
    assert_error_format(response)
    assert field in [e["field"] for e in response.json()["errors"]], response.json()
    run.refresh_from_db()
    assert run.event_count == 0 and run.state == run.initial_state


def test_a_whole_mission_through_the_api(ttk, start, api, script):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES:
        user = ttk.users["gm" if side == "gm" else "player"]
        response = api(user).post(
            f"/api/v1/ttk-runs/{run.pk}/events/", {"type": kind, **params}, format="json"
        )
        assert response.status_code == 201, (kind, response.content)
    assert response.json()["run"]["outcome"] == "victory"
    ttk.ninja.refresh_from_db()
    assert ttk.ninja.build["record"]["ranking_points"] == 1


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("gm", 200),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_abandoning_a_run(ttk, start, api, persona, expected):
    run = start()
    response = client(api, ttk, persona).post(f"/api/v1/ttk-runs/{run.pk}/abandon/")
    assert response.status_code == expected, response.content
    run.refresh_from_db()
    assert (run.status, run.outcome) == (("over", "abandoned") if expected == 200 else ("running", ""))
    if expected != 200:
        assert_error_format(response)


def test_an_abandoned_run_takes_no_moves_gives_no_result_and_frees_the_ninja(ttk, start, api):
    run = start()
    gm = api(ttk.users["gm"])
    assert gm.post(f"/api/v1/ttk-runs/{run.pk}/abandon/").status_code == 200
    again = gm.post(f"/api/v1/ttk-runs/{run.pk}/abandon/")
    assert again.status_code == 409 and "already over" in again.json()["errors"][0]["message"]
    move = api(ttk.users["player"]).post(
        f"/api/v1/ttk-runs/{run.pk}/events/", {"type": "end_preparation"}, format="json"
    )
    assert move.status_code == 400 and move.json()["errors"][0]["field"] == "status"
    ttk.ninja.refresh_from_db()
    assert ttk.ninja.revision == 1 and not ttk.ninja.entries.exists()
    assert start().status == "running"
