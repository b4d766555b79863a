"""TIMEMASTER missions: starting (Times Visited, loop trap), the tally, closing in one
transaction, the split with its remainder, publishing (the only step that writes to the agents'
ledgers) and corrections after closing, before and after publishing."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError

from campaigns import missions
from campaigns.models import NPC, Mission, Roll, SignificanceEntry
from characters import services as character_services
from characters.models import AdvancementEntry
from characters.systems import RuleError, RuleViolation
from systems.timemaster import missions as tm_missions
from systems.timemaster.engine import significance
from tests.characters.conftest import agent_choices


def roll_of(total: int) -> random.Random:
    """An rng whose significance roll reads ``total`` (1-1000)."""
    value = total % 1000
    faces = [value // 100, value // 10 % 10, value % 10]
    return DiceStub(faces)


class DiceStub(random.Random):
    """Hands out the given d10 faces (0-9) in order."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def new_agent(world, owner="player", name="Harry Adams", **changes):
    draft = character_services.create_draft(
        world.campaign, world.users[owner], choices=agent_choices(name=name, **changes)
    )
    return character_services.finalize(draft, is_gm=True, rng=random.Random(3))


def planned(world, agents, **fields):
    data = {
        "title": "The Vienna clockmaker",
        "briefing": "Keep the clockmaker alive.",
        "parallel": "T-0",
        "place": "Vienna",
        "start_year": 1805,
        "end_year": 1805,
        "significance_rating": 700,
        "historical_changes_chart": [
            {"low": 0, "high": 99, "text": "A clock stops a day early."},
            {"low": 100, "high": None, "text": "The city keeps a different time."},
        ],
        "agents": agents,
    }
    data.update(fields)
    return missions.create_mission(world.campaign, data)


def started(world, agents, **fields):
    mission = planned(world, agents, **fields)
    missions.start_mission(mission, world.users["gm"])
    mission.refresh_from_db()
    return mission


def gm_membership(world):
    return world.membership["gm"]


def closed_and_published(world, mission, result="failure", rng=None):
    closed = tm_missions.close_mission(gm_membership(world), mission, result, rng=rng)
    return missions.publish_mission(closed, world.users["gm"])


AWARD_KINDS = ("sp_awarded", "grade_advanced", "adventure_closed")


def award_entries(agent):
    return agent.entries.filter(kind__in=AWARD_KINDS)


def mistake(world, mission, kind="event_changed", rating=100, **extra):
    return tm_missions.record_mistake(mission, world.users["gm"], {"kind": kind, "rating": rating, **extra})


@pytest.fixture
def agents(world):
    return [
        new_agent(world, "player", "Harry Adams"),
        new_agent(world, "other_player", "Ida Brandt"),
        new_agent(world, "player", "Carl Dorn"),
    ]


# -- planning and starting --------------------------------------------------------------------
def test_starting_a_mission_adds_a_times_visited_row_to_every_agent(world, agents):
    mission = started(world, agents)
    assert mission.status == Mission.Status.ACTIVE
    for agent in agents:
        agent.refresh_from_db()
        assert agent.build["times_visited"][-1] == {
            "parallel": "T-0",
            "start_year": 1805,
            "end_year": 1805,
            "mission": str(mission.pk),
            "place": "Vienna",  # printed on the sheet's Times Visited row
        }
        kinds = list(agent.entries.values_list("kind", flat=True))
        assert kinds == ["mission_started", "times_visited_added"]
        assert character_services.replay(agent) == agent.build


def test_a_loop_trap_is_refused_naming_the_earlier_visit_and_nothing_changes(world, agents):
    first = started(world, agents[:1], title="Austerlitz", start_year=1800, end_year=1806)
    mission = closed_and_published(world, first)
    second = planned(world, agents[:2], title="Back to Vienna", start_year=1805, end_year=1810)
    with pytest.raises(ValidationError) as caught:
        missions.start_mission(second, world.users["gm"])
    message = " ".join(caught.value.message_dict["agents"])
    assert "Loop trap" in message and "Harry Adams" in message
    assert "Austerlitz" in message and "1800 A.D. to 1806 A.D." in message
    second.refresh_from_db()
    assert second.status == Mission.Status.PLANNED
    # the whole start is one transaction: Ida, who could have gone, got no entries either
    assert not agents[1].entries.exists()
    assert mission.status == Mission.Status.FAILED


