"""The printed sheet's data (timemaster-characters.md §1)."""

from __future__ import annotations

import json

from systems.timemaster.engine import SYSTEM, condition

from .helpers import make_build


def test_sheet_holds_every_field_of_the_1984_sheet():
    data = SYSTEM.sheet(make_build())
    assert (
        data.system == "timemaster"
        and data.template == "sheets/timemaster.html"
        and data.title == "Harry Adams"
    )
    fields = data.fields
    for key in (
        "armor",
        "background",
        "basic_statistics",
        "character",
        "current_stamina",
        "current_willpower",
        "penetration_bonus",
        "player",
        "rank_grade",
        "skills",
        "stamina_loss_per_round",
        "stamina_recovery_rate",
        "success_points",
        "talents",
        "times_visited",
        "unskilled_melee",
        "wound_boxes",
    ):
        assert key in fields
    assert fields["rank_grade"] == "Trainee/0"
    assert [s["code"] for s in fields["basic_statistics"]] == [
        "STR",
        "DEX",
        "AGL",
        "PER",
        "PCN",
        "WPR",
        "LUCK",
        "STA",
    ]
    assert fields["background"]["date_of_birth"] == "1950 A.D."
    assert fields["background"]["recruitment_year"] == "1980 A.D."


def test_sheet_is_plain_json():
    fields = SYSTEM.sheet(make_build()).fields
    assert json.loads(json.dumps(fields)) == fields


def test_preprinted_skill_rows_come_first_with_formula_level_and_score():
    rows = SYSTEM.sheet(make_build()).fields["skills"]
    assert [r["key"] for r in rows[:2]] == ["historical_specialty", "time_corps_stunner"]
    specialty, stunner = rows[0], rows[1]
    assert specialty["base_formula"] == "(Pcn+Wpr)÷2" and specialty["level"] == "Specialist"
    assert specialty["score"] == -(-(48 + 52) // 2) + 15
    assert "United States, 1850 A.D. to 1980 A.D." in specialty["name"]
    assert stunner["base_formula"] == "Dex" and stunner["score"] == 64 + 15


def test_talents_show_score_and_willpower_cost_with_paranormal_memory_first():
    talents = SYSTEM.sheet(make_build()).fields["talents"]
    assert talents[0]["key"] == "paranormal_memory" and talents[0]["willpower_cost"] == 0
    assert talents[1] == {
        "key": "telepathic_probe",
        "name": "Telepathic Probe",
        "base_formula": "(Wpr+Per+Luck)÷4",
        "score": -(-(52 + 56 + 44) // 4),
        "willpower_cost": 10,
    }


def test_wound_boxes_show_struck_and_marked_boxes():
    build = condition.with_condition(make_build(), wounds_marked=3, armor=["mail", "helmet"])
    fields = SYSTEM.sheet(build).fields
    assert fields["wounds"] == 12
    assert sum(b["struck"] for b in fields["wound_boxes"]) == 3
    assert sum(b["marked"] for b in fields["wound_boxes"]) == 3
    assert fields["armor"] == "Mail, Helmet" and fields["stamina_loss_per_round"] == 3


def test_times_visited_rows_give_era_place_span_and_parallel_not_mission_ids():
    build = make_build()
    build["times_visited"] = [
        {"parallel": "T-0", "start_year": -44, "end_year": -44, "mission": "17", "place": "Rome"},
        {"parallel": "M-3", "start_year": 1899, "end_year": 1901, "mission": "18"},
    ]
    assert SYSTEM.sheet(build).fields["times_visited"] == [
        {"era": "1st century B.C.", "place": "Rome", "span": "44 B.C.", "parallel": "T-0"},
        {"era": "19th century A.D.", "place": "", "span": "1899 A.D. to 1901 A.D.", "parallel": "M-3"},
    ]
