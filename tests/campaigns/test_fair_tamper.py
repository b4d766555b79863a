"""Issue 48: the roll log tried as a dishonest server or GM would. Every tampered copy of an honest
proof document fails in the three checkers alike: the server's (campaigns.table.fairness), the
stand-alone script (scripts/verify_rolls.py, the standard library only) and the browser's
(static/js/fair-dice.js, under node). A tampered roll is recomputed honestly from the revealed
seed where the point is that its dice are right and what is around them is not. Every document
carries the reader's roll log (its leaves and signed head), checked by all three. The log's own
tampers (a roll deleted, a pair re-ordered, a record rewritten in the database after a reader kept
the log's head) are tests/campaigns/test_roll_log.py's."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.models import Mission, RollSeed
from campaigns.table import fairness, rolling
from characters.systems import fair_dice

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "verify_rolls.py"
JS = ROOT / "static" / "js" / "fair-dice.js"
NODE = shutil.which("node")


def _play(world):
    gm, player = world.membership["gm"], world.membership["player"]
    fairness.set_client_seed(player, "ünïcode ✓ seed")
    mission = Mission.objects.create(campaign=world.campaign, title="Rome")
    for count in (1, 2, 3, 4):
        rolling.record_roll(player, kind="d10", count=count, modifier=count - 2, purpose=f"roll {count}")
    rolling.record_roll(gm, kind="percent", secret=True)  # announced: sealed for the players
    shared = rolling.record_roll(gm, kind="percent", secret=True)
    rolling.reveal_roll(gm, shared)
    hidden = rolling.record_roll(gm, kind="d1000", secret=True, announced=False, mission=mission)
    rolling.reveal_roll(gm, hidden)
    fairness.rotate(gm)


def _doc(world, name):
    m = world.membership[name]
    return json.loads(json.dumps(fairness.proof_document(world.campaign, m.user, m)))


def _honest(doc, entry, **proof):
    """``entry`` moved to ``proof`` (a lane, a counter) with its dice recomputed from the revealed
    seed: exactly what a server holding the seed could publish."""
    entry["proof"].update(proof)
    seed = next(s for s in doc["seeds"] if s["number"] == entry["proof"]["seed"])
    result = fair_dice.roll(
        entry["kind"],
        entry["count"],
        entry["modifier"],
        server_seed=seed["server_seed"],
        secret_key=RollSeed.objects.get(commitment=seed["commitment"]).secret_key,  # the server has it
        lane=entry["proof"]["lane"],
        counter=entry["proof"]["counter"],
        client_seeds=entry["proof"]["client_seeds"],
    )
    entry.update(faces=list(result.faces), kept=list(result.kept or result.faces), total=result.total)


def _open_rolls(doc):
    return [e for e in doc["rolls"] if not e["sealed"] and (e["proof"] or {}).get("lane") == "open"]


def _script(tmp_path, doc) -> list[str]:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    lines = [line for line in done.stdout.splitlines()[:-1] if not line.startswith("BROKEN LOG")]
    return [line.split(": ", 1)[1].split(" (")[0].lower() for line in lines]


def _browser(tmp_path, docs: list[dict]) -> list[list[str]]:
    runner = tmp_path / "run.js"
    runner.write_text(
        "global.window = {}; global.document = {addEventListener() {}};\n"
        f"require({json.dumps(str(JS))});\n"
        "const docs = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));\n"
        "const verdicts = (d) => window.dossierFairDice.verify(d).map((v) => v.verdict);\n"
        "console.log(JSON.stringify(docs.map(verdicts)));\n",
        encoding="utf-8",
    )
    path = tmp_path / "docs.json"
    path.write_text(json.dumps(docs), encoding="utf-8")
    done = subprocess.run([NODE, str(runner), str(path)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _verdicts(doc) -> list[str]:
    return [v["verdict"] for v in fairness.verify_document(doc)]


def _all_three(tmp_path, docs: dict[str, dict]) -> dict[str, list[list[str]]]:
    """name -> [the server's verdicts, the script's, the browser's (when node is here)]."""
    browser = _browser(tmp_path, list(docs.values())) if NODE else [None] * len(docs)
    out = {}
    for (name, doc), js in zip(docs.items(), browser, strict=True):
        ours = _verdicts(doc)
        got = [ours, _script(tmp_path, doc)]
        if js is not None:
            got.append(js)
        out[name] = got
    return out


# -- the tampers: each takes an honest document and returns it edited ------------------------------
def skip_counters(doc):
    """Finding 1: the last open roll made at counter max+7, six counters left unused, its dice
    computed correctly for that counter."""
    rolls = _open_rolls(doc)
    top = max(e["proof"]["counter"] for e in rolls)
    _honest(doc, rolls[-1], counter=top + 7)


def delete_a_roll(doc):
    """An open roll left out: the lane's later counters show the gap."""
    doc["rolls"].remove(_open_rolls(doc)[1])


def invent_a_lane(doc):
    """Finding 2: a roll moved to a dice scope the document does not list, dice recomputed."""
    _honest(doc, _open_rolls(doc)[-1], lane="open:grind-0042", counter=0)


def invent_a_secret_lane(doc):
    _honest(doc, _open_rolls(doc)[-1], lane="secret:grind-0042", counter=0)


def invent_a_made_up_lane(doc):
    _honest(doc, _open_rolls(doc)[-1], lane="reroll", counter=0)


def move_the_modifier(doc):
    """Finding 3: the modifier changed with the total moved to match: the dice still recompute."""
    entry = _open_rolls(doc)[1]
    entry["modifier"] += 3
    entry["total"] += 3


def change_the_purpose(doc):
    _open_rolls(doc)[0]["purpose"] = "Resist the poison"


def change_the_reading(doc):
    _open_rolls(doc)[0]["reading"] = {"success": True, "result": "C"}


def show_a_secret_roll_as_open(doc):
    """The kind: a revealed secret roll shown as an open one."""
    entry = next(e for e in doc["rolls"] if not e["sealed"] and e["proof"]["lane"] == "secret")
    entry["secret"] = False


def mark_a_roll_by_hand(doc):
    """The kind: a server roll shown as entered by hand (so never checked)."""
    _open_rolls(doc)[1]["proof"] = {"verifiable": False, "by_hand": True}


def seal_an_open_roll(doc):
    """The kind: an open roll shown as a sealed secret one."""
    entry = _open_rolls(doc)[1]
    for key in ("kind", "count", "modifier", "faces", "kept", "total", "purpose", "reading"):
        entry.pop(key)
    entry.update(sealed=True, proof=None)


def change_who_rolled(doc):
    _open_rolls(doc)[0]["roller"] = "someone-else"


def reorder_a_pair(doc):
    rolls = doc["rolls"]
    first, second = (rolls.index(e) for e in _open_rolls(doc)[1:3])
    rolls[first], rolls[second] = rolls[second], rolls[first]


def move_the_record_too(doc):
    """The record edited with the roll (a proof document is the server's to write): the dice
    still catch a total or face moved, and the counters a roll moved."""
    entry = _open_rolls(doc)[1]
    entry["faces"][0] = entry["faces"][0] % 10 + 1
    entry["proof"]["record"]["faces"] = list(entry["faces"])


def drop_the_players_seeds(doc):
    """The players' seeds left out of a roll, its dice recomputed without them and its record's
    dice moved to match: the record's digest of the seeds it took still tells."""
    entry = _open_rolls(doc)[1]
    _honest(doc, entry, client_seeds=[])
    record = entry["proof"]["record"]
    record.update(faces=list(entry["faces"]), kept=list(entry["kept"]), total=entry["total"])


TAMPERS = [
    skip_counters,
    delete_a_roll,
    invent_a_lane,
    invent_a_secret_lane,
    invent_a_made_up_lane,
    move_the_modifier,
    change_the_purpose,
    change_the_reading,
    show_a_secret_roll_as_open,
    mark_a_roll_by_hand,
    seal_an_open_roll,
    change_who_rolled,
    reorder_a_pair,
    move_the_record_too,
    drop_the_players_seeds,
]


@pytest.mark.parametrize("reader", ["player", "gm"])
def test_every_tamper_fails_in_every_checker(world, tmp_path, reader):
    _play(world)
    honest = _doc(world, reader)
    docs = {"honest": honest}
    for tamper in TAMPERS:
        edited = copy.deepcopy(honest)
        tamper(edited)
        docs[tamper.__name__] = edited
    results = _all_three(tmp_path, docs)
    ours = results["honest"][0]
    # the secret rolls wait for the seed's key: one of them is still sealed
    assert ours == ["verified"] * 4 + (["sealed"] if reader == "player" else ["pending"]) + ["pending"] * 2
    assert all(got == ours for got in results["honest"]), results["honest"]
    for name, got in results.items():
        if name == "honest":
            continue
        assert all("failed" in verdicts for verdicts in got), (name, got)
        assert got[0] == got[1] == got[-1], (name, got)


def test_a_counter_gap_says_which_counters_are_unused(world):
    _play(world)
    doc = _doc(world, "player")
    skip_counters(doc)
    reasons = [v["reason"] for v in fairness.verify_document(doc) if v["verdict"] == "failed"]
    assert reasons == [
        "counter 10 of lane open under seed 1 leaves counters unused (3, 4, 5, 6, 7... not in the "
        "document): a counter was skipped or a roll removed"
    ]


def test_a_hidden_lane_is_declared_by_the_campaigns_missions(world):
    """The GM's document says how many missions there are: a hidden lane of a mission past them
    is one the server made up."""
    _play(world)
    doc = _doc(world, "gm")
    assert doc["complete"] is True and doc["missions"] == 1
    hidden = next(e for e in doc["rolls"] if e["proof"]["lane"].startswith("hidden:"))
    _honest(doc, hidden, lane="hidden:mission-7", counter=0)
    verdict = next(v for v in fairness.verify_document(doc) if v["id"] == hidden["id"])
    assert verdict == {
        "id": hidden["id"],
        "verdict": "failed",
        "reason": "its lane is not one the document declares",
    }


def test_keys_for_does_not_fall_back_for_an_undeclared_open_lane():
    seed = {"number": 1}
    assert fair_dice.keys_for("open:grind-0042", seed, {}) is None
    assert fair_dice.keys_for("open:x1", seed, {"x1": {"label": "x1"}}) is seed
    assert fair_dice.keys_for("open", seed, {}) is seed
    assert fair_dice.keys_for("hidden:mission-2", seed, {}) is seed
    assert fair_dice.keys_for("hidden:whatever", seed, {}) is None


def test_a_players_document_never_checks_hidden_lanes_for_gaps(world):
    """A player sees an unannounced roll only once revealed: a later one revealed before an
    earlier one is no gap for them (they may not learn how many hidden rolls there are)."""
    gm = world.membership["gm"]
    mission = Mission.objects.create(campaign=world.campaign, title="Rome")
    rolling.record_roll(gm, kind="d1000", secret=True, announced=False, mission=mission)
    later = rolling.record_roll(gm, kind="d1000", secret=True, announced=False, mission=mission)
    rolling.reveal_roll(gm, later)
    fairness.rotate(gm)
    fairness.release_secret_keys(world.campaign)
    player = _doc(world, "player")
    assert [e["proof"]["counter"] for e in player["rolls"]] == [1]
    assert "complete" not in player and "missions" not in player
    assert fair_dice.counter_gaps(player) == {}
    assert fair_dice.counter_gaps(_doc(world, "gm")) == {}
