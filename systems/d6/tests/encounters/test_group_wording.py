"""A group's name reads right in the tracker and the log (issue 44, D6): "Dock thugs acts", "takes",
"rolls" put a singular verb after a plural name. The lines about a participant now name it first,
then what happened, with no verb to agree ("Thugs: initiative 11.", "Thugs: 2 actions declared
at -1D.", "Thugs: done this turn."), for a character and a group alike."""

from __future__ import annotations

import random
import re

from systems.d6 import services

#: a participant's name followed by a verb in the third person singular (what a plural name breaks)
SINGULAR_VERB = re.compile(
    r"^(Thugs|Ada|Bo)\b[^:]* (acts|takes|rolls|passes|waits|is|has|loses|interrupts|moves|cannot)\b"
)


def test_the_lines_about_a_group_need_no_verb_agreement(d6, running, client):
    gm = d6.membership["gm"]
    rng = random.Random(4)
    services.record_event(running, gm, {"type": "begin_round"}, rng)
    services.record_event(running, gm, {"type": "roll_initiative"}, rng)
    running.refresh_from_db()
    thugs = next(pid for pid, p in running.state["participants"].items() if p["name"] == "Thugs")
    client.force_login(d6.users["gm"])
    page_url = f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/"
    seen_acting = False
    for _ in range(len(running.state["participants"])):  # each in turn: declare, then done
        active = running.state["active"][0]["participant"]
        if active == thugs:
            page = client.get(page_url).content.decode()
            assert "<h3>Acting now: Thugs</h3>" in page and "Thugs acts" not in page
            seen_acting = True
        actions = 2 if active == thugs else 1
        services.record_event(
            running, gm, {"type": "declare", "participant": active, "actions": actions}, rng
        )
        services.record_event(running, gm, {"type": "done", "participant": active}, rng)
        running.refresh_from_db()
    assert seen_acting
    lines = [r["summary"] for r in running.state["log"] if r.get("participant") == thugs]
    assert "Thugs' turn." in lines
    assert any(re.fullmatch(r"Thugs: initiative \d+\.", line) for line in lines), lines
    assert any(line.startswith("Thugs: 2 actions declared") for line in lines), lines
    assert "Thugs: done this turn." in lines, lines
    every = [r["summary"] for r in running.state["log"]]
    assert not [line for line in every if SINGULAR_VERB.match(line)], every
    # the log on the page reads the same
    page = client.get(page_url).content.decode()
    assert "Thugs: 2 actions declared" in page and "Thugs takes" not in page and "Thugs rolls" not in page
