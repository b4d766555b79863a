"""The roll log's hand-written representation (campaigns/api.py RollSerializer, written for speed)
must stay exactly what DRF's generic field walk gives, and the log's filters must still filter
and refuse bad values when the request skips the filterset."""

from __future__ import annotations

import json

import pytest
from rest_framework import serializers

from campaigns.models import Mission, Roll
from campaigns.table import rolling
from campaigns.table.api_rolls import RollSerializer

pytestmark = pytest.mark.django_db


def generic(roll: Roll) -> dict:
    return serializers.ModelSerializer.to_representation(RollSerializer(), roll)


def test_every_kind_of_roll_is_represented_as_the_generic_serializer_does(world, api, rng):
    mission = Mission.objects.create(campaign=world.campaign, title="Paris 1789")
    gm, player = world.membership["gm"], world.membership["player"]
    rolls = [
        rolling.record_roll(player, kind="d10", count=3, purpose="open", rng=rng),
        rolling.record_roll(gm, kind="percent", count=1, modifier=-7, secret=True, mission=mission, rng=rng),
        rolling.record_roll(player, kind="fudge", count=4, purpose="", rng=rng),
        rolling.record_roll(
            player, kind="3d6_bonus", count=1, detail={"margin": 5, "result": "hit"}, rng=rng
        ),
    ]
    orphan = rolling.record_roll(player, kind="d6", count=2, purpose="roller gone", rng=rng)
    Roll.objects.filter(pk=orphan.pk).update(roller=None)
    rolls.append(Roll.objects.get(pk=orphan.pk))
    for roll in Roll.objects.filter(pk__in=[r.pk for r in rolls]).select_related("roller"):
        fast = RollSerializer(roll, context={"gm": True}).data
        assert json.dumps(fast) == json.dumps(generic(roll))  # same keys, same order, same values
    # The log's page (read as rows, not instances) is the same as the generic serializer's.
    listing = api(world.users["gm"]).get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/").json()["results"]
    expected = [json.loads(json.dumps(generic(roll))) for roll in Roll.objects.select_related("roller")]
    assert listing == expected
    assert [list(entry) for entry in listing] == [list(entry) for entry in expected]
    assert RollSerializer(rolls[-1]).data["roller"] is None
    assert RollSerializer(rolls[1]).data["mission"] == mission.pk
    assert RollSerializer(rolls[0]).data["created_at"].endswith("Z")


def test_the_roll_log_filters_by_mission_and_refuses_an_unknown_one(world, api, rng):
    mission = Mission.objects.create(campaign=world.campaign, title="Rome 44 BC")
    player = world.membership["player"]
    rolling.record_roll(player, kind="d10", count=1, mission=mission, rng=rng)
    rolling.record_roll(player, kind="d10", count=1, rng=rng)
    client = api(world.users["player"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/rolls/"
    assert len(client.get(url).json()["results"]) == 2
    assert [r["mission"] for r in client.get(url, {"mission": mission.pk}).json()["results"]] == [mission.pk]
    refused = client.get(url, {"mission": 999999})
    assert refused.status_code == 400
    assert "mission" in json.dumps(refused.json())
