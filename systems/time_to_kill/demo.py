"""Time to Kill's demo campaign (``manage.py seed_demo``): two ninja and Kage's run under way."""

from __future__ import annotations

from systems.time_to_kill import services as ttk
from systems.time_to_kill.models import MissionRun

CAMPAIGN = ("Demo: Shadows over Edo", "", "A clan of ninja takes contracts in a city of secrets.")
CHARACTERS = ("Kage", "Yuki")  # alice's, bob's


def choices(name: str, player: str) -> dict:
    return {
        "name": name,
        "player": player,
        "campaign": CAMPAIGN[0],
        "abilities": {"stealth": "+", "awareness": "+", "athletics": "+"},
    }


def play(campaign, gm, users, heroes, rng) -> None:
    """Kage's run under way: preparation done, this turn's Fates rolled by the GM."""
    if MissionRun.objects.filter(campaign=campaign).exists():
        return
    run = ttk.start_run(
        gm,
        ninja=heroes[0].pk,
        title="The Merchant's Ledger",
        briefing={"brief": "Steal the ledger from the merchant's strongroom before dawn."},
    )
    ttk.post_event(run, users["alice"], "player", {"type": "end_preparation"})
    ttk.post_event(run, users["gm"], "gm", {"type": "roll_fates"})
