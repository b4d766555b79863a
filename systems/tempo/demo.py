"""Tempo's demo campaign (``manage.py seed_demo``, Flashpoints): two operatives and a conflict in
progress."""

from __future__ import annotations

from systems.tempo import services as tempo
from systems.tempo.models import Conflict

CAMPAIGN = ("Demo: Berlin Flashpoint", "flashpoints", "Cold War operatives on both sides of the Wall.")
CHARACTERS = ("Finn Marlowe", "Nora Vale")  # alice's, bob's


def choices(name: str, player: str) -> dict:
    return {
        "module": "flashpoints",
        "name": name,
        "codename": name.split()[0].upper(),
        "player": player,
        "aspects": {
            "primary": {"text": "GOOD ENOUGH IS GOOD ENOUGH", "anchor": "an old sergeant"},
            "origin": {"text": "DOCKSIDE KID", "anchor": "the Hamburg docks"},
            "service": {"text": "EX-SPECIAL FORCES", "anchor": "a battered beret"},
            "flashpoint_1": {"text": "THE BERLIN TUNNEL", "anchor": "Checkpoint Charlie"},
            "flashpoint_2": {"text": "SHARP EYES", "anchor": "a friend in the East"},
        },
        "roles": {
            "athlete": "seasoned",
            "diplomat": "elite",
            "observer": "world_class",
            "politician": "trained",
            "scholar": "elite",
            "soldier": "seasoned",
            "technician": "trained",
            "thief": "untrained",
        },
        "benefits": {
            "diplomat": [{"key": "gambler"}],
            "observer": [{"key": "cold_read"}, {"key": "elementary"}],
            "scholar": [{"key": "great_mind", "field": "Soviet history"}],
        },
    }


def play(campaign, gm, users, heroes, rng) -> None:
    """A conflict in progress: one exchange rolled."""
    if Conflict.objects.filter(campaign=campaign).exists():
        return
    conflict = tempo.create_conflict(
        gm,
        {
            "title": "The Checkpoint",
            "scene_aspects": ["Rain on the barrier"],
            "sides": [
                {"name": "The team", "characters": [hero.pk for hero in heroes]},
                {"name": "Border guards", "npcs": ["Major Brandt"], "controlled_by": "gm"},
            ],
        },
    )
    exchange = {"type": "roll", "sides": {"a": {"rating": 2}, "b": {"rating": 1}}}
    tempo.add_event(gm, conflict, exchange, rng)
