"""The chronicle as a book (issue 50, part 6): a chapter per play session as each reader's session
page shows it, then the characters' standing; a PDF job with the GM's copy and each reader's own;
a player's copy the same whatever the GM hid."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest

from campaigns.chronicle import book as chronicle
from campaigns.chronicle import play_sessions
from campaigns.models import NoteVisibility
from campaigns.table import rolling
from sheets.models import SheetRender
from sheets.tasks import run_render
from tests.campaigns.helpers import write_note as _note
from tests.sheets.conftest import pdf_text

pytestmark = pytest.mark.django_db

#: A folder to copy the rendered PDFs to, to look at them (unset: not copied).
LOOK_AT = os.environ.get("DOSSIER_LOOK_AT", "")


@pytest.fixture
def played(world):
    """Two sessions: the first ended with a shared recap and rolls, the second under way."""
    gm, player = world.membership["gm"], world.membership["player"]
    first = play_sessions.start(gm, title="Arrival")
    rolling.record_roll(player, kind="d6", count=2, purpose="Open climb", rng=random.Random(1))
    rolling.record_roll(gm, kind="percent", secret=True, purpose="Ambush check", rng=random.Random(2))
    _note(world, "gm", first, "The table met **the senator** at the [[docks]].", title="Shared recap")
    _note(world, "player", first, "I keep the map.", NoteVisibility.PRIVATE, title="Player diary")
    play_sessions.end(gm, first)
    second = play_sessions.start(gm, title="The tower")
    rolling.record_roll(player, kind="d6", purpose="Second climb", rng=random.Random(3))
    return {"first": first, "second": second}


def _hide_more(world, played) -> None:
    """What the GM may hide: a GM-only note, an unannounced secret roll, a secret roll."""
    gm = world.membership["gm"]
    _note(world, "gm", played["first"], "The senator is the traitor.", NoteVisibility.GM, "GM secret")
    rolling.record_roll(
        gm, kind="d1000", secret=True, announced=False, purpose="Unannounced", rng=random.Random(5)
    )
    _note(world, "other_player", played["second"], "Mine alone.", NoteVisibility.PRIVATE, "Other diary")


def test_each_reader_gets_the_chapters_their_session_pages_show(world, played):
    gm = chronicle.record(world.campaign, world.users["gm"], world.membership["gm"])
    mine = chronicle.record(world.campaign, world.users["player"], world.membership["player"])
    assert [c["number"] for c in gm["chapters"]] == [1, 2] == [c["number"] for c in mine["chapters"]]
    assert gm["gm_copy"] and not mine["gm_copy"]
    first_gm, first_mine = gm["chapters"][0], mine["chapters"][0]
    assert [n["title"] for n in first_gm["notes"]] == ["Shared recap"]
    assert [n["title"] for n in first_mine["notes"]] == ["Shared recap", "Player diary"]
    # the note is HTML sanitised for the reader, without links on paper
    assert "<strong>the senator</strong>" in first_mine["notes"][0]["html"]
    assert "<a " not in first_mine["notes"][0]["html"]
    assert any("Ambush check" in line for line in first_gm["rolls"])
    assert not any("Ambush check" in line for line in first_mine["rolls"])
    assert any("made a secret roll: the game master has the result" in line for line in first_mine["rolls"])
    assert any("Open climb" in line for line in first_mine["rolls"])
    assert any("Second climb" in line for line in mine["chapters"][1]["rolls"])
    assert mine["chapters"][1]["open"] and not first_mine["open"]


def test_a_players_chronicle_does_not_change_when_the_gm_hides_more(world, played):
    before = {
        name: json.dumps(chronicle.record(world.campaign, world.users[name], world.membership[name]))
        for name in ("player", "observer")
    }
    _hide_more(world, played)
    for name, seen in before.items():
        after = json.dumps(chronicle.record(world.campaign, world.users[name], world.membership[name]))
        assert after == seen, name
    gm = json.dumps(chronicle.record(world.campaign, world.users["gm"], world.membership["gm"]))
    assert "GM secret" in gm and "Unannounced" in gm and "Other diary" not in gm


def test_the_chronicle_waits_for_the_first_session(world, api):
    assert chronicle.record(world.campaign, world.users["gm"], world.membership["gm"]) is None
    response = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "chronicle"}, format="json"
    )
    assert response.status_code == 400
    assert "first play session" in response.content.decode()
    assert not SheetRender.objects.exists()


def test_the_chronicle_pdf_is_a_job_with_the_gms_copy_and_each_readers_own(world, api, played, client):
    _hide_more(world, played)

    def ask(persona):
        return api(world.users[persona]).post(
            f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "chronicle"}, format="json"
        )

    gm = ask("gm")
    assert gm.status_code == 202, gm.content
    assert run_render(gm.json()["id"]) == "done"
    render = SheetRender.objects.get(pk=gm.json()["id"])
    assert (
        render.gm_copy and render.download_name().endswith(".pdf") and "-chronicle-" in render.download_name()
    )
    _pages, text = pdf_text(Path(render.file.path).read_bytes())
    if LOOK_AT:
        shutil.copy(render.file.path, f"{LOOK_AT}/chronicle-gm.pdf")
    flat = " ".join(text.split()).lower()  # headings are in small capitals
    for seen in ("gm copy", "shared recap", "gm secret", "traitor", "ambush check", "unannounced"):
        assert seen in flat, seen
    assert "session 1: arrival" in flat and "session 2: the tower" in flat

    mine = ask("player")
    assert mine.status_code == 202, mine.content
    assert run_render(mine.json()["id"]) == "done"
    render = SheetRender.objects.get(pk=mine.json()["id"])
    assert not render.gm_copy
    _pages, text = pdf_text(Path(render.file.path).read_bytes())
    if LOOK_AT:
        shutil.copy(render.file.path, f"{LOOK_AT}/chronicle-player.pdf")
    flat = " ".join(text.split()).lower()
    assert "players' copy" in flat and "shared recap" in flat and "player diary" in flat
    for hidden in ("gm secret", "traitor", "ambush check", "unannounced", "other diary"):
        assert hidden not in flat, hidden

    # another player may not read this player's copy (their diary is in it); outsiders may not ask
    assert api(world.users["other_player"]).get(f"/api/v1/sheets/{render.pk}/").status_code == 403
    assert ask("outsider").status_code == 404
    assert api(None).post(
        f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "chronicle"}, format="json"
    ).status_code in (401, 403)
    # the sessions page offers it to every member
    client.force_login(world.users["observer"])
    page = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/").content.decode()
    assert 'data-testid="print-chronicle"' in page and 'value="chronicle"' in page


def _timeline_page(client, world, persona) -> dict:
    """What the reader's timeline page shows, read from the page's own context."""
    client.force_login(world.users[persona])
    response = client.get(f"/campaigns/{world.campaign.pk}/timeline/")
    assert response.status_code == 200
    return {
        "moments": [
            (moment.date.isoformat(), moment.text, moment.detail, moment.gm_only)
            for month in response.context["months"]
            for moment in month.moments
        ],
        "months": [month.label for month in response.context["months"]],
        "tracks": [
            (track["chart"].title, [list(row) for row in track["chart"].table_rows])
            for track in response.context["tracks"]
        ],
    }


def _book_timeline(world, persona) -> dict:
    timeline = chronicle.record(world.campaign, world.users[persona], world.membership[persona])["timeline"]
    return {
        "moments": [
            (moment["date"], moment["text"], moment["detail"], moment["gm_only"])
            for month in timeline["months"]
            for moment in month["moments"]
        ],
        "months": [month["label"] for month in timeline["months"]],
        "tracks": [(track["title"], track["table_rows"]) for track in timeline["tracks"]],
    }


def test_the_book_opens_with_the_timeline_each_reader_s_timeline_page_shows(world, api, client):
    from tests.campaigns.test_chronicle import _evening

    _evening(world, hidden=True)  # Vienna published; Rome closed and London planned: the GM's
    for persona in ("gm", "player", "observer"):
        assert _book_timeline(world, persona) == _timeline_page(client, world, persona), persona
    mine = _book_timeline(world, "player")
    assert [text for _date, text, _detail, _gm in mine["moments"]] == [
        "Session 1: The Vienna evening",
        "Vienna",
    ]
    assert mine["tracks"] and mine["tracks"][0][0] == "The eras the agents have been to"
    assert "Rome" in str(_book_timeline(world, "gm"))

    def printed_timeline(persona) -> str:
        """The reader's PDF, its text up to the first chapter (its note's title: "What happened in
        Vienna"), lower-cased (headings are in small capitals)."""
        response = api(world.users[persona]).post(
            f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "chronicle"}, format="json"
        )
        assert response.status_code == 202, response.content
        assert run_render(response.json()["id"]) == "done"
        render = SheetRender.objects.get(pk=response.json()["id"])
        if LOOK_AT:
            shutil.copy(render.file.path, f"{LOOK_AT}/chronicle-timeline-{persona}.pdf")
        text = " ".join(pdf_text(Path(render.file.path).read_bytes())[1].split()).lower()
        assert "the timeline" in text and "what happened" in text
        return text.split("what happened", 1)[0]

    timeline = printed_timeline("player")
    for seen in (
        "session 1: the vienna evening",
        "vienna completed; result published",
        "harry adams: 1805 a.d.",
    ):
        assert seen in timeline, seen
    for hidden in ("rome", "london", "not yet published", "1st century b.c.", "not on the players' timeline"):
        assert hidden not in timeline, hidden
    timeline = printed_timeline("gm")
    for seen in ("rome", "london", "not yet published", "1st century b.c.", "not on the players' timeline"):
        assert seen in timeline, seen


