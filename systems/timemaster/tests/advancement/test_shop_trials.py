"""shop_offer tries each purchase on a copy that shares what the ledger grew (bonus sessions,
missions, offences, visits) instead of copying the whole build: the offer must be exactly what
full copies gave, and the build must come out untouched (issue 22)."""

import copy

import pytest

from systems.timemaster.engine import advancement

from .builds import finish_mission, make_build, run, shop_open


def _long_played() -> dict:
    build = make_build()
    for mission in range(4):
        build = finish_mission(build, f"m{mission}", amount=150)
    bonus = [{"kind": "sp_awarded", "type": "bonus", "amount": 10, "session": f"s{i}"} for i in range(120)]
    build = run(build, *bonus)
    build = run(
        build,
        {"kind": "regulation_violation", "regulation": 1, "punishment": "demote_grade", "mission": "m3"},
    )
    return shop_open(build, 900, mission="last")


def _expert(build: dict) -> dict:
    build = copy.deepcopy(build)
    build["skills"]["stealth"]["level"] = "expert"
    return build


BUILDS = {
    "new agent": make_build,
    "shop open": lambda: shop_open(make_build(), 500),
    "expert skill, little money": lambda: _expert(shop_open(make_build(), 120)),
    "long played": _long_played,
}


@pytest.mark.parametrize("name", BUILDS)
def test_the_offer_is_the_one_full_copies_gave_and_the_build_is_untouched(name, monkeypatch):
    build = BUILDS[name]()
    before = copy.deepcopy(build)
    offer = advancement.shop_offer(build)
    assert build == before
    monkeypatch.setattr(advancement, "_shop_trial_copy", advancement._working_copy)
    assert offer == advancement.shop_offer(build)
    if name == "expert skill, little money":
        assert any(line["reason"] for line in offer["new_talents"])  # refusals compared too
    if name == "long played":
        assert build["state"]["sp_earned_bonus"] == 1200 and build["state"]["offence_log"]
        assert any(line["allowed"] for line in offer["abilities"])
        assert offer["open"] and offer["balance"] == 900
