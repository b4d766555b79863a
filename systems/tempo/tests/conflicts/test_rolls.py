"""Rolls from an agent's page: the dice log row, the fate point ledger, refusals that change nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import Roll
from characters.models import AdvancementEntry, Character
from systems.tempo import services


def _roll(world, agent, who="player", role="soldier", rng=None, **request):
    membership = world.tempo_membership[who]
    return services.roll_for_character(membership, agent, role, request, rng=rng, purpose="kick the door")


def test_a_roll_is_logged_with_faces_kept_dice_total_and_band(world, agent, scripted):
    row, ledger = _roll(world, agent, rng=scripted([3, 5, 2]))
    assert ledger == []
    assert row.kind == "tempo" and row.character == agent and row.roller == world.users["player"]
    assert row.faces == [3, 5, 2]
    assert row.kept == [5, 3, 2]
    assert row.total == 10 + 4  # Seasoned Soldier +4
    assert row.detail["band"] == "qualified_success"
    assert "Qualified Success" in row.purpose and "kick the door" in row.purpose
    assert not row.secret


def test_invoking_an_own_aspect_spends_a_fate_point_through_the_ledger(world, agent, scripted):
    assert agent.build["fate_points"] == 2
    row, ledger = _roll(world, agent, rng=scripted([1, 4, 6, 6]), aspects=[{"aspect": "service"}])
    assert row.kept == [6, 6, 4]
    assert [e.kind for e in ledger] == ["fate_point_spent"]
    assert ledger[0].payload["roll"] == row.pk
    assert ledger[0].payload["aspect"] == "EX-SPECIAL FORCES"
    agent = Character.objects.get(pk=agent.pk)
    assert agent.build["fate_points"] == 1
    assert agent.revision == 2


def test_compelling_an_own_aspect_gains_a_fate_point(world, agent, scripted):
    _, ledger = _roll(
        world, agent, rng=scripted([1, 4, 6, 6]), aspects=[{"aspect": "origin", "use": "trouble"}]
    )
    assert [e.kind for e in ledger] == ["fate_point_gained"]
    assert Character.objects.get(pk=agent.pk).build["fate_points"] == 3


def test_a_spend_at_zero_is_refused_and_nothing_is_written(world, make_tempo_agent, tempo, scripted):
    tempo.settings = {**tempo.settings, "starting_fate_points": 0}
    tempo.save()
    broke = make_tempo_agent("player")
    assert broke.build["fate_points"] == 0
    with pytest.raises(ValidationError) as error:
        _roll(world, broke, rng=scripted([1, 2, 3, 4]), aspects=[{"aspect": "primary"}])
    assert "fate_points" in error.value.message_dict
    assert not Roll.objects.exists()
    assert not AdvancementEntry.objects.filter(character=broke).exists()


def test_two_own_aspects_are_refused_and_nothing_is_written(world, agent, scripted):
    with pytest.raises(ValidationError) as error:
        _roll(
            world, agent, rng=scripted([1, 2, 3, 4, 5]), aspects=[{"aspect": "primary"}, {"aspect": "origin"}]
        )
    assert "aspects" in error.value.message_dict
    assert not Roll.objects.exists()
    assert Character.objects.get(pk=agent.pk).revision == 1


def test_only_the_owner_or_the_gm_rolls_for_an_agent(world, agent, scripted):
    for who in ("other_player", "observer"):
        with pytest.raises(PermissionDenied):
            _roll(world, agent, who=who, rng=scripted([1, 2, 3]))
    row, _ = _roll(world, agent, who="gm", rng=scripted([1, 2, 3]))
    assert row.roller == world.users["gm"]


def test_the_gm_gives_a_fate_point_for_a_complication(world, agent):
    services.gain_fate_point(world.tempo_membership["gm"], agent, "qualified_success_complication")
    assert Character.objects.get(pk=agent.pk).build["fate_points"] == 3
    with pytest.raises(PermissionDenied):
        services.gain_fate_point(world.tempo_membership["player"], agent, "gm_complication")


def test_help_and_hurry_reach_the_engine(world, agent, scripted):
    row, _ = _roll(
        world,
        agent,
        rng=scripted([1, 2, 2]),
        help=[{"helper": "Leanne", "kept": [2, 4, 6], "total": 16}],
        hurry={"mode": "guarantee", "text": "before the guard is back"},
    )
    # the help die (6) and the hurry penalty die cancel: a plain roll
    assert row.detail["help"][0]["which"] == "highest"
    assert row.kept == [2, 2, 1]
    assert row.detail["hurry"]["mode"] == "guarantee"
