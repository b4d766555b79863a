import json
import random

import pytest

from characters.systems.base import RuleError
from systems.time_to_kill.engine import SYSTEM, mission
from systems.time_to_kill.engine.mission import apply_event, mission_result_entry, stones_accounted

from .helpers import MIXED, NINJA, act, build, do, event, prepared, random_event, start, to_action


def refused(state, kind, results=None, by=None, **params):
    with pytest.raises(RuleError) as error:
        do(state, kind, results, by=by, **params)
    return error.value.violations[0]


# -- setup and the bag -------------------------------------------------------------------------
def test_the_bag_holds_the_mission_stones_plus_the_target_stone():
    state = start(stones=25)
    assert state["bag"] == {"start_ordinary": 25, "ordinary": 25, "target": "bag"}
    assert state["step"] == "preparation"
    assert stones_accounted(state) == 25


def test_the_default_mission_length_is_25_stones():
    state = mission.new_mission([{"id": NINJA, "build": build()}])
    assert state["bag"]["ordinary"] == 25


@pytest.mark.parametrize("stones", [0, -3, "many", True])
def test_a_mission_needs_at_least_one_stone(stones):
    with pytest.raises(RuleError) as error:
        start(stones=stones)
    assert error.value.violations[0].field == "settings.mission_stones"


def test_a_mission_is_for_exactly_one_ninja():
    ninja = {"id": NINJA, "build": build()}
    with pytest.raises(RuleError):
        mission.new_mission([ninja, {**ninja, "id": "two"}])
    with pytest.raises(RuleError):
        mission.new_mission([])


def test_a_dead_or_invalid_ninja_cannot_start_a_mission():
    dead = SYSTEM.apply(build(), {"kind": "mission_result", "outcome": "out_of_time", "die_rolls": 0})
    with pytest.raises(RuleError):
        mission.new_mission([{"id": NINJA, "build": dead}])
    broken = build()
    broken["abilities"]["armed"] = "-"
    with pytest.raises(RuleError) as error:
        mission.new_mission([{"id": NINJA, "build": broken}])
    assert error.value.violations[0].field == "ninjas.0.build.abilities.armed"


def test_draws_are_uniform_over_the_bag():
    state = start(stones=3)
    counts = {"ordinary": 0, "target": 0}
    rng = random.Random(5)
    for _ in range(800):
        drawn = apply_event(state, event("prepare_draw", by=NINJA), rng)["draws"][-1]["stone"]
        counts[drawn] += 1
    assert 150 < counts["target"] < 250  # 1 in 4


# -- preparation -------------------------------------------------------------------------------
def test_preparation_draws_become_stones_to_trade_in():
    state = prepared(start(stones=5), 2)
    assert state["stones"]["bank"] == 2
    assert state["bag"]["ordinary"] == 3
    assert state["step"] == "preparation"


def test_the_target_stone_in_preparation_goes_back_and_starts_turn_one():
    state = prepared(start(stones=5), 1)
    state = do(state, "prepare_draw", {"drawn": "target"})
    assert state["bag"] == {"start_ordinary": 5, "ordinary": 4, "target": "bag"}
    assert state["turn"] == 1
    assert state["step"] == "fate_roll"
    assert state["stones"]["bank"] == 1


def test_drawing_the_last_stone_in_preparation_runs_out_of_time():
    state = prepared(start(stones=1), 1)
    assert state["outcome"] == "out_of_time"
    assert state["status"] == "over"
    assert state["stones"]["bank"] == 0  # discarded with the mission
    assert stones_accounted(state) == 1