def test_a_trip_into_the_agents_own_lifetime_is_refused(world, agents):
    mission = planned(world, agents[:1], start_year=1960, end_year=1961)  # born 1950, recruited 1980
    with pytest.raises(ValidationError) as caught:
        missions.start_mission(mission, world.users["gm"])
    assert "own lifetime" in " ".join(caught.value.message_dict["agents"])


def test_an_overlap_on_another_parallel_is_a_warning_not_a_refusal(world, agents):
    first = started(world, agents[:1], title="First", start_year=1800, end_year=1806)
    other = planned(world, agents[:1], title="Twin", parallel="T-3", start_year=1805, end_year=1805)
    with pytest.raises(ValidationError) as caught:  # still away on the first mission
        missions.start_mission(other, world.users["gm"])
    assert "still on mission “First”" in " ".join(caught.value.message_dict["agents"])
    tm_missions.close_mission(gm_membership(world), first, "failure")
    with pytest.raises(ValidationError) as caught:  # closed, but its end is not on the ledger yet
        missions.start_mission(other, world.users["gm"])
    assert caught.value.message_dict["agents"] == [
        "Harry Adams: the result of mission “First” is not published yet; "
        "publish it before sending this agent again."
    ]
    missions.publish_mission(first, world.users["gm"])
    warnings = missions.start_mission(other, world.users["gm"])
    assert len(warnings) == 1 and "another Parallel" in warnings[0] and "“First”" in warnings[0]


def test_a_chart_with_overlapping_lines_is_refused(world, agents):
    with pytest.raises(ValidationError) as caught:
        planned(
            world,
            agents,
            historical_changes_chart=[
                {"low": 0, "high": 50, "text": "a"},
                {"low": 40, "high": 90, "text": "b"},
            ],
        )
    assert "overlaps line 1" in " ".join(caught.value.message_dict["historical_changes_chart.2"])
    assert not Mission.objects.exists()


def test_destination_is_fixed_once_started(world, agents):
    mission = started(world, agents[:1])
    with pytest.raises(ValidationError) as caught:
        missions.update_mission(mission, {"place": "Prague"})
    assert "place" in caught.value.message_dict
    missions.update_mission(mission, {"title": "Renamed", "significance_rating": 650})
    mission.refresh_from_db()
    assert (mission.title, mission.place, mission.significance_rating) == ("Renamed", "Vienna", 650)


# -- the tally ----------------------------------------------------------------------------------
def test_equipment_left_behind_takes_its_package_rating(world, agents):
    mission = started(world, agents)
    entry = mistake(world, mission, "equipment_left_behind", None, equipment_item="communicator")
    assert entry.rating == 200
    with pytest.raises(ValidationError) as caught:
        mistake(world, mission, "equipment_left_behind", 5, equipment_item="stunner")
    assert "300" in " ".join(caught.value.message_dict["rating"])


def test_an_npc_death_takes_the_npcs_rating(world, agents):
    npc = NPC.objects.create(
        campaign=world.campaign, system="timemaster", name="Clockmaker", significance_rating=123
    )
    mission = started(world, agents)
    entry = mistake(world, mission, "npc_death", None, npc=npc, description="Fell from the tower")
    assert (entry.rating, entry.npc) == (123, npc)
    other = NPC.objects.create(campaign=world.elsewhere, system="d6", name="Elsewhere")
    with pytest.raises(ValidationError):
        mistake(world, mission, "npc_death", 5, npc=other)


def test_an_npc_death_above_500_is_refused(world, agents):
    mission = started(world, agents)
    with pytest.raises(ValidationError) as caught:
        mistake(world, mission, "npc_death", 600)
    assert "rating" in caught.value.message_dict
    assert not SignificanceEntry.objects.exists()


def test_tally_rows_are_append_only(world, agents):
    mission = started(world, agents)
    entry = mistake(world, mission)
    entry.rating = 1
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()


