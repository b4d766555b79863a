"""The chronicle's recap ("Previously on…") and timeline (issue 50, parts 3 and 4): what each reader
reads, that a player's copy is the same whatever the GM keeps back, and every page for every role."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.db import transaction

from campaigns import missions
from campaigns import services as campaign_services
from campaigns.chronicle import notes, play_sessions
from campaigns.chronicle import recap as chronicle
from campaigns.models import Note, NoteVisibility
from campaigns.table import rolling
from systems.timemaster import action_checks as checks
from systems.timemaster import condition_services
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import DiceStub, roll_of
from tests.secrets import worlds

pytestmark = pytest.mark.django_db

ROLES = ("gm", "player", "observer", "outsider", "anonymous")
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|name="csrf-token" content=")[^"]+')
#: The live feed's cursor every page carries: the newest event the reader's feed holds. An announced
#: secret roll is one (every member is told it was made: the log shows so), so the cursor moves with
#: it; it says nothing of the roll's result and is read as one placeholder.
LIVE_CURSOR = re.compile(r"(after=)\d+")
RECAP = re.compile(r'<section class="card recap".*?</section>', re.S)
FROZEN_NOW = datetime(2026, 11, 27, 20, 15, tzinfo=UTC)
#: A TIMEMASTER percent roll of 01 (faces 0 and 1): a Colossal result for any score of 1 or more.
COLOSSAL = [0, 1]


def _note(campaign, session, author, body, visibility=NoteVisibility.SHARED, title=""):
    made = Note(
        campaign=campaign, play_session=session, author=author, body=body, visibility=visibility, title=title
    )
    return notes.save_note(made)


def _evening(world, hidden: bool) -> dict:
    """Session 1 of the world's TIMEMASTER campaign, ended: an agent advanced by a published
    mission, one fell, a Colossal open check and a shared note; with ``hidden``, the GM also wrote a
    GM-only note, made secret rolls (announced and not, one of them a Colossal check) and holds
    missions not yet published (one closed, one planned, each with a destination). The hidden rows
    are made last."""
    campaign, gm = world.campaign, world.membership["gm"]
    session = play_sessions.start(gm, title="The Vienna evening")
    harry = worlds._agent(campaign, world.users["player"], "Harry Adams")
    ida = worlds._agent(campaign, world.users["other_player"], "Ida Brandt")
    carl = worlds._agent(campaign, world.users["player"], "Carl Dorn")
    vienna = worlds._start(worlds._mission(campaign, [harry], "Vienna", 1805, 700), world.users["gm"])
    vienna = tm_missions.close_mission(gm, vienna, "success", rng=roll_of(500))
    missions.publish_mission(vienna, world.users["gm"])
    condition_services.record(ida, gm, "fatal_blow", {"cause": "fall_100_ft"})
    key = next(s.key for s in checks.agent_scores(harry) if not s.secret)
    checks.roll_check(
        world.membership["player"], harry, key, kind="specific", defense_column=1, rng=DiceStub(COLOSSAL)
    )
    shared = _note(
        campaign,
        session,
        world.users["gm"],
        "We met [[The Shapeshifter]] at the gate; [[Harry Adams]] closed [[Vienna]]. "
        + "The rain fell. " * 30,
        title="What happened in Vienna",
    )
    if hidden:
        _note(campaign, session, world.users["gm"], "[[The Shapeshifter]] is Ida's uncle.", NoteVisibility.GM)
        secret = next(s.key for s in checks.agent_scores(harry) if s.secret)
        checks.roll_check(gm, harry, secret, kind="specific", defense_column=1, rng=DiceStub(COLOSSAL))
        rolling.record_roll(gm, kind="percent", secret=True, purpose="Ambush?", rng=DiceStub([4, 2]))
        rolling.record_roll(gm, kind="d10", secret=True, announced=False)
        rome = worlds._start(worlds._mission(campaign, [carl], "Rome", -44, 300), world.users["gm"])
        tm_missions.close_mission(gm, rome, "success", rng=roll_of(700))
        worlds._mission(campaign, [], "London", 1851, 120)
    play_sessions.end(gm, session)
    return {"session": session, "note": shared, "harry": harry, "ida": ida, "vienna": vienna}


def test_the_recap_tells_the_shared_note_and_the_highlights_each_linked(world, client):
    made = _evening(world, hidden=True)
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    recap = RECAP.search(page).group(0)
    assert "Previously on…" in recap and "Session 1: The Vienna evening" in recap
    # the first shared note's start, cut at a word, linked to the note; its mentions as plain text
    assert "We met The Shapeshifter at the gate; Harry Adams closed Vienna." in recap
    assert f'href="/campaigns/{world.campaign.pk}/play-sessions/1/#note-{made["note"].pk}"' in recap
    assert "…" in recap and recap.count("The rain fell.") < 30
    harry, ida, vienna = made["harry"], made["ida"], made["vienna"]
    assert f'<a href="/characters/{harry.pk}/history/">Harry Adams: Awarded' in recap
    assert f'href="/campaigns/{world.campaign.pk}/missions/{vienna.pk}/">Vienna: result published' in recap
    assert f'<a href="/characters/{ida.pk}/history/">Ida Brandt took a fatal blow.</a>' in recap
    assert "Rolls to remember" in recap and "Colossal success (1)" in recap
    # nothing the GM keeps: the GM-only note, the secret check, Rome's close, London
    for hidden in ("uncle", "Rome", "London", "game master only", "Ambush"):
        assert hidden not in recap, hidden
    assert recap.count("Colossal success") == 1
    assert f'href="/campaigns/{world.campaign.pk}/play-sessions/1/recap/"' in recap


def test_the_gm_reads_the_same_recap_with_what_only_they_see_marked(world, client):
    _evening(world, hidden=True)
    client.force_login(world.users["gm"])
    recap = RECAP.search(client.get(f"/campaigns/{world.campaign.pk}/").content.decode()).group(0)
    assert "Rome: closed (completed), not yet published." in recap
    assert recap.count("Colossal success") == 2 and "game master only" in recap
    assert "uncle" not in recap  # a recap tells the shared notes, even to the GM


def test_a_systems_scenes_are_a_group_of_their_own_asked_for_the_reader_and_the_window(world, monkeypatch):
    """ChronicleProvider.scene_highlights: what the system tells of the scenes that ended in the
    session for this reader is a group after the missions, at most MAX_HIGHLIGHTS lines, linked."""
    from systems.timemaster import chronicle as tm_chronicle

    made = _evening(world, hidden=False)
    asked = []

    def scenes(campaign, user, membership, start, stop):
        asked.append((campaign, user, membership, start, stop))
        return [(f"{user.username}'s scene {n} ended.", f"/scenes/{n}/") for n in range(9)]

    monkeypatch.setattr(tm_chronicle, "scene_highlights", scenes, raising=False)
    player = world.membership["player"]
    told = chronicle.recap(made["session"], world.users["player"], player)
    headings = [heading for heading, _ in told.groups]
    assert headings == ["Who advanced", "Missions", "How the scenes ended", "Who fell", "Rolls to remember"]
    lines = dict(told.groups)["How the scenes ended"]
    assert [(h.kind, h.text, h.url, h.gm_only) for h in lines] == [
        ("scene", f"player's scene {n} ended.", f"/scenes/{n}/", False)
        for n in range(chronicle.MAX_HIGHLIGHTS)
    ]
    assert asked == [(world.campaign, world.users["player"], player, *play_sessions.window(made["session"]))]
    monkeypatch.setattr(tm_chronicle, "scene_highlights", lambda *args: [], raising=False)
    assert "How the scenes ended" not in dict(
        chronicle.recap(made["session"], world.users["gm"], world.membership["gm"]).groups
    )


def test_no_recap_before_the_first_session_ends_and_an_open_session_has_no_handout_yet(world, client):
    client.force_login(world.users["player"])
    assert 'data-testid="recap"' not in client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    play_sessions.start(world.membership["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/1/recap/")
    assert page.status_code == 200 and "still under way" in page.content.decode()
    assert 'data-testid="recap"' not in client.get(f"/campaigns/{world.campaign.pk}/").content.decode()


def test_the_overview_keeps_the_last_ended_session_while_the_next_is_under_way(world, client):
    made = _evening(world, hidden=False)
    play_sessions.start(world.membership["gm"], title="The Paris evening")
    client.force_login(world.users["observer"])
    recap = RECAP.search(client.get(f"/campaigns/{world.campaign.pk}/").content.decode()).group(0)
    assert "Session 1: The Vienna evening" in recap and "Paris" not in recap
    assert chronicle.last_ended(world.campaign) == made["session"]


def test_an_excerpt_is_cut_at_a_word_and_says_so():
    assert chronicle.excerpt_of("<p>Short &amp; sweet</p>") == ("Short & sweet", False)
    text, cut = chronicle.excerpt_of("<p>" + "word " * 100 + "</p>", limit=22)
    assert (text, cut) == ("word word word word", True)


def test_the_handout_is_one_printable_page_of_the_recap(world, client):
    _evening(world, hidden=True)
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/1/recap/").content.decode()
    assert "Previously on… Session 1: The Vienna evening" in page
    assert 'class="print-hide"' in page and "Who advanced" in page and "Rome" not in page
    css = Path("static/css/chronicle.css").read_text()
    assert "@media print" in css and ".print-hide" in css


def test_the_timeline_puts_sessions_and_published_missions_on_the_calendar(world, client):
    made = _evening(world, hidden=True)
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/timeline/").content.decode()
    assert f'href="/campaigns/{world.campaign.pk}/play-sessions/1/">Session 1: The Vienna evening' in page
    assert f'/missions/{made["vienna"].pk}/">Vienna</a>' in page
    assert "Rome" not in page and "London" not in page
    # TIMEMASTER's track: the eras, as a chart with its table
    assert "The eras the agents have been to" in page and 'class="chart-picture"' in page
    assert "19th century A.D." in page and "Harry Adams: 1805 A.D." in page
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/timeline/").content.decode()
    assert "Rome" in page and "1st century B.C." in page and "not yet published" in page


def test_a_timeline_without_play_says_what_will_appear(world, client):
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/timeline/").content.decode()
    assert "Nothing on the calendar yet" in page
    assert "The eras appear here once a mission has a destination and its result is published." in page
    assert 'class="chart-picture"' not in page


def test_a_system_that_supplies_no_track_gets_the_sessions_track(world, client, make_user):
    from campaigns.models import Membership, Role

    d6 = campaign_services.create_campaign(world.users["gm"], name="Game Time", system="d6")
    Membership.objects.create(campaign=d6, user=world.users["player"], role=Role.PLAYER)
    gm = d6.memberships.get(user=world.users["gm"])
    play_sessions.end(gm, play_sessions.start(gm, title="Opening night"))
    assert not hasattr(chronicle.provider("d6"), "timeline_tracks")
    assert chronicle.system_tracks(d6, world.users["gm"], gm) == []
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{d6.pk}/timeline/").content.decode()
    assert "Session 1: Opening night" in page and "chart" not in page.split('id="calendar-title"')[1]


def _player_copy(client, world) -> dict[str, str]:
    """What the player reads of the recap and the timeline, CSRF tokens read as one placeholder."""
    client.force_login(world.users["player"])
    c = world.campaign.pk
    overview = client.get(f"/campaigns/{c}/").content.decode()
    seen = {
        "overview recap": RECAP.search(overview).group(0),
        "handout": client.get(f"/campaigns/{c}/play-sessions/1/recap/").content.decode(),
        "timeline": client.get(f"/campaigns/{c}/timeline/").content.decode(),
    }
    return {key: LIVE_CURSOR.sub(r"\1<cursor>", CSRF.sub(r"\1<csrf>", body)) for key, body in seen.items()}


class _Rollback(Exception):
    pass


def _world_copy(world, client, monkeypatch, hidden: bool) -> dict[str, str]:
    import kernel.fields
    from characters.systems import fair_dice

    seeded = random.Random(50)
    monkeypatch.setattr(
        kernel.fields, "secrets", type("Seeded", (), {"randbelow": staticmethod(seeded.randrange)})
    )
    seeds = random.Random(51)
    monkeypatch.setattr(
        fair_dice,
        "secrets",
        type("SeededSeeds", (), {"token_hex": staticmethod(lambda n: seeds.randbytes(n).hex())}),
    )
    copy: dict[str, str] = {}
    try:
        with transaction.atomic():
            _evening(world, hidden)
            copy = _player_copy(client, world)
            raise _Rollback
    except _Rollback:
        pass
    return copy


def test_a_players_recap_and_timeline_are_the_same_whatever_the_gm_keeps_back(world, client, monkeypatch):
    """Non-interference (docs/secrets.md): a GM-only note, secret rolls (one a Colossal check, one
    unannounced) and missions not yet published (closed, planned) change no byte of the player's
    recap, handout or timeline."""
    from django.db import connection
    from django.utils import timezone

    if connection.vendor != "sqlite":
        pytest.skip("the two worlds rely on ids handed out again after a rollback (SQLite)")
    monkeypatch.setattr(timezone, "now", lambda: FROZEN_NOW)
    with_hidden = _world_copy(world, client, monkeypatch, hidden=True)
    without = _world_copy(world, client, monkeypatch, hidden=False)
    assert "Ida Brandt took a fatal blow." in with_hidden["handout"]
    assert "Colossal success" in with_hidden["overview recap"] and "Vienna" in with_hidden["timeline"]
    for key in with_hidden:
        assert with_hidden[key] == without[key], key


# (URL name, path, {role: status}) of every page of the chronicle.
def _routes(c):
    member_read = {"gm": 200, "player": 200, "observer": 200, "outsider": 404, "anonymous": 302}
    return [
        ("play-session-recap", f"/campaigns/{c}/play-sessions/1/recap/", member_read),
        ("campaign-timeline", f"/campaigns/{c}/timeline/", member_read),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_every_chronicle_page_answers_each_role_as_it_must(world, client, role):
    _evening(world, hidden=True)
    if role != "anonymous":
        client.force_login(world.users[role])
    for name, path, expected in _routes(world.campaign.pk):
        response = client.get(path)
        assert response.status_code == expected[role], (name, role, response.status_code)
        if role == "anonymous":
            assert response["Location"].startswith("/accounts/login/")
        response = client.post(path)
        assert response.status_code == (302 if role == "anonymous" else 405), (name, role)
    if role in ("gm", "player", "observer"):
        assert client.get(f"/campaigns/{world.campaign.pk}/play-sessions/9/recap/").status_code == 404
        assert client.get(f"/campaigns/{world.elsewhere.pk}/timeline/").status_code == 404


def test_every_chronicle_route_is_walked_here():
    from django.urls import get_resolver

    names = {name for name in get_resolver().reverse_dict if isinstance(name, str)}
    assert {"play-session-recap", "campaign-timeline"} <= names
    assert {r[0] for r in _routes(1)} == {"play-session-recap", "campaign-timeline"}
