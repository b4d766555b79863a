"""Click to roll from a Time to Kill ninja's page (campaigns/table/sheet_rolls.py): an ability against
the Fate the GM revealed, on the Action Table; filed with the ninja's running mission run."""

from __future__ import annotations

import pytest

from campaigns.models import Roll
from campaigns.table import rolling

pytestmark = pytest.mark.django_db


def test_each_ability_is_a_button_and_the_roll_reads_the_action_table(client, api, ttk):
    client.force_login(ttk.users["player"])
    html = client.get(f"/characters/{ttk.ninja.pk}/").content.decode()
    assert 'data-testid="roll-ability:stealth"' in html
    made = api(ttk.users["player"]).post(
        f"/api/v1/characters/{ttk.ninja.pk}/rolls/",
        {"spec": "ability:stealth", "modifiers": {"fate": "0"}},
        format="json",
    )
    assert made.status_code == 201, made.content
    roll = Roll.objects.get()
    assert roll.kind == "d6" and roll.detail["fail_on"] == 1
    assert roll.detail["success"] is (roll.total > 1)


def test_an_automatic_result_takes_no_roll(api, ttk):
    refused = api(ttk.users["player"]).post(
        f"/api/v1/characters/{ttk.ninja.pk}/rolls/",
        {"spec": "ability:stealth", "modifiers": {"fate": "+"}},
        format="json",
    )
    assert refused.status_code == 400 and "automatic success" in refused.json()["errors"][0]["message"]
    assert not Roll.objects.exists()


def test_a_roll_during_the_ninjas_run_is_filed_with_it(api, ttk, start):
    run = start()
    made = api(ttk.users["player"]).post(
        f"/api/v1/characters/{ttk.ninja.pk}/rolls/",
        {"spec": "ability:armed", "modifiers": {"fate": "0"}},
        format="json",
    )
    roll = Roll.objects.get(pk=made.json()["id"])
    assert roll.detail["during"] == {"title": f"Mission run “{run.title}”", "url": f"/ttk/{run.pk}/"}


def test_a_turns_fate_dice_are_rolled_on_the_fair_dice_and_verify_once_shared(ttk, start, monkeypatch):
    """The GM's four Fudge dice of a turn come from the campaign's fair-dice stream (a secret roll,
    the GM's), the same faces the run plays with; shared and rotated, the player verifies them."""
    from campaigns.table import fairness
    from systems.time_to_kill import services as ttk_services
    from systems.time_to_kill.tests.missions.helpers import ScriptedRng

    # The stone drawn in preparation is the engine's own draw (not a die): an ordinary stone, so
    # the turn reaches the Fate roll the same way every time (the target stone would end it).
    monkeypatch.setattr(ttk_services, "make_rng", lambda: ScriptedRng(draws=["o"]))
    run = start()
    for side, kind in (("player", "prepare_draw"), ("player", "end_preparation"), ("gm", "roll_fates")):
        user = ttk.users["gm"] if side == "gm" else ttk.users["player"]
        ttk_services.post_event(run, user, side, {"type": kind})
        run.refresh_from_db()
    fate = Roll.objects.get(kind="fudge")
    assert fate.secret and fate.count == 4 and fate.proof.lane == "secret"
    symbols = {-1: "-", 0: "0", 1: "+"}
    assert run.state["current"]["dice"] == [symbols[face] for face in fate.faces]
    rolling.reveal_roll(ttk.membership["gm"], fate)
    fairness.rotate(ttk.membership["gm"])
    doc = fairness.proof_document(ttk.campaign, ttk.users["player"], ttk.membership["player"])
    assert [v["verdict"] for v in fairness.verify_document(doc)] == ["verified"]
