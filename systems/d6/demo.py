"""The D6 System's demo campaign (``manage.py seed_demo``): two heroes, three finished encounters
(fate points gained and spent on the way) and an encounter in its first round: the campaign
report has something of each kind to draw."""

from __future__ import annotations

from characters import services as character_services
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


#: Finished encounters: name and the rounds played before the scene ended.
FINISHED = (("The Pier", 2), ("The Fish Market", 4), ("The Ferry", 1))


def _round(encounter, gm, rng) -> None:
    """One round in which everybody is done at once: begin, initiative, each in turn done."""
    d6.record_event(encounter, gm, {"type": "begin_round"}, rng)
    encounter.refresh_from_db()
    if encounter.state.get("phase") == "initiative":  # once a scene: the first round only
        d6.record_event(encounter, gm, {"type": "roll_initiative"}, rng)
    for _ in range(20):  # at most a turn each, more than this encounter has
        encounter.refresh_from_db()
        state = encounter.state
        if state.get("phase") != "turns" or not state.get("active"):
            return
        d6.record_event(
            encounter, gm, {"type": "done", "participant": state["active"][-1]["participant"]}, rng
        )


def _finished(campaign, gm, users, heroes, rng) -> None:
    for name, rounds in FINISHED:
        encounter = d6.create_encounter(campaign, users["gm"], name=name, method="once_per_scene")
        for hero in heroes:
            d6.add_character(encounter, hero.pk)
        d6.add_npc(
            encounter,
            {"kind": "npc", "name": "Harbour boss", "attributes": {"Perception": "3D", "Reflexes": "3D"}},
        )
        encounter = d6.start_encounter(encounter)
        for _ in range(rounds):
            _round(encounter, gm, rng)
        d6.record_event(encounter, gm, {"type": "end_scene", "reason": "The gang scatters."}, rng)
    # fate points over those encounters: Ana earned two and spent one, Rey earned one
    ana, rey = heroes
    for hero, kind, count in ((ana, "gained", 2), (ana, "spent", 1), (rey, "gained", 1)):
        hero.refresh_from_db()
        entry = {"kind": f"fate_points_{kind}", "count": count, "reason": "Heroic moment at the docks"}
        character_services.append_entry(hero, entry, users["gm"], reason="Recorded after the scene")


def play(campaign, gm, users, heroes, rng) -> None:
    """Three finished encounters, then one in its first round: initiative rolled."""
    if Encounter.objects.filter(campaign=campaign).exists():
        return
    _finished(campaign, gm, users, heroes, rng)
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