# -- closing --------------------------------------------------------------------------------------
def test_closing_splits_the_pool_equally_and_records_the_remainder(world, agents):
    mission = started(world, agents)  # significance 700
    mistake(world, mission, "event_changed", 100)
    mistake(world, mission, "equipment_left_behind", None, equipment_item="communicator")
    mistake(world, mission, "other", 90)  # total 390: pool 310 -> 103 each, 1 not awarded
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(391))
    outcome = closed.outcome
    assert closed.status == Mission.Status.COMPLETED
    assert outcome["verdict"] == "history_intact" and outcome["check"]["roll"] == 391
    assert (outcome["pool"], outcome["share"], outcome["remainder"]) == (310, 103, 1)
    assert [a["regular"] for a in outcome["awards"]] == [103, 103, 103]
    missions.publish_mission(closed, world.users["gm"])
    for agent in agents:
        agent.refresh_from_db()
        award = agent.entries.get(kind="sp_awarded")
        # the agent's own award; the pool, share and remainder stay on the outcome (the GM's)
        assert award.payload == {
            "type": "regular",
            "mission": str(closed.pk),
            "amount": 103,
            "forgone": 0,
            "reason": "earned",
        }
        assert award.mission == closed
        assert agent.build["success_points"] == 103
        assert agent.build["grade"] == 1 and agent.build["state"]["shop_open"] is True
        assert character_services.replay(agent) == agent.build


def test_a_roll_equal_to_the_mistakes_total_changes_history_and_finds_the_chart_line(world, agents):
    mission = started(world, agents)
    mistake(world, mission, "event_changed", 250)
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(250))
    assert closed.outcome["verdict"] == "history_changed"
    assert closed.outcome["check"]["difference"] == 0
    assert closed.outcome["check"]["chart_line"]["text"] == "A clock stops a day early."
    assert closed.outcome["pool"] == 0
    missions.publish_mission(closed, world.users["gm"])
    for agent in agents:
        assert agent.entries.get(kind="sp_awarded").payload["amount"] == 0
        assert not agent.entries.filter(kind="grade_advanced").exists()


def test_000_reads_1000(world, agents):
    mission = started(world, agents)
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(1000))
    assert closed.outcome["check"]["roll"] == 1000 and closed.check_roll.total == 1000


def test_the_significance_roll_is_logged_secret_on_the_mission(world, agents):
    mission = started(world, agents)
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(512))
    roll = Roll.objects.get(mission=closed)
    assert roll == closed.check_roll
    assert roll.secret and roll.kind == "d1000" and roll.total == 512
    assert not Roll.objects.visible_to(world.users["player"]).filter(pk=roll.pk).exists()


def test_a_failed_mission_rolls_nothing_and_awards_nothing_but_closes_the_adventure(world, agents):
    mission = started(world, agents)
    closed = closed_and_published(world, mission)
    assert closed.check_roll is None and not Roll.objects.exists()
    assert closed.outcome["verdict"] == "mission_failed"
    for agent in agents:
        agent.refresh_from_db()
        assert agent.build["success_points"] == 0
        assert agent.entries.filter(kind="adventure_closed").count() == 1


def test_closing_writes_nothing_to_the_agents_ledgers(world, agents):
    """The whole outcome is fixed on the mission, but no agent's record changes before publishing."""
    mission = started(world, agents)
    mistake(world, mission, "other", 100)
    for agent in agents:
        agent.refresh_from_db()
    before = {a.pk: (a.revision, list(a.entries.values_list("pk", flat=True))) for a in agents}
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    assert closed.outcome["pool"] == 600 and closed.outcome["share"] == 200
    assert set(closed.outcome["ledger"]) == {str(a.pk) for a in agents}
    for agent in agents:
        agent.refresh_from_db()
        assert (agent.revision, list(agent.entries.values_list("pk", flat=True))) == before[agent.pk]
        assert agent.build["success_points"] == 0 and agent.build["grade"] == 0
        assert not award_entries(agent).exists()


