"""Click to roll from a D6 character's page (campaigns/table/sheet_rolls.py): every die code, with the
Wild Die on fair dice (the d6_wild kind, which the verifiers recompute) or entered by hand, filed
with the running encounter."""

from __future__ import annotations

import pytest

from campaigns.models import Roll
from campaigns.table import fairness

pytestmark = pytest.mark.django_db


def test_every_attribute_and_skill_is_a_button_for_its_player(client, d6):
    client.force_login(d6.users["player"])
    html = client.get(f"/characters/{d6.ada.pk}/").content.decode()
    for key in ("code:Perception", "code:Reflexes", "code:brawling"):
        assert f'data-testid="roll-{key}"' in html
    client.force_login(d6.users["observer"])
    assert 'data-testid="roll-code:brawling"' not in client.get(f"/characters/{d6.ada.pk}/").content.decode()


def test_a_die_code_rolls_with_the_wild_die_and_verifies(api, d6):
    client = api(d6.users["player"])
    for _ in range(3):
        made = client.post(
            f"/api/v1/characters/{d6.ada.pk}/rolls/", {"spec": "code:Perception"}, format="json"
        )
        assert made.status_code == 201, made.content
    rolls = list(Roll.objects.all())
    assert {r.kind for r in rolls} == {"d6_wild"} and {r.count for r in rolls} == {4}
    for roll in rolls:
        assert len(roll.faces) >= 4 and roll.detail["total"] == sum(roll.faces)
    fairness.rotate(d6.membership["gm"])
    doc = fairness.proof_document(d6.campaign, d6.users["player"], d6.membership["player"])
    assert [v["verdict"] for v in fairness.verify_document(doc)] == ["verified"] * 3


def test_the_multi_action_penalty_and_a_code_left_with_nothing(api, d6):
    client = api(d6.users["player"])
    made = client.post(
        f"/api/v1/characters/{d6.ada.pk}/rolls/",
        {"spec": "code:Perception", "modifiers": {"actions": 3}},
        format="json",
    )
    assert made.status_code == 201 and made.json()["count"] == 2  # 4D - 2D
    refused = client.post(
        f"/api/v1/characters/{d6.ada.pk}/rolls/",
        {"spec": "code:Perception", "modifiers": {"actions": 5}},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "modifiers.actions"
    assert Roll.objects.count() == 1


def test_wild_dice_rolled_at_the_table_follow_the_wild_die_rule(api, d6):
    client = api(d6.users["player"])
    url = f"/api/v1/characters/{d6.ada.pk}/rolls/"
    made = client.post(url, {"spec": "code:Strength", "faces": [2, 3, 6, 6, 1]}, format="json")
    assert made.status_code == 201, made.content
    roll = Roll.objects.get()
    assert roll.proof.by_hand and roll.total == 18 and roll.detail["wild"] == [6, 6, 1]
    # the Wild Die showed 6: a further face is owed
    short = client.post(url, {"spec": "code:Strength", "faces": [2, 3, 6]}, format="json")
    assert short.status_code == 400 and short.json()["errors"][0]["field"] == "faces"
    assert Roll.objects.count() == 1


def test_a_roll_during_a_running_encounter_is_filed_with_it(api, d6, running):
    made = api(d6.users["player"]).post(
        f"/api/v1/characters/{d6.ada.pk}/rolls/", {"spec": "code:brawling"}, format="json"
    )
    roll = Roll.objects.get(pk=made.json()["id"])
    assert roll.detail["during"]["title"] == "Encounter “Dockside”"
