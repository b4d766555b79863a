"""The stand-alone verifier (scripts/verify_rolls.py, stdlib only), the browser's verifier
(static/js/fair-dice.js, run under node) and the archive's fair-dice sections all agree with
campaigns.fairness on the same rolls, tampered copies included."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from archive import services as archive_services
from campaigns import fairness, services
from campaigns.models import Mission

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "verify_rolls.py"
JS = ROOT / "static" / "js" / "fair-dice.js"


def _play(world):
    gm, player = world.membership["gm"], world.membership["player"]
    fairness.set_client_seed(player, "ünïcode ✓ seed")
    fairness.set_client_seed(world.membership["other_player"], "Zebra")
    mission = Mission.objects.create(campaign=world.campaign, title="Rome")
    services.record_roll(player, kind="d10", count=4, modifier=-2)
    services.record_roll(player, kind="3d6_penalty", count=3)
    services.record_roll(gm, kind="fudge", count=4)
    services.record_roll(gm, kind="d1000")
    shared = services.record_roll(gm, kind="percent", secret=True, mission=mission)
    services.reveal_roll(gm, shared)
    services.enter_roll_by_hand(player, kind="d6", faces=[2, 2], count=2)
    fairness.rotate(gm)
    services.record_roll(player, kind="d6", count=2)  # under seed 2: pending until it is rotated


def _doc(world, name="player"):
    m = world.membership[name]
    return json.loads(json.dumps(fairness.proof_document(world.campaign, m.user, m)))


def _run_script(tmp_path, document) -> subprocess.CompletedProcess:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    # -I -S: no site-packages, no environment: the standard library only.
    return subprocess.run(
        [sys.executable, "-I", "-S", str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )


def _script_verdicts(output: str) -> list[str]:
    return [line.split(": ", 1)[1].split(" (")[0].lower() for line in output.splitlines()[:-1]]


def test_the_script_agrees_with_the_server_and_fails_a_tampered_copy(world, tmp_path):
    _play(world)
    doc = _doc(world)
    ours = [v["verdict"] for v in fairness.verify_document(doc)]
    assert ours == ["verified"] * 5 + ["by hand", "pending"]
    done = _run_script(tmp_path, doc)
    assert done.returncode == 0, done.stderr
    assert _script_verdicts(done.stdout) == ours
    assert done.stdout.splitlines()[-1] == "1 by hand, 1 pending, 5 verified"
    edited = copy.deepcopy(doc)
    edited["rolls"][3]["total"] += 1
    failed = _run_script(tmp_path, edited)
    assert failed.returncode == 1 and "FAILED (the total recomputes as" in failed.stdout


def test_the_script_verifies_the_gms_campaign_export(world, tmp_path):
    _play(world)
    archive = json.loads(json.dumps(archive_services.export_campaign(world.campaign)))
    done = _run_script(tmp_path, archive)
    assert done.returncode == 0, done.stdout + done.stderr
    # The GM's archive holds every seed: the roll under the seed in use verifies there too.
    assert done.stdout.splitlines()[-1] == "1 by hand, 6 verified"
    for edit in (
        lambda a: a["rolls"][0]["faces"].__setitem__(0, a["rolls"][0]["faces"][0] % 10 + 1),
        lambda a: a["fair_dice"][0].__setitem__("commitment", "0" * 64),
        lambda a: a["fair_dice"][0]["proofs"][0].__setitem__("counter", 9),
        lambda a: a["fair_dice"][1].__setitem__("server_seed", "ab" * 32),
    ):
        tampered = copy.deepcopy(archive)
        edit(tampered)
        assert _run_script(tmp_path, tampered).returncode == 1


def test_an_imported_campaign_keeps_its_proofs_and_seeds(world):
    _play(world)
    archive = json.loads(json.dumps(archive_services.export_campaign(world.campaign)))
    copy_ = archive_services.import_campaign(archive, world.users["gm"])
    gm = copy_.memberships.get(user=world.users["gm"])
    doc = fairness.proof_document(copy_, gm.user, gm)
    assert [v["verdict"] for v in fairness.verify_document(doc)] == ["verified"] * 5 + ["by hand", "pending"]
    assert [s["commitment"] for s in doc["seeds"]] == [s["commitment"] for s in archive["fair_dice"]]
    # The copy goes on under its imported seed in use, with the counter where it stood.
    roll = services.record_roll(gm, kind="d6")
    assert (roll.proof.seed.number, roll.proof.counter) == (2, 1)


@pytest.mark.parametrize(
    "edit, where",
    [
        (lambda a: a["fair_dice"][0].__setitem__("server_seed", "xyz"), "fair_dice[0].server_seed"),
        (lambda a: a["fair_dice"][0]["proofs"][0].__setitem__("roll", 99), "fair_dice[0].proofs[0].roll"),
        (lambda a: a["fair_dice"][1]["proofs"][0].__setitem__("roll", 0), "fair_dice[1].proofs[0].roll"),
        (lambda a: a["fair_dice"][1].__setitem__("number", 1), "fair_dice[1].number"),
        (lambda a: a["rolls_by_hand"].append({"roll": "x"}), "rolls_by_hand[1].roll"),
    ],
)
def test_a_bad_fair_dice_section_is_refused_by_name(world, edit, where):
    from archive.problems import ArchiveRefused

    _play(world)
    archive = json.loads(json.dumps(archive_services.export_campaign(world.campaign)))
    edit(archive)
    with pytest.raises(ArchiveRefused) as refused:
        archive_services.import_campaign(archive, world.users["gm"])
    assert where in {p["field"] for p in refused.value.errors()}


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed: the browser check runs in the e2e tests")
def test_the_browser_verifier_agrees_with_the_server(world, tmp_path):
    _play(world)
    doc = _doc(world)
    tampered = copy.deepcopy(doc)
    tampered["seeds"][0]["server_seed"] = "00" * 32
    runner = tmp_path / "run.js"
    runner.write_text(
        "global.window = {}; global.document = {addEventListener() {}};\n"
        f"require({json.dumps(str(JS))});\n"
        "const docs = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));\n"
        "const f = window.dossierFairDice;\n"
        "console.log(JSON.stringify({\n"
        "  verdicts: docs.map((d) => f.verify(d).map((v) => v.verdict)),\n"
        "  hashes: ['', 'abc', 'x'.repeat(1000), 'ünï ✓'].map(f.sha256),\n"
        "}));\n",
        encoding="utf-8",
    )
    docs = tmp_path / "docs.json"
    docs.write_text(json.dumps([doc, tampered]), encoding="utf-8")
    done = subprocess.run([NODE, str(runner), str(docs)], capture_output=True, text=True, check=True)
    got = json.loads(done.stdout)
    assert got["verdicts"][0] == [v["verdict"] for v in fairness.verify_document(doc)]
    assert got["verdicts"][1] == [v["verdict"] for v in fairness.verify_document(tampered)]
    assert "failed" in got["verdicts"][1]
    import hashlib

    assert got["hashes"] == [hashlib.sha256(t.encode()).hexdigest() for t in ("", "abc", "x" * 1000, "ünï ✓")]
