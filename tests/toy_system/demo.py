"""The toy system's demo campaign (``manage.py seed_demo``): two heroes and a contest."""

from __future__ import annotations

from .models import Contest

CAMPAIGN = ("Demo: Toy Box", "", "Two heroes and a contest, to show a system that is one folder.")
CHARACTERS = ("Pip", "Mo")  # alice's, bob's


def choices(name: str, player: str) -> dict:
    return {"name": name, "player": player, "knack": 2}


def play(campaign, gm, users, heroes, rng) -> None:
    """A contest the game master scored."""
    Contest.objects.get_or_create(
        campaign=campaign,
        title="The Marble Race",
        defaults={"score": rng.randint(1, 6), "created_by": gm.user},
    )
