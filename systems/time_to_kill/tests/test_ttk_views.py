import json

import pytest

from characters.systems.base import RuleError
from systems.time_to_kill.engine import (
    SYSTEM,
    available_actions,
    blank_fate_record_sheet,
    fate_record_sheet,
    fate_record_sheet_data,
    gm_view,
    player_view,
)
from systems.time_to_kill.engine.tables import FATE_KEYS

from .helpers import MIXED, NINJA, act, build, do, prepared, start, to_action

SECRET_KEYS = {
    "dice",
    "rolled",
    "gm_notes",
    "gm",
    "events",
    "history",
    "start_ordinary",
    "ordinary",
    "before",
    "after",
}


def keys_in(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_in(inner)


def mid_turn():
    """Turn 1 at Step 4: Terrain revealed (-), Opposition shifted while hidden, notes for the GM only."""
    state = prepared(start(MIXED, briefing={"brief": "A lord.", "gm_notes": "He sleeps upstairs."}), 3)
    return to_action(
        state, fates={"terrain": "-", "opposition": "+"}, reveals=("terrain",), shifts=("opposition",)
    )


def test_the_player_sees_revealed_fates_and_only_their_names_otherwise():
    view = player_view(mid_turn(), NINJA)
    fates = {f["fate"]: f for f in view["fates"]}
    assert fates["terrain"] == {
        "fate": "terrain",
        "label": "Terrain",
        "revealed": True,
        "value": "-",
        "revealed_by": "stone",
    }
    for key in ("opposition", "concealment", "circumstance"):
        assert fates[key] == {"fate": key, "label": fates[key]["label"], "revealed": False}


def test_the_player_view_carries_no_secret_fields():
    view = player_view(mid_turn(), NINJA)
    assert not SECRET_KEYS & set(keys_in(view))
    text = json.dumps(view)
    assert "He sleeps upstairs." not in text
    assert "bag" not in view


def test_the_player_sees_their_shift_but_not_what_it_did():
    view = player_view(mid_turn(), NINJA)
    assert view["shifts_this_turn"] == [{"fate": "opposition", "justification": "a grappling hook"}]
    assert all("wasted" not in line["text"] and "->" not in line["text"] for line in view["log"])


def test_the_stone_count_is_shown_only_when_the_campaign_allows():
    hidden = player_view(prepared(start(stones=9), 2), NINJA)
    shown = player_view(prepared(start(stones=9, players_see_stone_count=True), 2), NINJA)
    assert "bag" not in hidden
    assert shown["bag"] == {"stones_at_start": 9, "stones_left": 7}


def test_the_player_sees_their_stones_ratings_draws_and_die_rolls():
    state = act(mid_turn(), "stealth", ["terrain"], roll=2)
    view = player_view(state, NINJA)
    assert view["stones"] == {"preparation": 1, "wait": 0}
    stealth = next(a for a in view["ninja"]["abilities"] if a["key"] == "stealth")
    assert (stealth["creation"], stealth["current"]) == ("0", "-")
    assert view["die_roll_count"] == 1
    assert [d["when"] for d in view["draws"]] == ["preparation"] * 3
    assert view["action"]["rolls"] == [2] and view["action"]["result"] == "failure"


def test_the_rush_downshift_target_stays_hidden():
    state = do(act(to_action(start(MIXED)), "stealth", ["terrain"], roll=6, rushed=True), "end_turn")
    state = do(state, "roll_fates", {"dice": [0, 0, 0, 0]})
    state = do(state, "assign_fates", fates={k: "0" for k in FATE_KEYS})
    state = do(state, "rush_downshift", fate="circumstance")
    view = player_view(state, NINJA)
    assert view["rush"]["downshifts_applied_this_turn"] == 1
    assert "circumstance" not in json.dumps(view["rush"])
    assert "Circumstance" not in json.dumps(view["log"])


def test_the_player_is_offered_choices_only_on_their_move():
    state = mid_turn()
    assert [a["type"] for a in player_view(state, NINJA)["available_actions"]] == ["wait", "act"]
    assert player_view(state, NINJA)["step"]["your_move"] is True
    waiting_for_gm = do(state, "act", ability="stealth")
    assert player_view(waiting_for_gm, NINJA)["available_actions"] == []
    assert gm_view(waiting_for_gm)["available_actions"]["gm"][0]["type"] == "choose_fates"


def test_someone_else_cannot_have_the_player_view():
    with pytest.raises(RuleError):
        player_view(mid_turn(), "ninja-2")
    with pytest.raises(RuleError):
        available_actions(mid_turn(), "stranger")


def test_the_gm_view_shows_everything_including_the_fate_record_sheet():
    view = gm_view(mid_turn())
    assert view["briefing"]["gm_notes"] == "He sleeps upstairs."
    assert view["stones_left"] == 2
    assert view["stones_accounted"] == 5
    boxes = {b["fate"]: b for b in view["fate_record_sheet"]["boxes"]}
    assert boxes["opposition"] == {
        "fate": "opposition",
        "label": "Opposition",
        "covers": boxes["opposition"]["covers"],
        "rolled": "+",
        "value": "+",
        "revealed": False,
        "revealed_by": "",
        "shifts": 1,
        "downshifts": 0,
    }
    assert boxes["terrain"]["revealed_by"] == "stone"
    json.dumps(view)


def test_the_fate_record_sheet_has_four_boxes_a_grid_and_the_mission_panel():
    state = do(act(mid_turn(), "stealth", ["terrain"], roll=5), "end_turn", {"drawn": "ordinary"})
    sheet = fate_record_sheet(state)
    assert [b["label"] for b in sheet["boxes"]] == ["Opposition", "Concealment", "Terrain", "Circumstance"]
    assert sheet["boxes"][0]["value"] == ""  # turn 2 not rolled yet
    assert [row["turn"] for row in sheet["grid"]] == [1, 2]
    assert sheet["grid"][0]["action"] == "Stealth: failure"
    assert sheet["mission"]["stones_at_start"] == 5
    assert sheet["mission"]["stones_left"] == 1
    assert len(sheet["action_table"]) == 9
    assert sheet["gm_only"] is True


def test_the_blank_fate_record_sheet_has_the_same_shape_with_nothing_filled_in():
    blank = blank_fate_record_sheet()
    filled = fate_record_sheet(mid_turn())
    assert set(blank) == set(filled)
    assert set(blank["mission"]) == set(filled["mission"])
    assert all(b["value"] == "" for b in blank["boxes"])
    assert len(blank["grid"]) == 30
    data = fate_record_sheet_data()
    assert data.template == "sheets/time_to_kill_fate_record.html"
    assert fate_record_sheet_data(mid_turn()).fields["turn"] == 1


def test_the_character_sheet_shows_every_block_computed():
    ninja = SYSTEM.apply(
        build(MIXED, name="Kage", player="Ann"),
        {"kind": "mission_result", "outcome": "victory", "die_rolls": 6},
    )
    data = SYSTEM.sheet(ninja)
    assert data.system == "time_to_kill"
    assert data.template == "sheets/time_to_kill.html"
    assert data.title == "Kage"
    fields = data.fields
    assert fields["header"]["player"] == "Ann"
    assert fields["creation"] == {
        "base_points": 5,
        "ranking_bonus": 0,
        "budget": 5,
        "points_spent": 0,
        "points_unspent": 5,
        "trade_used": True,
        "trade_lowered": "Knowledge",
    }
    combat, non_combat = fields["ability_groups"]
    assert (combat["label"], combat["raise_cost"], len(combat["abilities"])) == ("Combat", 2, 4)
    assert (non_combat["raise_cost"], len(non_combat["abilities"])) == (1, 5)
    assert all(row["disabled_box"] for row in non_combat["abilities"])
    assert not any("disabled_box" in row for row in combat["abilities"])
    assert fields["record"] == {
        "missions_completed": 1,
        "total_points": 6,
        "ranking": "6.00",
        "next_creation_budget": 11,
    }
    assert len(fields["reference"]["action_table"]) == 9
    assert fields["mission"]["in_mission"] is False
    json.dumps(fields)


def test_the_character_sheet_fills_mission_boxes_from_the_player_view():
    state = act(mid_turn(), "stealth", ["terrain"], roll=1)
    fields = SYSTEM.sheet(build(MIXED), player_view(state, NINJA)).fields
    assert fields["mission"]["preparation_stones"] == 1
    assert fields["mission"]["die_roll_tally"] == 1
    assert fields["mission"]["revealed_fates"] == [{"label": "Terrain", "value": "-"}]
    stealth = next(r for r in fields["ability_groups"][1]["abilities"] if r["key"] == "stealth")
    assert stealth["current"] == "-"
    assert [t["marked"] for t in stealth["track"]] == [False, False, True]
