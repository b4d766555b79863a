"""TIMEMASTER advancement through the services: the shop, free picks on a new rank, regulation
violations with their ladder, bonus points, stale revisions, and the ledger replay."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters import services
from characters.models import AdvancementEntry, Character
from systems.timemaster import advancement_services as adv
from systems.timemaster.engine.advancement_tables import RANK_NAMES
from systems.timemaster.tests.helpers import ASSIGNMENT


def after_adventure(agent: Character, gm, mission: str = "m1", amount: int = 300) -> Character:
    """Ledger entries a closed, successful mission writes: regular points, a grade, the close."""
    for entry in (
        {"kind": "mission_started", "mission": mission},
        {"kind": "sp_awarded", "type": "regular", "mission": mission, "amount": amount, "reason": "earned"},
        {"kind": "grade_advanced", "mission": mission},
        {"kind": "adventure_closed", "mission": mission},
    ):
        services.append_entry(agent, entry, gm)
    return agent


def promote_to_next_rank(agent: Character, gm, start: int = 1) -> Character:
    """Ten successful missions with a small award each: the tenth grade step is a new rank."""
    for number in range(start, start + 10):
        after_adventure(agent, gm, mission=f"r{number}", amount=10)
    return agent


@pytest.fixture
def agent(make_agent):
    return make_agent("player")


@pytest.fixture
def gm(world):
    return world.users["gm"]


def _fresh(agent):
    agent.refresh_from_db()
    return agent


# -- the shop ------------------------------------------------------------------------------------
def test_the_shop_is_closed_until_an_adventure_closes(agent, gm, world):
    offer = adv.shop(agent)
    assert offer["open"] is False and "adventure closes" in offer["closed_reason"]
    with pytest.raises(ValidationError) as caught:
        adv.buy(agent, world.users["player"], "ability_point", ability="STR")
    assert "purchase" in caught.value.message_dict
    assert _fresh(agent).revision == 1


def test_after_an_adventure_the_shop_lists_every_purchase_with_its_cost(agent, gm):
    after_adventure(agent, gm, amount=300)
    offer = adv.shop(agent)
    assert offer["open"] and offer["balance"] == 300
    assert {p["purchase"]: p["cost"] for p in offer["price_list"]} == {
        "new_skill": 50,
        "new_talent": 200,
        "ability_point": 50,
        "specialist_to_expert": 100,
        "expert_to_master": 150,
    }
    pistol = next(line for line in offer["raises"] if line["skill"] == "pistol")
    assert pistol["allowed"] and pistol["from_name"] == "Specialist" and pistol["to_name"] == "Expert"
    assert len(offer["abilities"]) == 8 and all(line["cost"] == 50 for line in offer["abilities"])
    assert all(line["cost"] == 200 for line in offer["new_talents"])


@pytest.mark.parametrize(
    "purchase, target, cost",
    [
        ("new_skill", {"skill": "sword"}, 50),
        ("new_talent", {"talent": "time_shift"}, 200),
        ("ability_point", {"ability": "LUCK"}, 50),
        ("specialist_to_expert", {"skill": "pistol"}, 100),
    ],
)
def test_each_purchase_costs_what_the_table_says(agent, gm, world, purchase, target, cost):
    after_adventure(agent, gm, amount=300)
    row = adv.buy(agent, world.users["player"], purchase, **target)
    assert row.kind == "sp_spent" and row.payload["cost"] == cost
    assert _fresh(agent).build["success_points"] == 300 - cost
    assert services.replay(agent) == agent.build


def test_a_skill_goes_up_one_level_per_adventure_and_expert_to_master_costs_150(agent, gm, world):
    after_adventure(agent, gm, amount=400)
    adv.buy(agent, world.users["player"], "specialist_to_expert", skill="pistol")
    with pytest.raises(ValidationError) as caught:
        adv.buy(agent, world.users["player"], "expert_to_master", skill="pistol")
    assert "already went up a level" in str(caught.value)
    after_adventure(agent, gm, mission="m2", amount=10)
    adv.buy(agent, world.users["player"], "expert_to_master", skill="pistol")
    agent = _fresh(agent)
    assert agent.build["skills"]["pistol"]["level"] == "master"
    assert agent.build["success_points"] == 410 - 100 - 150


def test_a_new_skill_is_bought_at_specialist_and_raised_only_after_the_next_adventure(agent, gm, world):
    after_adventure(agent, gm, amount=300)
    adv.buy(agent, world.users["player"], "new_skill", skill="sword")
    assert _fresh(agent).build["skills"]["sword"]["level"] == "specialist"
    with pytest.raises(ValidationError) as caught:
        adv.buy(agent, world.users["player"], "specialist_to_expert", skill="sword")
    assert "after the next one" in str(caught.value)


def test_abilities_stop_at_80(make_agent, gm, world):
    agent = make_agent("player", abilities={**ASSIGNMENT, "STR": 80})
    top = "STR"
    after_adventure(agent, gm, amount=300)
    line = next(line for line in adv.shop(agent)["abilities"] if line["ability"] == top)
    assert not line["allowed"] and "80" in line["reason"]
    with pytest.raises(ValidationError):
        adv.buy(agent, world.users["player"], "ability_point", ability=top)
    assert _fresh(agent).build["abilities"][top] == 80


def test_spending_more_points_than_banked_is_refused_and_changes_nothing(agent, gm, world):
    after_adventure(agent, gm, amount=120)
    before = _fresh(agent).revision
    with pytest.raises(ValidationError) as caught:
        adv.buy(agent, world.users["player"], "new_talent", talent="time_shift")
    assert "success_points" in caught.value.message_dict
    agent = _fresh(agent)
    assert agent.revision == before and agent.build["success_points"] == 120


def test_a_further_historical_specialty_names_its_period(agent, gm, world):
    after_adventure(agent, gm, amount=300)
    with pytest.raises(ValidationError) as caught:
        adv.buy(agent, world.users["player"], "new_skill", skill="historical_specialty")
    assert "period" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        adv.buy(
            agent,
            world.users["player"],
            "new_skill",
            skill="historical_specialty",
            period={"start_year": 1200, "end_year": 1450},
            cultures=["France"],
        )
    assert "at most 100 years" in str(caught.value)
    adv.buy(
        agent,
        world.users["player"],
        "new_skill",
        skill="historical_specialty",
        period={"start_year": 1400, "end_year": 1450},
        cultures=["France"],
    )
    assert _fresh(agent).build["skills"]["historical_specialty_2"]["cultures"] == ["France"]


@pytest.mark.parametrize(
    "purchase, target, field",
    [
        ("buy_everything", {}, "purchase"),
        ("new_skill", {"skill": ["sword"]}, "skill"),
        ("new_skill", {}, "skill"),
        ("new_skill", {"skill": "lightsaber"}, "skill"),
        ("ability_point", {"ability": "CHARM"}, "ability"),
        ("new_talent", {"talent": "shock"}, "talent"),
        ("new_skill", {"skill": "historical_specialty", "period": "1400-1450"}, "period"),
        (
            "new_skill",
            {"skill": "historical_specialty", "period": {"start_year": 1, "end_year": 2}, "cultures": "x"},
            "cultures",
        ),
    ],
)
def test_bad_purchases_are_refused_naming_the_field(agent, gm, world, purchase, target, field):
    after_adventure(agent, gm, amount=300)
    before = _fresh(agent).revision
    with pytest.raises(ValidationError) as caught:
        adv.buy(agent, world.users["player"], purchase, **target)
    assert field in caught.value.message_dict
    assert _fresh(agent).revision == before


def test_a_stale_revision_is_a_conflict_and_buys_nothing(agent, gm, world):
    after_adventure(agent, gm, amount=300)
    seen = _fresh(agent).revision
    adv.buy(agent, world.users["player"], "ability_point", ability="LUCK", revision=seen)
    with pytest.raises(adv.RevisionConflict):
        adv.buy(agent, world.users["player"], "ability_point", ability="LUCK", revision=seen)
    assert _fresh(agent).build["success_points"] == 250


def test_a_mission_start_closes_the_shop(agent, gm, world):
    after_adventure(agent, gm, amount=300)
    services.append_entry(agent, {"kind": "mission_started", "mission": "m2"}, gm)
    assert adv.shop(agent)["open"] is False
    with pytest.raises(ValidationError):
        adv.buy(agent, world.users["player"], "ability_point", ability="LUCK")


def test_only_timemaster_agents_have_a_shop(world):
    other = Character.objects.create(
        campaign=world.elsewhere, owner=world.users["outsider"], system="d6", name="D6 hero", status="active"
    )
    assert adv.standing(other) is None
    with pytest.raises(ValidationError):
        adv.shop(other)


# -- who may spend -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "role, allowed", [("gm", True), ("player", True), ("other_player", False), ("observer", False)]
)
def test_the_owner_and_the_gm_may_spend(world, agent, role, allowed):
    assert adv.can_spend(agent, world.membership[role]) is allowed
    assert adv.can_spend(agent, None) is False


# -- rank, grade and the free pick ---------------------------------------------------------------
def test_the_tenth_grade_is_a_new_rank_with_a_free_pick(agent, gm, world):
    promote_to_next_rank(agent, gm)
    standing = adv.standing(_fresh(agent))
    assert standing["rank_grade"] == "Probationer/0"
    assert standing["pending_free_choices"] == [{"rank": "Probationer", "reason": "promotion"}]
    options = adv.free_pick_options(agent)
    sword = next(o for o in options["skills"] if o["skill"] == "sword")
    lance = next(o for o in options["skills"] if o["skill"] == "lance_horsemans")
    assert sword["allowed"] and not lance["allowed"] and "Equestrian" in lance["reason"]
    points = agent.build["success_points"]
    row = adv.take_free_choice(agent, world.users["player"], "skill", skill="sword")
    assert row.kind == "free_choice_taken" and row.payload["rank"] == "Probationer"
    agent = _fresh(agent)
    assert agent.build["skills"]["sword"]["level"] == "specialist"
    assert agent.build["success_points"] == points  # no cost
    assert adv.standing(agent)["pending_free_choices"] == []
    with pytest.raises(ValidationError) as caught:
        adv.take_free_choice(agent, world.users["player"], "talent", talent="time_shift")
    assert "no free skill or talent" in str(caught.value)


def test_the_free_pick_may_be_a_talent(agent, gm, world):
    promote_to_next_rank(agent, gm)
    adv.take_free_choice(agent, world.users["player"], "talent", talent="time_shift")
    assert "time_shift" in _fresh(agent).build["talents"]


@pytest.mark.parametrize(
    "choice, target, field",
    [("both", {}, "choice"), ("skill", {}, "skill"), ("talent", {"talent": 7}, "talent")],
)
def test_bad_free_picks_are_refused(agent, gm, world, choice, target, field):
    promote_to_next_rank(agent, gm)
    with pytest.raises(ValidationError) as caught:
        adv.take_free_choice(agent, world.users["player"], choice, **target)
    assert field in caught.value.message_dict


def _place(agent, rank, grade):
    """Put an agent at a rank/grade directly (as a creation build would record it)."""
    reached = list(RANK_NAMES[: RANK_NAMES.index(rank) + 1])
    for build in (agent.creation_build, agent.build):
        build["rank"], build["grade"] = rank, grade
        build.setdefault("state", {})["ranks_rewarded"] = reached  # free picks already had
    agent.save()
    return agent


def test_timemaster_10_earns_no_more_points_and_is_unaged(agent, gm):
    _place(agent, "Timemaster", 10)
    standing = adv.standing(agent)
    assert standing["status"] == "timemaster_10" and standing["at_top"] and standing["unaged"]
    assert "no more Success Points" in standing["status_label"]
    with pytest.raises(ValidationError):
        adv.award_bonus(agent, gm, 10, "s1")


@pytest.mark.parametrize("rank, unaged", [("Veteran", False), ("Lifer", True), ("Sentry", True)])
def test_lifer_and_above_come_back_unaged(agent, rank, unaged):
    assert adv.standing(_place(agent, rank, 3))["unaged"] is unaged


# -- regulations ---------------------------------------------------------------------------------
def test_the_punishment_ladder_step_by_step(agent, gm):
    _place(agent, "Agent", 5)
    adv.record_violation(agent, gm, 4, note="left a stunner in 1850")
    assert _fresh(agent).build["rank"] == "Agent" and agent.build["grade"] == 4
    adv.record_violation(agent, gm, 5)
    assert (agent.build["rank"], agent.build["grade"]) == ("Probationer", 4)
    with pytest.raises(ValidationError) as caught:  # the third offence needs the GM's choice
        adv.record_violation(agent, gm, 1)
    assert "punishment" in caught.value.message_dict
    adv.record_violation(agent, gm, 1, punishment="demote_two_ranks")
    # two ranks down from Probationer would be below Trainee: Trainee/0 (ruling 9)
    assert (_fresh(agent).build["rank"], agent.build["grade"]) == ("Trainee", 0)
    standing = adv.standing(agent)
    assert standing["demoted"] and standing["demoted_from"] == "Agent/5"
    assert [o["label"] for o in standing["offence_log"]] == [
        "Demoted one grade",
        "Demoted one rank",
        "Demoted two ranks",
    ]
    adv.record_violation(agent, gm, 8)
    agent = _fresh(agent)
    assert adv.standing(agent)["status"] == "banished"
    with pytest.raises(ValidationError):
        adv.record_violation(agent, gm, 2)
    assert agent.entries.filter(kind="regulation_violation").count() == 4


def test_the_third_offence_may_be_banishment(agent, gm):
    _place(agent, "Agent", 5)
    adv.record_violation(agent, gm, 4)
    adv.record_violation(agent, gm, 4)
    adv.record_violation(agent, gm, 4, punishment="banishment")
    assert adv.standing(_fresh(agent))["banished"]


def test_off_the_ladder_needs_the_judiciary_and_a_reason(agent, gm):
    _place(agent, "Agent", 5)
    with pytest.raises(ValidationError) as caught:
        adv.record_violation(agent, gm, 3, punishment="none")
    assert "judiciary" in str(caught.value)
    with pytest.raises(ValidationError):
        adv.record_violation(agent, gm, 3, punishment="none", judiciary_override=True)
    adv.record_violation(agent, gm, 3, punishment="none", judiciary_override=True, reason="saved the team")
    agent = _fresh(agent)
    assert agent.build["rank"] == "Agent" and agent.build["grade"] == 5
    assert agent.entries.get(kind="regulation_violation").reason == "saved the team"


def test_a_demoted_agent_earns_no_regular_points_but_still_gains_grades(agent, gm):
    """Ruling 3: the share is forgone and recorded; the grade still rises until regained."""
    _place(agent, "Probationer", 0)
    adv.record_violation(agent, gm, 6)
    assert _fresh(agent).build["rank"] == "Trainee" and agent.build["grade"] == 9
    with pytest.raises(ValidationError):
        after_adventure(agent, gm, mission="d1", amount=100)  # an "earned" award is refused
    for entry in (
        {
            "kind": "sp_awarded",
            "type": "regular",
            "mission": "d2",
            "amount": 0,
            "forgone": 100,
            "reason": "demoted",
        },
        {"kind": "grade_advanced", "mission": "d2"},
    ):
        services.append_entry(agent, entry, gm)
    agent = _fresh(agent)
    standing = adv.standing(agent)
    assert standing["rank_grade"] == "Probationer/0" and not standing["demoted"]
    assert standing["sp_forgone"] == 100 and agent.build["success_points"] == 0
    # Probationer was reached before: no second free pick for it
    assert standing["pending_free_choices"] == []


@pytest.mark.parametrize(
    "regulation, extra, field",
    [
        (9, {}, "regulation"),
        ("4", {}, "regulation"),
        (True, {}, "regulation"),
        (4, {"punishment": "flogging"}, "punishment"),
        (4, {"note": "x" * 501}, "note"),
    ],
)
def test_bad_violations_are_refused(agent, gm, regulation, extra, field):
    with pytest.raises(ValidationError) as caught:
        adv.record_violation(agent, gm, regulation, **extra)
    assert field in caught.value.message_dict
    assert not _fresh(agent).entries.exists()


def test_a_violation_may_name_a_mission_of_the_campaign_only(agent, gm, world):
    mission = world.campaign.missions.create(title="Rome, 44 B.C.")
    row = adv.record_violation(agent, gm, 4, mission=mission)
    assert row.mission == mission and row.payload["mission"] == mission.pk
    with pytest.raises(ValidationError):
        adv.record_violation(agent, gm, 4, mission=world.elsewhere.missions.create(title="Elsewhere"))


# -- bonus points --------------------------------------------------------------------------------
def test_bonus_points_come_in_tens_up_to_50_per_session(agent, gm):
    adv.award_bonus(agent, gm, 30, "2026-11-20")
    adv.award_bonus(agent, gm, 20, "2026-11-20")
    with pytest.raises(ValidationError) as caught:
        adv.award_bonus(agent, gm, 10, "2026-11-20")
    assert "At most 50" in str(caught.value)
    for amount in (15, 0, 60, "10", None):
        with pytest.raises(ValidationError):
            adv.award_bonus(agent, gm, amount, "2026-11-21")
    with pytest.raises(ValidationError):
        adv.award_bonus(agent, gm, 10, "")
    assert _fresh(agent).build["success_points"] == 50


def test_the_bonus_cap_holds_for_a_session_the_build_no_longer_remembers(agent, gm):
    """The build keeps the totals of its latest BONUS_SESSIONS_KEPT bonus sessions (issue 22); the
    service checks ruling 2's cap against the ledger, so a session further back is still capped."""
    from systems.timemaster.engine.advancement_tables import BONUS_SESSIONS_KEPT

    first = adv.award_bonus(agent, gm, 50, "session 0")
    for number in range(1, BONUS_SESSIONS_KEPT + 2):
        adv.award_bonus(agent, gm, 10, f"session {number}")
    assert "session 0" not in dict(_fresh(agent).build["state"]["bonus_sessions"])
    with pytest.raises(ValidationError) as caught:
        adv.award_bonus(agent, gm, 10, "session 0")
    assert "already has 50 for session session 0" in str(caught.value)
    # Once that award is reversed, the session has room again.
    from characters import services

    services.revert_entry(first, gm, reason="wrong session")
    adv.award_bonus(_fresh(agent), gm, 10, "session 0")


