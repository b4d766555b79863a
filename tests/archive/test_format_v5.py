"""Format version 5 (issue 50): the campaign archive carries its play sessions and their notes,
with no server ids (sessions by number, people by username, mentions as names found again on
import); a player's private notes stay out; a version-4 archive imports with no sessions."""

from __future__ import annotations

import json

from archive import format as archive_format
from archive import services
from campaigns.chronicle import notes, play_sessions
from campaigns.models import Membership, Note, NoteVisibility, Role


def _played(world, full_campaign):
    gm = world.membership["gm"]
    first = play_sessions.start(gm, title="Lantern night")
    for author, body, visibility in (
        ("gm", "We found [[Operation Lantern]] with [[Mae Lin]] and met [[Shifter]].", NoteVisibility.SHARED),
        ("gm", "[[Innkeeper]] is the thief.", NoteVisibility.GM),
        ("player", "My private thoughts on [[Mae Lin]].", NoteVisibility.PRIVATE),
        ("other_player", "Bring rope.", NoteVisibility.SHARED),
    ):
        notes.save_note(
            Note(
                campaign=full_campaign,
                play_session=first,
                author=world.users[author],
                body=body,
                visibility=visibility,
            )
        )
    play_sessions.end(gm, first)
    play_sessions.start(gm, title="Quill night")
    return first


def test_sessions_and_notes_travel_without_server_ids_and_private_notes_stay_home(world, full_campaign):
    first = _played(world, full_campaign)
    document = services.export_campaign(full_campaign, world.users["gm"])
    assert document["format_version"] == archive_format.FORMAT_VERSION == 5
    sessions = document["play_sessions"]
    assert [s["number"] for s in sessions] == [1, 2] and sessions[1]["ended_at"] is None
    assert sessions[0]["attendees"] == ["gm", "other_player", "player"]
    assert [n["body"][:8] for n in sessions[0]["notes"]] == ["We found", "[[Innkee", "Bring ro"]
    text = json.dumps(sessions)
    assert "private thoughts" not in text and f'"{first.pk}"' not in text and '"id"' not in text
    # the administrator's restore brings everyone back: the sessions, their people and the mentions
    copy = services.import_campaign(json.loads(json.dumps(document)), world.users["gm"], trusted=True)
    restored = copy.play_sessions.get(number=1)
    assert restored.title == "Lantern night" and restored.ended_at == first.ended_at
    assert {u.username for u in restored.attendees.all()} == {"gm", "player", "other_player"}
    shared = restored.notes.get(body__startswith="We found")
    assert (
        shared.author == world.users["gm"]
        and shared.created_at == first.notes.get(body__startswith="We found").created_at
    )
    assert {m.kind for m in shared.mentions.all()} == {"mission", "character", "npc"}
    assert copy.play_sessions.get(number=2).is_open
    # a web import: the importing GM alone; the others' notes keep their text, without an author
    alone = services.import_campaign(json.loads(json.dumps(document)), world.users["gm"])
    assert not Membership.objects.filter(campaign=alone).exclude(role=Role.GM).exists()
    rope = Note.objects.get(campaign=alone, body="Bring rope.")
    assert rope.author is None and list(alone.play_sessions.get(number=1).attendees.all()) == [
        world.users["gm"]
    ]
    again = services.export_campaign(copy, world.users["gm"])["play_sessions"]
    assert [[n["body"] for n in s["notes"]] for s in again] == [
        [n["body"] for n in s["notes"]] for s in sessions
    ]


def test_a_version_4_archive_imports_with_no_sessions(world, full_campaign):
    document = services.export_campaign(full_campaign, world.users["gm"])
    del document["play_sessions"]
    document["format_version"] = 4
    copy = services.import_campaign(document, world.users["gm"])
    assert copy.play_sessions.count() == 0
    upgraded = archive_format.UPGRADES[4]({"format": "dossier.campaign", "format_version": 4})
    assert upgraded["play_sessions"] == []


def test_broken_sessions_are_refused_with_every_problem_named(world, full_campaign):
    from archive.problems import ArchiveRefused

    document = services.export_campaign(full_campaign, world.users["gm"])
    document["play_sessions"] = [
        {
            "number": 1,
            "date": "yesterday",
            "started_at": "2026-01-01T20:00:00Z",
            "notes": [{"body": "", "visibility": "private"}],
        },
        {"number": 1, "date": "2026-01-02", "started_at": "nope"},
    ]
    try:
        services.import_campaign(document, world.users["gm"])
    except ArchiveRefused as refusal:
        paths = {problem.path for problem in refusal.problems}
    else:
        raise AssertionError("a broken archive was imported")
    assert {
        "play_sessions[0].date",
        "play_sessions[0].notes[0].visibility",
        "play_sessions[0].notes[0].body",
        "play_sessions[1].number",
        "play_sessions[1].started_at",
        "play_sessions",
    } <= paths


def test_where_the_group_plays_travels_and_no_restored_roll_starts_a_session(world, full_campaign):
    """The campaign's paper, time zone and session start (issue 50) go out and come back; the
    restored rolls start no play session though the setting is on; a wrong value is refused."""
    from archive.problems import ArchiveRefused
    from campaigns.table import rolling

    full_campaign.paper, full_campaign.time_zone, full_campaign.sessions_start_on_roll = (
        "a4",
        "Asia/Tokyo",
        True,
    )
    full_campaign.save(update_fields=["paper", "time_zone", "sessions_start_on_roll"])
    gm = Membership.objects.select_related("campaign").get(campaign=full_campaign, role=Role.GM)
    rolling.record_roll(gm, kind="d6", purpose="The day's first")
    assert full_campaign.play_sessions.count() == 1  # the setting works here
    full_campaign.play_sessions.all().delete()
    document = services.export_campaign(full_campaign, world.users["gm"])
    assert {k: document["campaign"][k] for k in ("paper", "time_zone", "sessions_start_on_roll")} == {
        "paper": "a4",
        "time_zone": "Asia/Tokyo",
        "sessions_start_on_roll": True,
    }
    assert document["rolls"]
    copy = services.import_campaign(json.loads(json.dumps(document)), world.users["gm"])
    copy.refresh_from_db()
    assert (copy.paper, copy.time_zone, copy.sessions_start_on_roll) == ("a4", "Asia/Tokyo", True)
    assert copy.play_sessions.count() == 0 and copy.rolls.count() == full_campaign.rolls.count()

    # An archive made before these fields: the defaults.
    for key in ("paper", "time_zone", "sessions_start_on_roll"):
        del document["campaign"][key]
    older = services.import_campaign(json.loads(json.dumps(document)), world.users["gm"])
    assert (older.paper, older.time_zone, older.sessions_start_on_roll) == ("letter", "UTC", False)

    document["campaign"].update(paper="A3", time_zone="Mars/Olympus_Mons", sessions_start_on_roll="yes")
    try:
        services.import_campaign(document, world.users["gm"])
    except ArchiveRefused as refusal:
        paths = {problem.path for problem in refusal.problems}
    else:
        raise AssertionError("a wrong campaign header was imported")
    assert {"campaign.paper", "campaign.time_zone", "campaign.sessions_start_on_roll"} <= paths
