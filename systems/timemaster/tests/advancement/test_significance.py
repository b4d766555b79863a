import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.timemaster.engine import significance as sig


def mission(significance=600, agents=("a", "b", "c"), year=1580, **statuses):
    state = sig.new_mission_state("m1", significance=significance, mission_year=year)
    for agent in agents:
        state = sig.apply_event(
            state, {"type": "add_agent", "agent": agent, "status": statuses.get(agent, "eligible")}
        )
    return state


def tally(state, kind, rating=None, **extra):
    entry = {"kind": kind, **extra}
    if rating is not None:
        entry["rating"] = rating
    return sig.apply_event(state, {"type": "tally", "entry": entry})


class FixedRolls:
    """Stands in for random.Random: hands out d10 faces (0-9) in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


# -- the split ---------------------------------------------------------------------------------
def test_pool_is_split_equally_rounded_down_with_the_remainder_not_awarded():
    state = tally(mission(significance=500), "npc_death", 100)
    outcome = sig.resolve_mission(state, True, roll=101)
    assert outcome["verdict"] == "history_intact"
    assert outcome["pool"] == 400
    assert outcome["share"] == 133
    assert outcome["remainder"] == 1
    assert [a["regular"] for a in outcome["awards"]] == [133, 133, 133]
    # the agent's ledger holds the award alone: the pool, share and remainder are the outcome's
    award = outcome["ledger"]["a"][0]
    assert set(award) == {"kind", "type", "mission", "amount", "forgone", "reason"}
    assert (award["amount"], award["forgone"], award["reason"]) == (133, 0, "earned")


def test_split_pool_boundaries():
    assert sig.split_pool(0, 3) == (0, 0)
    assert sig.split_pool(2, 3) == (0, 2)
    assert sig.split_pool(9, 3) == (3, 0)
    with pytest.raises(RuleError):
        sig.split_pool(10, 0)


@given(st.integers(0, 1000), st.integers(1, 8))
def test_shares_and_remainder_always_add_up_to_the_pool(pool, agents):
    share, remainder = sig.split_pool(pool, agents)
    assert share * agents + remainder == pool
    assert 0 <= remainder < agents


def test_pool_never_goes_below_zero():
    state = tally(mission(significance=100), "event_changed", 90)
    state = tally(state, "other", 50)
    outcome = sig.resolve_mission(state, True, roll=999)
    assert outcome["mistakes_total"] == 140
    assert outcome["pool"] == 0
    assert {a["reason"] for a in outcome["awards"]} == {"no_share"}
    assert all(len(entries) == 2 for entries in outcome["ledger"].values())  # no grade_advanced


def test_failed_mission_earns_nothing_and_rolls_no_check():
    outcome = sig.close_mission(mission(), False, random.Random(1))
    assert outcome["check"] is None
    assert outcome["verdict"] == "mission_failed"
    assert outcome["pool"] == 0
    assert all(a["regular"] == 0 and not a["grade_advances"] for a in outcome["awards"])
    assert [e["kind"] for e in outcome["ledger"]["a"]] == ["sp_awarded", "adventure_closed"]


# -- the significance check --------------------------------------------------------------------
def test_roll_equal_to_the_mistakes_total_changes_history():
    state = tally(mission(), "npc_death", 250)
    outcome = sig.resolve_mission(state, True, roll=250)
    assert outcome["check"]["history_changed"] is True
    assert outcome["check"]["difference"] == 0
    assert outcome["pool"] == 0
    assert {a["reason"] for a in outcome["awards"]} == {"history_changed"}


def test_roll_one_above_the_total_leaves_history_intact():
    state = tally(mission(), "npc_death", 250)
    outcome = sig.resolve_mission(state, True, roll=251)
    assert outcome["check"]["history_changed"] is False
    assert outcome["check"]["difference"] is None
    assert outcome["pool"] == 350


def test_triple_zero_reads_one_thousand():
    state = tally(mission(), "equipment_left_behind", item="chronoscooter")
    outcome = sig.close_mission(state, True, FixedRolls(0, 0, 0))
    assert outcome["check"]["roll"] == 1000
    assert outcome["check"]["faces"] == [0, 0, 0]
    assert outcome["check"]["history_changed"] is True  # 1000 mistakes, roll 1000
    assert outcome["check"]["difference"] == 0


def test_digits_read_as_a_three_digit_number():
    outcome = sig.close_mission(tally(mission(), "other", 100), True, FixedRolls(0, 4, 2))
    assert outcome["check"]["roll"] == 42
    assert outcome["check"]["difference"] == 58


@settings(max_examples=60)
@given(st.integers(1, 1000))
def test_no_mistakes_never_changes_history(roll):
    outcome = sig.resolve_mission(mission(), True, roll=roll)
    assert outcome["check"]["history_changed"] is False
    assert outcome["pool"] == 600


def test_impossible_rolls_are_refused():
    for roll in (0, 1001, "7"):
        with pytest.raises(RuleError):
            sig.significance_check(10, roll)


# -- the tally ---------------------------------------------------------------------------------
def test_equipment_left_behind_counts_at_its_sep_rating():
    state = tally(mission(), "equipment_left_behind", item="stunner")
    state = tally(state, "equipment_left_behind", item="medical_kit")
    assert sig.mistakes_total(state) == 800
    assert sig.mistakes_by_kind(state)["equipment_left_behind"] == 800


def test_body_suit_rating_depends_on_the_mission_year():
    early = tally(mission(year=1580), "equipment_left_behind", item="body_suit")
    late = tally(mission(year=6000), "equipment_left_behind", item="body_suit")
    assert sig.mistakes_total(early) == 750
    assert sig.mistakes_total(late) == 0
    undated = sig.apply_event(sig.new_mission_state("m2", 100), {"type": "add_agent", "agent": "a"})
    with pytest.raises(RuleError, match="year"):
        tally(undated, "equipment_left_behind", item="body_suit")


def test_unrated_equipment_needs_a_gm_rating_and_rated_equipment_keeps_its_own():
    with pytest.raises(RuleError, match="no rating"):
        tally(mission(), "equipment_left_behind", item="money")
    assert sig.mistakes_total(tally(mission(), "equipment_left_behind", 40, item="money")) == 40
    with pytest.raises(RuleError, match="rated 300"):
        tally(mission(), "equipment_left_behind", 5, item="stunner")
    with pytest.raises(RuleError, match="Standard Equipment"):
        tally(mission(), "equipment_left_behind", item="laser_cannon")


def test_tally_ratings_are_checked_by_kind():
    with pytest.raises(RuleError):
        tally(mission(), "npc_death", 501)
    with pytest.raises(RuleError):
        tally(mission(), "other", -1)
    with pytest.raises(RuleError):
        tally(mission(), "arson", 10)
    assert sig.mistakes_total(tally(mission(), "npc_death", 0)) == 0  # a Demorean's death


def test_reversed_tally_entries_do_not_count():
    state = tally(mission(), "npc_death", 300, id="t1")
    state = tally(state, "other", 20, id="t2")
    state = sig.apply_event(state, {"type": "reverse_tally", "reverses": "t1", "reason": "the NPC survived"})
    assert sig.mistakes_total(state) == 20
    with pytest.raises(RuleError):
        sig.apply_event(state, {"type": "reverse_tally", "reverses": "t1", "reason": "again"})
    with pytest.raises(RuleError):
        sig.apply_event(state, {"type": "reverse_tally", "reverses": "t2", "reason": ""})


# -- the Historical Changes Chart --------------------------------------------------------------
CHART = [
    {"low": 0, "high": 49, "text": "A minor court scandal is remembered differently."},
    {"low": 50, "high": 199, "text": "The treaty is signed a year late."},
    {"low": 200, "high": None, "text": "The republic never forms."},
]


def test_difference_is_looked_up_on_the_missions_own_chart():
    state = sig.apply_event(tally(mission(), "npc_death", 400), {"type": "set_chart", "chart": CHART})
    assert sig.resolve_mission(state, True, roll=300)["check"]["chart_line"]["text"].startswith("The treaty")
    assert sig.resolve_mission(state, True, roll=400)["check"]["chart_line"]["low"] == 0
    assert sig.resolve_mission(state, True, roll=1)["check"]["chart_line"]["high"] is None


def test_difference_outside_the_chart_gives_no_line():
    state = sig.apply_event(tally(mission(), "npc_death", 400), {"type": "set_chart", "chart": CHART[:1]})
    outcome = sig.resolve_mission(state, True, roll=100)
    assert outcome["check"]["difference"] == 300
    assert outcome["check"]["chart_line"] is None


@pytest.mark.parametrize(
    "chart, field",
    [
        ([{"low": 0, "high": 50, "text": "x"}, {"low": 50, "high": 60, "text": "y"}], "chart.2"),
        (
            [
                {"low": 0, "high": 500, "text": "x"},
                {"low": 10, "high": 20, "text": "y"},
                {"low": 30, "high": 40, "text": "z"},
            ],
            "chart.3",
        ),
        ([{"low": 10, "high": 5, "text": "x"}], "chart.1.high"),
        ([{"low": -1, "high": 5, "text": "x"}], "chart.1.low"),
        ([{"low": 0, "high": 5, "text": ""}], "chart.1.text"),
        ([{"low": 0, "high": None, "text": "x"}, {"low": 900, "high": 950, "text": "y"}], "chart.2"),
    ],
)
def test_bad_charts_are_refused(chart, field):
    problems = sig.validate_chart(chart)
    assert field in {p.field for p in problems}
    with pytest.raises(RuleError):
        sig.apply_event(mission(), {"type": "set_chart", "chart": chart})


# -- agents, closing, publishing ---------------------------------------------------------------
def test_demoted_and_top_agents_forgo_their_shares_without_redistribution():
    state = mission(significance=300, b="demoted", c="timemaster_10")
    outcome = sig.resolve_mission(state, True, roll=5)
    by_agent = {a["agent"]: a for a in outcome["awards"]}
    assert by_agent["a"] == {**by_agent["a"], "regular": 100, "reason": "earned", "grade_advances": True}
    assert by_agent["b"] == {
        **by_agent["b"],
        "regular": 0,
        "forgone": 100,
        "reason": "demoted",
        "grade_advances": True,
    }
    assert by_agent["c"] == {**by_agent["c"], "regular": 0, "forgone": 100, "grade_advances": False}
    assert [e["kind"] for e in outcome["ledger"]["b"]] == ["sp_awarded", "grade_advanced", "adventure_closed"]
    assert [e["kind"] for e in outcome["ledger"]["c"]] == ["sp_awarded", "adventure_closed"]


def test_close_mission_reads_statuses_from_builds_when_given():
    from .builds import at, make_build

    builds = {"a": make_build(), "b": at(make_build(), "Timemaster", 10), "c": make_build()}
    outcome = sig.close_mission(mission(significance=300), True, FixedRolls(5, 0, 0), builds=builds)
    assert [a["status"] for a in outcome["awards"]] == ["eligible", "timemaster_10", "eligible"]
    with pytest.raises(RuleError, match="No build"):
        sig.close_mission(mission(), True, random.Random(2), builds={"a": make_build()})


def test_banished_agents_cannot_join_a_mission():
    with pytest.raises(RuleError, match="banished"):
        sig.apply_event(mission(), {"type": "add_agent", "agent": "z", "status": "banished"})


def test_closing_needs_significance_and_agents():
    with pytest.raises(RuleError) as error:
        sig.resolve_mission(sig.new_mission_state("m9"), True, roll=5)
    assert {v.field for v in error.value.violations} == {"significance", "agents"}
    with pytest.raises(RuleError):
        sig.apply_event(mission(), {"type": "set_significance", "significance": 1001})


def test_a_closed_mission_is_frozen_and_its_result_stays_secret_until_published():
    state = tally(mission(), "npc_death", 10)
    outcome = sig.close_mission(state, True, random.Random(7))
    closed = sig.apply_event(state, {"type": "close", "outcome": outcome})
    assert closed["status"] == "closed" and state["status"] == "open"
    with pytest.raises(RuleError, match="closed"):
        tally(closed, "other", 5)
    hidden = sig.public_view(closed)
    assert "tally" not in hidden and "outcome" not in hidden
    shown = sig.public_view(sig.apply_event(closed, {"type": "publish"}))
    assert shown["outcome"]["check"]["roll"] == outcome["check"]["roll"]
    with pytest.raises(RuleError):
        sig.apply_event(state, {"type": "publish"})


def test_an_outcome_worked_out_before_the_tally_changed_is_refused():
    state = mission()
    outcome = sig.resolve_mission(state, True, roll=500)
    with pytest.raises(RuleError, match="tally changed"):
        sig.apply_event(tally(state, "other", 5), {"type": "close", "outcome": outcome})


def test_mission_state_round_trips_through_json():
    import json

    state = sig.apply_event(
        tally(mission(), "equipment_left_behind", item="stunner"), {"type": "set_chart", "chart": CHART}
    )
    outcome = sig.close_mission(state, True, random.Random(3))
    closed = sig.apply_event(state, {"type": "close", "outcome": outcome})
    assert json.loads(json.dumps(closed)) == closed


def test_the_outcome_ledger_applies_cleanly_to_every_agent():
    from systems.timemaster.engine import advancement

    from .builds import at, make_build, run

    demoted = run(at(make_build(), "Agent", 3), {"kind": "demotion", "grades": 1, "reason": "review"})
    builds = {"a": at(make_build(), "Trainee", 9), "b": demoted, "c": at(make_build(), "Timemaster", 10)}
    builds = {
        k: advancement.apply_entry(b, {"kind": "mission_started", "mission": "m1"}) for k, b in builds.items()
    }
    state = tally(mission(significance=700), "equipment_left_behind", item="communicator")
    outcome = sig.close_mission(state, True, FixedRolls(9, 9, 9), builds=builds)
    assert outcome["pool"] == 500 and outcome["share"] == 166 and outcome["remainder"] == 2
    after = {k: run(builds[k], *outcome["ledger"][k]) for k in builds}
    assert (after["a"]["rank"], after["a"]["grade"], after["a"]["success_points"]) == ("Probationer", 0, 166)
    assert after["a"]["state"]["pending_free_choices"][0]["rank"] == "Probationer"
    assert (after["b"]["rank"], after["b"]["grade"], after["b"]["success_points"]) == ("Agent", 3, 0)
    assert after["b"]["state"]["sp_forgone"] == 166 and after["b"]["state"]["demoted_from"] is None
    assert (after["c"]["grade"], after["c"]["success_points"]) == (10, 0)
    assert all(b["state"]["shop_open"] for b in after.values())
