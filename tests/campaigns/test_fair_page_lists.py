"""The fair-dice page lists every roll the reader sees under the seed it checks, and says why a
roll cannot be checked (a new user's walk: after seed 1 was revealed, "Check every roll" listed
two rolls and said nothing of the GM's attacks, stored with no proof, nor of the rolls made since
the reveal, under seed 2). A roll no seed made (by hand, or made without the fair dice) is listed
under the seed in use when it was made; a sealed roll says it waits for the GM; the page says that
later rolls are under the seed in use. Players learn nothing hidden: an unannounced roll is in no
player's list, and a sealed roll's words name nothing of it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.table import fairness, rolling
from characters.systems import fair_dice

pytestmark = pytest.mark.django_db

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_rolls.py"


def _listed(world, name, seed):
    m = world.membership[name]
    document = fairness.proof_document(world.campaign, m.user, m, seed=seed)
    verdicts = fairness.verify_document(document)
    return document, {
        entry.get("purpose") or ("sealed" if entry["sealed"] else ""): (v["verdict"], v["reason"])
        for entry, v in zip(document["rolls"], verdicts, strict=True)
    }


def _play(world):
    gm, player = world.membership["gm"], world.membership["player"]
    rolling.record_roll(player, kind="percent", purpose="open")
    rolling.enter_roll_by_hand(player, kind="d6", faces=[4], purpose="by hand")
    rolling.record_roll(gm, kind="d10", purpose="scripted", rng=random.Random(3))  # no proof
    rolling.record_roll(gm, kind="d10", purpose="sealed", secret=True)
    rolling.record_roll(
        gm, kind="d10", purpose="unannounced", secret=True, announced=False, rng=random.Random(4)
    )


def test_the_checked_seed_lists_rolls_without_a_proof_and_says_why(world, tmp_path):
    _play(world)
    fairness.rotate(world.membership["gm"])
    rolling.record_roll(world.membership["gm"], kind="d6", purpose="after the reveal")
    _, player = _listed(world, "player", 1)
    assert player == {
        "open": ("verified", ""),
        "by hand": ("by hand", fair_dice.WHY_BY_HAND),
        "scripted": ("not verifiable", fair_dice.WHY_UNPROVEN),
        "sealed": ("sealed", fair_dice.WHY_SEALED),
    }
    _, gm = _listed(world, "gm", 1)
    assert set(gm) == {"open", "by hand", "scripted", "sealed", "unannounced"}
    assert gm["unannounced"] == ("not verifiable", fair_dice.WHY_UNPROVEN)
    # what was made after the reveal is under seed 2, in use
    document, later = _listed(world, "player", 2)
    assert later == {"after the reveal": ("pending", fair_dice.waits_for(2, "open", {}, {}))}
    # the stand-alone script gives the same reasons
    document, _ = _listed(world, "player", 1)
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for reason in (fair_dice.WHY_BY_HAND, fair_dice.WHY_UNPROVEN, fair_dice.WHY_SEALED):
        assert reason in done.stdout, done.stdout


def test_the_page_says_later_rolls_are_under_the_seed_in_use_and_hides_the_unannounced(world, client):
    _play(world)
    fairness.rotate(world.membership["gm"])
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/").content.decode()
    note = page.split('data-testid="fair-list-note">')[1].split("</p>")[0]
    assert "every roll you see that was made while seed 1 was in use" in note
    assert "seed 2 is in use now" in note and 'href="?seed=2"' in note
    assert "unannounced" not in page and "scripted" in page
    client.force_login(world.users["gm"])
    assert "unannounced" in client.get(f"/campaigns/{world.campaign.pk}/dice/fair/").content.decode()
