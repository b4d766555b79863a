"""The stand-alone verifier (scripts/verify_rolls.py, stdlib only), the browser's verifier
(static/js/fair-dice.js, run under node) and the archive's fair-dice sections all agree with
campaigns.table.fairness on the same rolls, tampered copies included."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from archive import services as archive_services
from archive.format import FORMAT_VERSION
from campaigns.models import Mission
from campaigns.table import fairness, rolling

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "verify_rolls.py"
JS = ROOT / "static" / "js" / "fair-dice.js"


def _play(world):
    gm, player = world.membership["gm"], world.membership["player"]
    fairness.set_client_seed(player, "ünïcode ✓ seed")
    fairness.set_client_seed(world.membership["other_player"], "Zebra")
    mission = Mission.objects.create(campaign=world.campaign, title="Rome")
    rolling.record_roll(player, kind="d10", count=4, modifier=-2)
    rolling.record_roll(player, kind="3d6_penalty", count=3)
    rolling.record_roll(gm, kind="fudge", count=4)
    rolling.record_roll(gm, kind="d1000")
    shared = rolling.record_roll(gm, kind="percent", secret=True, mission=mission)
    rolling.reveal_roll(gm, shared)
    rolling.enter_roll_by_hand(player, kind="d6", faces=[2, 2], count=2)
    fairness.rotate(gm)
    rolling.record_roll(player, kind="d6", count=2)  # under seed 2: pending until it is rotated


def _doc(world, name="player"):
    m = world.membership[name]
    return json.loads(json.dumps(fairness.proof_document(world.campaign, m.user, m)))


def _run_script(tmp_path, document) -> subprocess.CompletedProcess:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    # -I: no environment, no user site: the standard library (and cryptography, for the log's heads).
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True, check=False
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
    # The GM's archive holds no seed before it is revealed (issue 48, finding 5): the roll under the
    # seed in use waits there as it does on the page.
    assert done.stdout.splitlines()[-1] == "1 by hand, 1 pending, 5 verified"
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
    # The seed in use did not travel (issue 48, finding 5): the copy rolls on under a new seed.
    roll = rolling.record_roll(gm, kind="d6")
    assert (roll.proof.seed.number, roll.proof.counter) == (3, 0)
    assert roll.proof.seed.server_seed not in json.dumps(archive)


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


def test_the_archive_carries_no_seed_or_key_before_its_release(world):
    """Issue 48, finding 5: the GM's archive held every seed whole, the one in use and the secret
    keys not yet out included, so its holder could compute the next open and secret rolls."""
    from campaigns.models import RollSeed

    _play(world)
    gm = world.membership["gm"]
    rolling.record_roll(gm, kind="percent", secret=True)  # sealed: seed 2's key stays in
    fairness.open_scope(world.campaign, "scene-one")  # a scene under way: its key stays in
    archive = archive_services.export_campaign(world.campaign)
    text = json.dumps(archive)
    in_use = RollSeed.objects.get(campaign=world.campaign, rotated_at__isnull=True)
    from campaigns.models import DiceScope

    unreleased = [in_use.server_seed, in_use.secret_key, DiceScope.objects.get(label="scene-one").secret_key]
    assert not any(secret in text for secret in unreleased)
    by_number = {s["number"]: s for s in archive["fair_dice"]}
    assert by_number[2]["server_seed"] is None and by_number[2]["secret_key"] is None
    assert by_number[2]["commitment"] == in_use.commitment and by_number[2]["next_open"] == 1
    assert by_number[1]["server_seed"] and by_number[1]["secret_key"]  # revealed, key out
    assert archive["format_version"] == FORMAT_VERSION


def test_a_restore_keeps_the_released_proofs_and_says_what_stays_sealed(world):
    from campaigns.models import Roll

    _play(world)
    gm = world.membership["gm"]
    sealed = rolling.record_roll(gm, kind="percent", secret=True, purpose="The guard's spot check")
    fairness.rotate(gm)  # seed 2 revealed; its key stays in while the secret roll is sealed
    archive = json.loads(json.dumps(archive_services.export_campaign(world.campaign)))
    warnings: list[str] = []
    copy_ = archive_services.import_campaign(archive, world.users["gm"], warnings=warnings)
    member = copy_.memberships.get(user=world.users["gm"])
    verdicts = fairness.verify_document(fairness.proof_document(copy_, member.user, member))
    # every proof checkable when the file was written still is; the secret roll waits for good
    assert [v["verdict"] for v in verdicts] == ["verified"] * 5 + ["by hand", "verified", "pending"]
    assert any(
        "seed 2's secret key was not released" in line
        and "1 of them stay sealed for good" in line
        and sealed.purpose in line
        for line in warnings
    ), warnings
    assert any("seed 3 was in use when the archive was written" in line for line in warnings), warnings
    # the key nobody holds is never released, even once every secret roll is shared
    copied = Roll.objects.get(campaign=copy_, purpose=sealed.purpose)
    rolling.reveal_roll(member, copied)
    assert not copied.proof.seed.secret_released_at
    assert "can never be checked" in fairness.seed_state(copied.proof.seed)


def test_a_version_3_archive_loses_its_unreleased_seeds_and_keys_on_upgrade(world):
    """The upgrade step: a version-3 file held the seed in use and the unreleased keys whole; the
    restored campaign rolls under none of them."""
    from archive import format as archive_format

    _play(world)
    fairness.open_scope(world.campaign, "scene-one")
    archive = json.loads(json.dumps(archive_services.export_campaign(world.campaign)))
    from campaigns.models import DiceScope, RollSeed

    in_use = RollSeed.objects.get(campaign=world.campaign, rotated_at__isnull=True)
    archive["format_version"] = 3  # as version 3 wrote it: every seed and key whole
    archive["fair_dice"][1].update(server_seed=in_use.server_seed, secret_key=in_use.secret_key)
    scene = next(s for s in archive["fair_dice_scopes"] if s["label"] == "scene-one")
    scene["secret_key"] = DiceScope.objects.get(label="scene-one").secret_key
    upgraded = archive_format.upgrade(copy.deepcopy(archive), archive_format.CAMPAIGN)
    assert upgraded["fair_dice"][1]["server_seed"] is None and upgraded["fair_dice"][1]["secret_key"] is None
    assert upgraded["fair_dice"][0]["server_seed"] == archive["fair_dice"][0]["server_seed"]
    assert next(s for s in upgraded["fair_dice_scopes"] if s["label"] == "scene-one")["secret_key"] is None
    copy_ = archive_services.import_campaign(archive, world.users["gm"])
    assert in_use.server_seed not in set(
        RollSeed.objects.filter(campaign=copy_).values_list("server_seed", flat=True)
    )
    # a roll in the restored scene goes on in a scope of its own, under a key someone holds
    gm = copy_.memberships.get(user=world.users["gm"])
    roll = rolling.record_roll(gm, kind="d6", secret=True, scope="scene-one")
    assert roll.proof.lane == "secret:scene-one-r"
    assert DiceScope.objects.get(campaign=copy_, label="scene-one-r").secret_key