# -- Step 1 and 2: Fates, reveals, shifts --------------------------------------------------------
def test_the_gm_places_the_rolled_dice_freely_but_only_those_dice():
    state = do(do(start(), "end_preparation"), "roll_fates", {"dice": [1, 0, 0, -1]})
    assert state["step"] == "fate_assign"
    placed = do(
        state,
        "assign_fates",
        fates={"opposition": "-", "concealment": "0", "terrain": "+", "circumstance": "0"},
    )
    assert placed["current"]["fates"]["terrain"]["value"] == "+"
    violation = refused(
        state,
        "assign_fates",
        fates={"opposition": "+", "concealment": "+", "terrain": "0", "circumstance": "-"},
    )
    assert violation.field == "fates"
    assert "exactly the dice rolled" in violation.message


def test_roll_order_places_the_dice_as_rolled():
    state = start(fate_assignment="roll_order")
    state = do(do(state, "end_preparation"), "roll_fates", {"dice": [1, 0, -1, 0]})
    assert [state["current"]["fates"][k]["value"] for k in ("opposition", "concealment", "terrain")] == [
        "+",
        "0",
        "-",
    ]
    assert state["step"] == "narration"  # no stones: Steps 1 and 2 pass by themselves


def test_a_stone_reveals_one_fate():
    state = prepared(start(), 2)
    state = to_action(state, fates={"terrain": "-"}, reveals=("terrain",))
    terrain = state["current"]["fates"]["terrain"]
    assert terrain["revealed"] and terrain["revealed_by"] == "stone"
    assert state["stones"]["bank"] == 1
    assert state["stones"]["out"]["reveal"] == 1


def test_revealing_a_fate_twice_is_refused():
    state = do(
        do(do(prepared(start(), 2), "end_preparation"), "roll_fates", {"dice": [0, 0, 0, 0]}),
        "assign_fates",
        fates={k: "0" for k in ("opposition", "concealment", "terrain", "circumstance")},
    )
    state = do(state, "reveal_fate", fate="opposition")
    assert refused(state, "reveal_fate", fate="opposition").message == "Opposition is already revealed."


def test_a_shift_raises_a_hidden_fate_one_step_and_caps_at_plus():
    state = prepared(start(), 3)
    state = to_action(
        state, fates={"terrain": "-", "opposition": "+"}, shifts=("terrain", "terrain", "opposition")
    )
    fates = state["current"]["fates"]
    assert fates["terrain"]["value"] == "+"
    assert fates["terrain"]["shifts"] == 2
    assert fates["opposition"]["value"] == "+"  # wasted, stone still spent
    assert state["stones"]["bank"] == 0
    assert state["stones"]["out"]["shift"] == 3


def _at_shift_step(state, revealed=("terrain",)):
    state = do(do(state, "end_preparation"), "roll_fates", {"dice": [0, 0, 0, 0]})
    state = do(
        state,
        "assign_fates",
        fates={k: "0" for k in ("opposition", "concealment", "terrain", "circumstance")},
    )
    for fate in revealed:
        state = do(state, "reveal_fate", fate=fate)
    return do(state, "finish_reveals")


def test_shifting_a_revealed_fate_is_refused():
    state = _at_shift_step(prepared(start(), 3))
    violation = refused(state, "shift_fate", fate="terrain")
    assert violation.field == "fate"
    assert "revealed" in violation.message


def test_shifting_in_step_one_and_revealing_in_step_two_are_refused():
    at_reveal = do(
        do(do(prepared(start(), 3), "end_preparation"), "roll_fates", {"dice": [0, 0, 0, 0]}),
        "assign_fates",
        fates={k: "0" for k in ("opposition", "concealment", "terrain", "circumstance")},
    )
    assert at_reveal["step"] == "reveal"
    assert refused(at_reveal, "shift_fate", fate="terrain").field == "type"
    at_shift = _at_shift_step(prepared(start(), 3), revealed=())
    assert refused(at_shift, "reveal_fate", fate="terrain").field == "type"


def test_with_no_stones_to_spend_steps_one_and_two_pass_by_themselves():
    state = do(do(start(), "end_preparation"), "roll_fates", {"dice": [0, 0, 0, 0]})
    state = do(
        state,
        "assign_fates",
        fates={k: "0" for k in ("opposition", "concealment", "terrain", "circumstance")},
    )
    assert state["step"] == "narration"


