"""The roll panel on the agent's page and the conflict tracker pages, for every persona."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import Roll
from characters.models import Character
from characters.systems import get_system
from systems.tempo import services
from systems.tempo.models import Conflict, ConflictEvent

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")


def roll_url(agent):
    return f"/characters/{agent.pk}/tempo/roll/"


@pytest.mark.parametrize(
    "persona, panel", [("gm", True), ("player", True), ("other_player", False), ("observer", False)]
)
def test_the_panel_shows_to_the_owner_and_the_gm_only(world, agent, client, persona, panel):
    client.force_login(world.users[persona])
    page = client.get(f"/characters/{agent.pk}/").content.decode()
    assert "TRUST NO ONE" in page
    assert ("Roll 3d6" in page) == panel
    assert ("Give a fate point" in page) == (persona == "gm")


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 200), ("player", 200), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_rolling_from_the_panel(world, agent, client, persona, expected):
    client.force_login(world.users[persona])
    response = client.post(
        roll_url(agent),
        {"role": "soldier", "aspect_service": "invoke", "bonus_dice": 0, "penalty_dice": 0},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == expected
    assert Roll.objects.filter(character=agent).exists() == (expected == 200)
    if expected == 200:
        html = response.content.decode()
        assert 'data-testid="roll-band"' in html
        assert 'id="fate-points" data-testid="fate-points" hx-swap-oob="true">1<' in html
        assert Character.objects.get(pk=agent.pk).build["fate_points"] == 1


def test_anonymous_is_sent_to_log_in(agent, client):
    assert client.post(roll_url(agent), {"role": "soldier"}).status_code == 302


@pytest.mark.parametrize(
    "body, words",
    [
        ({"role": "pilot"}, "Select a valid choice"),
        ({"role": "soldier", "bonuses": "two"}, "whole numbers"),
        ({"role": "soldier", "helper_dice": "9 9 9", "helper_total": 4}, "from 1 to 6"),
        ({"role": "soldier", "hurry": "guarantee"}, "Say what is guaranteed"),
        ({"role": "soldier", "aspect_primary": "invoke", "aspect_origin": "invoke"}, "only 1 aspect"),
        ({"role": "soldier", "other_aspects": "A, B, C"}, "costs 3 fate"),
    ],
)
def test_bad_rolls_say_what_is_wrong_and_change_nothing(world, agent, client, body, words):
    client.force_login(world.users["player"])
    response = client.post(
        roll_url(agent), {"bonus_dice": 0, "penalty_dice": 0, **body}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Roll.objects.exists()
    assert Character.objects.get(pk=agent.pk).revision == 1


def test_without_htmx_a_roll_returns_to_the_agent_page(world, agent, client):
    client.force_login(world.users["player"])
    response = client.post(roll_url(agent), {"role": "thief", "bonus_dice": 0, "penalty_dice": 0})
    assert response.status_code == 302 and response.url == f"/characters/{agent.pk}/"


def test_the_gm_gives_a_fate_point_from_the_panel(world, agent, client):
    client.force_login(world.users["player"])
    url = f"/characters/{agent.pk}/tempo/fate/"
    assert client.post(url, {"reason": "gm_complication"}).status_code == 403
    client.force_login(world.users["gm"])
    response = client.post(url, {"reason": "gm_complication"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Character.objects.get(pk=agent.pk).build["fate_points"] == 3
    assert client.post(url, {"reason": "penalty_die_from_own_aspect"}).status_code == 400


# -- conflicts ------------------------------------------------------------------------------------
@pytest.fixture
def conflict(world, tempo, agent):
    data = {
        "title": "Rooftop chase",
        "scene_aspects": ["SLICK ROOFS"],
        "sides": [
            {"name": "Kestrel", "characters": [agent.pk]},
            {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm", "superiority": 1},
        ],
    }
    return services.create_conflict(world.tempo_membership["gm"], data)


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 200), ("player", 200), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_the_tracker_is_for_the_gm_and_the_players_involved(world, conflict, client, persona, expected):
    client.force_login(world.users[persona])
    response = client.get(f"/conflicts/{conflict.pk}/")
    assert response.status_code == expected
    if expected == 200:
        html = response.content.decode()
        assert "TRUST NO ONE" in html and "SLICK ROOFS" in html
        assert ("Roll both sides" in html) == (persona == "gm")


@pytest.mark.parametrize("persona, listed", [("gm", True), ("player", True), ("other_player", False)])
def test_the_conflict_list_shows_what_each_may_see(world, conflict, client, persona, listed):
    client.force_login(world.users[persona])
    html = client.get(f"/campaigns/{world.tempo.pk}/conflicts/").content.decode()
    assert ("Rooftop chase" in html) == listed


def test_observers_and_outsiders_get_no_conflict_list(world, conflict, client):
    client.force_login(world.users["observer"])
    assert client.get(f"/campaigns/{world.tempo.pk}/conflicts/").status_code == 403
    client.force_login(world.users["outsider"])
    assert client.get(f"/campaigns/{world.tempo.pk}/conflicts/").status_code == 404


def test_the_gm_starts_a_conflict_from_the_form(world, tempo, agent, client):
    client.force_login(world.users["player"])
    assert client.get(f"/campaigns/{tempo.pk}/conflicts/new/").status_code == 403
    client.force_login(world.users["gm"])
    body = {
        "title": "Bar fight",
        "a_name": "Cell",
        "a_characters": [str(agent.pk)],
        "a_superiority": 0,
        "a_cap": "decisive",
        "b_name": "Thugs",
        "b_npcs": "Big Hans, Little Hans",
        "b_controlled_by": "gm",
        "b_superiority": 2,
        "b_cap": "decisive",
    }
    response = client.post(f"/campaigns/{tempo.pk}/conflicts/new/", body)
    assert response.status_code == 302
    made = Conflict.objects.get(title="Bar fight")
    assert sorted(p.name for p in made.participants.all()) == ["Big Hans", "Finn Marlowe", "Little Hans"]
    empty = client.post(f"/campaigns/{tempo.pk}/conflicts/new/", {**body, "b_npcs": "", "title": "Empty"})
    assert empty.status_code == 400 and not Conflict.objects.filter(title="Empty").exists()


def test_a_round_rolled_on_the_tracker_moves_the_tempo_and_is_logged(world, conflict, client, agent):
    client.force_login(world.users["gm"])
    body = {
        "type": "roll",
        "a_who": f"{agent.pk}:observer",
        "a_bonus_dice": 0,
        "a_penalty_dice": 0,
        "b_rating": 2,
        "b_bonus_dice": 0,
        "b_penalty_dice": 0,
    }
    response = client.post(f"/conflicts/{conflict.pk}/events/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    event = ConflictEvent.objects.get(conflict=conflict)
    assert event.kind == "roll" and event.recorded_by == world.users["gm"]
    rolls = Roll.objects.filter(campaign=world.tempo)
    # the agent's side rolls in the open, the NPC side in secret (ids are random: no order by them)
    assert sorted((r.character_id is None, r.secret) for r in rolls) == [(False, False), (True, True)]
    assert "Round 1" in response.content.decode()


def test_players_cannot_roll_rounds_but_may_concede_for_their_side(world, conflict, client):
    client.force_login(world.users["player"])
    url = f"/conflicts/{conflict.pk}/events/"
    assert client.post(url, {"type": "roll"}).status_code == 403
    assert client.post(url, {"type": "concede", "side": "b", "terms": "x"}).status_code == 403
    response = client.post(
        url, {"type": "concede", "side": "a", "terms": "we slip away"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "we slip away" in response.content.decode()


def test_a_bad_event_says_why_and_changes_nothing(world, conflict, client):
    client.force_login(world.users["gm"])
    response = client.post(
        f"/conflicts/{conflict.pk}/events/",
        {"type": "spend", "side": "a", "benefit": "edge:minor_benefit"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "holds no tempo" in response.content.decode()
    assert not ConflictEvent.objects.exists()


def test_the_gm_sees_both_totals_and_the_player_only_their_own(world, conflict, client, agent):
    client.force_login(world.users["gm"])
    body = {
        "type": "roll",
        "a_who": f"{agent.pk}:observer",
        "b_rating": 2,
        "a_bonus_dice": 0,
        "b_bonus_dice": 0,
    }
    client.post(f"/conflicts/{conflict.pk}/events/", body)
    record = Conflict.objects.get(pk=conflict.pk).state["log"][0]
    gm_html = client.get(f"/conflicts/{conflict.pk}/").content.decode()
    assert f"Stasi {record['totals']['b']}" in gm_html
    client.force_login(world.users["player"])
    player_html = client.get(f"/conflicts/{conflict.pk}/").content.decode()
    assert "Stasi hidden" in player_html
    assert f"Kestrel {record['totals']['a']}" in player_html
    # the margin beside the player's own total would be the hidden one (docs/rulings-tempo.md)
    assert "wins by" not in player_html
    if record["winner"]:
        assert f"wins by {record['margin']}" in gm_html


def _selected_who(html: str, key: str) -> str:
    select = re.search(rf'<select id="who-{key}".*?</select>', html, re.S).group(0)
    chosen = re.search(r'<option value="([^"]*)" selected>', select)
    return chosen.group(1) if chosen else ""


def _rating_input(html: str, key: str) -> str:
    return re.search(rf'<input id="rating-{key}"[^>]*>', html).group(0)


def test_the_round_form_starts_each_side_at_a_real_rating_never_a_silent_zero(world, conflict, client, agent):
    """A new-user walk rolled both sides at 0: the form started every side on "a rating (NPC)" at
    0. Now a side with a character starts on that character's best role; an NPC side's rating is
    the one it last rolled with, else empty and required."""
    client.force_login(world.users["gm"])
    html = client.get(f"/conflicts/{conflict.pk}/").content.decode()
    roles = get_system("tempo").derive(agent.build)["roles"]
    best = max((r for r in roles if r["rank"]), key=lambda r: r["modifier"])
    assert _selected_who(html, "a") == f"{agent.pk}:{best['key']}"
    npc = _rating_input(html, "b")
    assert "value=" not in npc and "required" in npc
    services.add_event(
        world.tempo_membership["gm"],
        conflict,
        {"type": "roll", "sides": {"a": {"character": agent.pk, "role": best["key"]}, "b": {"rating": 3}}},
    )
    html = client.get(f"/conflicts/{conflict.pk}/").content.decode()
    assert 'value="3"' in _rating_input(html, "b")


def test_a_side_rolled_at_a_rating_nobody_gave_is_refused_and_nothing_is_rolled(
    world, conflict, client, agent
):
    client.force_login(world.users["gm"])
    body = {"type": "roll", "a_who": "", "a_rating": "", "b_rating": "", "b_bonus_dice": 0}
    response = client.post(f"/conflicts/{conflict.pk}/events/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Give the rating Kestrel rolls with" in response.content.decode()
    assert not ConflictEvent.objects.filter(conflict=conflict).exists()
    assert not Roll.objects.filter(campaign=world.tempo).exists()
    with pytest.raises(ValidationError):
        services.add_event(
            world.tempo_membership["gm"], conflict, {"type": "roll", "sides": {"a": {}, "b": {}}}
        )
    assert not Roll.objects.filter(campaign=world.tempo).exists()
