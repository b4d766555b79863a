"""A play session's page lists the scenes each system's records played in it
(SystemApp.play_session_events), to each reader as the scene's own pages show it: a Time to Kill
mission run to every member, a Tempo conflict to the GM and to the players with an agent in it (a
conflict is hidden from the others, its rolls too: systems/tempo/services.hidden_conflict_rolls)."""

from __future__ import annotations

import pytest

from campaigns.chronicle import play_sessions
from campaigns.models import Membership, Role
from tests import system_kit

pytestmark = pytest.mark.django_db

READERS = ("gm", "player", "other_player", "observer")


def _table(make_user, key):
    users = {name: make_user(name) for name in READERS}
    campaign = system_kit.make_campaign(users["gm"], key)
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)
    members = {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}
    hero = system_kit.make_character(campaign, users["player"], name="Kim Lark", player="player")
    system_kit.make_character(campaign, users["other_player"], name="Ida Brandt", player="other_player")
    return users, members, hero


def _lines(session, users, members) -> dict[str, list[str]]:
    seen = {name: play_sessions.happenings(session, users[name], members[name]) for name in READERS}
    return {name: [h.text for h in found if h.kind != "ledger"] for name, found in seen.items()}


def test_a_mission_run_started_in_the_session_is_on_every_members_page(make_user):
    from systems.time_to_kill import services

    users, members, hero = _table(make_user, "time_to_kill")
    session = play_sessions.start(members["gm"], title="Night work")
    services.start_run(members["gm"], ninja=hero.pk, title="The well of the abbey")
    seen = _lines(session, users, members)
    assert all(lines == ["Mission started: The well of the abbey"] for lines in seen.values()), seen
    play_sessions.end(members["gm"], session)
    later = play_sessions.start(members["gm"], title="The morning after")
    assert _lines(later, users, members)["gm"] == []  # a session lists only what started in it


def test_a_conflict_started_in_the_session_is_on_the_page_of_whoever_sees_the_conflict(make_user):
    from systems.tempo import services

    users, members, hero = _table(make_user, "tempo")
    session = play_sessions.start(members["gm"], title="Harbour night")
    services.create_conflict(
        members["gm"],
        {
            "title": "The harbour chase",
            "sides": [
                {"name": "The crew", "characters": [hero.pk]},
                {"name": "Harbour police", "npcs": ["Sergeant Vogt"], "controlled_by": "gm"},
            ],
        },
    )
    seen = _lines(session, users, members)
    assert seen["gm"] == seen["player"] == ["Conflict started: The harbour chase"]
    assert seen["other_player"] == seen["observer"] == []
