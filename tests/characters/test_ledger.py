"""The build is the creation build plus the ledger: append-only, replayable, reversible."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from characters import services
from characters.models import AdvancementEntry, Character
from characters.systems import GameSystem


def test_replaying_the_ledger_gives_the_stored_build(world, make_agent, award):
    agent = make_agent("player")
    first = award(agent, session=1, amount=10)
    award(agent, session=2, amount=20)
    award(agent, session=3, amount=30)
    services.revert_entry(first, world.users["gm"], "entered for the wrong agent")
    agent.refresh_from_db()
    assert services.replay(agent) == agent.build
    assert agent.build["success_points"] == 50
    assert agent.revision == 5
    assert agent.creation_build["success_points"] == 0


def test_each_entry_records_the_revision_it_made(world, make_agent, award):
    agent = make_agent("player")
    rows = [award(agent, session=n) for n in (1, 2)]
    assert [r.revision_after for r in rows] == [2, 3]
    assert all(r.recorded_by == world.users["gm"] for r in rows)


def test_ledger_entries_can_be_neither_changed_nor_deleted(make_agent, award):
    entry = award(make_agent("player"), session=1)
    entry.reason = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()
    assert AdvancementEntry.objects.get(pk=entry.pk).reason == ""


def test_an_entry_the_engine_refuses_is_a_validation_error_and_changes_nothing(world, make_agent):
    agent = make_agent("player")
    with pytest.raises(ValidationError) as caught:
        services.append_entry(
            agent, {"kind": "sp_awarded", "type": "bonus", "session": 1, "amount": 15}, world.users["gm"]
        )
    assert "amount" in caught.value.message_dict
    agent.refresh_from_db()
    assert agent.revision == 1 and not agent.entries.exists()


def test_unknown_entry_kinds_are_refused(world, make_agent):
    with pytest.raises(ValidationError) as caught:
        services.append_entry(make_agent("player"), {"kind": "level_up"}, world.users["gm"])
    assert "kind" in caught.value.message_dict


def test_a_draft_has_no_ledger(world, choices):
    draft = services.create_draft(world.campaign, world.users["player"], choices=choices())
    with pytest.raises(ValidationError) as caught:
        services.append_entry(draft, {"kind": "sp_awarded"}, world.users["gm"])
    assert "status" in caught.value.message_dict


def test_a_mission_of_another_campaign_is_refused(world, make_agent):
    other = world.elsewhere.missions.create(title="Elsewhere op")
    with pytest.raises(ValidationError) as caught:
        services.append_entry(
            make_agent("player"),
            {"kind": "sp_awarded", "type": "bonus", "session": 1, "amount": 10},
            world.users["gm"],
            mission=other,
        )
    assert "mission" in caught.value.message_dict


def test_a_draft_must_play_the_campaigns_system(world):
    with pytest.raises(ValidationError) as caught:
        services.create_draft(world.campaign, world.users["player"], system="d6")
    assert "system" in caught.value.message_dict
    assert not Character.objects.exists()


def test_finalize_stores_creation_build_and_build_at_revision_one(world, make_agent):
    agent = make_agent("player")
    assert agent.status == "active" and agent.revision == 1
    assert agent.build == agent.creation_build
    assert agent.build["rank"] == "Trainee" and agent.build["talents"][0] == "paranormal_memory"


def test_a_campaign_can_be_deleted_with_its_characters_and_their_reverted_entries(world, make_agent, award):
    agent = make_agent("player")
    entry = award(agent, session=1)
    services.revert_entry(entry, world.users["gm"], "mistake")
    world.campaign.delete()
    assert not Character.objects.exists() and not AdvancementEntry.objects.exists()


class _Mortal:
    """A system whose builds say whether the character died."""

    @staticmethod
    def is_dead(build):
        return build.get("dead", False)


@pytest.mark.parametrize(
    "system, build, before, after",
    [
        (_Mortal, {"dead": True}, "active", "dead"),
        (_Mortal, {"dead": False}, "dead", "active"),
        (_Mortal, {"dead": False}, "retired", "retired"),
        (_Mortal, {"dead": True}, "dead", "dead"),
        (GameSystem(), {"dead": True}, "active", "active"),  # records no death: is_dead is None
    ],
)
def test_the_status_follows_the_engines_word_on_death(system, build, before, after):
    assert services.status_from_build(system, build, before) == after


def test_an_agents_ledger_never_changes_its_status(world, make_agent, award):
    agent = make_agent("player")
    entry = award(agent, session=1)
    services.revert_entry(entry, world.users["gm"], "wrong session")
    agent.refresh_from_db()
    assert agent.status == Character.Status.ACTIVE
