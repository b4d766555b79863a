"""The transcribed tables agree with timemaster-data.json and with the digest's own tables."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from systems.timemaster.engine import tables

DATA = Path(__file__).resolve().parents[4] / "shared" / "rules" / "timemaster-data.json"


def snake(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")


@pytest.fixture(scope="module")
def data():
    if not DATA.exists():
        pytest.skip("timemaster-data.json is not next to the project")
    return json.loads(DATA.read_text())


def test_every_skill_in_the_data_file_is_in_the_table_with_the_same_facts(data):
    assert len(tables.SKILLS) == data["skills_count"] == 62
    for entry in data["skills"]:
        skill = tables.SKILLS[snake(entry["name"])]
        assert skill["name"] == entry["name"]
        if entry["base_formula"] == "WEAPON_SKILL_SCORE":
            assert skill["special_base"] == "weapon_skill"
        elif entry["base_abilities"] == ["STA_CUR"]:
            assert skill["special_base"] == "current_stamina"
        else:
            assert list(skill["base_abilities"]) == entry["base_abilities"]
            assert skill["base_divisor"] == entry["base_divisor"]
        assert skill["check"] == entry["check"].replace(" ", "_")
        assert skill["secret_check"] == entry["secret_check"]
        assert skill["exclusive"] == entry["exclusive"]
        assert skill["era"] == entry["earliest_era"]
        assert skill["earliest_year"] == entry["earliest_year_hint"]
        assert skill["unsure"] == bool(entry["unsure"])
        if entry["prerequisite"]:
            alternatives = entry["prerequisite"].get("any_of") or entry["prerequisite"]["all_of"]
            assert skill["prerequisite"] == tuple(
                (snake(a["skill"]), a["level"].lower()) for a in alternatives
            )
        else:
            assert skill["prerequisite"] is None


def test_every_talent_in_the_data_file_is_in_the_table_with_the_same_facts(data):
    assert len(tables.TALENTS) == 16
    for entry in data["talents"]:
        talent = tables.TALENTS[snake(entry["name"])]
        assert talent["name"] == entry["name"]
        assert list(talent["formula_abilities"]) == entry["formula_abilities"]
        assert talent["formula_divisor"] == entry["formula_divisor"]
        assert talent["willpower_cost"] == entry["willpower_cost"]
        assert talent["demorean"] == (entry["human_or_demorean"] == "demorean")
        assert talent["automatic"] == entry["automatic"]
        assert talent["check"] == entry["check"]
        assert talent["secret_check"] == entry["secret_check"]


def test_action_table_matches_the_data_file(data):
    assert [(c["column"], c["min"], c["max"]) for c in data["action_table_columns"]] == list(
        tables.ACTION_TABLE_COLUMNS
    )
    rows = [(r["margin"], r["min"], r["max"], tuple(r["results"])) for r in data["action_table"]["rows"]]
    assert rows == list(tables.ACTION_TABLE_ROWS)


def test_small_tables_match_the_data_file(data):
    assert [(r["str_min"], r["str_max"], r["bonus"]) for r in data["penetration_bonus"]] == list(
        tables.PENETRATION_BONUS
    )
    assert [(r["sta_min"], r["sta_max"], r["wounds"]) for r in data["wounds"]] == list(tables.WOUNDS)
    assert [(r["sta_min"], r["sta_max"], r["per_round"]) for r in data["stamina_recovery"]] == list(
        tables.STAMINA_RECOVERY
    )
    assert [r["name"] for r in data["ranks"]] == list(tables.RANKS)
    assert [a["code"] for a in data["abilities"]] == list(tables.ABILITY_CODES)
    assert data["sheet_ability_order"] == list(tables.SHEET_ABILITY_ORDER)
    assert {lvl["level"].lower(): lvl["modifier"] for lvl in data["skill_levels"]} == tables.SKILL_LEVELS
    assert {a["name"]: a["ar"] for a in data["armor"]} == {a["name"]: a["ar"] for a in tables.ARMOR.values()}
    assert data["npc"]["luck_substitute_in_formulas"] == tables.NPC_LUCK_SUBSTITUTE
    assert data["background_rules"]["date_of_birth_range"]["min_year"] == tables.BIRTH_YEAR_MIN
    assert data["background_rules"]["date_of_birth_range"]["max_year"] == tables.BIRTH_YEAR_MAX


def test_height_weight_guide_matches_the_printed_rows(data):
    printed = [(tuple(r["male_lb"]), tuple(r["female_lb"])) for r in data["height_weight_guideline"]]
    ours = [
        (row[2], row[3]) for row in tables.HEIGHT_WEIGHT_GUIDE if row[0] != 69
    ]  # 69" is our interpolation
    assert ours == printed


def test_action_table_grows_worse_for_the_defender_as_the_margin_rises_and_better_as_the_column_rises():
    severity = {letter: i for i, letter in enumerate(tables.SEVERITY_ORDER)}
    grid = [[severity[code[0]] for code in row[3]] for row in tables.ACTION_TABLE_ROWS]
    for r in range(len(grid)):
        for c in range(10):
            if r + 1 < len(grid):
                assert grid[r + 1][c] >= grid[r][c]
            if c + 1 < 10:
                assert grid[r][c + 1] <= grid[r][c]


def test_sheet_formula_spelling_matches_the_printed_sheet():
    assert tables.SKILLS["historical_specialty"]["base_formula"] == "(Pcn+Wpr)÷2"
    assert tables.SKILLS["time_corps_stunner"]["base_formula"] == "Dex"
    assert tables.TALENTS["paranormal_memory"]["formula"] == "(Pcn+Wpr)÷3"
    assert tables.SKILLS["swimming"]["base_formula"] == "Current Sta"


def test_eight_human_and_eight_demorean_talents():
    assert len(tables.HUMAN_TALENTS) == 8
    assert len(tables.DEMOREAN_TALENTS) == 8
