"""The dice page's check panel for an agent's condition: general checks on current Stamina and
current Willpower (strangling, poison, the critically wounded agent's check), and the Luck check
against death that records coma or death in the ledger (timemaster-play.md §15, §16, §16.1, §18)."""

from __future__ import annotations

import pytest

from campaigns.models import Roll
from characters import services
from systems.timemaster import action_checks as checks
from systems.timemaster.engine.condition import condition_of
from tests.campaigns.test_checks import Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)


@pytest.fixture
def agent(world, make_agent):  # noqa: F811
    return make_agent("player")


def test_current_stamina_and_willpower_are_checkable_and_follow_the_condition(world, agent):
    services.append_entry(
        agent, {"kind": "damage_taken", "stamina": 25, "wounds": 9, "willpower": 12}, world.users["gm"]
    )
    scores = {s.key: s.value for s in checks.agent_scores(agent)}
    assert scores["other:current_stamina"] == 15 and scores["other:current_willpower"] == 40
    roll = checks.roll_check(world.membership["player"], agent, "other:current_willpower", rng=Faces(3, 9))
    assert roll.detail["target"] == 40 and roll.detail["success"] is True  # 39 <= 40
    assert checks.DEATH_CHECK not in scores  # 3 boxes left: critical, not dying


def test_the_luck_check_against_death_from_the_check_panel_puts_the_agent_in_a_coma(
    world, agent, client, monkeypatch
):
    services.append_entry(agent, {"kind": "damage_taken", "stamina": 50, "wounds": 15}, world.users["gm"])
    luck = agent.build["abilities"]["LUCK"]
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert f"Luck check against death ({luck})" in page
    # the player rolls his own Luck check; the server's dice: percent 0/1 = 1, a success; 5 days
    monkeypatch.setattr("characters.systems.fair_dice.FairRandom", lambda key: Faces(0, 1, 5))
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/check/",
        {
            "check-character": agent.pk,
            "check-score": checks.DEATH_CHECK,
            "check-kind": "general",
            "check-results_key": "ability",
            "check-modifier": "0",
        },
    )
    assert response.status_code == 200, response.content.decode()
    agent.refresh_from_db()
    c = condition_of(agent.build)
    assert c["coma"] and c["current_stamina"] == 0 and c["wounds_marked"] == 11
    assert agent.entries.order_by("-id").first().kind == "death_check"
    coma = Roll.objects.get(campaign=world.campaign, secret=True, purpose__startswith="Days in a coma")
    assert coma.roller == world.users["gm"]  # the CM's secret roll, though the player's check called it
    log = client.get(f"/campaigns/{world.campaign.pk}/dice/log/").content.decode()
    assert "Days in a coma" not in log and "Luck check against death" in log


def test_the_check_panels_agent_has_its_condition_on_the_dice_page_and_recording_returns_there(
    world, agent, client
):
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/?check-character={agent.pk}").content.decode()
    assert f"Condition of {agent.name}" in page and 'data-testid="condition-stamina">40 of 40<' in page
    back = f"/campaigns/{world.campaign.pk}/dice/?check-character={agent.pk}"
    response = client.post(
        f"/characters/{agent.pk}/condition/",
        {"condition-kind": "damage_taken", "condition-stamina": "12", "condition-wounds": "2", "next": back},
    )
    assert response.status_code == 302 and response["Location"] == back
    page = client.get(back).content.decode()
    assert 'data-testid="condition-stamina">28 of 40<' in page
    assert 'data-testid="condition-wounds">2 of 12 (10 left)<' in page
    # a next off this site is not followed
    response = client.post(
        f"/characters/{agent.pk}/condition/",
        {"condition-kind": "stamina_rested", "condition-rounds": "1", "next": "https://evil.example/"},
    )
    assert response["Location"] == f"/characters/{agent.pk}/"
