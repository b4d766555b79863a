"""Controls that cannot be used are not offered: once a participant has used every action it
declared this round, the tracker offers Wait/Done, not Act, and says why (issue 21, defect 9)."""

from __future__ import annotations

import random

from systems.d6 import services


def test_act_is_not_offered_once_every_declared_action_is_used(d6, running, client):
    gm = d6.membership["gm"]
    rng = random.Random(4)
    services.record_event(running, gm, {"type": "begin_round"}, rng)
    services.record_event(running, gm, {"type": "order_without_rolls"}, rng)
    first = running.state["order"][0]
    services.record_event(running, gm, {"type": "declare", "participant": first, "actions": 1}, rng)
    client.force_login(d6.users["gm"])
    url = f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/"
    before = client.get(url).content.decode()
    assert '<button type="submit">Act</button>' in before  # one action declared, none used yet

    services.record_event(running, gm, {"type": "act", "participant": first, "action": "communicate"}, rng)
    running.refresh_from_db()
    assert running.state["participants"][first]["round"]["used"] == 1
    after = client.get(url).content.decode()
    assert '<button type="submit">Act</button>' not in after
    assert 'data-testid="no-actions-left"' in after
    # the count and its verb agree (issue 44, finding 7: it read "All 1 declared action are used")
    assert "1 declared action is used up this round" in after and "are used" not in after
    assert 'value="done"' in after  # what can still be done is offered
