import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import advancement
from systems.timemaster.engine import regulations as regs
from systems.timemaster.engine.advancement_tables import REGULATIONS

from .builds import at, finish_mission, make_build, run


def violation(build, regulation=4, punishment=None, **extra):
    return regs.violation_entry(build, regulation, punishment, **extra)


def offend(build, regulation=4, punishment=None, **extra):
    return advancement.apply_entry(build, violation(build, regulation, punishment, **extra))


def test_there_are_eight_regulations():
    assert sorted(REGULATIONS) == list(range(1, 9))
    with pytest.raises(RuleError, match="1 to 8"):
        violation(make_build(), 9)


# -- the ladder --------------------------------------------------------------------------------
def test_first_offence_costs_one_grade():
    build = offend(at(make_build(), "Agent", 4))
    assert (build["rank"], build["grade"]) == ("Agent", 3)
    assert build["state"]["offences"] == 1
    assert build["state"]["offence_log"] == [{"regulation": 4, "offence": 1, "punishment": "demote_grade"}]


def test_second_offence_costs_one_rank():
    build = offend(offend(at(make_build(), "Agent", 4)))
    assert (build["rank"], build["grade"]) == ("Probationer", 3)


def test_third_offence_needs_the_gms_choice_of_two_ranks_or_banishment():
    build = offend(offend(at(make_build(), "Veteran", 5)))  # Operative/4
    with pytest.raises(RuleError, match="choose"):
        violation(build)
    demoted = offend(build, punishment="demote_two_ranks")
    assert (demoted["rank"], demoted["grade"]) == ("Probationer", 4)
    banished = offend(build, punishment="banishment")
    assert banished["state"]["banished"] is True
    assert advancement.agent_status(banished) == "banished"


def test_fourth_offence_is_banishment():
    build = at(make_build(), "Veteran", 5)
    for punishment in (None, None, "demote_two_ranks"):
        build = offend(build, punishment=punishment)
    entry = violation(build)
    assert entry["offence"] == 4 and entry["punishment"] == "banishment"
    assert advancement.apply_entry(build, entry)["state"]["banished"] is True


def test_the_ladder_refuses_a_different_punishment_without_the_judiciary():
    build = at(make_build(), "Agent", 4)
    with pytest.raises(RuleError, match="judiciary"):
        violation(build, punishment="demote_rank")
    with pytest.raises(RuleError, match="reason"):
        violation(build, punishment="none", judiciary_override=True)
    entry = violation(build, punishment="none", judiciary_override=True, reason="acted to save a child")
    lenient = advancement.apply_entry(build, entry)
    assert (lenient["rank"], lenient["grade"]) == ("Agent", 4)
    assert lenient["state"]["offences"] == 1


def test_a_banished_agents_record_is_closed():
    build = run(make_build(), {"kind": "banishment", "reason": "sold a stunner in 1920"})
    for entry in (
        {"kind": "sp_awarded", "type": "bonus", "session": "s", "amount": 10},
        {"kind": "mission_started", "mission": "m"},
    ):
        with pytest.raises(RuleError, match="banished"):
            advancement.apply_entry(build, entry)
    with pytest.raises(RuleError, match="banished"):
        violation(build)


def test_punishment_preview_shows_the_next_step():
    build = offend(at(make_build(), "Agent", 4))
    assert regs.punishment_preview(build) == {
        "offence": 2,
        "options": [{"punishment": "demote_rank", "label": "Demoted one rank"}],
    }


# -- demotion arithmetic -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "start, ranks, grades, end",
    [
        (("Probationer", 0), 0, 1, ("Trainee", 9)),  # a grade borrows from the rank below
        (("Trainee", 0), 0, 1, ("Trainee", 0)),  # floor
        (("Agent", 5), 1, 0, ("Probationer", 5)),  # a rank keeps the grade
        (("Probationer", 5), 2, 0, ("Trainee", 0)),  # below Trainee lands on Trainee/0 (ruling 9)
        (("Timemaster", 10), 1, 0, ("Protector", 9)),  # grade cut to the new rank's top
        (("Timemaster", 10), 0, 1, ("Timemaster", 9)),
    ],
)
def test_demotion_arithmetic(start, ranks, grades, end):
    index = regs.rank_index(start[0])
    result = regs.demoted_position((index, start[1]), ranks=ranks, grades=grades)
    assert regs.position_label(result) == "/".join(map(str, end))


def test_judiciary_demotion_needs_steps_and_a_reason():
    with pytest.raises(RuleError):
        advancement.apply_entry(make_build(), {"kind": "demotion", "ranks": 0, "grades": 0, "reason": "x"})
    with pytest.raises(RuleError, match="reason"):
        advancement.apply_entry(make_build(), {"kind": "demotion", "ranks": 1})
    build = advancement.apply_entry(
        at(make_build(), "Sentry", 2), {"kind": "demotion", "ranks": 2, "grades": 3, "reason": "x"}
    )
    assert (build["rank"], build["grade"]) == ("Operative", 9)


# -- ruling 3 ----------------------------------------------------------------------------------
def test_a_demoted_agent_earns_no_regular_points_but_still_climbs_and_resumes_when_back():
    build = offend(at(make_build(), "Agent", 3), regulation=5)  # Agent/2, former standing Agent/3
    assert advancement.agent_status(build) == "demoted"
    assert advancement.advancement_summary(build)["demoted_from"] == "Agent/3"
    with pytest.raises(RuleError, match="demotion"):
        advancement.apply_entry(
            build, {"kind": "sp_awarded", "type": "regular", "mission": "m1", "amount": 90}
        )
    build = run(
        build,
        {"kind": "mission_started", "mission": "m1"},
        {
            "kind": "sp_awarded",
            "type": "regular",
            "mission": "m1",
            "amount": 0,
            "forgone": 90,
            "reason": "demoted",
        },
        {"kind": "grade_advanced", "mission": "m1"},
        {"kind": "adventure_closed", "mission": "m1"},
    )
    assert (build["rank"], build["grade"]) == ("Agent", 3)
    assert build["success_points"] == 0 and build["state"]["sp_forgone"] == 90
    assert build["state"]["demoted_from"] is None
    assert advancement.agent_status(build) == "eligible"
    build = finish_mission(build, "m2", 70)
    assert build["success_points"] == 70


def test_a_second_demotion_keeps_the_first_standing_to_regain():
    build = offend(at(make_build(), "Agent", 3))
    build = offend(build)
    assert (build["rank"], build["grade"]) == ("Probationer", 2)
    assert build["state"]["demoted_from"] == {"rank": "Agent", "grade": 3}


def test_a_demotion_that_changes_nothing_leaves_no_former_standing():
    build = offend(make_build())
    assert build["state"]["demoted_from"] is None
    assert advancement.agent_status(build) == "eligible"


def test_forgone_reason_is_refused_for_an_agent_who_is_not_demoted():
    with pytest.raises(RuleError, match="not below"):
        advancement.apply_entry(
            make_build(),
            {
                "kind": "sp_awarded",
                "type": "regular",
                "mission": "m1",
                "amount": 0,
                "forgone": 40,
                "reason": "demoted",
            },
        )
