"""Whose character a roll may be attached to (issue 18, finding 8): a player their own, the GM any
character of the campaign; the same refusal, naming the field, on the dice page and the API."""

from __future__ import annotations

import random

import pytest

from campaigns.models import Roll
from characters import services as character_services
from tests.characters.conftest import agent_choices


@pytest.fixture
def agents(world):
    def make(owner):
        draft = character_services.create_draft(world.campaign, world.users[owner], choices=agent_choices())
        return character_services.finalize(draft, is_gm=True, rng=random.Random(3))

    return {"player": make("player"), "other_player": make("other_player")}


def api_roll(api, world, who, character):
    return api(world.users[who]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/rolls/",
        {"kind": "d6", "character": character.pk},
        format="json",
    )


def test_a_player_cannot_attach_a_roll_to_another_players_character_through_the_api(world, agents, api):
    response = api_roll(api, world, "player", agents["other_player"])
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["character"]
    assert not Roll.objects.exists()


def test_players_attach_rolls_to_their_own_characters_and_the_gm_to_any(world, agents, api):
    assert api_roll(api, world, "player", agents["player"]).status_code == 201
    assert api_roll(api, world, "gm", agents["other_player"]).status_code == 201
    assert sorted(Roll.objects.values_list("character__owner__username", flat=True)) == [
        "other_player",
        "player",
    ]


def test_a_player_cannot_attach_a_roll_to_another_players_character_on_the_dice_page(world, agents, client):
    client.force_login(world.users["player"])
    page = f"/campaigns/{world.campaign.pk}/dice/"
    response = client.post(
        page, {"kind": "d6", "count": 1, "modifier": 0, "character": agents["other_player"].pk}
    )
    assert response.status_code == 400
    assert "character" in response.context["form"].errors
    assert not Roll.objects.exists()
    # The form offers the player their own characters only; the GM's offers every one.
    offered = dict(client.get(page).context["form"].fields["character"].choices)
    assert agents["player"].pk in offered and agents["other_player"].pk not in offered
    client.force_login(world.users["gm"])
    response = client.post(
        page, {"kind": "d6", "count": 1, "modifier": 0, "character": agents["other_player"].pk}
    )
    assert response.status_code == 200
    assert Roll.objects.get().character == agents["other_player"]
