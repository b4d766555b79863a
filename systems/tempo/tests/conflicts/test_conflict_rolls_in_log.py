"""A conflict's rolls reach the dice log's readers only as the conflict page does (issue 18,
finding 9): the GM and the players whose agents take part; never other players or observers, on
the dice page, its log fragment and the API."""

from __future__ import annotations

import random

import pytest

from campaigns.models import Roll
from systems.tempo import services

TITLE = "Rooftop chase over Leipzig"


@pytest.fixture
def conflict_rolls(world, tempo, agent):
    """A conflict of the player's agent against the GM's NPCs, one round rolled, plus a roll of the
    agent outside any conflict."""
    gm = world.tempo_membership["gm"]
    conflict = services.create_conflict(
        gm,
        {
            "title": TITLE,
            "sides": [
                {"name": "Kestrel", "characters": [agent.pk]},
                {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm"},
            ],
        },
    )
    event = {"type": "roll", "sides": {"a": {"character": agent.pk, "role": "soldier"}, "b": {"rating": 4}}}
    services.add_event(gm, conflict, event, rng=random.Random(5))
    services.roll_for_character(world.tempo_membership["player"], agent, "soldier", {}, rng=random.Random(6))
    in_conflict = Roll.objects.filter(purpose__contains=TITLE)
    assert in_conflict.count() == 2
    # side a (the agent's roll) first: ids are random, so they say nothing of the order
    return conflict, [roll.pk for roll in sorted(in_conflict, key=lambda roll: roll.character_id is None)]


def seen(api, client, world, who):
    """The roll ids the API lists to ``who``, and the dice page and log fragment they get."""
    base = f"/api/v1/campaigns/{world.tempo.pk}/rolls/"
    listed = {row["id"] for row in api(world.users[who]).get(base).json()["results"]}
    client.force_login(world.users[who])
    pages = "".join(
        client.get(f"/campaigns/{world.tempo.pk}/dice/{part}").content.decode() for part in ("", "log/")
    )
    return listed, pages


@pytest.mark.parametrize("who", ["other_player", "observer"])
def test_members_outside_a_conflict_see_none_of_its_rolls(world, api, client, conflict_rolls, who):
    conflict, rolls = conflict_rolls
    page = api(world.users[who]).get(f"/api/v1/campaigns/{world.tempo.pk}/conflicts/{conflict.pk}/")
    assert page.status_code == 403
    listed, pages = seen(api, client, world, who)
    assert listed and not listed & set(rolls)  # the roll outside the conflict is still there
    assert TITLE not in pages
    for pk in rolls:
        assert api(world.users[who]).get(f"/api/v1/campaigns/{world.tempo.pk}/rolls/{pk}/").status_code == 404


def test_the_player_in_the_conflict_sees_what_the_conflict_page_shows(world, api, client, conflict_rolls):
    _, rolls = conflict_rolls
    listed, pages = seen(api, client, world, "player")
    player_side, gm_side = (Roll.objects.get(pk=pk) for pk in rolls)  # side a first
    assert player_side.character is not None and gm_side.secret
    assert player_side.pk in listed and gm_side.pk in listed  # the GM side's roll is listed sealed
    sealed = api(world.users["player"]).get(f"/api/v1/campaigns/{world.tempo.pk}/rolls/{gm_side.pk}/").json()
    assert sealed["sealed"] and sealed["total"] is None and sealed["faces"] == []
    assert TITLE in pages
    gm_listed, _ = seen(api, client, world, "gm")
    assert set(rolls) <= gm_listed


def test_revealed_npc_rolls_still_stay_inside_the_conflict(world, api, client, tempo, agent):
    tempo.settings = {**tempo.settings, "reveal_npc_rolls": True}
    tempo.save()
    gm = world.tempo_membership["gm"]
    conflict = services.create_conflict(
        gm,
        {
            "title": TITLE,
            "sides": [{"name": "Kestrel", "characters": [agent.pk]}, {"name": "Stasi", "npcs": ["B"]}],
        },
    )
    event = {"type": "roll", "sides": {"a": {"character": agent.pk, "role": "soldier"}, "b": {"rating": 4}}}
    services.add_event(gm, conflict, event, rng=random.Random(5))
    rolls = set(Roll.objects.filter(purpose__contains=TITLE).values_list("pk", flat=True))
    assert len(rolls) == 2 and not Roll.objects.filter(secret=True).exists()
    assert rolls <= seen(api, client, world, "player")[0]
    assert not rolls & seen(api, client, world, "other_player")[0]


def test_the_migration_names_the_conflict_of_rolls_made_before_it(world, conflict_rolls):
    from importlib import import_module

    from django.apps import apps

    conflict, rolls = conflict_rolls
    for roll in Roll.objects.filter(pk__in=rolls):  # as rolls made before this release were
        Roll.objects.filter(pk=roll.pk).update(
            detail={k: v for k, v in roll.detail.items() if k != "conflict"}
        )
    assert not Roll.objects.filter(detail__has_key="conflict").exists()
    migration = import_module("systems.tempo.migrations.0002_conflict_rolls_name_their_conflict")
    migration.name_conflicts(apps, None)
    assert sorted(Roll.objects.filter(detail__conflict=conflict.pk).values_list("pk", flat=True)) == sorted(
        rolls
    )


def test_a_conflicts_rolls_never_start_a_play_session_and_an_open_roll_does(world, tempo, agent):
    """Where the first roll of a day starts a play session (issue 50), a conflict's roll must not:
    the members outside the conflict would learn from the session's start that a roll was made."""
    world.tempo.sessions_start_on_roll = True
    world.tempo.save(update_fields=["sessions_start_on_roll"])
    for membership in world.tempo_membership.values():
        membership.campaign = world.tempo
    gm = world.tempo_membership["gm"]
    conflict = services.create_conflict(
        gm,
        {
            "title": TITLE,
            "sides": [
                {"name": "Kestrel", "characters": [agent.pk]},
                {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm"},
            ],
        },
    )
    event = {"type": "roll", "sides": {"a": {"character": agent.pk, "role": "soldier"}, "b": {"rating": 4}}}
    services.add_event(gm, conflict, event, rng=random.Random(5))
    assert Roll.objects.filter(purpose__contains=TITLE).count() == 2
    assert not world.tempo.play_sessions.exists()
    services.roll_for_character(world.tempo_membership["player"], agent, "soldier", {}, rng=random.Random(6))
    assert world.tempo.play_sessions.count() == 1
