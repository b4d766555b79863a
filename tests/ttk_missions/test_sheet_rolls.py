"""Click to roll from a Time to Kill ninja's page (campaigns/sheet_rolls.py): an ability against
the Fate the GM revealed, on the Action Table; filed with the ninja's running mission run."""

from __future__ import annotations

import pytest

from campaigns.models import Roll

pytestmark = pytest.mark.django_db


def test_each_ability_is_a_button_and_the_roll_reads_the_action_table(client, api, ttk):
    client.force_login(ttk.users["player"])
    html = client.get(f"/characters/{ttk.ninja.pk}/").content.decode()
    assert 'data-testid="roll-ability:stealth"' in html
    made = api(ttk.users["player"]).post(
        f"/api/v1/characters/{ttk.ninja.pk}/rolls/",
        {"spec": "ability:stealth", "modifiers": {"fate": "0"}},
        format="json",
    )
    assert made.status_code == 201, made.content
    roll = Roll.objects.get()
    assert roll.kind == "d6" and roll.detail["fail_on"] == 1
    assert roll.detail["success"] is (roll.total > 1)


def test_an_automatic_result_takes_no_roll(api, ttk):
    refused = api(ttk.users["player"]).post(
        f"/api/v1/characters/{ttk.ninja.pk}/rolls/",
        {"spec": "ability:stealth", "modifiers": {"fate": "+"}},
        format="json",
    )
    assert refused.status_code == 400 and "automatic success" in refused.json()["errors"][0]["message"]
    assert not Roll.objects.exists()


def test_a_roll_during_the_ninjas_run_is_filed_with_it(api, ttk, start):
    run = start()
    made = api(ttk.users["player"]).post(
        f"/api/v1/characters/{ttk.ninja.pk}/rolls/",
        {"spec": "ability:armed", "modifiers": {"fate": "0"}},
        format="json",
    )
    roll = Roll.objects.get(pk=made.json()["id"])
    assert roll.detail["during"] == {"title": f"Mission run “{run.title}”", "url": f"/ttk/{run.pk}/"}