def test_closing_is_one_transaction(world, agents, monkeypatch):
    """If the engine refuses after the roll, nothing of the close stays: no roll, still active."""
    mission = started(world, agents)
    real = significance.resolve_mission

    def refuse_with_the_roll(state, success, roll, faces=()):
        if roll is not None:
            raise RuleError([RuleViolation("roll", "refused for the test")])
        return real(state, success, roll, faces)

    monkeypatch.setattr(significance, "resolve_mission", refuse_with_the_roll)
    with pytest.raises(ValidationError):
        tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    mission.refresh_from_db()
    assert mission.status == Mission.Status.ACTIVE and mission.outcome == {}
    assert not Roll.objects.exists()


def test_publishing_is_one_transaction(world, agents, monkeypatch):
    """If any agent's ledger refuses, nothing is published and no agent got anything."""
    mission = started(world, agents)
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    real = character_services.append_entry
    calls = {"n": 0}

    def flaky(character, entry, by, mission=None, reason=""):
        calls["n"] += 1
        if calls["n"] == 7:  # the third agent's award
            raise ValidationError({"amount": ["refused for the test"]})
        return real(character, entry, by, mission=mission, reason=reason)

    monkeypatch.setattr(character_services, "append_entry", flaky)
    before = {a.pk: a.entries.count() for a in agents}
    with pytest.raises(ValidationError) as caught:
        missions.publish_mission(closed, world.users["gm"])
    assert caught.value.message_dict["agents"] == ["Carl Dorn: refused for the test"]
    closed.refresh_from_db()
    assert not closed.is_published and closed.status == Mission.Status.COMPLETED
    assert {a.pk: a.entries.count() for a in agents} == before


def test_a_mission_closes_once(world, agents):
    mission = started(world, agents)
    tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    with pytest.raises(ValidationError) as caught:
        tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    assert "already closed" in " ".join(caught.value.message_dict["status"])
    assert Roll.objects.count() == 1
    assert not AdvancementEntry.objects.filter(kind__in=AWARD_KINDS).exists()


def test_only_the_gm_closes_and_only_a_started_mission(world, agents):
    mission = planned(world, agents)
    with pytest.raises(ValidationError):
        tm_missions.close_mission(world.membership["player"], mission, "success")
    with pytest.raises(ValidationError) as caught:
        tm_missions.close_mission(gm_membership(world), mission, "success")
    assert "Start the mission" in " ".join(caught.value.message_dict["status"])


def test_a_timemaster_10_takes_part_but_the_share_is_forgone_not_passed_on(world, agents):
    top = agents[0]
    build = dict(top.build, rank="Timemaster", grade=10)
    type(top).objects.filter(pk=top.pk).update(build=build, creation_build=build)
    mission = started(world, agents[:2], significance_rating=100)
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(1))
    assert (closed.outcome["share"], closed.outcome["remainder"]) == (50, 0)
    by_agent = {a["agent"]: a for a in closed.outcome["awards"]}
    assert by_agent[str(top.pk)]["regular"] == 0 and by_agent[str(top.pk)]["forgone"] == 50
    assert by_agent[str(agents[1].pk)]["regular"] == 50


# -- publishing and corrections -------------------------------------------------------------------
def test_publishing_needs_a_closed_mission_and_writes_the_awards_once(world, agents):
    mission = started(world, agents)
    with pytest.raises(ValidationError):
        missions.publish_mission(mission, world.users["gm"])
    tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    published = missions.publish_mission(mission, world.users["gm"])
    assert published.is_published and published.published_by == world.users["gm"]
    with pytest.raises(ValidationError) as caught:
        missions.publish_mission(mission, world.users["gm"])
    assert "already published" in " ".join(caught.value.message_dict["status"])
    for agent in agents:
        agent.refresh_from_db()
        kinds = list(award_entries(agent).values_list("kind", flat=True))
        assert kinds == ["sp_awarded", "grade_advanced", "adventure_closed"]
        assert set(award_entries(agent).values_list("mission", flat=True)) == {mission.pk}
        assert set(award_entries(agent).values_list("recorded_by", flat=True)) == {world.users["gm"].pk}
        assert agent.build["success_points"] == 233 and agent.build["grade"] == 1
        assert character_services.replay(agent) == agent.build