# -- Step 4: wait, act, re-roll -----------------------------------------------------------------
def test_a_wait_gives_a_stone_skips_step_five_and_step_six_draws_another():
    state = to_action(start(stones=5))
    state = do(state, "wait", {"drawn": "ordinary"})
    assert state["stones"]["wait"] == 1
    assert state["step"] == "end_turn"
    state = do(state, "end_turn", {"drawn": "ordinary"})
    assert state["bag"]["ordinary"] == 3
    assert state["turn"] == 2
    assert stones_accounted(state) == 5


def _holding_a_wait_stone(fates=None, **settings):
    state = to_action(start(MIXED, stones=6, **settings))
    state = do(do(state, "wait", {"drawn": "ordinary"}), "end_turn", {"drawn": "ordinary"})
    return to_action(state, fates=fates)


def test_a_reroll_replaces_a_failed_roll_and_counts_as_a_second_roll():
    state = _holding_a_wait_stone()
    state = act(state, "stealth", ["terrain"], roll=2)  # 0 vs 0: fails on 1-3
    assert state["step"] == "reroll"
    state = do(state, "reroll", {"roll": 5})
    action = state["current"]["action"]
    assert action["rolls"] == [2, 5]
    assert action["result"] == "success"
    assert state["die_roll_count"] == 2
    assert state["stones"]["wait"] == 0
    assert state["stones"]["out"]["reroll"] == 1
    assert state["ninja"]["current"]["stealth"] == "0"


def test_keeping_a_failed_roll_downgrades_and_loses_the_wait_stone():
    state = act(_holding_a_wait_stone(), "stealth", ["terrain"], roll=1)
    state = do(state, "keep_roll")
    assert state["ninja"]["current"]["stealth"] == "-"
    assert state["stones"]["wait"] == 0
    assert state["stones"]["out"]["wait_lost"] == 1


def test_an_automatic_result_loses_the_wait_stone():
    done = act(_holding_a_wait_stone(fates={"terrain": "-"}), "knowledge", ["terrain"])  # - vs -
    assert done["current"]["action"]["automatic"] == "failure"
    assert done["stones"]["wait"] == 0
    assert done["stones"]["out"]["wait_lost"] == 1
    assert done["die_roll_count"] == 0


def test_an_automatic_result_costs_one_stone_even_when_stones_persist():
    held = _holding_a_wait_stone(fates={"terrain": "+"}, wait_stones_persist=True)
    done = act(held, "awareness", ["terrain"])  # + vs +
    assert done["current"]["action"]["automatic"] == "success"
    assert done["stones"]["wait"] == 0


def test_a_wait_stone_lapses_when_the_first_roll_succeeds_unless_stones_persist():
    state = act(_holding_a_wait_stone(), "stealth", ["terrain"], roll=6)
    assert state["stones"]["wait"] == 0
    kept = act(_holding_a_wait_stone(wait_stones_persist=True), "stealth", ["terrain"], roll=6)
    assert kept["stones"]["wait"] == 1


def test_wait_stones_accumulate_only_when_the_campaign_says_so():
    def two_waits(**settings):
        state = to_action(start(stones=8, **settings))
        state = do(do(state, "wait", {"drawn": "ordinary"}), "end_turn", {"drawn": "ordinary"})
        state = do(to_action(state), "wait", {"drawn": "ordinary"})
        return state["stones"]["wait"]

    assert two_waits() == 1
    assert two_waits(wait_stones_persist=True) == 2


def test_rerolling_without_a_wait_stone_is_refused():
    state = act(to_action(start(MIXED)), "stealth", ["terrain"], roll=1)
    assert state["step"] == "end_turn"
    assert refused(state, "reroll", {"roll": 6}, by=NINJA).field == "type"


