"""Issue 48: the roll log as a transparency log (campaigns/table/rolllog.py, docs/fair-dice.md "The roll
log"). Every roll is a leaf of its audiences' Merkle trees; a player's tree holds only what the
player sees (a hidden roll leaves the player's head exactly as it was); heads are signed with the
server's Ed25519 key; and a log rewritten in the database (a roll deleted, a pair re-ordered, a
record rewritten) is caught against a head a reader kept, by the server's check, the stand-alone
script and the browser's (under node), alike."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.models import LogLeaf, LogNode, Roll, RollLog, TreeHead
from campaigns.table import fairness, rolling, rolllog
from characters.systems import fair_dice, merkle

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "verify_rolls.py"
JS = ROOT / "static" / "js" / "fair-dice.js"
ED25519_JS = ROOT / "static" / "js" / "ed25519-verify.js"
NODE = shutil.which("node")


def _play(world):
    gm, player = world.membership["gm"], world.membership["player"]
    for count in (1, 2, 3):
        rolling.record_roll(player, kind="d10", count=count, purpose=f"roll {count}")
    sealed = rolling.record_roll(gm, kind="percent", secret=True)
    shared = rolling.record_roll(gm, kind="percent", secret=True)
    rolling.reveal_roll(gm, shared)
    rolling.enter_roll_by_hand(player, kind="d6", count=2, faces=[3, 4], purpose="table dice")
    return sealed, shared


def _doc(world, name="player", since=None):
    m = world.membership[name]
    return json.loads(json.dumps(fairness.proof_document(world.campaign, m.user, m, since=since)))


def _log(world, audience):
    return RollLog.objects.get(campaign=world.campaign, audience=audience)


def _heads(doc) -> dict:
    return {log["head"]["log"]: log["head"] for log in doc["logs"]}


def test_every_roll_is_a_leaf_of_the_gms_log_and_the_table_sees_only_its_own(world):
    sealed, shared = _play(world)
    hidden = rolling.record_roll(world.membership["gm"], kind="d1000", secret=True, announced=False)
    gm_leaves = list(LogLeaf.objects.filter(log=_log(world, "gm")).order_by("index"))
    rolls = list(Roll.objects.filter(campaign=world.campaign).order_by("created_at", "id"))
    assert sorted(leaf.roll_id for leaf in gm_leaves) == sorted(r.pk for r in rolls)
    assert {leaf.kind for leaf in gm_leaves} == {"roll"}
    table = list(LogLeaf.objects.filter(log=_log(world, "table")).order_by("index"))
    kinds = [(leaf.roll_id, leaf.kind) for leaf in table]
    assert (
        (sealed.pk, "sealed") in kinds and (shared.pk, "sealed") in kinds and (shared.pk, "shared") in kinds
    )
    assert hidden.pk not in {leaf.roll_id for leaf in table}  # an unannounced roll is not the table's
    # a sealed leaf carries a commitment and nothing of the roll; the salt stays on the server
    leaf = next(leaf for leaf in table if leaf.roll_id == sealed.pk)
    assert set(leaf.data) == {"v", "type", "roll", "commitment"} and len(leaf.salt) == 64
    # sharing opens it: the shared leaf's salt and record give the sealed leaf's commitment
    opened = next(leaf for leaf in table if leaf.kind == "shared")
    closed = next(leaf for leaf in table if leaf.roll_id == shared.pk and leaf.kind == "sealed")
    assert fair_dice.sealing(opened.data["draw"], opened.data["salt"]) == closed.data["commitment"]
    assert opened.data["draw"]["counter"] == opened.data["record"]["counter"] is not None
    # the frontier gives the tree's root: the same as the root of its leaves, recomputed
    log = _log(world, "table")
    leaves = [bytes.fromhex(leaf.hash) for leaf in table]
    assert merkle.frontier_root([bytes.fromhex(h) for h in log.frontier]) == merkle.root(leaves)
    assert leaves == [merkle.leaf_hash(fair_dice.leaf_bytes(leaf.data)) for leaf in table]
    # an unannounced roll shared (a mission's significance check published) joins the table's log
    rolling.reveal_roll(world.membership["gm"], hidden)
    assert LogLeaf.objects.filter(log=log, roll_id=hidden.pk, kind="shared").count() == 1


def test_a_published_missions_check_joins_the_tables_log(world):
    from campaigns import missions
    from systems.timemaster import missions as tm_missions
    from tests.campaigns.test_missions import new_agent, roll_of, started

    mission = started(world, [new_agent(world, "player", "Harry Adams")], start_year=1806, end_year=1806)
    closed = tm_missions.close_mission(world.membership["gm"], mission, "success", rng=roll_of(500))
    check = closed.check_roll_id
    table = RollLog.objects.filter(campaign=world.campaign, audience="table")
    assert check is not None and not LogLeaf.objects.filter(log__in=table, roll_id=check).exists()
    assert LogLeaf.objects.filter(log=_log(world, "gm"), roll_id=check).count() == 1
    missions.publish_mission(closed, world.users["gm"])
    assert LogLeaf.objects.filter(log=_log(world, "table"), roll_id=check, kind="shared").count() == 1


def test_heads_are_signed_made_once_per_size_and_the_document_checks(world):
    _play(world)
    doc = _doc(world)
    key = doc["log_key"]["public_key"]
    assert doc["log_key"]["algorithm"] == "Ed25519" and key == rolllog.public_key_hex()
    (table,) = doc["logs"]
    head = table["head"]
    assert head["log"] == f"campaign-{world.campaign.pk}/table" and head["size"] == _log(world, "table").size
    assert fair_dice.head_problem(head, key) is None
    assert (
        fair_dice.head_problem({**head, "size": head["size"] - 1}, key)
        == "its tree head's signature does not check"
    )
    # asked again at the same size: the same head, not a new signature
    assert _doc(world)["logs"][0]["head"] == head
    assert TreeHead.objects.filter(log=_log(world, "table")).count() == 1
    rolling.record_roll(world.membership["player"], kind="d6")
    again = _doc(world)["logs"][0]["head"]
    assert (
        again["size"] == head["size"] + 1 and TreeHead.objects.filter(log=_log(world, "table")).count() == 2
    )
    # every roll the player sees is in the document with its leaf, and everything checks
    assert fair_dice.check_logs(doc) == ({}, [])
    assert all(v["verdict"] != "failed" for v in fairness.verify_document(doc))
    # the GM checks the GM's log, which holds every roll
    gm_doc = _doc(world, "gm")
    assert [log["audience"] for log in gm_doc["logs"]] == ["gm"]
    assert fair_dice.check_logs(gm_doc) == ({}, [])


def test_the_api_gives_a_consistency_proof_from_a_kept_head(world, api):
    _play(world)
    player = world.users["player"]
    url = f"/api/v1/campaigns/{world.campaign.pk}/fair-dice/"
    first = api(player).get(url).json()
    kept = first["logs"][0]["head"]
    rolling.record_roll(world.membership["player"], kind="d10", count=2)
    later = api(player).get(url, {"since": f"table:{kept['size']}"}).json()
    log = later["logs"][0]
    assert log["consistency"]["from"] == kept["size"]
    assert merkle.verify_consistency(
        kept["size"],
        log["head"]["size"],
        bytes.fromhex(kept["root"]),
        bytes.fromhex(log["head"]["root"]),
        [bytes.fromhex(h) for h in log["consistency"]["proof"]],
    )
    assert fair_dice.check_logs(later, {kept["log"]: kept}) == ({}, [])
    assert api(player).get(url, {"since": "table:x"}).status_code == 400


# -- a dishonest server rewrites its log in the database ---------------------------------------------
def _rebuild(log: RollLog, leaves: list[dict]) -> None:
    """What a server rewriting its log would do: the tree made again from ``leaves``, heads too."""
    LogLeaf.objects.filter(log=log).delete()
    LogNode.objects.filter(log=log).delete()
    TreeHead.objects.filter(log=log).delete()
    RollLog.objects.filter(pk=log.pk).update(size=0, frontier=[])
    for leaf in leaves:
        rolllog._push(log.campaign_id, [(log.audience, leaf, leaf["roll"], "")])


def _table_leaves(world):
    return [leaf.data for leaf in LogLeaf.objects.filter(log=_log(world, "table")).order_by("index")]


def delete_a_roll(world):
    leaves = _table_leaves(world)
    gone = leaves[1]["roll"]
    Roll.objects.filter(pk=gone).delete()
    _rebuild(_log(world, "table"), [leaf for leaf in leaves if leaf["roll"] != gone])


def reorder_a_pair(world):
    leaves = _table_leaves(world)
    leaves[0], leaves[1] = leaves[1], leaves[0]
    _rebuild(_log(world, "table"), leaves)


def rewrite_a_roll(world):
    leaves = _table_leaves(world)
    leaf = leaves[2]
    leaf["record"] = {**leaf["record"], "purpose": "a better roll"}
    roll = Roll.objects.get(pk=leaf["roll"])
    Roll.objects.filter(pk=roll.pk).update(purpose="a better roll")
    from campaigns.models import RollProof

    RollProof.objects.filter(roll=roll).update(record=leaf["record"])
    _rebuild(_log(world, "table"), leaves)


def rewrite_a_leaf_in_place(world):
    """A leaf's content edited, the tree's stored hashes left alone: its inclusion proof fails."""
    leaf = LogLeaf.objects.filter(log=_log(world, "table"), kind="roll").order_by("index").first()
    data = {**leaf.data, "record": {**leaf.data["record"], "total": leaf.data["record"]["total"] + 1}}
    LogLeaf.objects.filter(pk=leaf.pk).update(data=data)


def cut_the_last_roll(world):
    leaves = _table_leaves(world)
    Roll.objects.filter(pk=leaves[-1]["roll"]).delete()
    _rebuild(_log(world, "table"), leaves[:-1])


REWRITES = [delete_a_roll, reorder_a_pair, rewrite_a_roll, rewrite_a_leaf_in_place, cut_the_last_roll]


def _script(tmp_path, doc, kept) -> tuple[int, str]:
    path, heads = tmp_path / "doc.json", tmp_path / "heads.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    heads.write_text(json.dumps(list(kept.values())), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), "--head", str(heads), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, done.stdout


def _browser(tmp_path, doc, kept, *, webcrypto=True) -> dict:
    """fair-dice.js's checks under node: with WebCrypto (a secure context), or without it (a
    plain-http page: crypto.subtle absent) and our own Ed25519 (static/js/ed25519-verify.js)."""
    runner = tmp_path / "run.js"
    plain_http = "" if webcrypto else "Object.defineProperty(globalThis, 'crypto', {value: undefined});\n"
    runner.write_text(
        "global.window = {}; global.document = {addEventListener() {}};\n"
        + plain_http
        + f"require({json.dumps(str(ED25519_JS))});\n"
        f"require({json.dumps(str(JS))});\n"
        "const [doc, kept] = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));\n"
        "const f = window.dossierFairDice;\n"
        "f.checkLogs(doc, kept).then((r) => console.log(JSON.stringify({\n"
        "  problems: r.problems, signed: r.signed,\n"
        "  failed: f.verify(doc).filter((v) => v.verdict === 'failed').map((v) => v.reason)})));\n",
        encoding="utf-8",
    )
    path = tmp_path / "in.json"
    path.write_text(json.dumps([doc, kept]), encoding="utf-8")
    done = subprocess.run([NODE, str(runner), str(path)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_an_honest_log_checks_against_the_kept_head_in_every_checker(world, tmp_path):
    _play(world)
    kept = _heads(_doc(world))
    rolling.record_roll(world.membership["player"], kind="d6", count=3)
    doc = _doc(world, since={"table": next(iter(kept.values()))["size"]})
    assert fair_dice.check_logs(doc, kept) == ({}, [])
    code, out = _script(tmp_path, doc, kept)
    assert code == 0, out
    if NODE:
        for webcrypto in (True, False):
            got = _browser(tmp_path, doc, kept, webcrypto=webcrypto)
            assert got == {"problems": [], "signed": True, "failed": []}, webcrypto


@pytest.mark.parametrize("rewrite", REWRITES, ids=[r.__name__ for r in REWRITES])
def test_a_log_rewritten_in_the_database_is_caught_by_every_checker(world, tmp_path, rewrite):
    _play(world)
    kept = _heads(_doc(world))  # what the player's browser kept on a visit
    rewrite(world)
    rolling.record_roll(world.membership["player"], kind="d6")  # the log goes on after
    doc = _doc(world, since={"table": next(iter(kept.values()))["size"]})
    off_log, problems = fair_dice.check_logs(doc, kept)
    assert off_log or problems, rewrite.__name__
    code, out = _script(tmp_path, doc, kept)
    assert code == 1 and ("BROKEN LOG" in out or "FAILED" in out), out
    if NODE:
        for webcrypto in (True, False):
            got = _browser(tmp_path, doc, kept, webcrypto=webcrypto)
            assert got["problems"] or got["failed"], (rewrite.__name__, got)
            assert bool(got["problems"]) == bool(problems), (got, problems)


def test_a_head_signed_by_another_key_is_refused(world, tmp_path):
    _play(world)
    doc = _doc(world)
    other = fair_dice.sha256_hex(b"another key")[:64]
    doc["log_key"]["public_key"] = other
    _, problems = fair_dice.check_logs(doc)
    assert problems == [f"campaign-{world.campaign.pk}/table: its tree head's signature does not check"]
    if NODE:
        for webcrypto in (True, False):
            assert _browser(tmp_path, doc, {}, webcrypto=webcrypto)["problems"] == problems, webcrypto


@pytest.mark.skipif(NODE is None, reason="node runs the browser's code")
def test_our_own_ed25519_agrees_with_nodes(tmp_path):
    """static/js/ed25519-verify.js (plain-http pages) against Node's Ed25519 and SHA-512: random
    keys and messages, a signature and a message each changed by one bit."""
    runner = tmp_path / "ed.js"
    runner.write_text(
        "global.window = {};\n"
        f"require({json.dumps(str(ED25519_JS))});\n"
        "const c = require('crypto'), ed = window.dossierEd25519, u = (b) => new Uint8Array(b);\n"
        "const out = [];\n"
        "for (let i = 0; i < 12; i++) {\n"
        "  const msg = c.randomBytes(i * 23);\n"
        "  const mine = Buffer.from(ed.sha512(u(msg))).toString('hex');\n"
        "  const sha = mine === c.createHash('sha512').update(msg).digest('hex');\n"
        "  const { publicKey, privateKey } = c.generateKeyPairSync('ed25519');\n"
        "  const key = u(publicKey.export({ format: 'der', type: 'spki' }).subarray(12));\n"
        "  const sig = c.sign(null, msg, privateKey), bad = Buffer.from(sig); bad[i * 5] ^= 1;\n"
        "  out.push([sha, ed.verify(key, u(sig), u(msg)), ed.verify(key, u(bad), u(msg)),\n"
        "            ed.verify(key, u(sig), u(Buffer.concat([msg, Buffer.from([0])])))]);\n"
        "}\n"
        "console.log(JSON.stringify(out));\n",
        encoding="utf-8",
    )
    done = subprocess.run([NODE, str(runner)], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [[True, True, False, False]] * 12
