"""Search over a campaign (issue 50, part 5): every kind found and linked, the index in step with
the records however they are written, bad queries refused with a sentence, every role, what each
reader may find, safe highlighting, and a cost flat in the campaign's size. Runs on SQLite (FTS5)
and, with DATABASE_URL, on PostgreSQL (its text search): the same tests hold both engines."""

from __future__ import annotations

import random
from urllib.parse import quote

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from campaigns.chronicle import notes, play_sessions, search, search_index
from campaigns.models import NPC, Mission, Note, NoteVisibility, Roll, SearchEntry, SignificanceEntry
from campaigns.table import rolling
from characters.models import Character
from tests.campaigns.helpers import write_note as _note

pytestmark = pytest.mark.django_db

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")
#: The API routes this file walks for every role (tests/campaigns/test_api_roles.py counts them).
WALKED_ROUTES = {"api-search"}


def _find(world, reader, text):
    membership = world.membership[reader]
    results = search.search(world.campaign, world.users[reader], membership, search.parse(text))
    return {group.kind: [hit.title for hit in group.hits] for group in results.groups if group.hits}


def _page(client, world, q):
    return client.get(reverse("campaign-search", args=[world.campaign.pk]) + "?q=" + quote(q))


def _everything(world):
    """One record of each kind, shared with the table, each holding the word 'zeppelin'."""
    session = play_sessions.start(world.membership["gm"], title="The zeppelin at dawn")
    _note(world, "gm", session, "We boarded the **zeppelin** over [[Berlin]].", title="Boarding")
    mission = Mission.objects.create(campaign=world.campaign, title="Zeppelin heist", briefing="Steal it.")
    npc = NPC.objects.create(
        campaign=world.campaign, system="timemaster", name="Captain Lehmann",
        public_description="Commands the zeppelin.", revealed=True,
    )  # fmt: skip
    character = Character.objects.create(
        campaign=world.campaign, owner=world.users["player"], system="timemaster",
        name="Zeppelin Jack", status=Character.Status.ACTIVE,
    )  # fmt: skip
    climb = "Climb the zeppelin's rigging"
    rolling.record_roll(world.membership["player"], kind="percent", purpose=climb, rng=random.Random(3))
    return session, mission, npc, character


def test_every_kind_is_found_grouped_and_linked_to_its_page(world, client):
    session, mission, npc, character = _everything(world)
    found = _find(world, "player", "zeppelin")
    assert found == {
        "note": ["Boarding"],
        "play_session": ["Session 1: The zeppelin at dawn"],
        "mission": ["Zeppelin heist"],
        "npc": ["Captain Lehmann"],
        "character": ["Zeppelin Jack"],
        "roll": ["Climb the zeppelin's rigging"],
    }
    client.force_login(world.users["player"])
    body = _page(client, world, "zeppelin").content.decode()
    note = Note.objects.get()
    roll = Roll.objects.get()
    for url in (
        reverse("play-session-detail", args=[world.campaign.pk, 1]) + f"#note-{note.pk}",
        reverse("missions-detail", args=[world.campaign.pk, mission.pk]),
        reverse("npc-detail", args=[world.campaign.pk, npc.pk]),
        reverse("character-detail", args=[character.pk]),
        reverse("play-session-detail", args=[world.campaign.pk, 1]) + f"#roll-{roll.pk}",
    ):
        assert f'href="{url}"' in body
    assert "<mark>zeppelin</mark>" in body
    assert body.index('id="search-note"') < body.index('id="search-roll"')


def test_the_last_word_matches_as_a_prefix_and_every_word_must_match(world):
    _everything(world)
    assert _find(world, "gm", "zepp")["mission"] == ["Zeppelin heist"]
    assert "mission" not in _find(world, "gm", "zeppelin dawn")
    assert _find(world, "gm", "zeppelin dawn") == {"play_session": ["Session 1: The zeppelin at dawn"]}
    assert _find(world, "gm", "ze") == {}  # two letters match whole words only


