"""Tempo's demo campaign (``manage.py seed_demo``, Flashpoints): two operatives, three finished
conflicts (won, lost, broken off) with fate points gained and spent along the way, and a conflict
in progress: the campaign report has something of each kind to draw."""

from __future__ import annotations

from campaigns import services as campaign_services
from characters import services as character_services
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


#: The demo GM's refresh: neither text gives one, so it is a campaign setting (rules README
#: ruling 7, tempo-flashpoints.md §B7 and §E12) that this GM has filled in: each agent is topped up to
#: 2 fate points at a refresh. Both demo agents end their conflicts below that, so the GM's
#: "Refresh fate points" button raises them.
DEMO_REFRESH = {"fate_refresh": 2, "fate_refresh_mode": "top_up"}


def with_demo_refresh(campaign) -> None:
    """Fill in the refresh the GM would set on the campaign's settings page, where it is still the
    default 0 (a demo seeded before it had one gets it too); a refresh the GM has set since is kept."""
    if tempo.campaign_settings(campaign)["fate_refresh"] == 0:
        campaign_services.update_campaign_settings(campaign, DEMO_REFRESH)


#: Finished conflicts: title, exchanges rolled, and how it ended (the side that concedes, or
#: None: the GM breaks it off).
FINISHED = (
    ("The Dead Drop", 2, "b"),
    ("The Safe House", 1, "a"),
    ("The Night Train", 3, None),
)


def _finished(gm, heroes, rng) -> None:
    for title, exchanges, concedes in FINISHED:
        conflict = tempo.create_conflict(
            gm,
            {
                "title": title,
                "sides": [
                    {"name": "The team", "characters": [hero.pk for hero in heroes]},
                    {"name": "Stasi watchers", "npcs": ["Oberst Kessler"], "controlled_by": "gm"},
                ],
            },
        )
        for _ in range(exchanges):
            tempo.add_event(
                gm, conflict, {"type": "roll", "sides": {"a": {"rating": 2}, "b": {"rating": 2}}}, rng
            )
        if concedes is None:
            tempo.add_event(gm, conflict, {"type": "end", "reason": "The watchers lost the trail at dawn."})
        else:
            tempo.add_event(
                gm, conflict, {"type": "concede", "side": concedes, "terms": "Walk away, no names."}
            )
            tempo.add_event(gm, conflict, {"type": "accept_concession"})
    # fate points over those conflicts: Finn gained two and spent one, Nora gained one
    finn, nora = heroes
    tempo.gain_fate_point(gm, finn, "gm_complication")
    tempo.gain_fate_point(gm, finn, "accepted_offer")
    tempo.gain_fate_point(gm, nora, "qualified_success_complication")
    finn.refresh_from_db()
    character_services.append_entry(
        finn,
        {"kind": "fate_point_spent", "reason": "bonus_die_from_aspect", "aspect": "THE BERLIN TUNNEL"},
        gm.user,
        reason="Spent in play",
    )


def play(campaign, gm, users, heroes, rng) -> None:
    """The demo GM's fate point refresh, three finished conflicts, then one in progress: one
    exchange rolled."""
    with_demo_refresh(campaign)
    if Conflict.objects.filter(campaign=campaign).exists():
        return
    _finished(gm, heroes, rng)
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
