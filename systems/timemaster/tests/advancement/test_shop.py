import pytest

from characters.systems.base import RuleError
from systems.timemaster.engine import advancement
from systems.timemaster.engine.advancement_tables import SP_COSTS

from .builds import finish_mission, make_build, run, shop_open


def spend(purchase, **target):
    return {"kind": "sp_spent", "purchase": purchase, **target}


def buy(build, purchase, **target):
    return advancement.apply_entry(build, spend(purchase, **target))


# -- costs -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "purchase, target, cost",
    [
        ("new_skill", {"skill": "boxing"}, 50),
        ("new_talent", {"talent": "time_shift"}, 200),
        ("ability_point", {"ability": "AGL"}, 50),
        ("specialist_to_expert", {"skill": "stealth"}, 100),
    ],
)
def test_every_purchase_costs_what_the_table_says(purchase, target, cost):
    build = buy(shop_open(make_build(), 500), purchase, **target)
    assert build["success_points"] == 500 - cost
    assert build["state"]["sp_spent"] == cost


def test_expert_to_master_costs_one_hundred_fifty():
    build = make_build()
    build["skills"]["stealth"]["level"] = "expert"
    build = buy(shop_open(build, 150), "expert_to_master", skill="stealth")
    assert build["skills"]["stealth"]["level"] == "master"
    assert build["success_points"] == 0


def test_cost_table_matches_the_rules():
    assert SP_COSTS == {
        "new_skill": 50,
        "new_talent": 200,
        "ability_point": 50,
        "specialist_to_expert": 100,
        "expert_to_master": 150,
    }


def test_spending_more_points_than_banked_is_refused():
    with pytest.raises(RuleError, match="costs 200"):
        buy(shop_open(make_build(), 199), "new_talent", talent="time_shift")


def test_a_wrong_recorded_cost_is_refused():
    with pytest.raises(RuleError, match="costs 50"):
        buy(shop_open(make_build(), 500), "new_skill", skill="boxing", cost=40)


def test_spending_is_only_allowed_after_an_adventure_closes():
    build = make_build(success_points=500)
    with pytest.raises(RuleError, match="after an adventure"):
        buy(build, "new_skill", skill="boxing")
    build = shop_open(build, 500)
    build = advancement.apply_entry(build, {"kind": "mission_started", "mission": "next"})
    with pytest.raises(RuleError, match="after an adventure"):
        buy(build, "new_skill", skill="boxing")


# -- abilities ---------------------------------------------------------------------------------
def test_abilities_stop_at_eighty():
    build = make_build()
    build["abilities"]["AGL"] = 79
    build = buy(shop_open(build, 100), "ability_point", ability="AGL")
    assert build["abilities"]["AGL"] == 80
    with pytest.raises(RuleError, match="80") as error:
        buy(build, "ability_point", ability="AGL")
    assert error.value.violations[0].field == "abilities.AGL"


def test_several_ability_points_may_be_bought_after_one_adventure():
    build = shop_open(make_build(), 150)
    for _ in range(3):
        build = buy(build, "ability_point", ability="LUCK")
    assert build["abilities"]["LUCK"] == 43


def test_unknown_ability_is_refused():
    with pytest.raises(RuleError):
        buy(shop_open(make_build(), 100), "ability_point", ability="CHA")


# -- skills ------------------------------------------------------------------------------------
def test_new_skills_come_at_specialist():
    build = buy(shop_open(make_build(), 100), "new_skill", skill="sword")
    assert build["skills"]["sword"] == {"level": "specialist", "source": "purchase"}


def test_a_new_skill_cannot_be_raised_until_after_the_next_adventure():
    build = buy(shop_open(make_build(), 500), "new_skill", skill="sword")
    with pytest.raises(RuleError, match="after the next"):
        buy(build, "specialist_to_expert", skill="sword")
    build = run(
        build, {"kind": "mission_started", "mission": "m2"}, {"kind": "adventure_closed", "mission": "m2"}
    )
    assert buy(build, "specialist_to_expert", skill="sword")["skills"]["sword"]["level"] == "expert"


