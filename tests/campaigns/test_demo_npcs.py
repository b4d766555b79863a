"""The TIMEMASTER demo has NPCs to fight (issue 49, new-user walk point 3): two guards and a named
antagonist with quick statistics, GM-only like every NPC, so a new GM can try the attack panel at
once; the players see neither them nor their statistics, and seeding again makes no copies."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from campaigns.demo import DEMO_CAMPAIGN
from campaigns.models import NPC, Campaign
from systems.timemaster import demo

NAMES = [data["name"] for data in demo.NPCS]


def _client(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


@pytest.mark.django_db
def test_the_demo_gm_attacks_a_seeded_npc_at_once_and_the_players_see_nothing_of_them():
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())  # safe to run again: no copies
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    npcs = {npc.name: npc for npc in NPC.objects.filter(campaign=campaign)}
    assert sorted(npcs) == sorted(NAMES)
    assert not any(npc.revealed for npc in npcs.values())
    kessler = npcs["Major Anton Kessler"]
    assert kessler.abilities["STA"] == 70 and kessler.skills["sword"]["level"] == "expert"
    assert all(npc.abilities.get("STA") for npc in npcs.values())  # each has a Stamina to take hits

    gm = _client("gm")
    page = gm.get(f"/campaigns/{campaign.pk}/dice/").content.decode()
    panel = page[page.index('data-testid="attack-panel"') :]
    for name in NAMES:
        assert f">{name}</option>" in panel, name
    # the GM attacks a guard from the dice page: the hit goes to the guard's GM-only condition
    guard = npcs[NAMES[0]]
    response = gm.post(
        f"/campaigns/{campaign.pk}/dice/attack/",
        {
            "attack-form": "melee",
            "attack-strike_base": "70",
            "attack-defender_npc": str(guard.pk),
            "attack-results_key": "armed",
            "attack-modifier": "0",
            "attack-luck_spent": "0",
            "attack-shield": "none",
            "attack-attack_number": "1",
            "attack-apply_damage": "on",
        },
    )
    assert response.status_code == 200, response.content.decode()[:2000]
    assert 'data-testid="attack-result"' in response.content.decode()

    for player in ("alice", "bob"):
        client = _client(player)
        pages = [
            client.get(f"/campaigns/{campaign.pk}/dice/").content.decode(),
            client.get(f"/campaigns/{campaign.pk}/npcs/").content.decode(),
            client.get(f"/api/v1/campaigns/{campaign.pk}/npcs/").content.decode(),
        ]
        for body in pages:
            for name in NAMES:
                assert name not in body, (player, name)
            assert "Stamina 70" not in body and "Quick statistics" not in body
        for npc in npcs.values():
            assert client.get(f"/campaigns/{campaign.pk}/npcs/{npc.pk}/").status_code in (403, 404)