def test_the_index_follows_every_write_and_equals_a_rebuild(world):
    session, mission, npc, character = _everything(world)
    note = Note.objects.get()
    note.body = "Now about a submarine."
    notes.save_note(note)
    assert "note" not in _find(world, "gm", "zeppelin") and _find(world, "gm", "submarine")["note"]
    Character.objects.filter(pk=character.pk).update(name="Airship Jack")  # a queryset update: no signal
    assert _find(world, "gm", "airship")["character"] == ["Airship Jack"]
    npc.gm_notes = "Secretly a submarine captain."
    npc.save()
    assert _find(world, "gm", "submarine")["npc"] == ["Captain Lehmann"]
    Roll.objects.bulk_create(  # the D6 engine and the archive import write rolls in bulk
        [Roll(campaign=world.campaign, kind="d6", total=4, faces=[4], purpose="Bulk submarine dive")]
    )
    assert _find(world, "gm", "submarine")["roll"] == ["Bulk submarine dive"]
    notes.delete_note(note)
    mission.delete()
    assert {"note", "mission"}.isdisjoint(_find(world, "gm", "submarine") | _find(world, "gm", "heist"))
    before = set(SearchEntry.objects.values_list("campaign_id", "kind", "object_id", "audience", "text"))
    assert search_index.rebuild() == len(before)
    assert (
        set(SearchEntry.objects.values_list("campaign_id", "kind", "object_id", "audience", "text")) == before
    )
    world.campaign.delete()
    assert not SearchEntry.objects.filter(campaign_id=world.campaign.pk).exists()


def test_a_change_that_leaves_the_indexed_text_alone_does_not_touch_the_index(world):
    _, _, _, character = _everything(world)
    entry = SearchEntry.objects.get(kind="character", object_id=character.pk)
    character.revision += 1
    character.save()
    assert SearchEntry.objects.get(kind="character", object_id=character.pk).pk == entry.pk


BAD = [
    ("", "Type a word"),
    ("   ", "Type a word"),
    ('"', "no letters or digits"),
    ('"*^:()-+', "no letters or digits"),
    ("x" * 201, "at most 200 characters"),
    ("a b c d e f g h i", "at most 8 words"),
    ("y" * 61, "at most 60 characters"),
]


@pytest.mark.parametrize("raw, says", BAD)
def test_a_query_that_cannot_be_searched_gets_a_sentence_on_the_page_and_in_the_api(
    world, client, api, raw, says
):
    client.force_login(world.users["player"])
    response = _page(client, world, raw)
    assert response.status_code == 400
    assert says in response.content.decode()
    answer = api(world.users["player"]).get(f"/api/v1/campaigns/{world.campaign.pk}/search/", {"q": raw})
    assert answer.status_code == 400
    assert says in str(answer.json())


@pytest.mark.parametrize(
    "raw",
    [
        'zeppelin"', "zeppelin AND OR NOT", "NEAR(zeppelin dawn)", "text:zeppelin", "zeppelin*", "^zeppelin",
        "'; DROP TABLE campaigns_searchentry; --", "zeppelin's", "{zeppelin}", "ÄÖÜ zeppelin",
    ],
)  # fmt: skip
def test_the_query_languages_syntax_is_read_as_words(world, client, raw):
    _everything(world)
    client.force_login(world.users["gm"])
    response = _page(client, world, raw)
    assert response.status_code == 200
    assert SearchEntry.objects.filter(kind="note").exists()


def test_a_word_in_an_fts_keyword_case_is_found_like_any_other(world):
    session = play_sessions.start(world.membership["gm"])
    _note(world, "gm", session, "They said NOT now, and NEAR the door.")
    assert _find(world, "player", "not near")["note"]


def test_the_matching_words_are_highlighted_and_a_notes_html_is_text(world, client):
    session = play_sessions.start(world.membership["gm"])
    _note(world, "gm", session, 'An <script>alert("x")</script> ambush <b onclick=1>here</b> & "there"')
    client.force_login(world.users["player"])
    body = _page(client, world, "ambush").content.decode()
    assert "<script>alert" not in body and "<b onclick" not in body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; <mark>ambush</mark>" in body


def test_a_snippet_is_cut_around_the_match(world):
    session = play_sessions.start(world.membership["gm"])
    _note(world, "gm", session, "word " * 200 + "needle " + "after " * 100)
    hit = (
        search.search(world.campaign, world.users["gm"], world.membership["gm"], search.parse("needle"))
        .groups[0]
        .hits[0]
    )
    assert hit.snippet.text.startswith("… ") and hit.snippet.text.endswith(" …")
    assert len(hit.snippet.text) <= search.SNIPPET + 4
    start, end = hit.snippet.marks[0]
    assert hit.snippet.text[start:end] == "needle"


