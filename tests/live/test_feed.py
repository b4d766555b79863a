"""The campaign's live feed (issue 32, campaigns/table/live.py): each reader is sent what the roll log
shows them, rendered for them; a reconnection resumes exactly after the last message received."""

from __future__ import annotations

import random

import pytest

from campaigns import services
from campaigns.models import LiveEvent, Roll
from campaigns.table import rolling
from systems.tempo import services as tempo_services
from tests.live.helpers import feed, parse


def _login(client, world, who):
    client.force_login(world.users[who])
    return client


def _roll(world, who="player", **fields):
    return rolling.record_roll(world.membership[who], kind="d10", count=2, rng=random.Random(3), **fields)


def test_every_member_is_sent_a_roll_as_their_log_shows_it(world, client):
    open_roll = _roll(world, purpose="Climb the wall")
    secret = _roll(world, "gm", secret=True, purpose="Does the guard notice?")
    gm_messages = feed(_login(client, world, "gm"), world.campaign.pk)[1]
    assert [m["event"] for m in gm_messages] == ["roll", "roll"]
    assert f'id="roll-{open_roll.pk}"' in gm_messages[0]["data"]
    assert f'id="roll-{secret.pk}"' in gm_messages[1]["data"]
    assert "Does the guard notice?" in gm_messages[1]["data"]
    assert f"<strong>{secret.total}</strong>" in gm_messages[1]["data"]
    for who in ("player", "other_player", "observer"):
        status, messages = feed(_login(client, world, who), world.campaign.pk)
        assert status == 200
        assert "Climb the wall" in messages[0]["data"]
        sealed = messages[1]["data"]
        assert "made a secret roll" in sealed and 'data-testid="log-sealed"' in sealed
        assert "Does the guard notice?" not in sealed and "faces" not in sealed
        assert "Share the result" not in sealed
        assert [m["id"] for m in messages] == [m["id"] for m in gm_messages]


def test_a_secret_roll_not_announced_reaches_players_only_once_shared(world, client):
    hidden = _roll(world, "gm", secret=True, announced=False, purpose="Significance")
    assert feed(_login(client, world, "player"), world.campaign.pk)[1] == []
    assert len(feed(_login(client, world, "gm"), world.campaign.pk)[1]) == 1
    rolling.reveal_roll(world.membership["gm"], hidden)
    messages = feed(_login(client, world, "player"), world.campaign.pk)[1]
    # the roll and its sharing come as one line, as the roll stands now
    assert len(messages) == 1
    assert f'id="roll-{hidden.pk}"' in messages[0]["data"] and "Significance" in messages[0]["data"]
    assert "secret, shared" in messages[0]["data"]


def test_sharing_a_secret_roll_sends_its_line_again_with_the_result(world, client):
    secret = _roll(world, "gm", secret=True, purpose="Ambush?")
    player = _login(client, world, "player")
    first = feed(player, world.campaign.pk)[1]
    assert "Ambush?" not in first[0]["data"]
    rolling.reveal_roll(world.membership["gm"], secret)
    later = feed(player, world.campaign.pk, after=None, last_event_id=first[-1]["id"])[1]
    assert len(later) == 1 and f'id="roll-{secret.pk}"' in later[0]["data"]
    assert "Ambush?" in later[0]["data"] and f"<strong>{secret.total}</strong>" in later[0]["data"]


@pytest.mark.parametrize("who", ["outsider", None])
def test_anyone_but_a_member_gets_404(world, client, who):
    _roll(world)
    if who:
        client.force_login(world.users[who])
    assert feed(client, world.campaign.pk)[0] == 404
    assert feed(client, world.elsewhere.pk if who is None else 999999)[0] == 404


def test_reconnecting_with_last_event_id_resumes_exactly_after_it(world, client):
    rolls = [_roll(world, purpose=f"roll {n}") for n in range(5)]
    player = _login(client, world, "player")
    everything = feed(player, world.campaign.pk)[1]
    assert [f'id="roll-{r.pk}"' in m["data"] for r, m in zip(rolls, everything, strict=True)] == [True] * 5
    # away after the second message; three more rolls meanwhile, one of them the GM's secret
    more = [_roll(world, purpose="roll 5"), _roll(world, "gm", secret=True), _roll(world, purpose="roll 7")]
    resumed = feed(player, world.campaign.pk, after="garbage", last_event_id=everything[1]["id"])[1]
    ids = [m["id"] for m in resumed]
    assert ids == [m["id"] for m in everything[2:]] + ids[3:] and len(ids) == 6
    assert len(set(ids)) == 6 and not set(ids) & {m["id"] for m in everything[:2]}
    assert f'id="roll-{more[2].pk}"' in resumed[-1]["data"]
    # and from the last one: nothing more, nothing twice
    assert feed(player, world.campaign.pk, last_event_id=ids[-1])[1] == []


