"""Tempo's part of the chronicle's recap (systems/tempo/chronicle.py): the conflicts that ended in
the session, told by their outcome, and the rolls in the top and the bottom band, each only for the
readers who see the conflict and the roll (the GM; a player with an agent in it)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.chronicle import play_sessions
from campaigns.chronicle import recap as chronicle
from systems.tempo import chronicle as tempo_chronicle
from systems.tempo import services

pytestmark = pytest.mark.django_db

SCENES = "How the scenes ended"
ROLLS = "Rolls to remember"
FROZEN_NOW = datetime(2026, 11, 27, 20, 15, tzinfo=UTC)
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|name="csrf-token" content=")[^"]+')
LIVE_CURSOR = re.compile(r"(after=)\d+")
RECAP = re.compile(r'<section class="card recap".*?</section>', re.S)


def _conflict(gm, title, agent, npc="Stasi"):
    return services.create_conflict(
        gm,
        {
            "title": title,
            "sides": [
                {"name": agent.name.split()[0], "characters": [agent.pk]},
                {"name": npc, "npcs": [f"Major {npc}"], "controlled_by": "gm"},
            ],
        },
    )


def _won(gm, conflict, agent, scripted, goal="Get the film over the wall."):
    """A round the agent wins with a Dramatic Success (6, 6, 6 and the role's rating) against the GM
    side's sealed Unmitigated Failure (1, 1, 1 at rating 0), then the decisive spend that wins it."""
    roll = {"type": "roll", "sides": {"a": {"character": agent.pk, "role": "soldier"}, "b": {"rating": 0}}}
    services.add_event(gm, conflict, roll, rng=scripted([6, 6, 6, 1, 1, 1]))
    win = {"type": "spend", "side": "a", "tier": "decisive", "benefit": "win_conflict", "goal": goal}
    services.add_event(gm, conflict, win)


def _groups(session, user, membership) -> dict[str, list]:
    return dict(chronicle.recap(session, user, membership).groups)


def _texts(highlights) -> list[str]:
    return [h.text for h in highlights]


def test_the_gm_and_the_player_in_the_conflicts_read_how_they_ended_and_the_rolls(
    world, tempo, make_tempo_agent, scripted
):
    gm = world.tempo_membership["gm"]
    finn = make_tempo_agent("player", name="Finn Marlowe")
    earlier = _conflict(gm, "Before the evening", finn)
    services.add_event(gm, earlier, {"type": "end", "reason": "Called off"})
    session = play_sessions.start(gm, title="Leipzig")
    chase = _conflict(gm, "Rooftop chase", finn)
    _won(gm, chase, finn, scripted)
    talks = _conflict(gm, "Safehouse talks", finn, npc="KGB")
    services.add_event(gm, talks, {"type": "concede", "side": "b", "terms": "They walk away with the list"})
    services.add_event(world.tempo_membership["player"], talks, {"type": "accept_concession"})
    border = _conflict(gm, "Border crossing", finn)
    services.add_event(gm, border, {"type": "end", "reason": "The guards change shift."})
    _conflict(gm, "Still running", finn)
    play_sessions.end(gm, session)

    told = [
        "Rooftop chase: Finn won (goal: Get the film over the wall).",
        "Safehouse talks: KGB conceded to Finn (terms: They walk away with the list).",
        "Border crossing: the GM ended it (The guards change shift).",
    ]
    links = [reverse("tempo-conflict-detail", args=[c.pk]) for c in (chase, talks, border)]
    for who in ("gm", "player"):
        groups = _groups(session, world.users[who], world.tempo_membership[who])
        assert _texts(groups[SCENES]) == told, who
        assert [h.url for h in groups[SCENES]] == links, who
        assert list(groups) == [SCENES, ROLLS], who  # nothing advanced, no mission: scenes, then rolls
    # the agent's Dramatic Success for both; the GM side's sealed Unmitigated Failure for the GM only
    gm_rolls = _groups(session, world.users["gm"], gm)[ROLLS]
    assert sorted(_texts(gm_rolls)) == [
        "Finn Marlowe: Seasoned Soldier, Dramatic Success (22).",
        "Stasi, Unmitigated Failure (3).",
    ]
    assert [h.gm_only for h in gm_rolls if "Stasi" in h.text] == [True]
    player_rolls = _groups(session, world.users["player"], world.tempo_membership["player"])[ROLLS]
    assert _texts(player_rolls) == ["Finn Marlowe: Seasoned Soldier, Dramatic Success (22)."]


def test_only_the_rolls_in_the_top_and_the_bottom_band_are_read(world, tempo, agent, scripted):
    gm = world.tempo_membership["gm"]
    session = play_sessions.start(gm)
    for role, faces in (("soldier", [6, 6, 6]), ("thief", [3, 3, 4]), ("thief", [1, 1, 1])):
        services.roll_for_character(world.tempo_membership["player"], agent, role, {}, rng=scripted(faces))
    play_sessions.end(gm, session)
    rolls = play_sessions.rolls(session, world.users["player"], world.tempo_membership["player"])
    assert rolls.count() == 3 and rolls.filter(tempo_chronicle.NOTABLE_ROLLS).count() == 2
    told = _texts(_groups(session, world.users["player"], world.tempo_membership["player"])[ROLLS])
    assert told == [
        "Finn Marlowe: Seasoned Soldier, Dramatic Success (22).",
        "Finn Marlowe: Untrained Thief, Unmitigated Failure (3).",
    ]


def _copy(client, user, campaign) -> str:
    """The reader's recap on the overview and their handout, CSRF tokens and the live cursor read
    as one placeholder."""
    client.force_login(user)
    overview = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    handout = client.get(f"/campaigns/{campaign.pk}/play-sessions/1/recap/").content.decode()
    both = RECAP.search(overview).group(0) + handout
    return LIVE_CURSOR.sub(r"\1<cursor>", CSRF.sub(r"\1<csrf>", both))


def test_a_reader_outside_a_conflict_reads_no_line_of_it_and_the_same_recap(
    world, tempo, make_tempo_agent, scripted, client, monkeypatch
):
    """Non-interference (docs/secrets.md): the other player reads their own conflict's end, and no
    byte of their recap (nor the observer's) changes when a conflict they are not in ends in the
    session with a Dramatic Success rolled in it; an outsider reads nothing of either."""
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: FROZEN_NOW)  # every row in the session's window
    gm = world.tempo_membership["gm"]
    finn = make_tempo_agent("player", name="Finn Marlowe")
    ida = make_tempo_agent("other_player", name="Ida Brandt")
    session = play_sessions.start(gm, title="Leipzig")
    alone = _conflict(gm, "Ida's stakeout", ida)
    services.add_event(gm, alone, {"type": "end", "reason": "Dawn"})
    play_sessions.end(gm, session)
    readers = ("other_player", "observer")
    before = {who: _copy(client, world.users[who], tempo) for who in readers}
    assert "Ida&#x27;s stakeout: the GM ended it (Dawn)." in before["other_player"]

    chase = _conflict(gm, "Rooftop chase", finn)
    _won(gm, chase, finn, scripted)
    gm_groups = _groups(session, world.users["gm"], gm)
    assert "Rooftop chase: Finn won (goal: Get the film over the wall)." in _texts(gm_groups[SCENES])
    assert any("Dramatic Success" in text for text in _texts(gm_groups[ROLLS]))
    for who in readers:
        after = _copy(client, world.users[who], tempo)
        assert "Rooftop chase" not in after and "Dramatic Success" not in after, who
        assert after == before[who], who
    start, stop = play_sessions.window(session)
    outsider = world.users["outsider"]
    assert tempo_chronicle.scene_highlights(tempo, outsider, None, start, stop) == []
    client.force_login(outsider)
    assert client.get(f"/campaigns/{tempo.pk}/play-sessions/1/recap/").status_code == 404


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_recap_reads_as_many_queries_for_two_conflicts_as_for_ten(world, tempo, make_tempo_agent, who):
    gm = world.tempo_membership["gm"]
    finn = make_tempo_agent("player", name="Finn Marlowe")

    def queries(count: int) -> tuple[int, int]:
        session = play_sessions.start(gm)
        for n in range(count):
            ended = _conflict(gm, f"Conflict {n}", finn)
            services.add_event(gm, ended, {"type": "end", "reason": f"Reason {n}"})
        play_sessions.end(gm, session)
        with CaptureQueriesContext(connection) as captured:
            groups = _groups(session, world.users[who], world.tempo_membership[who])
        return len(captured), len(groups[SCENES])

    two, ten = queries(2), queries(10)
    assert two[1] == 2 and ten[1] == chronicle.MAX_HIGHLIGHTS
    assert ten[0] == two[0]