# -- Step 5: downgrades, lost abilities, death -----------------------------------------------------
def test_a_failure_downgrades_the_ability_used():
    state = act(to_action(start({"awareness": "+"})), "awareness", ["opposition"], roll=1)
    assert state["ninja"]["current"]["awareness"] == "0"
    assert state["ninja"]["creation"]["awareness"] == "+"
    assert state["current"]["action"]["downgrade"] == {"from": "+", "to": "0"}


def test_a_combat_ability_downgraded_below_minus_is_a_fatal_wound():
    state = start(stones=10)
    for expected in ("-", None):
        state = act(to_action(state), "armed", ["opposition"], roll=1)
        if expected:
            assert state["ninja"]["current"]["armed"] == expected
            state = do(state, "end_turn", {"drawn": "ordinary"})
    assert state["outcome"] == "fatally_wounded"
    assert state["ninja"]["fatally_wounded"]
    assert state["status"] == "over"
    violation = refused(state, "roll_fates", {"dice": [0, 0, 0, 0]}, by="gm")
    assert violation.field == "status"


def test_a_non_combat_ability_downgraded_below_minus_is_lost_for_the_mission():
    state = to_action(start(MIXED), fates={"terrain": "-"})
    state = act(state, "knowledge", ["terrain"])  # - vs -: automatic failure
    assert state["ninja"]["disabled"] == ["knowledge"]
    assert state["status"] == "running"
    state = to_action(do(state, "end_turn", {"drawn": "ordinary"}))
    violation = refused(state, "act", ability="knowledge")
    assert violation.field == "ability"
    assert "lost" in violation.message
    offered = mission.available_actions(state, NINJA)
    act_choices = next(a for a in offered if a["type"] == "act")["options"]["ability"]["choices"]
    assert "knowledge" not in act_choices


# -- the target stone ----------------------------------------------------------------------------
def test_the_target_stone_drawn_on_a_wait_forces_an_act_at_once():
    state = do(to_action(start(MIXED)), "wait", {"drawn": "target"})
    assert state["step"] == "must_act"
    assert state["bag"]["target"] == "in_sight"
    assert refused(state, "wait").field == "type"
    won = act(state, "awareness", ["opposition"], roll=4, objective=True)
    assert won["outcome"] == "victory"
    assert won["victory_points"] == 1


def test_acting_on_something_else_with_the_target_in_sight_costs_a_stone_and_returns_the_target():
    state = do(to_action(start(MIXED, stones=5)), "wait", {"drawn": "target"})
    state = act(state, "stealth", ["terrain"], roll=6)
    assert state["bag"] == {"start_ordinary": 5, "ordinary": 4, "target": "bag"}
    assert state["stones"]["out"]["penalty"] == 1
    assert state["step"] == "end_turn"


def test_a_failed_attempt_downgrades_then_costs_a_stone_and_returns_the_target():
    state = do(to_action(start(MIXED, stones=5)), "wait", {"drawn": "target"})
    state = act(state, "stealth", ["terrain"], roll=2, objective=True)
    assert state["ninja"]["current"]["stealth"] == "-"
    assert state["bag"]["target"] == "bag"
    assert state["stones"]["out"]["penalty"] == 1
    assert state["outcome"] is None


def test_the_target_stone_at_end_of_turn_is_in_sight_next_turn():
    state = act(to_action(start(MIXED)), "stealth", ["terrain"], roll=6)
    state = do(state, "end_turn", {"drawn": "target"})
    assert state["bag"]["target"] == "in_sight"
    assert state["turn"] == 2
    state = to_action(state, fates={"opposition": "+"})
    offered = next(a for a in mission.available_actions(state, NINJA) if a["type"] == "act")
    assert offered["options"]["objective"]["choices"] == [False, True]
    won = act(state, "awareness", ["opposition"], objective=True)  # + vs +: automatic
    assert won["outcome"] == "victory"
    assert won["victory_points"] == 1  # the roll of turn 1; the automatic success adds none