def test_a_players_book_timeline_is_the_same_whatever_the_gm_keeps_back(world, client, monkeypatch):
    """Non-interference (docs/secrets.md) for the book's timeline: missions not yet published (one
    closed, one planned, each with a destination; the closed one sent the player's own agent), a
    GM-only note and secret rolls change nothing of the timeline a player's copy prints: the same
    two worlds as the timeline page's test (tests/campaigns/test_chronicle.py)."""
    from django.db import connection
    from django.utils import timezone

    from tests.campaigns import test_chronicle

    if connection.vendor != "sqlite":
        pytest.skip("the two worlds rely on ids handed out again after a rollback (SQLite)")
    monkeypatch.setattr(timezone, "now", lambda: test_chronicle.FROZEN_NOW)

    def book_timeline(_client, world) -> dict[str, str]:
        found = chronicle.record(world.campaign, world.users["player"], world.membership["player"])
        return {"timeline": json.dumps(found["timeline"], sort_keys=True)}

    monkeypatch.setattr(test_chronicle, "_player_copy", book_timeline)
    with_hidden = test_chronicle._world_copy(world, client, monkeypatch, hidden=True)
    without = test_chronicle._world_copy(world, client, monkeypatch, hidden=False)
    assert "Vienna" in with_hidden["timeline"] and "Harry Adams: 1805 A.D." in with_hidden["timeline"]
    assert with_hidden == without


def test_a_note_of_one_long_word_wraps_inside_the_page(world):
    """Stop 57's walk: a note of one 20,000-character word (a long address is the real case) ran
    past the right margin of the chronicle PDF and was cut off; the web page wraps it."""
    from sheets import rendering
    from sheets import services as sheet_services
    from sheets.models import SheetKind
    from sheets.pages import page_sources

    session = play_sessions.start(world.membership["gm"], title="The long word")
    address = "https://example.org/" + "a" * 600
    _note(world, "gm", session, f"See {address} and a [link]({address}).", NoteVisibility.SHARED)
    rolling.record_roll(world.membership["player"], kind="d6", purpose="x" * 200, rng=random.Random(1))
    render, _ = sheet_services.request_render(
        world.users["player"], SheetKind.CHRONICLE, world.campaign, world.membership["player"]
    )
    pages = [
        rendering.SheetPage(p.sheet, campaign=p.campaign, character=p.character, revision=p.revision)
        for p in page_sources(render)
    ]
    report = rendering.layout_report(pages)
    assert report.overflows == [] and report.wide_tables == []
