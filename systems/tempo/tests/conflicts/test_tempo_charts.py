"""Tempo in the campaign report: the rounds of each finished conflict, by whether the characters'
side won it; a player sees only the conflicts a character of theirs takes part in."""

from __future__ import annotations

import re

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
    chart, _fate = charts.campaign_charts(tempo, world.users["gm"], True)
    assert chart.table_rows == (
        ("1", "The vault", "4", "Won by the characters' side", "Cell Nine"),
        ("2", "The roof", "2", "Won by the other side", "The guards"),
        ("3", "The stairs", "3", "Ended without a winner", "No winner"),
    )
    assert [s.name for s in chart.series] == [
        "Won by the characters' side",
        "Won by the other side",
        "Ended without a winner",
    ]


def test_a_conflict_the_gm_ended_names_no_winner_and_its_reason_never_a_blank_cell(
    world, tempo, make_tempo_agent
):
    """A new-user walk read a blank Winner cell for a conflict that ended without a winner."""
    ended = finished(tempo, "The alarm", 2, None, [make_tempo_agent("player")])
    ended.state = {**ended.state, "outcome": {"winner": None, "how": "ended", "reason": "the alarm rang"}}
    ended.save()
    chart, _fate = charts.campaign_charts(tempo, world.users["gm"], True)
    assert chart.table_rows == (
        ("1", "The alarm", "2", "Ended without a winner", "No winner: ended by the GM (the alarm rang)"),
    )
    assert all(cell.strip() for row in chart.table_rows for cell in row)


def test_a_player_sees_only_the_conflicts_of_their_characters_and_an_observer_none(
    world, tempo, make_tempo_agent
):
    mine, theirs = make_tempo_agent("player"), make_tempo_agent("other_player")
    finished(tempo, "The vault", 4, "cell", [mine])
    finished(tempo, "The roof", 2, "guards", [theirs])
    chart, _fate = charts.campaign_charts(tempo, world.users["player"], False)
    assert [row[1] for row in chart.table_rows] == ["The vault"]
    assert "The roof" not in charts.svg(chart, "player")
    empty, _fate = charts.campaign_charts(tempo, world.users["observer"], False)
    assert empty.table_rows == ()


def test_fate_points_are_drawn_per_character_gained_spent_and_held_a_player_sees_their_own(
    world, tempo, make_tempo_agent
):
    """Issue 46, finding 7: Tempo's players track fate points; the report drew none."""
    from characters import services as character_services

    mine = make_tempo_agent("player", name="Ada Sharp")
    make_tempo_agent("other_player", name="Bea Quiet")
    spent = character_services.append_entry(
        mine,
        {"kind": "fate_point_spent", "reason": "make_aspect_apply", "aspect": "SHARP EYES", "count": 2},
        world.users["gm"],
    )
    character_services.append_entry(
        mine, {"kind": "fate_point_gained", "reason": "gm_complication", "count": 1}, world.users["gm"]
    )
    _rounds, fate = charts.campaign_charts(tempo, world.users["gm"], True)
    assert fate.title == "Fate points per character" and not fate.is_empty
    # two at the start (the campaign's setting), two spent, one gained: one held
    assert fate.table_rows == (("Ada Sharp", "1", "2", "1"), ("Bea Quiet", "0", "0", "2"))
    assert [s.values for s in fate.series] == [(1, 0), (2, 0), (1, 2)]
    character_services.revert_entry(spent, world.users["gm"], "never happened")
    _rounds, fate = charts.campaign_charts(tempo, world.users["gm"], True)
    assert fate.table_rows[0] == ("Ada Sharp", "1", "0", "3")
    _rounds, own = charts.campaign_charts(tempo, world.users["player"], False)
    assert [row[0] for row in own.table_rows] == ["Ada Sharp"]
    assert "Bea Quiet" not in charts.svg(own, "player")


def test_what_a_player_is_shown_does_not_depend_on_a_conflict_or_character_not_theirs(
    world, tempo, make_tempo_agent
):
    """Two campaigns that differ only in a conflict of another player's character and that
    character's fate points give the player the same pictures and tables."""
    from characters import services as character_services

    seen = []
    for rounds in (2, 7):
        mine, theirs = make_tempo_agent("player"), make_tempo_agent("other_player", name="Bea Quiet")
        finished(tempo, "The vault", 4, "cell", [mine])
        finished(tempo, f"Their roof {rounds}", rounds, "guards", [theirs])
        character_services.append_entry(
            theirs,
            {"kind": "fate_point_gained", "reason": "gm_complication", "count": rounds},
            world.users["gm"],
        )
        drawn = charts.campaign_charts(tempo, world.users["player"], False)
        seen.append([(c.table_rows, charts.svg(c, "player") if not c.is_empty else "") for c in drawn])
        Conflict.objects.filter(campaign=tempo).delete()
        tempo.characters.all().delete()
    assert seen[0] == seen[1]


def test_the_report_speaks_of_conflicts_and_characters_not_missions_and_agents(world, tempo, client):
    client.force_login(world.users["gm"])
    html = client.get(f"/campaigns/{tempo.pk}/report/").content.decode()
    main = html.split("<main", 1)[1]
    # the first paragraph after the tabs (and the search box beside them)
    intro = re.search(r"<p>(.*?)</p>", main.split("</nav>", 1)[-1], re.S).group(1)
    assert "conflict" in intro
    assert "mission" not in intro.lower() and "agent" not in intro.lower()
