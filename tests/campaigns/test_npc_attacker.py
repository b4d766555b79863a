"""The GM chooses an NPC attacker from the campaign's NPCs, its base chance read from its
statistics (issue 49, new-user walk point 5): no "NPC attacker's base chance" to type for an NPC
with a record. The table's log line still says "NPC"; a typed base chance stays for an NPC
without one, and both at once are refused."""

from __future__ import annotations

from django.test import Client

from campaigns import npc_services
from campaigns.models import Roll
from systems.timemaster import action_checks, attacks

FORM = {
    "attack-form": "melee",
    "attack-results_key": "armed",
    "attack-modifier": "0",
    "attack-luck_spent": "0",
    "attack-shield": "none",
    "attack-attack_number": "1",
    "attack-unskilled_melee": "40",
    "attack-apply_damage": "on",
}


def test_an_npc_attacker_is_chosen_with_a_score_of_its_statistics(world, monkeypatch):
    captain = npc_services.create_npc(
        world.campaign,
        world.users["gm"],
        {
            "name": "Captain Roux",
            "quick": True,
            "kind": "human",
            "significance_rating": 5,
            "abilities": {"STR": 70, "AGL": 60},
            "skills": {"sword": {"level": "expert"}},
        },
    )
    scores = {key: score for key, _label, score in action_checks.npc_attack_scores(captain)}
    assert (
        set(scores) == {"unskilled_melee", "skill:sword"}
        and scores["skill:sword"] > scores["unskilled_melee"]
    )
    given: list[int] = []  # the base chance each attack was resolved with (the log keeps none of it)
    attack_from = attacks.attack_from
    monkeypatch.setattr(
        attacks,
        "attack_from",
        lambda data, *rest: given.append(data["strike_base"]) or attack_from(data, *rest),
    )
    gm = Client()
    gm.force_login(world.users["gm"])
    url = f"/campaigns/{world.campaign.pk}/dice/"
    page = gm.get(url).content.decode()
    choice = f'value="npc:{captain.pk}:skill:sword"'
    assert '<optgroup label="Captain Roux (NPC)">' in page and choice in page

    response = gm.post(f"{url}attack/", {**FORM, "attack-attacker_score": f"npc:{captain.pk}:skill:sword"})
    assert response.status_code == 200, response.content.decode()[:3000]
    roll = Roll.objects.get(campaign=world.campaign)
    assert roll.detail["attacker"] == "NPC" and given == [scores["skill:sword"]]
    assert "Roux" not in str(roll.detail)  # the table's line names no NPC

    # both a chosen NPC and a typed base chance: refused on the field, nothing logged
    both = {**FORM, "attack-attacker_score": f"npc:{captain.pk}:unskilled_melee", "attack-strike_base": "90"}
    response = gm.post(f"{url}attack/", both)
    assert response.status_code == 400 and "leave the base chance empty" in response.content.decode()
    # a score the NPC does not have, or another campaign's NPC: not a choice
    for bad in (f"npc:{captain.pk}:skill:pistol", f"npc:{captain.pk + 99}:unskilled_melee"):
        response = gm.post(f"{url}attack/", {**FORM, "attack-attacker_score": bad})
        assert response.status_code == 400, bad
    assert Roll.objects.filter(campaign=world.campaign).count() == 1
    # an NPC typed by its base chance still works
    response = gm.post(f"{url}attack/", {**FORM, "attack-strike_base": "55"})
    assert response.status_code == 200
    assert given == [scores["skill:sword"], 55]
