"""The fair-dice page offers the stand-alone verifier as a download (issue 48): a member gets the
script the project ships; anyone else gets what any other page of the campaign answers them."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_rolls.py"


def test_a_member_downloads_the_verifier_the_project_ships(world, client):
    client.force_login(world.users["player"])
    response = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/verifier/")
    assert response.status_code == 200
    assert 'filename="dossier-verify-rolls.py"' in response["Content-Disposition"]
    assert b"".join(response.streaming_content) == SCRIPT.read_bytes()
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/").content.decode()
    assert f"/campaigns/{world.campaign.pk}/dice/fair/verifier/" in page


@pytest.mark.parametrize("who", ["outsider", None])
def test_nobody_outside_the_campaign_gets_it_through_its_address(world, client, who):
    if who:
        client.force_login(world.users[who])
    response = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/verifier/")
    assert response.status_code in (302, 404)
