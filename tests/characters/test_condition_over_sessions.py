"""A player's agent wounded in one session, rested, slept and treated over the next days, shows
the right current Stamina, wounds and Willpower at the next session on the character page and
the printed sheet; every step is a ledger entry the GM reverts (timemaster-play.md §12, §16, §17).

The agent: STA 40 (12 wound boxes, recovery 3 a round), WPR 52.
"""

from __future__ import annotations

import re

from sheets import rendering
from systems.timemaster import attacks
from systems.timemaster.engine import SYSTEM
from systems.timemaster.engine.condition import condition_of
from tests.campaigns.test_checks import Faces


def _page(client, agent) -> str:
    return client.get(f"/characters/{agent.pk}/").content.decode()


def _condition_on_page(html: str) -> dict[str, str]:
    return {
        key: re.search(rf'data-testid="condition-{key}">([^<]*)<', html).group(1)
        for key in ("status", "stamina", "wounds", "willpower")
    }


def _sheet_html(agent) -> str:
    page = rendering.SheetPage(sheet=SYSTEM.sheet(agent.build), campaign="Time Corps", character=agent.name)
    return rendering.document_html([page], title=agent.name, author="test")


def _record(client, agent, **fields):
    data = {f"condition-{k}": v for k, v in fields.items()}
    data["condition-revision"] = agent.revision
    response = client.post(f"/characters/{agent.pk}/condition/", data)
    assert response.status_code == 302
    agent.refresh_from_db()


def test_an_agent_wounded_rested_and_treated_across_sessions_shows_it_on_page_and_sheet(
    world, make_agent, client, api
):
    agent = make_agent("player")
    gm = world.membership["gm"]

    # Session 1: an NPC's sword hits for H: faces 2 then 0 -> roll 20 against 90: margin 70 on
    # column 6 (Unskilled Melee 66 -> 5, small shield +1) -> H, 3d10x2 with 5, 5, 5 = 30 Stamina, 4 wounds.
    attack = attacks.Attack(
        form="melee", strike_base=90, defender=agent, situation={"shield": "small"}, results_key="armed"
    )
    roll, entries = attacks.resolve(gm, attack, Faces(2, 0, 5, 5, 5))
    assert roll.detail["column"] == 6 and roll.detail["code"] == "H"
    agent.refresh_from_db()
    assert [e.kind for e in entries] == ["damage_taken"]
    # a talent used in the fight cost Willpower: recorded as damage to Willpower by the GM
    client.force_login(world.users["gm"])
    _record(client, agent, kind="damage_taken", willpower="30", source="Telepathic Probe and extra")
    # the player rests 3 rounds himself: +9 Stamina
    client.force_login(world.users["player"])
    _record(client, agent, kind="stamina_rested", rounds="3")
    html = _page(client, agent)
    assert _condition_on_page(html) == {
        "status": "Conscious",
        "stamina": "19 of 40",
        "wounds": "4 of 12 (8 left)",
        "willpower": "22 of 52",
    }

    # Between sessions: 8 hours' sleep (capped at WPR), two days in bed, one with a doctor's care
    # (2 + 4 = 6 boxes, stopping at 0), and rest back to full Stamina (capped at STA).
    _record(client, agent, kind="willpower_slept", hours="8")
    client.force_login(world.users["gm"])
    _record(client, agent, kind="wounds_healed", days="2", medical_days="1")
    _record(client, agent, kind="stamina_rested", rounds="50")
    client.force_login(world.users["player"])
    html = _page(client, agent)
    assert _condition_on_page(html) == {
        "status": "Conscious",
        "stamina": "40 of 40",
        "wounds": "0 of 12 (12 left)",
        "willpower": "52 of 52",
    }

    # The GM finds the doctor was not there: he reverts the bedrest through the API; the marks
    # come back, and the page and the printed sheet of the next session show them.
    healed = agent.entries.get(kind="wounds_healed")
    response = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/characters/{agent.pk}/entries/{healed.pk}/revert/",
        {"reason": "no doctor in 1066"},
        format="json",
    )
    assert response.status_code == 201, response.content
    agent.refresh_from_db()
    assert condition_of(agent.build)["wounds_marked"] == 4
    assert _condition_on_page(_page(client, agent))["wounds"] == "4 of 12 (8 left)"
    sheet = _sheet_html(agent)
    assert "4 marked" in sheet and sheet.count('class="wound struck"') == 3
    assert sheet.count('class="wound marked"') == 4

    # Each step is revertable: undo them all, newest first, and the agent is unhurt again.
    for entry in agent.entries.exclude(kind="reversal").exclude(reversed_by__isnull=False).order_by("-id"):
        response = api(world.users["gm"]).post(
            f"/api/v1/campaigns/{world.campaign.pk}/characters/{agent.pk}/entries/{entry.pk}/revert/",
            {"reason": "replay the evening"},
            format="json",
        )
        assert response.status_code == 201, (entry.kind, response.content)
    agent.refresh_from_db()
    c = condition_of(agent.build)
    assert (c["current_stamina"], c["wounds_marked"], c["current_willpower"]) == (40, 0, 52)


def test_a_player_cannot_record_damage_or_healing_for_his_agent_on_the_page(world, make_agent, client):
    agent = make_agent("player")
    client.force_login(world.users["player"])
    page = _page(client, agent)
    form = page.split('id="condition-heading"')[1].split("</form>")[0]
    kinds = re.findall(r'name="condition-kind" value="([a-z_]+)"', form)
    assert set(kinds) >= {"stamina_rested", "willpower_slept", "luck_spent"}
    assert "damage_taken" not in kinds and "wounds_healed" not in kinds
    client.post(
        f"/characters/{agent.pk}/condition/", {"condition-kind": "damage_taken", "condition-stamina": "5"}
    )
    agent.refresh_from_db()
    assert agent.revision == 1
    client.force_login(world.users["other_player"])
    assert 'id="condition-heading"' in _page(client, agent)
    assert "Record a change of condition" not in _page(client, agent)


def test_a_condition_form_missing_its_number_says_so_and_changes_nothing(world, make_agent, client):
    agent = make_agent("player")
    client.force_login(world.users["gm"])
    response = client.post(
        f"/characters/{agent.pk}/condition/", {"condition-kind": "stamina_rested"}, follow=True
    )
    assert response.status_code == 200
    assert "Rounds of rest must be a whole number" in response.content.decode()
    agent.refresh_from_db()
    assert agent.revision == 1
