"""The advancement history reads as sentences ("Awarded 325 Success Points for ..."), with the entry's
fields one click away (issue 30, finding 10); an award names the agent's own points, never the
mission's pool (issue 44, finding 13: docs/secrets.md keeps the pool the GM's)."""

from __future__ import annotations

import re

from characters import registry
from systems.timemaster.ledger_words import sentence
from tests.campaigns.test_missions import closed_and_published, new_agent, roll_of, started


def test_a_published_award_reads_as_a_sentence_with_its_fields_behind_a_click(world, client):
    agents = [new_agent(world, "player", "Harry Adams"), new_agent(world, "other_player", "Ida Brandt")]
    mission = started(world, agents)
    closed_and_published(world, mission, "success", rng=roll_of(1))
    client.force_login(world.users["player"])
    page = client.get(f"/characters/{agents[0].pk}/history/").content.decode()
    award = re.search(
        r"<strong>(Awarded \d+ Success Points for The Vienna clockmaker\.)</strong>",
        page,
    )
    assert award is not None, page
    assert "<strong>Sent on The Vienna clockmaker.</strong>" in page
    assert "<strong>The Vienna clockmaker is over: the adventure is closed.</strong>" in page
    # the field dump is still there, folded away under the sentence
    details = page[page.index('<details class="payload-details">') :]
    assert details.index("Amount") < details.index("</details>")
    # nothing of the mission's split: neither its pool nor the share or remainder (the GM's)
    assert not re.search(r"(?i)\bpool\b|equal share|remainder", page), page
    assert "Type: regular" not in page.replace("<span>Type</span>: regular", "")


def test_every_timemaster_entry_kind_has_a_sentence():
    from systems.timemaster.engine.advancement import ENTRY_KINDS

    for kind in ENTRY_KINDS:
        assert sentence(kind, {}, "The Lost Dispatch"), kind


def test_awards_spending_and_standing_read_plainly():
    assert (
        sentence(
            "sp_awarded",
            {"type": "regular", "amount": 385, "pool": 770, "forgone": 0, "reason": "earned"},
            "The Lost Dispatch",
        )
        == "Awarded 385 Success Points for The Lost Dispatch."
    )  # an entry written before the pool left the ledger still says only the award
    assert sentence("sp_awarded", {"type": "regular", "amount": 0, "reason": "history_changed"}, "X") == (
        "No Success Points for X: history changed."
    )
    assert sentence("sp_spent", {"purchase": "ability_point", "ability": "STR", "cost": 50}, "") == (
        "Spent 50 Success Points on a point of Strength."
    )
    assert (
        sentence(
            "demotion",
            {
                "standing_before": {"rank": "Agent", "grade": 2},
                "standing_after": {"rank": "Agent", "grade": 1},
            },
            "",
        )
        == "Demoted from Agent/2 to Agent/1."
    )


def test_the_sentences_come_through_the_registry():
    app = registry.get("timemaster")
    assert app.entry_sentence("mission_started", {}, "The Lost Dispatch") == "Sent on The Lost Dispatch."
