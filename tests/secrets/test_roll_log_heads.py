"""The roll log counts nothing a reader may not see (issue 48; docs/fair-dice.md, "One log per
audience"): rolls the GM keeps from the players (unannounced, in a mission or not) change the GM's
tree only, and a sealed roll's result changes nothing the table is shown; every head a player, the
other player or an observer is given stays byte for byte the same. The worlds of
test_non_interference.py compare the whole fair-dice page and API besides."""

from __future__ import annotations

import json

import pytest

from campaigns.models import LogLeaf, Mission, RollLog
from campaigns.table import fairness, rolling, rolllog
from characters.systems import fair_dice

pytestmark = pytest.mark.django_db

READERS = ("player", "other_player", "observer")


def _logs(world, name):
    m = world.membership[name]
    return json.loads(json.dumps(fairness.proof_document(world.campaign, m.user, m)))["logs"]


def _play(world):
    player, gm = world.membership["player"], world.membership["gm"]
    for count in (1, 2):
        rolling.record_roll(player, kind="d10", count=count)
    rolling.record_roll(gm, kind="percent", secret=True)  # announced: the table knows it exists


def test_a_hidden_roll_leaves_every_readers_heads_as_they_were(world):
    _play(world)
    seen = {name: _logs(world, name) for name in READERS}
    gm_size = _logs(world, "gm")[0]["head"]["size"]
    gm = world.membership["gm"]
    mission = Mission.objects.create(campaign=world.campaign, title="Paris")
    rolling.record_roll(gm, kind="d1000", secret=True, announced=False, mission=mission)
    rolling.record_roll(gm, kind="d1000", secret=True, announced=False)
    for name, logs in seen.items():
        assert _logs(world, name) == logs, name  # heads, signatures, leaves and proofs alike
    assert _logs(world, "gm")[0]["head"]["size"] == gm_size + 2
    assert [log["audience"] for log in seen["player"]] == ["table"]


def test_a_sealed_rolls_leaf_does_not_depend_on_its_result(world, monkeypatch):
    """The sealed leaf commits to the roll's draw (seed, lane, counter, players' seeds), which the
    seed turns into dice: two results of one draw give the table the same leaf."""
    _play(world)
    gm = world.membership["gm"]
    roll = rolling.record_roll(gm, kind="percent", secret=True, purpose="Does the guard notice?")
    table = RollLog.objects.get(campaign=world.campaign, audience="table")
    leaf = LogLeaf.objects.get(log=table, roll_id=roll.pk)
    other = type(roll).objects.get(pk=roll.pk)
    other.faces, other.kept, other.total = [9, 9], [9, 9], 99
    record = rolllog.record_of(
        other, lane=roll.proof.lane, counter=roll.proof.counter, seed=roll.proof.seed.number
    )
    again = fair_dice.sealed_leaf(
        roll.pk, fair_dice.draw_of(record, roll.proof.client_seeds), rolllog.seal_salt(roll)
    )
    assert again == leaf.data and record["total"] != roll.proof.record["total"]