# --- who finds what ---------------------------------------------------------------------------------
def _hidden(world):
    """One hidden record of each hidden kind, each holding the word 'basilisk'."""
    session = play_sessions.open_session(world.campaign) or play_sessions.start(world.membership["gm"])
    _note(world, "gm", session, "The basilisk waits (GM only).", NoteVisibility.GM, title="GM basilisk")
    _note(
        world, "other_player", session, "My basilisk plan.", NoteVisibility.PRIVATE, title="Private basilisk"
    )
    gm = world.membership["gm"]
    rolling.record_roll(gm, kind="percent", secret=True, purpose="Basilisk ambush", rng=random.Random(1))
    rolling.record_roll(
        gm, kind="percent", secret=True, announced=False, purpose="Basilisk lair", rng=random.Random(2)
    )
    NPC.objects.create(campaign=world.campaign, system="timemaster", name="Basilisk", revealed=False)
    NPC.objects.create(
        campaign=world.campaign, system="timemaster", name="Innkeeper", revealed=True,
        gm_notes="Feeds the basilisk.", skills={"Basilisk lore": 3},
    )  # fmt: skip
    mission = Mission.objects.create(campaign=world.campaign, title="Cellar", status=Mission.Status.COMPLETED)
    SignificanceEntry.objects.create(mission=mission, kind="other", description="Woke the basilisk", rating=5)
    Character.objects.create(
        campaign=world.campaign, owner=world.users["other_player"], system="timemaster",
        name="Basilisk Bob", status=Character.Status.DRAFT,
    )  # fmt: skip
    return mission


def test_players_and_observers_find_nothing_hidden_and_the_gm_finds_it_all(world):
    mission = _hidden(world)
    for reader in ("player", "observer"):
        assert _find(world, reader, "basilisk") == {}, reader
    assert _find(world, "other_player", "basilisk") == {
        "note": ["Private basilisk"],
        "character": ["Basilisk Bob"],
    }
    gm = _find(world, "gm", "basilisk")
    assert gm["note"] == ["GM basilisk"]  # the GM reads no player's private note
    assert sorted(gm["roll"]) == ["Basilisk ambush", "Basilisk lair"]
    assert gm["npc"] == ["Basilisk", "Innkeeper"]
    assert gm["tally"] == ["Cellar: Other mistake"]
    assert gm["character"] == ["Basilisk Bob"]
    assert _find(world, "player", "lore") == {}  # NPC statistics are never indexed
    assert _find(world, "gm", "lore") == {}
    mission.published_at = timezone.now()
    mission.save()
    assert _find(world, "player", "woke") == {"tally": ["Cellar: Other mistake"]}


def test_a_revealed_secret_roll_is_found_by_everyone(world):
    roll = rolling.record_roll(
        world.membership["gm"], kind="percent", secret=True, purpose="Hidden door", rng=random.Random(5)
    )
    assert _find(world, "player", "door") == {}
    Roll.objects.filter(pk=roll.pk).update(revealed_at=timezone.now())
    assert _find(world, "player", "door") == {"roll": ["Hidden door"]}


@pytest.mark.parametrize("role", ROLES)
def test_every_role_on_the_page_and_the_api(world, client, api, role):
    _everything(world)
    _hidden(world)
    user = world.users.get(role)
    if user is not None:
        client.force_login(user)
    page = _page(client, world, "zeppelin basilisk")
    answer = api(user).get(f"/api/v1/campaigns/{world.campaign.pk}/search/", {"q": "zeppelin"})
    if role == "anonymous":
        assert page.status_code == 302 and "/accounts/login/" in page["Location"]
        assert answer.status_code == 401
        return
    if role == "outsider":
        assert page.status_code == 404 and answer.status_code == 404
        assert _page(client, world, "zeppelin").status_code == 404
        return
    assert page.status_code == 200 and answer.status_code == 200
    kinds = {group["kind"]: len(group["results"]) for group in answer.json()["groups"]}
    assert kinds == {
        "note": 1,
        "play_session": 1,
        "mission": 1,
        "tally": 0,
        "npc": 1,
        "character": 1,
        "roll": 1,
    }


def test_members_of_another_campaign_find_nothing_of_this_one(world, api):
    _everything(world)
    outsider = world.users["outsider"]
    answer = api(outsider).get(f"/api/v1/campaigns/{world.elsewhere.pk}/search/", {"q": "zeppelin"})
    assert answer.status_code == 200
    assert all(group["results"] == [] for group in answer.json()["groups"])


def test_the_api_answers_the_groups_with_plain_snippets_and_their_highlights(world, api):
    _everything(world)
    answer = api(world.users["player"]).get(
        f"/api/v1/campaigns/{world.campaign.pk}/search/", {"q": "rigging"}
    )
    roll = next(group for group in answer.json()["groups"] if group["kind"] == "roll")
    (hit,) = roll["results"]
    start, end = hit["highlights"][0]
    assert hit["snippet"][start:end] == "rigging"
    assert hit["url"].startswith(f"/campaigns/{world.campaign.pk}/play-sessions/1/#roll-")
    assert roll["more"] is False


