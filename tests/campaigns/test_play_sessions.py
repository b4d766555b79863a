"""Play sessions and their notes (issue 50): starting and ending, the page that gathers what
happened for each reader, notes' visibility, mentions both ways, and every page for every role."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns import npc_services
from campaigns.chronicle import notes, play_sessions
from campaigns.models import LiveEvent, Note, NoteVisibility
from campaigns.table import rolling
from tests.campaigns.helpers import write_note as _note

pytestmark = pytest.mark.django_db

ROLES = ("gm", "player", "observer", "outsider", "anonymous")


def _start(world, **kwargs):
    gm = world.membership["gm"]
    return play_sessions.start(gm, **kwargs)


def test_sessions_are_numbered_one_at_a_time_and_only_the_gm_starts_and_ends_them(world):
    first = _start(world, title="Arrival")
    assert first.number == 1 and first.is_open
    assert {u.username for u in first.attendees.all()} == {"gm", "player", "other_player"}
    with pytest.raises(ValidationError):
        _start(world)
    with pytest.raises(PermissionDenied):
        play_sessions.start(world.membership["player"])
    with pytest.raises(PermissionDenied):
        play_sessions.end(world.membership["player"], first)
    done = play_sessions.end(world.membership["gm"], first)
    assert done == ["Session 1 ended."]
    first.refresh_from_db()
    assert first.ended_at is not None
    with pytest.raises(ValidationError):
        play_sessions.end(world.membership["gm"], first)
    assert _start(world).number == 2
    topics = list(LiveEvent.objects.filter(campaign=world.campaign).values_list("topic", flat=True))
    assert topics.count(play_sessions.TOPIC) == 3  # started, ended, started


def test_ending_offers_the_seed_reveal_as_a_separate_choice_done_only_when_ticked(world):
    from campaigns.table import fairness

    session = _start(world)
    keys = [choice.key for choice in play_sessions.end_choices(session, world.membership["gm"])]
    assert "reveal_seed" in keys
    before = fairness.current_seed(world.campaign).number
    play_sessions.end(world.membership["gm"], session, [])
    assert fairness.current_seed(world.campaign).number == before
    second = _start(world)
    done = play_sessions.end(world.membership["gm"], second, ["reveal_seed"])
    assert fairness.current_seed(world.campaign).number == before + 1
    assert any("revealed" in sentence for sentence in done)
    third = _start(world)
    with pytest.raises(ValidationError):
        play_sessions.end(world.membership["gm"], third, ["no_such_choice"])


def test_the_session_page_gathers_the_rolls_each_reader_sees_and_only_those(world, client):
    session = _start(world)
    gm, player = world.membership["gm"], world.membership["player"]
    rolling.record_roll(player, kind="d6", count=2, purpose="Open climb", rng=random.Random(1))
    rolling.record_roll(gm, kind="percent", secret=True, purpose="Secret ambush", rng=random.Random(2))
    rolling.record_roll(
        gm, kind="d1000", secret=True, announced=False, purpose="Unannounced check", rng=random.Random(3)
    )
    play_sessions.end(gm, session)
    rolling.record_roll(player, kind="d6", purpose="After the session", rng=random.Random(4))
    url = f"/campaigns/{world.campaign.pk}/play-sessions/1/"
    client.force_login(world.users["player"])
    page = client.get(url).content.decode()
    assert "Open climb" in page and "made a secret roll" in page
    assert "Secret ambush" not in page and "Unannounced check" not in page
    assert "After the session" not in page
    client.force_login(world.users["gm"])
    page = client.get(url).content.decode()
    assert "Secret ambush" in page and "Unannounced check" in page and "After the session" not in page


def test_the_session_page_pages_its_rolls_and_a_position_says_nothing_of_hidden_rolls(
    world, client, monkeypatch, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(play_sessions, "ROLLS_PER_PAGE", 3)
    session = _start(world)
    gm, player = world.membership["gm"], world.membership["player"]

    def climb(n):
        return rolling.record_roll(player, kind="d6", purpose=f"Climb {n}", rng=random.Random(n))

    made = [climb(n) for n in range(1, 5)]
    hidden = rolling.record_roll(
        gm, kind="d1000", secret=True, announced=False, purpose="Unannounced check", rng=random.Random(9)
    )
    made += [climb(5), climb(6)]
    play_sessions.end(gm, session)
    url = f"/campaigns/{world.campaign.pk}/play-sessions/1/"
    client.force_login(world.users["player"])
    with CaptureQueriesContext(connection) as first_queries:
        first = client.get(url).content.decode()
    assert [f"Climb {n}" in first for n in range(1, 7)] == [True] * 3 + [False] * 3
    assert f"?rolls_after={made[2].pk}#rolls-title" in first
    with CaptureQueriesContext(connection) as next_queries:
        second = client.get(f"{url}?rolls_after={made[2].pk}").content.decode()
    assert [f"Climb {n}" in second for n in range(1, 7)] == [False] * 3 + [True] * 3
    assert "rolls_after=" not in second and "Back to the session's first rolls" in second
    # A later page costs the first page's queries and one to place its position.
    assert len(next_queries) == len(first_queries) + 1

    # A position that is not a roll the reader sees on this page: one answer, whatever it names.
    for position in (hidden.pk, 10**9, "abc", "-1", "²", "①", "1" * 19):
        response = client.get(f"{url}?rolls_after={position}")
        assert response.status_code == 400
        assert "&#x27;rolls_after&#x27; must be" in response.content.decode()
    said = [client.get(f"{url}?rolls_after={position}").content.decode() for position in (hidden.pk, 10**9)]
    assert [page.count("must be a roll of this session") for page in said] == [1, 1]
    client.force_login(world.users["gm"])
    assert "Climb 5" in client.get(f"{url}?rolls_after={hidden.pk}").content.decode()


def _autostart(world, zone: str = "Asia/Tokyo") -> None:
    world.campaign.time_zone = zone
    world.campaign.sessions_start_on_roll = True
    world.campaign.save(update_fields=["time_zone", "sessions_start_on_roll"])
    for membership in world.membership.values():
        membership.campaign = world.campaign


def test_the_first_roll_of_a_day_starts_a_session_only_where_the_setting_asks(world, client):
    import datetime

    from django.utils import timezone

    gm, player = world.membership["gm"], world.membership["player"]
    rolling.record_roll(player, kind="d6", purpose="Before the setting", rng=random.Random(1))
    assert not world.campaign.play_sessions.exists()

    _autostart(world)
    first = rolling.record_roll(player, kind="d6", purpose="Open the gate", rng=random.Random(2))
    session = world.campaign.play_sessions.get()
    assert (session.number, session.started_by, session.started_at) == (
        1,
        world.users["player"],
        first.created_at,
    )
    assert session.date == timezone.localtime(first.created_at, world.campaign.zone).date()
    assert {u.username for u in session.attendees.all()} == {"gm", "player", "other_player"}
    assert LiveEvent.objects.filter(campaign=world.campaign, topic=play_sessions.TOPIC).count() == 1
    client.force_login(world.users["other_player"])
    assert "Open the gate" in client.get(f"/campaigns/{world.campaign.pk}/play-sessions/1/").content.decode()

    rolling.record_roll(gm, kind="d6", purpose="Same evening", rng=random.Random(3))
    play_sessions.end(gm, session)
    rolling.record_roll(player, kind="d6", purpose="After the end, same day", rng=random.Random(4))
    assert world.campaign.play_sessions.count() == 1  # the day's first roll was before

    # The next day where the group plays: the day's first roll starts session 2.
    yesterday = datetime.timedelta(days=1)
    world.campaign.play_sessions.update(
        started_at=session.started_at - yesterday, ended_at=timezone.now() - yesterday
    )
    rolling.record_roll(player, kind="d6", purpose="A new day", rng=random.Random(5))
    assert list(world.campaign.play_sessions.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_an_evening_played_past_midnight_is_one_session_and_the_next_evening_another(world, monkeypatch):
    import datetime

    from django.utils import timezone

    _autostart(world, "UTC")
    gm, player = world.membership["gm"], world.membership["player"]
    clock = {"now": datetime.datetime(2026, 12, 7, 20, 0, tzinfo=datetime.UTC)}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    rolling.record_roll(player, kind="d6", purpose="Monday, 20:00", rng=random.Random(1))
    monday = world.campaign.play_sessions.get()
    clock["now"] = datetime.datetime(2026, 12, 8, 1, 0, tzinfo=datetime.UTC)
    play_sessions.end(gm, monday)
    clock["now"] = datetime.datetime(2026, 12, 8, 1, 10, tzinfo=datetime.UTC)
    rolling.record_roll(player, kind="d6", purpose="Tuesday, 01:10: a straggler", rng=random.Random(2))
    assert world.campaign.play_sessions.count() == 1
    clock["now"] = datetime.datetime(2026, 12, 8, 20, 0, tzinfo=datetime.UTC)
    rolling.record_roll(player, kind="d6", purpose="Tuesday, 20:00", rng=random.Random(3))
    tuesday = world.campaign.play_sessions.get(number=2)
    assert tuesday.date == datetime.date(2026, 12, 8) and tuesday.is_open


def test_a_roll_kept_out_of_the_tables_log_never_starts_a_session(world):
    gm = world.membership["gm"]
    _autostart(world)
    rolling.record_roll(
        gm, kind="d1000", secret=True, announced=False, purpose="Unannounced check", rng=random.Random(1)
    )
    assert not world.campaign.play_sessions.exists()
    rolling.record_roll(gm, kind="percent", secret=True, purpose="Secret, announced", rng=random.Random(2))
    assert world.campaign.play_sessions.count() == 1


def test_a_day_begins_at_midnight_where_the_group_plays(world):
    import datetime

    world.campaign.time_zone = "Asia/Tokyo"  # UTC+9, no daylight saving
    at = datetime.datetime(2026, 12, 6, 20, 30, tzinfo=datetime.UTC)  # 05:30 on the 7th in Tokyo
    began = play_sessions._day_began(world.campaign, at)
    assert began.isoformat() == "2026-12-07T00:00:00+09:00"
    world.campaign.time_zone = "America/Chicago"  # 14:30 on the 6th
    assert play_sessions._day_began(world.campaign, at).isoformat() == "2026-12-06T00:00:00-06:00"


def test_the_gm_sets_where_the_group_plays_and_the_session_start_and_a_wrong_zone_changes_nothing(
    world, client
):
    from campaigns.models import Campaign

    url = f"/campaigns/{world.campaign.pk}/settings/"
    sessions = f"/campaigns/{world.campaign.pk}/play-sessions/"
    client.force_login(world.users["gm"])
    assert "turn this on in the settings" in client.get(sessions).content.decode()
    page = client.get(url).content.decode()
    assert 'name="group_time_zone"' in page and 'name="group_sessions_start_on_roll"' in page
    fields = {
        "print_paper": "letter",
        "hopeless_reroll_rounds": "1",
        "corps_present_year": "7192",
        "helpless_defender_result": "C",
        "critical_check_willpower": "current",
    }
    refused = client.post(
        url, {**fields, "group_time_zone": "Mars/Olympus_Mons", "group_sessions_start_on_roll": "on"}
    )
    assert refused.status_code == 400 and "Mars/Olympus_Mons" in refused.content.decode()
    # the menu shows the saved zone again, not the list's first (stop 57's walk: Africa/Abidjan)
    assert '<option value="UTC" selected>' in refused.content.decode()
    assert (
        Campaign.objects.get(pk=world.campaign.pk).time_zone,
        Campaign.objects.get(pk=world.campaign.pk).sessions_start_on_roll,
    ) == ("UTC", False)
    done = client.post(
        url, {**fields, "group_time_zone": "Europe/Paris", "group_sessions_start_on_roll": "on"}
    )
    assert done.status_code == 302
    saved = Campaign.objects.get(pk=world.campaign.pk)
    assert (saved.time_zone, saved.sessions_start_on_roll) == ("Europe/Paris", True)
    assert "the day in Europe/Paris time" in client.get(sessions).content.decode()
    for role in ("player", "observer"):
        client.force_login(world.users[role])
        assert client.post(url, {**fields, "group_time_zone": "UTC"}).status_code in (403, 404)
    assert Campaign.objects.get(pk=world.campaign.pk).time_zone == "Europe/Paris"
    told = client.get(sessions).content.decode()  # the observer's
    assert "The first roll of a day starts one" in told and "in the settings" not in told


def test_notes_reach_exactly_who_may_read_them(world, client):
    session = _start(world)
    _note(world, "gm", session, "The table met the senator.", title="Shared recap")
    _note(world, "gm", session, "The senator is the traitor.", NoteVisibility.GM, title="GM secret")
    _note(world, "player", session, "I do not trust him.", NoteVisibility.PRIVATE, title="Player diary")
    _note(world, "other_player", session, "Bring rope next time.", title="Shared by a player")
    url = f"/campaigns/{world.campaign.pk}/play-sessions/1/"
    expected = {
        "gm": {"Shared recap", "GM secret", "Shared by a player"},
        "player": {"Shared recap", "Player diary", "Shared by a player"},
        "other_player": {"Shared recap", "Shared by a player"},
        "observer": {"Shared recap", "Shared by a player"},
    }
    titles = {"Shared recap", "GM secret", "Player diary", "Shared by a player"}
    for reader, visible in expected.items():
        client.force_login(world.users[reader])
        page = client.get(url).content.decode()
        assert {t for t in titles if t in page} == visible, reader
    # a note's events on the live feed: the shared ones only (a GM-only or private note tells nobody)
    topics = LiveEvent.objects.filter(campaign=world.campaign, topic=notes.topic_of_notes(1))
    assert topics.count() == 2


def test_a_note_is_its_authors_to_edit_or_delete_and_unknown_to_who_may_not_read_it(world, client):
    session = _start(world)
    secret = _note(world, "gm", session, "hidden", NoteVisibility.GM)
    diary = _note(world, "player", session, "mine", NoteVisibility.PRIVATE)
    shared = _note(world, "player", session, "ours")
    c = world.campaign.pk
    client.force_login(world.users["other_player"])
    assert client.get(f"/campaigns/{c}/notes/{secret.pk}/edit/").status_code == 404
    assert client.get(f"/campaigns/{c}/notes/{diary.pk}/edit/").status_code == 404
    assert client.get(f"/campaigns/{c}/notes/{shared.pk}/edit/").status_code == 403
    assert client.post(f"/campaigns/{c}/notes/{shared.pk}/delete/").status_code == 403
    client.force_login(world.users["player"])
    response = client.post(
        f"/campaigns/{c}/notes/{shared.pk}/edit/",
        {"title": "", "body": "ours, again", "visibility": "shared"},
    )
    assert response.status_code == 302
    assert Note.objects.get(pk=shared.pk).body == "ours, again"
    # a player cannot mark a note GM-only, nor the GM a note private
    response = client.post(
        f"/campaigns/{c}/play-sessions/1/notes/", {"title": "", "body": "x", "visibility": "gm"}
    )
    assert not Note.objects.filter(body="x").exists()
    assert client.post(f"/campaigns/{c}/notes/{diary.pk}/delete/").status_code == 302
    assert not Note.objects.filter(pk=diary.pk).exists()


def test_mentions_link_both_ways_as_far_as_each_reader_may_see(world, client):
    gm = world.users["gm"]
    senator = npc_services.create_npc(
        world.campaign, gm, {"name": "Senator Vale", "revealed": True, "significance_rating": 40}
    )
    mole = npc_services.create_npc(
        world.campaign, gm, {"name": "The Mole", "revealed": False, "significance_rating": 7}
    )
    session = _start(world)
    shared = _note(world, "gm", session, "We met [[Senator Vale]] and [[the mole]]; [[Nobody]] came.")
    secret = _note(world, "gm", session, "[[Senator Vale]] pays [[The Mole]].", NoteVisibility.GM, "GM plot")
    assert {(m.kind, m.target_id) for m in shared.mentions.all()} == {("npc", senator.pk), ("npc", mole.pk)}
    c = world.campaign.pk
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{c}/play-sessions/1/").content.decode()
    assert f'href="/campaigns/{c}/npcs/{senator.pk}/"' in page
    assert str(mole.pk) not in page  # a hidden NPC reads as a name that matches nothing
    assert '<span class="mention">the mole</span>' in page
    assert '<span class="mention">Nobody</span>' in page
    senator_page = client.get(f"/campaigns/{c}/npcs/{senator.pk}/").content.decode()
    assert "Mentioned in" in senator_page and "GM plot" not in senator_page
    assert f"note-{shared.pk}" in senator_page and f"note-{secret.pk}" not in senator_page
    client.force_login(gm)
    page = client.get(f"/campaigns/{c}/play-sessions/1/").content.decode()
    assert f'href="/campaigns/{c}/npcs/{mole.pk}/"' in page
    mole_page = client.get(f"/campaigns/{c}/npcs/{mole.pk}/").content.decode()
    assert f"note-{shared.pk}" in mole_page and f"note-{secret.pk}" in mole_page


def test_a_character_mention_links_the_sheet_and_the_sheet_lists_the_note(world, client):
    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    draft = character_services.create_draft(
        world.campaign, world.users["player"], choices=agent_choices(name="Harry Adams")
    )
    hero = character_services.finalize(draft, is_gm=True, rng=random.Random(3))
    session = _start(world)
    note = _note(world, "player", session, "**[[Harry Adams]]** climbed the tower.")
    client.force_login(world.users["observer"])
    page = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/1/").content.decode()
    assert f'href="/characters/{hero.pk}/"' in page and "<strong>" in page
    sheet = client.get(f"/characters/{hero.pk}/").content.decode()
    assert f"note-{note.pk}" in sheet


# (URL name, method, path, data, {role: status}) of every page of play sessions and notes.
def _routes(ids):
    c, n, note = ids["c"], ids["n"], ids["note"]
    member_read = {"gm": 200, "player": 200, "observer": 200, "outsider": 404, "anonymous": 302}
    gm_only = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 302}
    return [
        ("play-session-list", "get", f"/campaigns/{c}/play-sessions/", None, member_read),
        ("play-session-detail", "get", f"/campaigns/{c}/play-sessions/{n}/", None, member_read),
        ("play-session-edit", "get", f"/campaigns/{c}/play-sessions/{n}/edit/", None, gm_only),
        ("play-session-end", "get", f"/campaigns/{c}/play-sessions/{n}/end/", None, gm_only),
        (
            "play-session-start",
            "post",
            f"/campaigns/{c}/play-sessions/start/",
            {"date": "2026-12-01", "title": "Next"},
            {**gm_only, "gm": 302},
        ),
        (
            "play-session-note-add",
            "post",
            f"/campaigns/{c}/play-sessions/{n}/notes/",
            {"body": "a note", "visibility": "shared"},
            {"gm": 302, "player": 302, "observer": 403, "outsider": 404, "anonymous": 302},
        ),
        # the GM's shared note: every member reads it; only its author changes it
        ("play-session-note-edit", "get", f"/campaigns/{c}/notes/{note}/edit/", None, {**gm_only}),
        (
            "play-session-note-delete",
            "post",
            f"/campaigns/{c}/notes/{note}/delete/",
            None,
            {**gm_only, "gm": 302},
        ),
    ]


WALKED_PAGES = {
    "play-session-list",
    "play-session-detail",
    "play-session-edit",
    "play-session-end",
    "play-session-start",
    "play-session-note-add",
    "play-session-note-edit",
    "play-session-note-delete",
}


@pytest.mark.parametrize("role", ROLES)
def test_every_page_answers_each_role_as_it_must(world, client, role):
    session = _start(world)
    note = _note(world, "gm", session, "shared")
    ids = {"c": world.campaign.pk, "n": session.number, "note": note.pk}
    routes = _routes(ids)
    assert {r[0] for r in routes} == WALKED_PAGES
    for name, method, path, data, expected in routes:
        if role != "anonymous":
            client.force_login(world.users[role])
        if name == "play-session-start" and role == "gm":
            play_sessions.end(world.membership["gm"], session)
        response = getattr(client, method)(path, data or {})
        assert response.status_code == expected[role], (name, role, response.status_code)


def test_every_play_session_route_is_walked_here():
    from django.urls import get_resolver

    names = {name for name in get_resolver().reverse_dict if isinstance(name, str)}
    ours = {name for name in names if name.startswith("play-session")}
    # the recap's handout is the chronicle's, walked for every role in tests/campaigns/test_chronicle.py
    assert ours - {"play-session-recap"} == WALKED_PAGES


def test_a_timemaster_session_end_links_each_agents_bonus_award_for_that_session(world, client):
    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    draft = character_services.create_draft(
        world.campaign, world.users["player"], choices=agent_choices(name="Harry Adams")
    )
    hero = character_services.finalize(draft, is_gm=True, rng=random.Random(3))
    session = _start(world)
    choices = play_sessions.end_choices(session, world.membership["gm"])
    (bonus,) = [c for c in choices if c.key.startswith("timemaster_bonus_")]
    assert bonus.run is None and bonus.url == f"/characters/{hero.pk}/bonus/?session=Session+1"
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/1/end/").content.decode()
    assert 'name="choice" value="reveal_seed"' in page and f"/characters/{hero.pk}/bonus/" in page
    # the award is a page of its own, listed apart from the ticked choices (stop 57's walk: it sat
    # among them as a link under "each only if ticked")
    form_part, pages_part = page.split('class="card end-pages"', 1)
    assert 'value="reveal_seed"' in form_part and f"/characters/{hero.pk}/bonus/" not in form_part
    assert f"/characters/{hero.pk}/bonus/" in pages_part and "does not end the session" in pages_part
    # showing the choices does none of them (a template calls what it reads: it reads is_action)
    from campaigns.table import fairness

    assert fairness.current_seed(world.campaign).number == 1
    form = client.get(bonus.url).content.decode()
    assert 'value="Session 1"' in form
    # without the link, the award form names the latest play session
    assert 'value="Session 1"' in client.get(f"/characters/{hero.pk}/bonus/").content.decode()


def test_a_tempo_session_end_offers_the_fate_refresh_done_only_when_ticked(make_user):
    from campaigns.models import Membership, Role
    from systems.tempo import services as tempo_services
    from tests import system_kit

    gm = make_user("tempo_gm")
    campaign = system_kit.make_campaign(gm, "tempo")
    player = make_user("tempo_player")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    hero = system_kit.make_character(campaign, player, name="Kim")
    membership = campaign.memberships.select_related("user", "campaign").get(user=gm)
    session = play_sessions.start(membership)
    keys = [c.key for c in play_sessions.end_choices(session, membership)]
    assert keys == ["reveal_seed", "tempo_fate_refresh"]
    before = hero.entries.count()
    hero.refresh_from_db()
    done = play_sessions.end(membership, session, ["tempo_fate_refresh"])
    assert done[0] == "Session 1 ended." and done[1].startswith("Fate points refreshed")
    settings = tempo_services.campaign_settings(campaign)
    assert hero.entries.count() == before + (1 if "→" in done[1] else 0), settings


def test_the_demos_first_session_gathers_the_systems_play_for_a_player(client):
    """seed_demo wraps each system's demo play in session 1: its page lists what the system's
    records did (D6's encounters, SystemApp.play_session_events), the ledger and the rolls."""
    import io

    from django.core.management import call_command

    from campaigns.models import Campaign

    call_command("seed_demo", system=["d6"], stdout=io.StringIO())
    campaign = Campaign.objects.get(system="d6", name__startswith="Demo: ")
    sessions = list(campaign.play_sessions.order_by("number"))
    assert [(s.number, s.is_open) for s in sessions] == [(1, False), (2, False)]
    client.force_login(campaign.memberships.get(user__username="alice").user)
    page = client.get(f"/campaigns/{campaign.pk}/play-sessions/1/").content.decode()
    assert "Encounter set up: The Warehouse" in page and "Encounter played: The Warehouse" in page
    assert "Recap" in page and "Plans" not in page and "To ask" in page  # alice's own private note
    second = client.get(f"/campaigns/{campaign.pk}/play-sessions/2/").content.decode()
    assert "Search the room" in second and "Is anyone following?" not in second


def test_a_saved_note_says_which_mentions_name_nothing_the_writer_may_see(world, client):
    """Stop 57's walk: ``[[Nobody Known]]`` went by without a word. The writer is told, as the
    writer reads: a hidden NPC's name is unmatched for a player exactly like a name of nothing (the
    warning tells no more than the page), and matched for the GM."""
    gm = world.users["gm"]
    npc_services.create_npc(
        world.campaign, gm, {"name": "Senator Vale", "revealed": True, "significance_rating": 4}
    )
    npc_services.create_npc(
        world.campaign, gm, {"name": "The Mole", "revealed": False, "significance_rating": 7}
    )
    _start(world)
    url = f"/campaigns/{world.campaign.pk}/play-sessions/1/notes/"
    body = "We met [[senator vale]], [[The Mole]] and [[Nobody Known]]."
    client.force_login(world.users["player"])
    done = client.post(url, {"title": "", "body": body, "visibility": "shared"}, follow=True)
    said = [str(message) for message in done.context["messages"]]
    assert said[0] == "Note saved."
    assert said[1].startswith("[[The Mole]], [[Nobody Known]]: no character, NPC or mission you can see")
    assert "senator" not in said[1].lower()
    client.force_login(gm)
    done = client.post(url, {"title": "", "body": body, "visibility": "gm"}, follow=True)
    said = [str(message) for message in done.context["messages"]]
    assert said[1].startswith("[[Nobody Known]]: no character") and "this name" in said[1]
    done = client.post(url, {"title": "", "body": "[[Senator Vale]] only.", "visibility": "gm"}, follow=True)
    assert [str(message) for message in done.context["messages"]] == ["Note saved."]