def test_waiting_with_the_target_in_sight_pays_the_penalty_before_the_wait_draw():
    state = do(
        act(to_action(start(MIXED, stones=5)), "stealth", ["terrain"], roll=6),
        "end_turn",
        {"drawn": "target"},
    )
    state = do(to_action(state), "wait", {"drawn": "target"})  # the returned target can come straight back
    assert [d["when"] for d in state["draws"][-2:]] == ["penalty", "wait"]
    assert state["step"] == "must_act"
    assert state["bag"]["ordinary"] == 4


def test_the_objective_cannot_be_attempted_without_the_target_in_sight():
    state = to_action(start())
    violation = refused(state, "act", ability="armed", objective=True)
    assert violation.field == "objective"


def test_escape_keeps_the_mission_going_until_the_gm_rules_it_done():
    state = start(MIXED, briefing={"victory_conditions": "Leave no trace.", "escape_required": True})
    state = do(to_action(state), "wait", {"drawn": "target"})
    state = act(state, "awareness", ["opposition"], roll=6, objective=True)
    assert state["objective_achieved"] and state["status"] == "running"
    assert state["bag"]["target"] == "out"
    assert any(a["type"] == "declare_escape" for a in mission.available_actions(state, "gm"))
    state = do(state, "end_turn", {"drawn": "ordinary"})
    state = do(state, "declare_escape")
    assert state["outcome"] == "victory"


def test_declaring_an_escape_before_the_objective_is_refused():
    assert refused(do(start(), "end_preparation"), "declare_escape").field == "type"


# -- rushing -------------------------------------------------------------------------------------
def test_a_rushed_action_skips_the_end_of_turn_draw_and_lowers_a_fate_next_turn():
    state = act(to_action(start(MIXED, stones=5)), "stealth", ["terrain"], roll=6, rushed=True)
    state = do(state, "end_turn")
    assert state["bag"]["ordinary"] == 5
    assert state["current"]["downshifts_due"] == 1
    state = do(state, "roll_fates", {"dice": [1, 0, -1, 0]})
    state = do(
        state,
        "assign_fates",
        fates={"opposition": "+", "concealment": "0", "terrain": "-", "circumstance": "0"},
    )
    assert state["step"] == "rush_downshift"
    lowered = do(state, "rush_downshift", fate="opposition")
    assert lowered["current"]["fates"]["opposition"]["value"] == "0"
    floor = do(state, "rush_downshift", fate="terrain")
    assert floor["current"]["fates"]["terrain"]["value"] == "-"
    assert lowered["step"] == "narration"


def test_rushes_stack_one_downshift_each():
    state = start(MIXED, stones=5)
    for _ in range(2):
        state = do(act(to_action(state), "stealth", ["terrain"], roll=6, rushed=True), "end_turn")
    # the second turn already paid one downshift; its own rush owes one more in turn 3
    assert state["current"]["downshifts_due"] == 1
    assert state["history"][-1]["downshifts"] == ["opposition"]


def test_a_rushed_wait_draws_its_stone_but_skips_the_end_of_turn_draw():
    state = do(to_action(start(stones=5)), "wait", {"drawn": "ordinary"}, rushed=True)
    state = do(state, "end_turn")
    assert state["bag"]["ordinary"] == 4


# -- running out of time ---------------------------------------------------------------------------
def test_the_end_of_turn_draw_of_the_last_stone_runs_out_of_time():
    state = act(to_action(start(MIXED, stones=1)), "stealth", ["terrain"], roll=6)
    state = do(state, "end_turn", {"drawn": "ordinary"})
    assert state["outcome"] == "out_of_time"
    assert state["bag"]["ordinary"] == 0


def test_the_penalty_stone_can_run_out_of_time():
    state = do(to_action(start(MIXED, stones=1)), "wait", {"drawn": "target"})
    state = act(state, "stealth", ["terrain"], roll=1, objective=True)
    assert state["outcome"] == "out_of_time"


