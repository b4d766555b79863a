"""Ruling 9 of rules/README.md (TIMEMASTER demotion floor), with timemaster-characters.md §6.5
(rank and grade) and §6.6 (regulations and punishments)."""

import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import advancement
from systems.timemaster.engine import regulations as regs

from .builds import at, make_build


def _standing(rank, grade):
    return {"rank": rank, "grade": grade}


@pytest.mark.parametrize(
    "start, ranks, grades, end",
    [
        (("Agent", 5), 1, 0, ("Probationer", 5)),  # the lower rank exists: the grade is kept
        (("Probationer", 5), 2, 0, ("Trainee", 0)),  # below Trainee: Trainee/0, not Trainee/5
        (("Trainee", 7), 1, 0, ("Trainee", 0)),
        (("Trainee", 0), 2, 3, ("Trainee", 0)),
        (("Probationer", 1), 0, 5, ("Trainee", 6)),  # grades borrow from the rank below
        (("Trainee", 2), 0, 5, ("Trainee", 0)),
    ],
)
def test_a_demotion_never_goes_below_trainee_0(start, ranks, grades, end):
    result = regs.demoted_position((regs.rank_index(start[0]), start[1]), ranks=ranks, grades=grades)
    assert regs.position_label(result) == "/".join(map(str, end))


def test_a_ladder_demotion_is_written_with_the_standing_before_and_after():
    entry = regs.violation_entry(
        at(make_build(), "Probationer", 5),
        4,
        punishment="demote_two_ranks",
        judiciary_override=True,
        reason="left a stunner in 1850",
    )
    assert entry["standing_before"] == _standing("Probationer", 5)
    assert entry["standing_after"] == _standing("Trainee", 0)
    build = advancement.apply_entry(at(make_build(), "Probationer", 5), entry)
    assert (build["rank"], build["grade"]) == ("Trainee", 0)
    assert build["state"]["demoted_from"] == _standing("Probationer", 5)


def test_a_demotion_at_trainee_0_is_written_but_leaves_nothing_owed_back():
    build = make_build()  # Trainee/0
    entry = regs.violation_entry(build, 4)  # first offence: one grade
    assert entry["punishment"] == "demote_grade"
    assert entry["standing_before"] == entry["standing_after"] == _standing("Trainee", 0)
    after = advancement.apply_entry(build, entry)
    assert (after["rank"], after["grade"]) == ("Trainee", 0)
    assert after["state"]["offences"] == 1
    assert after["state"]["demoted_from"] is None
    assert advancement.agent_status(after) != "demoted"  # regular Success Points are still earned


def test_a_violation_without_a_demotion_writes_no_standing():
    entry = regs.violation_entry(
        at(make_build(), "Agent", 4),
        4,
        punishment="none",
        judiciary_override=True,
        reason="acted to save a child",
    )
    assert "standing_before" not in entry and "standing_after" not in entry


def test_a_judiciary_demotion_entry_carries_the_standings_and_is_checked():
    build = at(make_build(), "Agent", 3)
    entry = regs.demotion_entry(build, ranks=3, reason="sold a stunner")
    assert (entry["standing_before"], entry["standing_after"]) == (
        _standing("Agent", 3),
        _standing("Trainee", 0),
    )
    after = advancement.apply_entry(build, entry)
    assert (after["rank"], after["grade"]) == ("Trainee", 0)
    with pytest.raises(RuleError, match="reason"):
        regs.demotion_entry(build, ranks=1)
    with pytest.raises(RuleError):
        regs.demotion_entry(build)