def test_without_a_cursor_the_feed_starts_from_now(world, client):
    _roll(world)
    player = _login(client, world, "player")
    assert feed(player, world.campaign.pk, after=None)[1] == []
    # a cursor of another campaign (or none the server issued) starts from now as well
    other = rolling.record_roll(
        services.create_campaign(world.users["player"], name="Mine", system="timemaster").memberships.get(),
        kind="d10",
    )
    foreign = LiveEvent.objects.get(roll=other).public_id
    assert feed(player, world.campaign.pk, after=str(foreign))[1] == []


def test_campaign_pages_connect_with_the_cursor_of_the_newest_event_the_reader_may_see(world, client):
    seen = _roll(world)
    _roll(world, "gm", secret=True, announced=False)
    page = _login(client, world, "player").get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    cursor = LiveEvent.objects.get(roll=seen).public_id
    assert f'sse-connect="/campaigns/{world.campaign.pk}/live/?after={cursor}"' in page
    assert 'sse-swap="roll"' in page
    detail = client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    assert f"?after={cursor}" in detail


@pytest.fixture
def conflict(world, tempo, agent):
    gm = world.tempo_membership["gm"]
    made = tempo_services.create_conflict(
        gm,
        {
            "title": "Rooftops",
            "sides": [
                {"name": "Kestrel", "characters": [agent.pk]},
                {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm"},
            ],
        },
    )
    event = {"type": "roll", "sides": {"a": {"character": agent.pk, "role": "soldier"}, "b": {"rating": 4}}}
    tempo_services.add_event(gm, made, event, rng=random.Random(5))
    return made


def test_a_tempo_conflict_reaches_its_participants_only(world, client, conflict):
    topic = f"tempo-conflict-{conflict.pk}"
    in_conflict = {r.pk for r in Roll.objects.filter(purpose__contains="Rooftops")}
    assert in_conflict
    for who, sees in (("gm", True), ("player", True), ("other_player", False), ("observer", False)):
        messages = feed(_login(client, world, who), world.tempo.pk)[1]
        events = [m["event"] for m in messages]
        assert (topic in events) is sees, who
        lines = "".join(m["data"] for m in messages)
        assert all((f'id="roll-{pk}"' in lines) is sees for pk in in_conflict), who
        if not sees:
            assert "Rooftops" not in lines and messages == []


def test_a_play_records_change_is_its_topic(world, client, conflict):
    player = _login(client, world, "player")
    last = feed(player, world.tempo.pk)[1][-1]["id"]
    tempo_services.add_event(world.tempo_membership["gm"], conflict, {"type": "end", "reason": "Rain"})
    messages = feed(player, world.tempo.pk, last_event_id=last)[1]
    assert [(m["event"], m["data"]) for m in messages] == [(f"tempo-conflict-{conflict.pk}",) * 2]


def _unmasked(text):
    """The messages, each CSRF token (masked afresh at every rendering) in place of its value."""
    import re

    return parse(re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+', r"\1TOKEN", text))


def _readers(world, *names, seq=0):
    from campaigns.table import live

    return [live.Reader(world.users[name], seq) for name in names]


def test_one_reading_serves_every_reader_of_a_table_as_each_alone(world, django_assert_num_queries):
    """The hub's fan-out (live.render_for) reads a table's news once for all its streams: each
    reader gets byte for byte what reading alone gives them (render_batch), the GM's line with the
    share form and the GM's own CSRF token, the others the sealed line."""
    from django.middleware.csrf import _get_new_csrf_string
    from django.test import RequestFactory

    from campaigns.table import live

    _roll(world, purpose="first")
    secret = rolling.record_roll(world.membership["gm"], kind="d10", secret=True, rng=random.Random(4))
    names = ("gm", "player", "other_player", "observer")
    gm_request = RequestFactory().get("/")
    gm_request.META["CSRF_COOKIE"] = _get_new_csrf_string()
    readers = _readers(world, *names)
    readers[0].request = gm_request
    # The memberships, the events, the rolls: three queries for the four readers, as for one.
    with django_assert_num_queries(3):
        together = live.render_for(world.campaign.pk, readers)
    for reader, batch in zip(readers, together, strict=True):
        alone = live.render_batch(reader.user, world.campaign.pk, 0, request=reader.request)
        gm = reader.user == world.users["gm"]
        assert [_unmasked(batch.text), batch.seq, batch.member] == [_unmasked(alone.text), alone.seq, True]
        lines = {m["data"] for m in parse(batch.text)}
        sealed = any(f'id="roll-{secret.pk}"' in line and "made a secret roll" in line for line in lines)
        assert sealed is not gm
    from django.middleware.csrf import _does_token_match

    [form_line] = [m["data"] for m in parse(together[0].text) if "csrfmiddlewaretoken" in m["data"]]
    token = form_line.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert _does_token_match(token, gm_request.META["CSRF_COOKIE"])


def test_a_reading_for_readers_at_different_cursors_gives_each_what_comes_after_its_own(world):
    from campaigns.table import live

    _roll(world, purpose="first")
    cursor = live.newest_in(world.campaign.pk, 0)
    second = _roll(world, purpose="second")
    behind, level = _readers(world, "player", "other_player")
    level.seq = cursor
    batches = live.render_for(world.campaign.pk, [behind, level])
    assert [m["data"].count("first") for m in parse(batches[0].text)] == [1, 0]
    assert [f'id="roll-{second.pk}"' in m["data"] for m in parse(batches[1].text)] == [True]
    assert batches[0].seq == batches[1].seq == live.newest_in(world.campaign.pk, 0)


def test_a_reader_who_left_is_told_so_and_the_others_still_read(world):
    from campaigns.table import live

    _roll(world)
    world.membership["other_player"].delete()
    batches = live.render_for(world.campaign.pk, _readers(world, "player", "other_player", "outsider"))
    assert [(b.member, bool(b.text)) for b in batches] == [(True, True), (False, False), (False, False)]


def test_a_reading_stops_at_the_batch_size_and_says_more_wait(world, monkeypatch):
    from campaigns.table import live

    monkeypatch.setattr(live, "BATCH", 2)
    rolls = [_roll(world, purpose=f"roll {n}") for n in range(3)]
    [batch] = live.render_for(world.campaign.pk, _readers(world, "player"))
    assert batch.more and len(parse(batch.text)) == 2
    [rest] = live.render_for(world.campaign.pk, [live.Reader(world.users["player"], batch.seq)])
    assert not rest.more and [f'id="roll-{rolls[2].pk}"' in m["data"] for m in parse(rest.text)] == [True]


def test_in_a_system_that_hides_rolls_from_some_members_each_reader_reads_alone(world, conflict):
    """Tempo keeps a conflict's rolls from members not in it: its readers are not one audience."""
    from campaigns.table import live

    in_conflict = {r.pk for r in Roll.objects.filter(purpose__contains="Rooftops")}
    names = ("gm", "player", "other_player", "observer")
    readers = [live.Reader(world.users[name], 0) for name in names]
    together = live.render_for(world.tempo.pk, readers)
    for name, reader, batch in zip(names, readers, together, strict=True):
        alone = live.render_batch(reader.user, world.tempo.pk, 0)
        assert parse(batch.text) == parse(alone.text), name
        sees = any(f'id="roll-{pk}"' in batch.text for pk in in_conflict)
        assert sees is (name in ("gm", "player")), name


@pytest.mark.parametrize("secret", [False, True])
@pytest.mark.parametrize("announced", [False, True])
@pytest.mark.parametrize("revealed", [False, True])
def test_the_feeds_rule_for_a_roll_in_hand_is_the_logs_rule(world, secret, announced, revealed):
    """The shared reading filters the members' rolls in Python (seen_by_members): the same answer
    as the log's query (SEEN_BY_MEMBERS) for every kind of roll."""
    from django.utils import timezone

    from campaigns.models import SEEN_BY_MEMBERS, seen_by_members

    roll = _roll(world, "gm", secret=secret, announced=announced)
    if revealed:
        Roll.objects.filter(pk=roll.pk).update(revealed_at=timezone.now())
    roll.refresh_from_db()
    assert seen_by_members(roll) is Roll.objects.filter(SEEN_BY_MEMBERS, pk=roll.pk).exists()


def test_a_roll_requests_queries_do_not_grow_with_the_table_or_its_history(world, api, make_user):
    """The click-to-roll request's work is fixed (bench/live.py, docs/live.md): the same queries
    with 3 players as with 30, and after 3 rolls as after 30 (the players' seeds are one query)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaigns.models import Membership, Role

    client = api(world.users["player"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/rolls/"

    def queries() -> int:
        assert client.post(url, {"kind": "d10", "count": 2}, format="json").status_code == 201  # warm-up
        with CaptureQueriesContext(connection) as captured:
            assert client.post(url, {"kind": "d10", "count": 2}, format="json").status_code == 201
        return len(captured)

    few = queries()
    for n in range(28):
        Membership.objects.create(campaign=world.campaign, user=make_user(f"extra{n}"), role=Role.PLAYER)
    for _ in range(30):
        _roll(world)
    assert queries() == few
