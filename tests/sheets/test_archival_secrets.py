"""The embedded character document holds nothing a player may not see (ARCHITECTURE.md, "Who may
see what"): the document a player's sheet carries is the same whatever the GM keeps hidden.

Two worlds that differ only in hidden inputs about the character (a secret roll made for it, an
unpublished significance tally on a mission it is on, an NPC's GM notes) give byte-equal embedded
files. The document is the character export its owner may download anyway.
"""

from __future__ import annotations

import random

from campaigns import missions
from campaigns.table import rolling
from sheets import archival
from systems.timemaster import missions as tm_missions
from tests.archive.conftest import make_hero  # noqa: F401  (fixture)


def test_hidden_inputs_do_not_change_the_embedded_document(world, make_hero):  # noqa: F811
    harry = make_hero(world.campaign)
    before = archival.encode(archival.attachment(harry)["document"])

    gm = world.users["gm"]
    rolling.record_roll(
        world.membership["gm"],
        kind="percent",
        secret=True,
        purpose="is Harry the mole?",
        character=harry,
        rng=random.Random(4),
    )
    mission = missions.create_mission(
        world.campaign,
        {
            "title": "Secret errand",
            "parallel": "T-0",
            "place": "Prague",
            "start_year": 1600,
            "end_year": 1600,
            "significance_rating": 300,
            "agents": [harry],
        },
    )
    tm_missions.record_mistake(
        mission, gm, {"kind": "other", "rating": 40, "description": "hidden", "shown_to_players": False}
    )
    from campaigns import npc_services

    npc_services.create_npc(
        world.campaign, gm, {"name": "Mole", "quick": True, "gm_notes": "Harry's handler"}
    )
    harry.refresh_from_db()

    after = archival.encode(archival.attachment(harry)["document"])
    assert after == before