def test_a_mission_whose_awards_are_already_on_the_ledger_is_published_without_writing_them_again(
    world, agents
):
    """Missions closed while closing still wrote the awards (or imported that way) publish cleanly."""
    mission = started(world, agents[:1])
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(999))
    for entry in closed.outcome["ledger"][str(agents[0].pk)]:
        character_services.append_entry(agents[0], entry, world.users["gm"], mission=closed)
    missions.publish_mission(closed, world.users["gm"])
    assert award_entries(agents[0]).count() == 3


def test_after_closing_a_mistake_cannot_be_added_only_reversed(world, agents):
    """Before publishing, a correction works the stored outcome out again and touches no ledger;
    publishing then writes the corrected awards."""
    mission = started(world, agents)
    wrong = mistake(world, mission, "event_changed", 300)
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(250))
    assert closed.outcome["verdict"] == "history_changed"
    with pytest.raises(ValidationError) as caught:
        mistake(world, closed, "other", 5)
    assert "reversing" in " ".join(caught.value.message_dict["status"])

    reversal = tm_missions.reverse_mistake(closed, wrong.pk, world.users["gm"], "It was the renegade's doing")
    closed.refresh_from_db()
    wrong.refresh_from_db()
    assert wrong.rating == 300 and reversal.after_close and reversal.reverses == wrong
    # same roll (250) against 0 mistakes: history intact, the whole 700 split three ways
    assert closed.outcome["verdict"] == "history_intact"
    assert (closed.outcome["share"], closed.outcome["remainder"]) == (233, 1)
    assert closed.previous_outcomes[0]["verdict"] == "history_changed"
    assert Roll.objects.count() == 1
    for agent in agents:
        assert not award_entries(agent).exists()
        assert not agent.entries.filter(kind="reversal").exists()
    with pytest.raises(ValidationError):
        tm_missions.reverse_mistake(closed, wrong.pk, world.users["gm"], "again")

    missions.publish_mission(closed, world.users["gm"])
    for agent in agents:
        agent.refresh_from_db()
        assert agent.build["success_points"] == 233 and agent.build["grade"] == 1
        assert agent.entries.filter(kind="sp_awarded").count() == 1
        assert character_services.replay(agent) == agent.build


def test_a_correction_after_publishing_reverts_and_rewrites_the_changed_awards(world, agents):
    mission = started(world, agents)
    wrong = mistake(world, mission, "event_changed", 300)
    closed = closed_and_published(world, mission, "success", rng=roll_of(250))
    for agent in agents:  # history changed: nothing earned, no grade step
        agent.refresh_from_db()
        assert agent.build["success_points"] == 0 and agent.build["grade"] == 0
    tm_missions.reverse_mistake(closed, wrong.pk, world.users["gm"], "It was the renegade's doing")
    closed.refresh_from_db()
    assert closed.outcome["verdict"] == "history_intact"
    for agent in agents:
        agent.refresh_from_db()
        assert agent.build["success_points"] == 233 and agent.build["grade"] == 1
        assert agent.entries.filter(kind="reversal").count() == 1  # the 0-point award
        live = agent.entries.filter(kind="sp_awarded", reversed_by__isnull=True)
        assert [e.payload["amount"] for e in live] == [233]
        assert agent.entries.filter(kind="adventure_closed").count() == 1
        assert character_services.replay(agent) == agent.build


def test_a_reversal_needs_a_reason_and_an_entry_of_this_mission(world, agents):
    mission = started(world, agents)
    entry = mistake(world, mission)
    with pytest.raises(ValidationError) as caught:
        tm_missions.reverse_mistake(mission, entry.pk, world.users["gm"], "  ")
    assert "reason" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        tm_missions.reverse_mistake(mission, 987654, world.users["gm"], "typo")
    assert "entry" in caught.value.message_dict


def test_after_action_shows_players_nothing_before_publishing(world, agents):
    mission = started(world, agents)
    mistake(world, mission, description="Clock tower burnt")
    tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(900))
    mission.refresh_from_db()
    assert tm_missions.after_action(mission, world.users["player"], is_gm=False) is None
    missions.publish_mission(mission, world.users["gm"])
    record = tm_missions.after_action(mission, world.users["other_player"], is_gm=False)
    assert [a["name"] for a in record["awards"]] == ["Ida Brandt"]
    assert record["verdict"] == "history_intact" and not record["history_changed"]
