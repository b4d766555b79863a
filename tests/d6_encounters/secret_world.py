"""D6's part of the non-interference worlds (tests/secrets/worlds.py, found through the system's
testkit.SECRET_WORLD): an encounter being set up with an NPC whose statistics (the GM's: die
codes) differ between world A and world B. Players see the encounter and the NPC's name, never its
statistics; the encounter is not started, so no roll of the NPC's changes what they see."""

from __future__ import annotations

NPC_STATS = {
    "A": {"attributes": {"Perception": "2D", "Reflexes": "2D+1"}},
    "B": {"attributes": {"Perception": "5D+2", "Reflexes": "4D"}},
}


def build(users, variant: str, members_of) -> dict:
    from campaigns import services as campaign_services
    from systems.d6 import services

    d6 = campaign_services.create_campaign(users["gm"], name="Night Run", system="d6")
    members = members_of(d6, users)
    encounter = services.create_encounter(d6, users["gm"], name="Dockside", method="once_per_scene")
    npc = services.add_npc(encounter, {"name": "Harbour guard", **NPC_STATS[variant]})
    campaign_services.record_roll(members["player"], kind="d6_wild", count=3, purpose="Sneaking in")
    return {
        "ids": {"campaign": d6.pk, "encounter": encounter.pk, "participant": npc.pk},
        "made": {"campaign": d6, "gm": members["gm"]},
    }


def hidden(made: dict, users) -> dict:
    return {}


def scenes(ids: dict, common: dict) -> list[dict]:
    """What a reader might name in this system's campaign: the encounter and its NPC."""
    return [{**common, **ids}]