def test_a_demoted_agent_gets_bonus_points_only_when_the_campaign_allows(agent, gm, world):
    _place(agent, "Agent", 5)
    adv.record_violation(agent, gm, 4)
    with pytest.raises(ValidationError):
        adv.award_bonus(agent, gm, 10, "s1")
    world.campaign.settings = {**(world.campaign.settings or {}), "bonus_sp_for_demoted_agents": True}
    world.campaign.save()
    adv.award_bonus(agent, gm, 10, "s1")
    assert _fresh(agent).build["success_points"] == 10


# -- the ledger ----------------------------------------------------------------------------------
def _random_step(agent, gm, player, rnd: random.Random, mission_no: list[int]) -> None:
    """One random legal action, through the services the pages use."""
    action = rnd.choice(["adventure", "buy", "buy", "bonus", "violation", "pick"])
    try:
        if action == "adventure":
            mission_no[0] += 1
            after_adventure(agent, gm, mission=f"w{mission_no[0]}", amount=rnd.choice([10, 60, 150]))
        elif action == "buy":
            offer = adv.shop(agent)
            lines = [
                line
                for group in ("abilities", "raises", "new_skills", "new_talents")
                for line in offer[group]
                if line["allowed"]
            ]
            if lines:
                line = rnd.choice(lines)
                target = {k: line[k] for k in ("skill", "talent", "ability") if k in line}
                adv.buy(agent, player, line["purchase"], **target)
        elif action == "bonus":
            adv.award_bonus(agent, gm, rnd.choice([10, 20]), f"s{rnd.randint(1, 3)}")
        elif action == "violation" and rnd.random() < 0.3:
            adv.record_violation(agent, gm, rnd.randint(1, 8), punishment="demote_two_ranks")
        elif action == "pick":
            options = adv.free_pick_options(agent)
            talents = [o for o in options["talents"] if o["allowed"]]
            if talents:
                adv.take_free_choice(agent, player, "talent", talent=rnd.choice(talents)["talent"])
    except ValidationError:
        pass  # a refused action changes nothing, which the replay below also checks


