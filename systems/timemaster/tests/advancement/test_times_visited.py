import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import advancement
from systems.timemaster.engine import times_visited as tv

from .builds import make_build, run


def visit(parallel, start, end, mission=None):
    return {
        "kind": "times_visited_added",
        "parallel": parallel,
        "start_year": start,
        "end_year": end,
        "mission": mission,
    }


def test_a_trip_into_the_native_lifetime_is_a_loop_trap():
    build = make_build()  # born 1950, recruited at 30 -> 1980, native Parallel T-0
    with pytest.raises(RuleError, match="Loop trap.*lifetime"):
        tv.check_visit(build, "T-0", 1975, 1976)
    with pytest.raises(RuleError, match="Loop trap"):
        tv.check_visit(build, "T-0", 1980, 1985)  # the recruitment year itself
    assert tv.check_visit(build, "T-0", 1981, 1982) == []
    assert tv.check_visit(build, "T-0", 1900, 1949) == []


def test_a_trip_overlapping_an_earlier_visit_on_the_same_parallel_is_refused_naming_it():
    build = run(make_build(), visit("T-0", 1580, 1580, mission="armada"))
    with pytest.raises(RuleError, match=r"visit 1 \(mission armada\).*1580") as error:
        advancement.apply_entry(build, visit("t0", 1579, 1581))
    assert error.value.violations[0].field == "start_year"


def test_overlap_on_another_parallel_is_allowed_with_a_warning():
    build = run(make_build(), visit("T-0", 1580, 1585))
    warnings = tv.check_visit(build, "M-12", 1584, 1590)
    assert len(warnings) == 1 and "another Parallel" in warnings[0].message
    warnings = tv.check_visit(build, "T-3", 1960, 1961)
    assert "lifetime" in warnings[0].message
    build = advancement.apply_entry(build, visit("M-12", 1584, 1590))
    assert build["times_visited"][-1] == {
        "parallel": "M-12",
        "start_year": 1584,
        "end_year": 1590,
        "mission": None,
    }


def test_the_native_parallel_can_be_set_in_the_background():
    build = make_build()
    build["background"]["native_parallel"] = "T-7"
    assert tv.check_visit(build, "T-0", 1975, 1976)  # a warning only
    with pytest.raises(RuleError, match="Loop trap"):
        tv.check_visit(build, "T-7", 1975, 1976)


def test_bc_years_have_no_year_zero():
    build = make_build()
    build["background"].update(birth_year=-30, age_at_recruitment=40)  # 30 B.C. to 11 A.D.
    assert tv.native_lifetime(build) == (-30, 11)
    with pytest.raises(RuleError, match="Loop trap"):
        tv.check_visit(build, "T-0", 11, 12)
    assert tv.check_visit(build, "T-0", 12, 20) == []
    with pytest.raises(RuleError, match="no year 0"):
        tv.check_visit(build, "T-0", 0, 5)
    born_1bc = make_build()
    born_1bc["background"].update(birth_year=-1, age_at_recruitment=1)
    assert tv.native_lifetime(born_1bc) == (-1, 1)


def test_malformed_trips_are_refused():
    build = make_build()
    with pytest.raises(RuleError, match="ends before"):
        tv.check_visit(build, "T-0", 1600, 1590)
    with pytest.raises(RuleError, match="Parallel code"):
        tv.check_visit(build, "Q-1", 1600, 1601)
    with pytest.raises(RuleError, match="Time Barrier"):
        tv.check_visit(build, "T-0", 7190, 7200)
    assert tv.check_visit(build, "T-0", 7190, 7200, present_year=7300) == []


def test_times_visited_entry_returns_its_warnings():
    build = run(make_build(), visit("T-0", -44, -44))
    entry, warnings = advancement.times_visited_entry(build, "R-2", -44, -43, mission="ides")
    assert entry["present_year"] == 7192 and len(warnings) == 1
    assert advancement.apply_entry(build, entry)["times_visited"][-1]["parallel"] == "R-2"
