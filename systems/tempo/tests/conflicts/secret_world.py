"""Tempo's part of the non-interference worlds (tests/secrets/worlds.py, found through the
system's testkit.SECRET_WORLD): a campaign where the player's agent fights a conflict on the fair
dice, with open rolls around it; world A adds, in the middle of play, a conflict no reader takes
part in, which rolls on the fair dice too. A conflict is its participants' and the GM's (the other
players and the observers see none of it), so nothing a reader sees may change with it: not the
dice log, not the live feed, and not the fair dice's counters (a conflict's rolls are numbered
within lanes of its own, campaigns.table.fairness.draw's ``scope``), nor when the campaign's secret key
comes out (a conflict's secret rolls are under its own key)."""

from __future__ import annotations

import random
from contextlib import contextmanager

from campaigns.table import rolling
from characters import services as character_services
from characters.systems import fair_dice
from systems.tempo.tests.helpers import choices as agent_choices


@contextmanager
def _aside():
    """Rows that exist in world A only take their random ids and seeds from a generator of their
    own, so the rows made after them get the same ids and seeds in both worlds (the worlds seed
    one generator each; in production these are a CSPRNG's and say nothing)."""
    import kernel.fields

    aside = random.Random(99)
    ids, seeds = kernel.fields.secrets, fair_dice.secrets
    kernel.fields.secrets = type("Aside", (), {"randbelow": staticmethod(aside.randrange)})
    fair_dice.secrets = type(
        "AsideSeeds", (), {"token_hex": staticmethod(lambda n: aside.randbytes(n).hex())}
    )
    try:
        yield
    finally:
        kernel.fields.secrets, fair_dice.secrets = ids, seeds


def _exchange(gm, conflict, sides):
    from systems.tempo import services

    services.add_event(gm, conflict, {"type": "roll", "sides": sides})


def build(users, variant: str, members_of) -> dict:
    from campaigns import services as campaign_services
    from campaigns.table import fairness
    from systems.tempo import services

    tempo = campaign_services.create_campaign(
        users["gm"], name="Cell Nine", system="tempo", module="flashpoints"
    )
    members = members_of(tempo, users)
    gm = members["gm"]
    draft = character_services.create_draft(
        tempo, users["player"], choices=agent_choices(name="Finn Marlowe")
    )
    finn = character_services.finalize(draft, is_gm=True)

    before = rolling.record_roll(members["player"], kind="3d6_bonus", count=0, purpose="Climbing the wall")
    chase = services.create_conflict(
        gm,
        {
            "title": "Chase over the Spree",
            "sides": [
                {"name": "Finn", "characters": [finn.pk]},
                {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm"},
            ],
        },
    )
    _exchange(gm, chase, {"a": {"character": finn.pk, "role": "soldier"}, "b": {"rating": 2}})
    # The GM shares the GM side's roll: nothing sealed is left that a reader knows of, so the
    # campaign's secret key comes out at rotation in both worlds (world A's other conflict keeps
    # a sealed roll, under that conflict's own key).
    sealed = tempo.rolls.get(detail__conflict=chase.pk, secret=True)
    rolling.reveal_roll(gm, sealed)
    if variant == "A":
        # A conflict of the GM's with nobody's agent in it: an open side and a sealed GM side.
        with _aside():
            elsewhere = services.create_conflict(
                gm,
                {
                    "title": "Meanwhile at the embassy",
                    "sides": [
                        {"name": "Couriers", "npcs": ["Ilse"], "controlled_by": "player"},
                        {"name": "Guards", "npcs": ["Captain Wolf"], "controlled_by": "gm"},
                    ],
                },
            )
            _exchange(gm, elsewhere, {"a": {"rating": 3}, "b": {"rating": 1}})
            hidden_rolls = list(
                tempo.rolls.filter(detail__conflict=elsewhere.pk).values_list("pk", flat=True)
            )
            assert len(hidden_rolls) == 2, hidden_rolls
    after = rolling.record_roll(
        members["other_player"], kind="3d6_bonus", count=0, purpose="Picking the lock"
    )
    shared = rolling.record_roll(gm, kind="3d6_bonus", count=0, secret=True, purpose="Is the bridge watched?")
    rolling.reveal_roll(gm, shared)
    fairness.rotate(gm)
    return {
        "ids": {
            "campaign": tempo.pk,
            "character": finn.pk,
            "conflict": chase.pk,
            "rolls": [before.pk, after.pk, shared.pk],
        },
        "made": {"campaign": tempo, "gm": gm},
    }


def hidden(made: dict, users) -> dict:
    """Nothing more to add at the end: world A's conflict is made in the middle of play (above)."""
    return {}


def scenes(ids: dict, common: dict) -> list[dict]:
    """What a reader might name in this system's campaign: the agent, the conflict, the rolls."""
    base = {**common, "campaign": ids["campaign"], "character": ids["character"], "conflict": ids["conflict"]}
    return [{**base, "roll": roll} for roll in ids["rolls"]]
