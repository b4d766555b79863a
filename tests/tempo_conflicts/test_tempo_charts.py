"""Tempo in the campaign report: the rounds of each finished conflict, by whether the characters'
side won it; a player sees only the conflicts a character of theirs takes part in."""

from __future__ import annotations

from campaigns import charts
from systems.tempo.models import Conflict, Participant


def finished(campaign, title, rounds, winner, characters=()):
    """A finished conflict as the engine leaves it (round count, outcome, the sides' names)."""
    state = {
        "status": "over",
        "round": rounds,
        "outcome": {"winner": winner, "how": "decisive", "goal": "the vault"} if winner else None,
        "sides": {"cell": {"name": "Cell Nine"}, "guards": {"name": "The guards"}},
    }
    conflict = Conflict.objects.create(
        campaign=campaign, title=title, status=Conflict.Status.OVER, initial_state=state, state=state
    )
    for character in characters:
        Participant.objects.create(conflict=conflict, side="cell", character=character)
    Participant.objects.create(conflict=conflict, side="guards", npc_name="Night watch")
    return conflict


def test_the_gm_sees_every_finished_conflict_with_its_rounds_and_result(world, tempo, make_tempo_agent):
    mine, theirs = make_tempo_agent("player"), make_tempo_agent("other_player")
    finished(tempo, "The vault", 4, "cell", [mine])
    finished(tempo, "The roof", 2, "guards", [theirs])
    finished(tempo, "The stairs", 3, None, [mine])
    [chart] = charts.campaign_charts(tempo, world.users["gm"], True)
    assert chart.table_rows == (
        ("1", "The vault", "4", "Won by the characters' side", "Cell Nine"),
        ("2", "The roof", "2", "Won by the other side", "The guards"),
        ("3", "The stairs", "3", "Ended without a winner", ""),
    )
    assert [s.name for s in chart.series] == [
        "Won by the characters' side",
        "Won by the other side",
        "Ended without a winner",
    ]


def test_a_player_sees_only_the_conflicts_of_their_characters_and_an_observer_none(
    world, tempo, make_tempo_agent
):
    mine, theirs = make_tempo_agent("player"), make_tempo_agent("other_player")
    finished(tempo, "The vault", 4, "cell", [mine])
    finished(tempo, "The roof", 2, "guards", [theirs])
    [chart] = charts.campaign_charts(tempo, world.users["player"], False)
    assert [row[1] for row in chart.table_rows] == ["The vault"]
    assert "The roof" not in charts.svg(chart, "player")
    [empty] = charts.campaign_charts(tempo, world.users["observer"], False)
    assert empty.table_rows == ()
