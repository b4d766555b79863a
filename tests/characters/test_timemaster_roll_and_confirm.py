"""The TIMEMASTER builder shows the dice it rolled (and the reroll of a hopeless set) before moving
on, and a player's draft that waits for the game master's confirmation is in the GM's "Waiting for
you" (issue 30, finding 3)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from characters import services
from systems.timemaster.demo import choices as _timemaster
from systems.timemaster.engine import abilities as tm_abilities


def _step(pk, step):
    return reverse("character-wizard-step", args=[pk, step])


def _hopeless_seed() -> int:
    for seed in range(10_000):
        if tm_abilities.is_hopeless(tm_abilities.roll_abilities(random.Random(seed))["values"]):
            return seed
    raise AssertionError("no hopeless roll in 10,000 seeds")


@pytest.fixture
def hopeless_dice(monkeypatch):
    seed = _hopeless_seed()
    monkeypatch.setattr("systems.timemaster.wizard.random.SystemRandom", lambda: random.Random(seed))


def test_rolling_shows_the_dice_and_offers_the_reroll_on_the_same_step(world, client, hopeless_dice):
    draft = services.create_draft(world.campaign, world.users["player"], choices={"name": "Jonah Pike"})
    client.force_login(world.users["player"])
    response = client.post(_step(draft.pk, "roll"), {"action": "roll"})
    assert response.status_code == 302 and response.url == _step(draft.pk, "roll")
    page = client.get(response.url).content.decode()
    assert 'data-testid="rolled-numbers"' in page
    assert 'value="reroll"' in page and "Reroll the low numbers" in page
    assert f'href="{_step(draft.pk, "assign")}"' in page


def test_a_draft_waiting_for_confirmation_is_in_the_gms_waiting_for_you(world, client):
    draft = services.create_draft(
        world.campaign, world.users["player"], choices=_timemaster("Jonah Pike", "player")
    )
    client.force_login(world.users["player"])
    review = client.get(_step(draft.pk, "review")).content.decode()
    assert "Ask your game master to open this draft" in review
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    waiting = page[page.index("alert pending") :]
    waiting = waiting[: waiting.index("</section>") if "</section>" in waiting else len(waiting)]
    assert "Confirm and finalize player&#x27;s draft “Jonah Pike”" in waiting
    assert f'href="{_step(draft.pk, "review")}"' in waiting
    # not for the player, and not once it is finalized
    client.force_login(world.users["player"])
    assert "Confirm and finalize" not in client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    services.finalize(draft, is_gm=True, rng=random.Random(1))
    client.force_login(world.users["gm"])
    assert "Confirm and finalize" not in client.get(f"/campaigns/{world.campaign.pk}/").content.decode()


def test_a_draft_the_rules_still_refuse_is_not_the_gms_to_confirm(world, client):
    services.create_draft(world.campaign, world.users["player"], choices={"name": "Half Done"})
    client.force_login(world.users["gm"])
    assert "Confirm and finalize" not in client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
