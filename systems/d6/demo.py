"""The D6 System's demo campaign (``manage.py seed_demo``): two heroes and an encounter in its
first round."""

from __future__ import annotations

from systems.d6 import services as d6
from systems.d6.models import Encounter

CAMPAIGN = ("Demo: Dockside Nights", "", "Street-level heroes against the gangs of the harbour.")
CHARACTERS = ("Ana Reyes", "Rey Castillo")  # alice's, bob's


def choices(name: str, player: str) -> dict:
    return {
        "name": name,
        "player": player,
        "attributes": {"Perception": "3D", "Reflexes": "3D", "Strength": "3D"},
        "skills": {
            "search": {"attribute": "Perception", "code": "3D"},
            "dodge": {"attribute": "Reflexes", "code": "3D"},
            "brawling": {"attribute": "Strength", "code": "4D"},
        },
    }


def play(campaign, gm, users, heroes, rng) -> None:
    """An encounter in its first round: initiative rolled, one action declared."""
    if Encounter.objects.filter(campaign=campaign).exists():
        return
    encounter = d6.create_encounter(campaign, users["gm"], name="The Warehouse", method="once_per_scene")
    for hero in heroes:
        d6.add_character(encounter, hero.pk)
    d6.add_npc(
        encounter,
        {
            "kind": "group",
            "name": "Dock thugs",
            "members": ["Thug 1", "Thug 2"],
            "attributes": {"Perception": "2D+1", "Reflexes": "3D"},
            "skills": {"brawling": {"attribute": "Reflexes", "code": "4D+2"}},
        },
    )
    encounter = d6.start_encounter(encounter)
    d6.record_event(encounter, gm, {"type": "begin_round"}, rng)
    d6.record_event(encounter, gm, {"type": "roll_initiative"}, rng)