@pytest.mark.parametrize("seed", range(4))
def test_the_build_is_always_the_creation_build_plus_the_ledger(world, make_agent, seed):
    agent = make_agent("player")
    gm, player = world.users["gm"], world.users["player"]
    rnd, mission_no = random.Random(seed), [0]
    for _ in range(25):
        _random_step(agent, gm, player, rnd, mission_no)
        agent = _fresh(agent)
        assert services.replay(agent) == agent.build
    assert agent.revision == 1 + agent.entries.count()
    assert {"sp_spent", "adventure_closed", "sp_awarded"} <= set(agent.entries.values_list("kind", flat=True))
    # reverting every entry, newest first, gives back the creation build
    for entry in list(agent.entries.exclude(kind=AdvancementEntry.REVERSAL).order_by("-id")):
        services.revert_entry(entry, gm, "undo the walk")
    agent = _fresh(agent)
    assert agent.build == services.replay(agent) == agent.creation_build


@settings(
    max_examples=10,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rnd=st.randoms(use_true_random=False),
    start=st.sampled_from([("Trainee", 0), ("Trainee", 9), ("Veteran", 9), ("Timemaster", 9)]),
    steps=st.integers(1, 20),
)
def test_any_sequence_of_legal_actions_replays_and_reverts_to_the_creation_build(
    world, make_agent, rnd, start, steps
):
    """hypothesis at the service level: every example is a fresh agent in the same campaign."""
    agent = _place(make_agent("player"), *start)
    gm, player = world.users["gm"], world.users["player"]
    mission_no = [0]
    for _ in range(steps):
        _random_step(agent, gm, player, rnd, mission_no)
    agent = _fresh(agent)
    assert services.replay(agent) == agent.build
    assert agent.revision == 1 + agent.entries.count()
    for entry in list(agent.entries.exclude(kind=AdvancementEntry.REVERSAL).order_by("-id")):
        services.revert_entry(entry, gm, "undo the walk")
    agent = _fresh(agent)
    assert agent.build == services.replay(agent) == agent.creation_build
