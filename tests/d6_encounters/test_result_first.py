"""After a roll that waits for the GM's result, the panel puts "Announce the result" first and holds
Act, Wait and Done back until it is given (issue 30, finding 7)."""

from __future__ import annotations

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
    assert '<input id="result" name="result" maxlength="1000">' in page
    acting = page[page.index('data-testid="acting"') :]
    for name in ("wait", "done"):
        assert f'value="{name}" disabled aria-describedby="awaiting-result"' in acting
    assert '<button type="submit" disabled aria-describedby="awaiting-result">Act</button>' in acting
    # once the result is given, the buttons are back
    services.record_event(running, d6.membership["gm"], {"type": "announce", "result": "a glancing blow"})
    page = client.get(f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/panel/").content.decode()
    assert 'aria-describedby="awaiting-result"' not in page