# --- cost ----------------------------------------------------------------------------------------
def _grow(world, n):
    session = (
        play_sessions.start(world.membership["gm"]) if not world.campaign.play_sessions.exists() else None
    )
    session = session or world.campaign.play_sessions.first()
    rolls = [
        Roll(
            campaign=world.campaign,
            kind="percent",
            total=i % 100 + 1,
            faces=[i % 100 + 1],
            purpose=f"Lantern check {i}",
        )
        for i in range(n)
    ]
    Roll.objects.bulk_create(rolls)
    for i in range(n // 10 + 1):
        _note(world, "gm", session, f"Lantern note {i}")


def test_the_queries_of_a_search_do_not_grow_with_the_campaign(world, django_assert_num_queries):
    _grow(world, 10)
    user, membership = world.users["player"], world.membership["player"]
    query = search.parse("lantern")
    with django_assert_num_queries(9) as small:  # on both engines: a count picks the roll plan
        search.search(world.campaign, user, membership, query)
    _grow(world, 300)
    with django_assert_num_queries(len(small.captured_queries)):
        results = search.search(world.campaign, user, membership, query)
    rolls = next(group for group in results.groups if group.kind == "roll")
    assert len(rolls.hits) == search.PER_KIND and rolls.more


def test_the_engine_is_the_databases_own(world):
    found = search_index.matching(world.campaign.pk, "note", ["table"], ["x"], False)
    if connection.vendor == "postgresql":
        sql = str(found.query)
        assert f'"{search_index.PG_VECTOR}" @@ to_tsquery' in sql  # the stored vector (0022)
    else:
        sql, params = found.as_sql(None, connection)
        assert search_index.FTS_TABLE in sql and "MATCH" in sql
        assert params == [f'tag : ("c{world.campaign.pk}knoteatable") AND text : ("x")']


@pytest.mark.parametrize("matching", [3, 12])
def test_the_roll_plan_never_changes_the_rolls_found_or_their_order(world, monkeypatch, matching):
    """Few matches (under FEW_ROLLS) are read through the text index and sorted, many down the log's
    order index (``search._newest_first``, on SQLite and PostgreSQL alike): the same rolls, newest
    first, either way."""
    from django.db.models.expressions import OrderBy

    monkeypatch.setattr(search, "FEW_ROLLS", 8)
    player = world.membership["player"]
    for i in range(matching):
        rolling.record_roll(player, kind="d6", purpose=f"Lantern climb {i}", rng=random.Random(i))
    rolling.record_roll(player, kind="d6", purpose="Rope", rng=random.Random(99))
    query = search.parse("lantern")
    reader = search.Reader(world.users["player"], player, world.campaign)
    order = search._newest_first(search._ids(reader, "roll", query))
    assert isinstance(order[0], OrderBy) == (matching < 8)  # the expression no index holds
    results = search.search(world.campaign, world.users["player"], player, query)
    rolls = next(group for group in results.groups if group.kind == "roll")
    assert [hit.title for hit in rolls.hits] == [f"Lantern climb {i}" for i in reversed(range(matching))]


def test_postgresql_keeps_each_entrys_vector_stored_and_indexed(world):
    """Migration 0022: the text vector is a stored, generated column with its GIN index (the
    expression index gone); it follows the text when an entry changes. SQLite has no such column."""
    from django.db import connection as conn

    note = _note(world, "gm", play_sessions.start(world.membership["gm"]), "Lantern light")
    with conn.cursor() as cursor:
        if conn.vendor != "postgresql":
            columns = [
                col.name for col in conn.introspection.get_table_description(cursor, "campaigns_searchentry")
            ]
            assert search_index.PG_VECTOR not in columns
            return
        cursor.execute(
            "SELECT indexname FROM pg_indexes"
            " WHERE tablename = 'campaigns_searchentry' AND indexname IN (%s, %s)",
            [search_index.PG_VECTOR_INDEX, search_index.GIN_INDEX],
        )
        assert [row[0] for row in cursor.fetchall()] == [search_index.PG_VECTOR_INDEX]
        Note.objects.filter(pk=note.pk).update(body="Candle light")
        cursor.execute(
            f"SELECT {search_index.PG_VECTOR}::text FROM campaigns_searchentry"
            " WHERE kind = 'note' AND object_id = %s",
            [note.pk],
        )
        (vector,) = cursor.fetchone()
        assert "'candle'" in vector and "'lantern'" not in vector