def test_a_wait_that_takes_the_last_stone_runs_out_of_time():
    state = do(to_action(start(stones=1)), "wait", {"drawn": "ordinary"})
    assert state["outcome"] == "out_of_time"
    assert stones_accounted(state) == 1


# -- refusals and replay ------------------------------------------------------------------------
def test_acting_out_of_step_is_refused():
    state = start()
    violation = refused(state, "act", by=NINJA, ability="armed")
    assert violation.field == "type"
    assert "Preparation" in violation.message


def test_the_player_cannot_send_the_gms_events_nor_the_gm_the_players():
    state = do(start(), "end_preparation")
    assert refused(state, "roll_fates", {"dice": [0, 0, 0, 0]}, by=NINJA).field == "by"
    assert refused(start(), "end_preparation", by="gm").field == "by"


def test_drawing_from_an_empty_bag_is_refused():
    state = start(stones=2)
    state["bag"].update(ordinary=0, target="in_sight")  # not reachable in play: guarded anyway
    violation = refused(state, "prepare_draw", {"drawn": "ordinary"})
    assert violation.field == "bag"


def test_recorded_results_must_be_possible():
    state = to_action(start())
    acting = do(state, "act", ability="armed")
    assert refused(acting, "choose_fates", {"roll": 9}, fates=["terrain"]).field == "results.roll"
    state = start(MIXED, briefing={"escape_required": True})
    state = act(
        do(to_action(state), "wait", {"drawn": "target"}), "awareness", ["opposition"], roll=6, objective=True
    )
    violation = refused(state, "end_turn", {"drawn": "target"})  # the target stone has left the game
    assert violation.field == "results.drawn"
    assert refused(state, "end_turn", {"drawn": "ordinary", "roll": 3}).field == "results"


def test_a_live_event_cannot_bring_its_own_dice():
    state = start()
    with pytest.raises(RuleError) as error:
        apply_event(state, event("prepare_draw", {"drawn": "ordinary"}, NINJA), random.Random(1))
    assert error.value.violations[0].field == "results"


def test_an_event_needing_dice_without_rng_or_results_is_refused():
    assert refused(start(), "prepare_draw").field == "rng"


def test_unknown_events_and_bad_parameters_are_refused():
    state = to_action(start())
    assert refused(state, "teleport").field == "type"
    assert refused(state, "act", ability="flying").field == "ability"
    assert refused(state, "wait", rushed="yes").field == "rushed"
    acting = do(state, "act", ability="armed")
    assert refused(acting, "choose_fates", fates=[]).field == "fates"
    assert refused(acting, "choose_fates", fates=["weather"]).field == "fates"


def test_apply_event_never_changes_its_input():
    state = start()
    snapshot = json.dumps(state, sort_keys=True)
    do(state, "prepare_draw", {"drawn": "ordinary"})
    assert json.dumps(state, sort_keys=True) == snapshot


def test_replaying_the_recorded_events_gives_the_same_state_without_dice():
    initial = start(MIXED, stones=6)
    state = initial
    rng = random.Random(11)
    while state["status"] == "running" and len(state["events"]) < 200:
        state = apply_event(state, random_event(state, rng), rng)
    assert mission.replay(initial, json.loads(json.dumps(state["events"]))) == state


def test_the_finished_mission_gives_the_ledger_entry():
    state = do(to_action(start(MIXED)), "wait", {"drawn": "target"})
    state = act(state, "stealth", ["opposition"], roll=5, objective=True)
    entry = mission_result_entry(state, mission="m-7")
    assert entry == {
        "kind": "mission_result",
        "outcome": "victory",
        "die_rolls": 1,
        "turns": 1,
        "mission": "m-7",
    }
    ninja = SYSTEM.apply(build(MIXED), entry)
    assert ninja["record"] == {"ranking_points": 1, "missions_completed": 1}


def test_no_ledger_entry_before_the_mission_is_over():
    with pytest.raises(RuleError):
        mission_result_entry(start())
