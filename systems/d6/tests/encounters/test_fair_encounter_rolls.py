"""An encounter's rolls come from the campaign's fair dice (issue 32): one event rolls several die
codes, each with its Wild Die and any extra Wild Dice; every draw is a row of the dice log with a
proof that verifies once the seed is revealed (on the server and with the stand-alone script) and
fails when its dice are edited. NPC rolls take the secret lane and stay sealed to players."""

from __future__ import annotations

import copy
import json

from campaigns.models import Roll
from campaigns.table import fairness, rolling
from characters.systems import fair_dice
from systems.d6 import services
from tests.campaigns.test_verify_script import _run_script, _script_verdicts


def _initiative(d6, running):
    gm = d6.membership["gm"]
    services.record_event(running, gm, {"type": "begin_round"})
    ada = f"character-{d6.ada.pk}"
    services.record_event(running, gm, {"type": "roll_initiative", "character_points": {ada: 2}})
    return Roll.objects.filter(campaign=d6.campaign, detail__encounter=running.pk)


def _doc(d6, who):
    m = d6.membership[who]
    return json.loads(json.dumps(fairness.proof_document(d6.campaign, m.user, m)))


def test_each_draw_of_an_initiative_event_is_a_row_with_a_proof(d6, running):
    rows = _initiative(d6, running)
    assert all(hasattr(row, "proof") for row in rows)
    ada = rows.filter(character=d6.ada).exclude(detail__has_key="extra_wild_of").get()
    extras = rows.filter(detail__extra_wild_of=ada.pk)
    # Ada's 4D Perception: three dice and the Wild Die in one draw, one draw per extra Wild Die
    assert ada.kind == "d6_wild" and ada.count == 4 and len(extras) == 2
    assert all(e.kind == "d6_wild" and e.count == 1 and e.modifier == 0 for e in extras)
    engine = ada.detail
    assert ada.faces == engine["dice"] + engine["wild"]
    assert sorted(e.faces for e in extras) == sorted(engine["extra_wild"])
    assert engine["total"] == ada.total + sum(e.total for e in extras) - sum(engine["removed"])
    thugs = rows.get(purpose__startswith="Initiative for Thugs")
    assert thugs.secret and thugs.proof.lane == fair_dice.SECRET and ada.proof.lane == fair_dice.OPEN
    # the encounter's state holds the very dice the rows recompute
    stored = running.events.get(type="roll_initiative").payload["rolls"]
    assert stored[f"character-{d6.ada.pk}"]["dice"] == engine["dice"]


def _ada_acts(d6, running, **dice):
    """Ada punches with brawling (her turn comes after whoever the order puts first)."""
    gm = d6.membership["gm"]
    pid = f"character-{d6.ada.pk}"
    # The fair dice's initiative decides who declares and acts first: whoever comes before Ada
    # declares one action and is done (declaring Ada first failed whenever Bo won the initiative).
    while running.state["active"][-1]["participant"] != pid:
        other = running.state["active"][-1]["participant"]
        if running.state["participants"][other]["round"]["declared"] is None:
            services.record_event(running, gm, {"type": "declare", "participant": other, "actions": 1})
        services.record_event(running, gm, {"type": "done", "participant": other})
    services.record_event(running, gm, {"type": "declare", "participant": pid, "actions": 1})
    event = {"type": "act", "participant": pid, "action": "punch", "trait": "brawling", **dice}
    services.record_event(running, gm, event)


def test_an_encounter_roll_verifies_after_rotation_and_fails_when_edited(d6, running, tmp_path):
    rows = _initiative(d6, running)
    gm = d6.membership["gm"]
    _ada_acts(d6, running)
    act = rows.filter(character=d6.ada, purpose__contains="brawling").get()
    assert act.kind == "d6_wild" and hasattr(act, "proof")
    for row in rows.filter(secret=True):
        rolling.reveal_roll(gm, row)
    fairness.rotate(gm)
    for who in ("player", "gm"):
        doc = _doc(d6, who)
        ours = [v["verdict"] for v in fairness.verify_document(doc)]
        assert ours and set(ours) == {"verified"}
        done = _run_script(tmp_path, doc)
        assert done.returncode == 0, done.stdout + done.stderr
        assert _script_verdicts(done.stdout) == ours
    edited = copy.deepcopy(_doc(d6, "player"))
    entry = next(e for e in edited["rolls"] if e["id"] == act.pk)
    entry["faces"][0] = entry["faces"][0] % 6 + 1
    verdicts = {v["id"]: v["verdict"] for v in fairness.verify_document(edited)}
    assert verdicts.pop(act.pk) == "failed" and set(verdicts.values()) == {"verified"}
    failed = _run_script(tmp_path, edited)
    assert failed.returncode == 1 and "FAILED (the dice recompute as" in failed.stdout


def test_a_player_gets_no_proof_of_an_npc_roll_before_it_is_shared(d6, running):
    rows = _initiative(d6, running)
    thugs = rows.get(purpose__startswith="Initiative for Thugs")
    entry = next(e for e in _doc(d6, "player")["rolls"] if e["id"] == thugs.pk)
    assert entry["sealed"] and entry["proof"] is None and "faces" not in entry


def test_dice_an_event_brings_are_marked_entered_by_hand(d6, running):
    rows = _initiative(d6, running)
    _ada_acts(d6, running, dice={"dice": [2, 3, 4], "wild": [5], "extra_wild": []})
    act = rows.filter(character=d6.ada, purpose__contains="brawling").get()
    assert act.faces == [2, 3, 4, 5] and act.proof.by_hand
    entry = next(e for e in _doc(d6, "player")["rolls"] if e["id"] == act.pk)
    assert entry["proof"] == {"verifiable": False, "by_hand": True}


def test_the_gms_archive_carries_the_encounter_proofs(d6, running, tmp_path):
    from archive import services as archive_services

    rows = _initiative(d6, running)
    fairness.rotate(d6.membership["gm"])
    archive = json.loads(json.dumps(archive_services.export_campaign(d6.campaign)))
    done = _run_script(tmp_path, archive)
    assert done.returncode == 0, done.stdout + done.stderr
    # the NPCs' secret rolls wait for the seed's key, which the archive carries only once released
    # (issue 48, finding 5); the open ones verify
    secret = rows.filter(secret=True).count()
    assert secret and done.stdout.splitlines()[-1] == f"{secret} pending, {rows.count() - secret} verified"
    tampered = copy.deepcopy(archive)
    first = tampered["rolls"][0]
    first["faces"][0] = first["faces"][0] % 6 + 1
    assert _run_script(tmp_path, tampered).returncode == 1
