"""TIMEMASTER attacks on the fair dice (a new user's walk: the GM's four attacks on the dice page
were missing from the fair-dice page's check). An attack's roll used to take the system's random
dice and was stored without a proof; now it is drawn on the campaign's stream and proved, a
missile defense die is a fair roll of its own, and both verify on the server and in the
stand-alone script once the seed is revealed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.models import Roll
from campaigns.table import fairness, rolling
from tests.campaigns.test_dice_attacks import _attack, agents  # noqa: F401  (fixture)
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_rolls.py"


def _script(document, tmp_path):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )


def test_attacks_from_the_dice_page_are_proved_and_verify_on_the_server_and_in_the_script(
    world,
    agents,  # noqa: F811
    client,
    tmp_path,
):
    client.force_login(world.users["gm"])
    melee = _attack(
        client,
        world,
        form="melee",
        results_key="armed",
        attacker_score=f"{agents['mine'].pk}:other:unskilled_melee",
        defender=str(agents["theirs"].pk),
        apply_damage="on",
    )
    assert melee.status_code == 200, melee.content.decode()
    missile = _attack(
        client,
        world,
        form="missile",
        missile_class="firearm",
        strike_base="72",
        defender=str(agents["mine"].pk),
        apply_damage="on",
    )
    assert missile.status_code == 200, missile.content.decode()
    rolls = list(Roll.objects.filter(campaign=world.campaign).order_by("proof__counter"))
    # the melee attack, the missile's defense die, the missile attack (and any check a wound
    # calls for, e.g. a knockout: made by the server, so proved as well)
    assert rolls[0].purpose.startswith("Melee attack") and rolls[0].detail.get("attack")
    assert [r.purpose.split(":")[0] for r in rolls].count("Defense die") == 1
    assert sum(1 for r in rolls if r.detail.get("attack")) == 2
    for roll in rolls:
        assert roll.proof.seed is not None and not roll.proof.by_hand, roll.purpose
    lanes: dict[str, list[int]] = {}
    for roll in rolls:
        lanes.setdefault(roll.proof.lane, []).append(roll.proof.counter)
    assert all(sorted(c) == list(range(len(c))) for c in lanes.values()), lanes
    for roll in rolls:  # any secret check a blow called for (a knockout's)
        if roll.secret:
            rolling.reveal_roll(world.membership["gm"], roll)
    fairness.rotate(world.membership["gm"])
    for name in ("gm", "player"):
        m = world.membership[name]
        document = fairness.proof_document(world.campaign, m.user, m, seed=1)
        verdicts = fairness.verify_document(document)
        assert [v["verdict"] for v in verdicts] == ["verified"] * len(rolls), verdicts
        done = _script(document, tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.count("verified") >= len(rolls), done.stdout


def test_an_attack_roll_edited_after_the_fact_fails_every_check(
    world,
    agents,  # noqa: F811
    client,
    tmp_path,
):
    client.force_login(world.users["gm"])
    response = _attack(
        client,
        world,
        form="melee",
        results_key="armed",
        attacker_score=f"{agents['mine'].pk}:other:unskilled_melee",
        defender=str(agents["theirs"].pk),
    )
    assert response.status_code == 200
    fairness.rotate(world.membership["gm"])
    m = world.membership["gm"]
    document = fairness.proof_document(world.campaign, m.user, m, seed=1)
    entry = document["rolls"][0]
    entry["faces"] = [(entry["faces"][0] + 1) % 10, *entry["faces"][1:]]
    assert fairness.verify_document(document)[0]["verdict"] == "failed"
    assert _script(document, tmp_path).returncode == 1


def test_a_strangles_round_a_fall_and_poison_are_proved_and_verify(world, agents):  # noqa: F811
    from systems.timemaster import attacks

    gm = world.membership["gm"]
    attacks.hold_round(gm, round_number=2, strangle=True, defender=agents["theirs"])
    attacks.special_damage(gm, "fall", defender=agents["mine"], feet=20)
    attacks.special_damage(gm, "poison", defender=agents["theirs"], secret=True)
    rolls = list(Roll.objects.filter(campaign=world.campaign))
    purposes = {r.purpose.split(":")[0].split(",")[0] for r in rolls}
    assert {"Strangle", "Defense die", "Fall", "Poison"} <= purposes, purposes
    assert all(r.proof.seed is not None for r in rolls), [r.purpose for r in rolls]
    assert next(r for r in rolls if r.purpose.startswith("Poison")).secret
    for roll in rolls:  # the poison check, and any secret check a blow called for
        if roll.secret:
            rolling.reveal_roll(gm, roll)
    fairness.rotate(gm)
    document = fairness.proof_document(world.campaign, gm.user, gm, seed=1)
    assert {v["verdict"] for v in fairness.verify_document(document)} == {"verified"}


def test_a_secret_missile_attacks_defense_die_is_shared_with_it_so_the_seeds_key_comes_out(
    world,
    agents,  # noqa: F811
):
    """The defense die of a secret attack is a secret roll of its own: sharing the attack shares
    it too, or it would stay the GM's and hold seed 1's secret key back for good."""
    from systems.timemaster import attacks

    gm = world.membership["gm"]
    attack = attacks.Attack(
        form="missile",
        situation={"missile_class": "firearm"},
        strike_base=72,
        defender=agents["mine"],
        secret=True,
    )
    roll, _ = attacks.resolve(gm, attack)
    die = Roll.objects.get(campaign=world.campaign, purpose__startswith="Defense die")
    assert die.secret and roll.detail["with_rolls"] == [die.pk]
    rolling.reveal_roll(gm, roll)
    die.refresh_from_db()
    assert die.revealed_at is not None
    for other in Roll.objects.filter(campaign=world.campaign, secret=True, revealed_at__isnull=True):
        rolling.reveal_roll(gm, other)  # a check a blow called for
    seed = fairness.rotate(gm)
    assert seed.secret_released_at is not None
    m = world.membership["player"]
    document = fairness.proof_document(world.campaign, m.user, m, seed=1)
    assert {v["verdict"] for v in fairness.verify_document(document)} == {"verified"}
