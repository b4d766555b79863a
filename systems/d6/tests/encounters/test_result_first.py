"""After a roll that waits for the GM's result, the panel puts "Announce the result" first and holds
Act, Wait and Done back until it is given (issue 30, finding 7)."""

from __future__ import annotations

import pytest

from systems.d6 import services


def _act_with_a_roll(d6, running):
    gm = d6.membership["gm"]
    services.record_event(running, gm, {"type": "begin_round"})
    services.record_event(running, gm, {"type": "order_without_rolls"})
    first = running.state["order"][0]
    services.record_event(running, gm, {"type": "declare", "participant": first, "actions": 2})
    trait = "brawling" if first.startswith("npc") else "Perception"
    services.record_event(
        running, gm, {"type": "act", "participant": first, "action": "punch", "trait": trait}
    )
    return first


def test_the_result_box_comes_first_and_the_turn_buttons_wait_for_it(d6, running, client):
    _act_with_a_roll(d6, running)
    client.force_login(d6.users["gm"])
    page = client.get(f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/panel/").content.decode()
    assert page.index('data-testid="pending"') < page.index('data-testid="acting"')
    assert '<input id="result" name="result" maxlength="1000" required>' in page
    acting = page[page.index('data-testid="acting"') :]
    for name in ("wait", "done"):
        assert f'value="{name}" disabled aria-describedby="awaiting-result"' in acting
    assert '<button type="submit" disabled aria-describedby="awaiting-result">Act</button>' in acting
    # once the result is given, the buttons are back
    services.record_event(running, d6.membership["gm"], {"type": "announce", "result": "a glancing blow"})
    page = client.get(f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/panel/").content.decode()
    assert 'aria-describedby="awaiting-result"' not in page


@pytest.mark.parametrize("result", [None, "", "   "])
def test_an_announcement_without_a_result_is_refused_and_changes_nothing(d6, running, client, result):
    """It was accepted, logging "Result for Thugs's Punch." with no result (issue 44, finding 7)."""
    _act_with_a_roll(d6, running)
    running.refresh_from_db()
    before = (running.event_count, running.state)
    client.force_login(d6.users["gm"])
    url = f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/event/"
    data = {"type": "announce"} if result is None else {"type": "announce", "result": result}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Result: Give the result of the roll" in response.content.decode()
    running.refresh_from_db()
    assert (running.event_count, running.state) == before
    assert running.state["windows"]  # the roll still waits for its result


def test_the_api_refuses_an_empty_result_naming_the_field(d6, running, api):
    _act_with_a_roll(d6, running)
    running.refresh_from_db()
    count = running.event_count
    url = f"/api/v1/campaigns/{d6.campaign.pk}/d6-encounters/{running.pk}/events/"
    response = api(d6.users["gm"]).post(url, {"type": "announce", "result": ""}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "result" and error["message"].startswith("Give the result of the roll")
    running.refresh_from_db()
    assert running.event_count == count
    # with a result it goes through, and the group's name reads right in the log
    response = api(d6.users["gm"]).post(url, {"type": "announce", "result": "a miss"}, format="json")
    assert response.status_code == 201
    running.refresh_from_db()
    assert running.state["log"][-1]["summary"].endswith("Punch: a miss")