def test_a_skill_gains_at_most_one_level_per_adventure():
    build = buy(shop_open(make_build(), 500), "specialist_to_expert", skill="stealth")
    with pytest.raises(RuleError, match="already went up"):
        buy(build, "expert_to_master", skill="stealth")
    assert buy(build, "specialist_to_expert", skill="computers")["skills"]["computers"]["level"] == "expert"


def test_master_is_the_highest_level():
    build = make_build()
    build["skills"]["stealth"]["level"] = "master"
    with pytest.raises(RuleError, match="Master"):
        buy(shop_open(build, 500), "expert_to_master", skill="stealth")


def test_raising_a_skill_the_agent_lacks_is_refused():
    with pytest.raises(RuleError, match="does not have"):
        buy(shop_open(make_build(), 500), "specialist_to_expert", skill="sword")


def test_owning_a_skill_twice_is_refused():
    with pytest.raises(RuleError, match="already has"):
        buy(shop_open(make_build(), 500), "new_skill", skill="stealth")


def test_prerequisites_are_checked_on_purchase():
    build = shop_open(make_build(), 500)
    with pytest.raises(RuleError, match="Sword at Master"):
        buy(build, "new_skill", skill="florentine_style")
    build["skills"]["sword"] = {"level": "master", "source": "purchase"}
    assert "florentine_style" in buy(build, "new_skill", skill="florentine_style")["skills"]


def test_skills_without_levels_cannot_be_raised():
    build = make_build()
    build["skills"]["equestrian"] = {"level": "expert", "source": "purchase"}
    build = buy(shop_open(build, 500), "new_skill", skill="mounted_melee")
    build = run(
        build, {"kind": "mission_started", "mission": "m2"}, {"kind": "adventure_closed", "mission": "m2"}
    )
    with pytest.raises(RuleError, match="no levels"):
        buy(build, "specialist_to_expert", skill="mounted_melee")


def test_a_second_historical_specialty_is_its_own_skill_and_needs_a_period():
    build = shop_open(make_build(), 500)
    with pytest.raises(RuleError, match="period"):
        buy(build, "new_skill", skill="historical_specialty")
    with pytest.raises(RuleError, match="at most 100"):
        buy(build, "new_skill", skill="historical_specialty", period={"start_year": 1400, "end_year": 1580})
    spain = {"period": {"start_year": 1500, "end_year": 1580}, "cultures": ["Spain", "Portugal"]}
    build = buy(build, "new_skill", skill="historical_specialty", **spain)
    assert build["skills"]["historical_specialty_2"] == {"level": "specialist", "source": "purchase", **spain}
    with pytest.raises(RuleError, match="same as"):
        buy(build, "new_skill", skill="historical_specialty", **spain)
    assert advancement.skill_name("historical_specialty_2") == "Historical Specialty (2)"
    assert (
        "historical_specialty_3"
        in buy(
            build,
            "new_skill",
            skill="historical_specialty",
            period={"start_year": -44, "end_year": 10},
            cultures=["Rome"],
        )["skills"]
    )


def test_unknown_skill_is_refused():
    with pytest.raises(RuleError, match="Skills Chart"):
        buy(shop_open(make_build(), 500), "new_skill", skill="basket_weaving")


# -- talents -----------------------------------------------------------------------------------
def test_talents_are_capped_at_eight():
    build = make_build(
        talents=[
            "paranormal_memory",
            "telepathic_probe",
            "memory_restoration",
            "significance_sensing",
            "telepathic_sending",
            "adaptation",
            "time_shift",
        ]
    )
    build = buy(shop_open(build, 1000), "new_talent", talent="ignore_pain")
    assert len(build["talents"]) == 8
    # every human talent is now held; swap one for an odd entry to reach the cap check itself
    build["talents"][-1] = "placeholder"
    with pytest.raises(RuleError, match="at most 8"):
        buy(build, "new_talent", talent="ignore_pain")


