"""Test builds shaped like the TIMEMASTER build contract, with real skill and talent keys."""

from __future__ import annotations

import copy

from systems.timemaster.engine import advancement

BASE_BUILD = {
    "name": "Ada Quill",
    "abilities": {"STR": 50, "DEX": 60, "AGL": 56, "PER": 44, "WPR": 62, "PCN": 58, "LUCK": 40, "STA": 54},
    "background": {
        "birth_year": 1950,
        "birth_place": "Leeds",
        "age_at_recruitment": 30,
        "sex": "female",
        "profession": "archivist",
        "education": "university",
        "height": "5'6\"",
        "weight": 130,
        "reputation": "quiet, precise",
        "native_era": {},
    },
    "skills": {
        "historical_specialty": {
            "level": "specialist",
            "period": {"start_year": 1850, "end_year": 1980},
            "cultures": ["British"],
            "source": "creation",
        },
        "time_corps_stunner": {"level": "specialist", "source": "creation"},
        "stealth": {"level": "specialist", "source": "creation"},
        "computers": {"level": "specialist", "source": "creation", "profession": True},
    },
    "talents": ["paranormal_memory", "telepathic_probe"],
    "rank": "Trainee",
    "grade": 0,
    "success_points": 0,
    "times_visited": [],
    "state": {},
}


def make_build(**overrides) -> dict:
    build = copy.deepcopy(BASE_BUILD)
    for key, value in overrides.items():
        build[key] = copy.deepcopy(value)
    return build


def run(build: dict, *entries: dict) -> dict:
    for entry in entries:
        build = advancement.apply_entry(build, entry)
    return build


def finish_mission(build: dict, mission, amount: int = 100) -> dict:
    """A successful mission that earned ``amount`` regular points; leaves the shop open."""
    return run(
        build,
        {"kind": "mission_started", "mission": mission},
        {"kind": "sp_awarded", "type": "regular", "mission": mission, "amount": amount, "reason": "earned"},
        {"kind": "grade_advanced", "mission": mission},
        {"kind": "adventure_closed", "mission": mission},
    )


def at(build: dict, rank: str, grade: int) -> dict:
    build = copy.deepcopy(build)
    build["rank"], build["grade"] = rank, grade
    return build


def shop_open(build: dict, points: int, mission="shop") -> dict:
    """A build with ``points`` banked and the shop window open after an adventure."""
    build = run(
        build,
        {"kind": "mission_started", "mission": mission},
        {"kind": "adventure_closed", "mission": mission},
    )
    build["success_points"] = points
    return build