def test_demorean_talents_and_duplicates_are_refused():
    build = shop_open(make_build(), 1000)
    with pytest.raises(RuleError, match="Demorean"):
        buy(build, "new_talent", talent="shock")
    with pytest.raises(RuleError, match="already has"):
        buy(build, "new_talent", talent="telepathic_probe")


def test_any_number_of_talents_and_skills_may_be_bought_if_affordable():
    build = shop_open(make_build(), 700)
    build = buy(build, "new_talent", talent="time_shift")
    build = buy(build, "new_talent", talent="ignore_pain")
    build = buy(build, "new_skill", skill="sword")
    build = buy(build, "new_skill", skill="pistol")
    assert build["success_points"] == 200


# -- free picks --------------------------------------------------------------------------------
def test_a_free_pick_gives_a_skill_at_specialist_or_a_talent_at_no_cost():
    from .builds import at

    build = finish_mission(at(make_build(), "Trainee", 9), "m1", 300)
    taken = advancement.apply_entry(build, {"kind": "free_choice_taken", "choice": "skill", "skill": "pilot"})
    assert taken["skills"]["pilot"] == {"level": "specialist", "source": "rank"}
    assert taken["success_points"] == 300 and taken["state"]["pending_free_choices"] == []
    with pytest.raises(RuleError, match="after the next"):
        buy(taken, "specialist_to_expert", skill="pilot")
    talent = advancement.apply_entry(
        build, {"kind": "free_choice_taken", "choice": "talent", "talent": "time_shift"}
    )
    assert "time_shift" in talent["talents"]
    with pytest.raises(RuleError, match="no free"):
        advancement.apply_entry(
            talent, {"kind": "free_choice_taken", "choice": "talent", "talent": "ignore_pain"}
        )


def test_a_gm_may_grant_an_extra_free_pick():
    build = advancement.apply_entry(
        make_build(), {"kind": "free_choice_granted", "reason": "judiciary award"}
    )
    assert build["state"]["pending_free_choices"] == [{"rank": "Trainee", "reason": "judiciary award"}]
    with pytest.raises(RuleError, match="reason"):
        advancement.apply_entry(make_build(), {"kind": "free_choice_granted"})


# -- the shop page -----------------------------------------------------------------------------
def test_shop_offer_lists_what_can_be_bought_and_why_not():
    build = make_build()
    build["abilities"]["STR"] = 80
    offer = advancement.shop_offer(shop_open(build, 120))
    assert offer["open"] is True and offer["balance"] == 120
    abilities = {line["ability"]: line for line in offer["abilities"]}
    assert abilities["STR"]["allowed"] is False and "80" in abilities["STR"]["reason"]
    assert abilities["DEX"]["allowed"] is True and abilities["DEX"]["cost"] == 50
    skills = {line["skill"]: line for line in offer["new_skills"]}
    assert "stealth" not in skills
    assert skills["boxing"]["allowed"] is True
    assert skills["florentine_style"]["allowed"] is False
    assert skills["historical_specialty"]["needs_period"] is True
    raises = {line["skill"]: line for line in offer["raises"]}
    assert raises["stealth"]["cost"] == 100 and raises["stealth"]["allowed"] is True
    talents = {line["talent"]: line for line in offer["new_talents"]}
    assert talents["time_shift"]["allowed"] is False  # 200 > 120
    assert "shock" not in talents and "telepathic_probe" not in talents


def test_shop_offer_when_closed_allows_nothing():
    offer = advancement.shop_offer(make_build(success_points=500))
    assert offer["open"] is False and offer["closed_reason"]
    assert not any(
        line["allowed"] for line in offer["abilities"] + offer["new_skills"] + offer["new_talents"]
    )


def test_spend_entry_builds_a_checked_entry_with_its_cost():
    build = shop_open(make_build(), 100)
    assert advancement.spend_entry(build, "new_skill", skill="sword") == {
        "kind": "sp_spent",
        "purchase": "new_skill",
        "cost": 50,
        "skill": "sword",
    }
    with pytest.raises(RuleError):
        advancement.spend_entry(build, "new_talent", talent="time_shift")
