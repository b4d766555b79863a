"""Bad input to every write endpoint gets a readable 4xx naming the field, and changes nothing."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign, Invitation, Membership, Mission, Roll

HUGE = "x" * 100_000


def _counts():
    return (
        Campaign.objects.count(),
        Membership.objects.count(),
        Invitation.objects.count(),
        Mission.objects.count(),
        Roll.objects.count(),
    )


CASES = [
    ("post", "/api/v1/campaigns/", {}, "name"),
    ("post", "/api/v1/campaigns/", {"name": "X", "system": "gurps"}, "system"),
    ("post", "/api/v1/campaigns/", {"name": HUGE, "system": "d6"}, "name"),
    ("post", "/api/v1/campaigns/", {"name": 12, "system": ["d6"]}, "system"),
    ("post", "/api/v1/campaigns/", {"name": "X", "system": "tempo"}, "module"),
    ("post", "/api/v1/campaigns/", {"name": "X", "system": "d6", "module": "flashpoints"}, "module"),
    ("post", "/api/v1/campaigns/", {"name": "X", "system": "d6", "settings": {"nope": 1}}, "settings.nope"),
    ("post", "/api/v1/campaigns/", {"name": "X", "system": "d6", "settings": "flat"}, "settings"),
    ("post", "/api/v1/campaigns/", {"name": "X", "system": "d6", "description": HUGE}, "description"),
    ("patch", "/api/v1/campaigns/{c}/", {"settings": {"unknown_setting": True}}, "settings.unknown_setting"),
    ("patch", "/api/v1/campaigns/{c}/", {"name": ""}, "name"),
    ("patch", "/api/v1/campaigns/{c}/members/{gm_member}/", {"role": "player"}, "role"),
    ("patch", "/api/v1/campaigns/{c}/members/{player_member}/", {"role": "king"}, "role"),
    ("patch", "/api/v1/campaigns/{c}/members/{player_member}/", {}, "role"),
    ("delete", "/api/v1/campaigns/{c}/members/{gm_member}/", None, "role"),
    ("post", "/api/v1/campaigns/{c}/invitations/", {"days": 0}, "days"),
    ("post", "/api/v1/campaigns/{c}/invitations/", {"days": "soon"}, "days"),
    ("post", "/api/v1/campaigns/{c}/invitations/", {"max_uses": -4}, "max_uses"),
    ("post", "/api/v1/invitations/accept/", {}, "code"),
    ("post", "/api/v1/invitations/accept/", {"code": "does-not-exist"}, "code"),
    ("post", "/api/v1/invitations/accept/", {"code": HUGE}, "code"),
    ("post", "/api/v1/campaigns/{c}/missions/", {}, "title"),
    ("post", "/api/v1/campaigns/{c}/missions/", {"title": HUGE}, "title"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {}, "kind"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d7"}, "kind"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "count": 1000}, "count"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "count": "many"}, "count"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "percent", "count": 3}, "count"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "modifier": 10**12}, "modifier"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "purpose": HUGE}, "purpose"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "mission": 999999}, "mission"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "mission": "x"}, "mission"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "character": 999999}, "character"),
    ("post", "/api/v1/campaigns/{c}/rolls/", {"kind": "d6", "secret": "perhaps"}, "secret"),
]


@pytest.mark.parametrize("method,path,body,field", CASES, ids=[f"{c[0]} {c[1]} {c[3]}" for c in CASES])
def test_bad_input_gets_a_4xx_naming_the_field_and_changes_nothing(world, api, method, path, body, field):
    ids = {
        "c": world.campaign.pk,
        "gm_member": world.membership["gm"].pk,
        "player_member": world.membership["player"].pk,
    }
    before = _counts()
    response = getattr(api(world.users["gm"]), method)(path.format(**ids), body, format="json")
    assert 400 <= response.status_code < 500, response.content[:500]
    payload = response.json()
    assert payload["status"] == response.status_code
    assert any(e["field"] == field and e["message"] for e in payload["errors"]), payload
    assert _counts() == before


@pytest.mark.parametrize("path", ["/api/v1/campaigns/", "/api/v1/campaigns/{c}/rolls/"])
def test_malformed_json_is_a_400(world, api, path):
    response = api(world.users["gm"]).generic(
        "POST", path.format(c=world.campaign.pk), "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"]


def test_an_oversized_body_is_refused(world, api):
    response = api(world.users["gm"]).post(
        "/api/v1/campaigns/", {"name": "X", "system": "d6", "description": "y" * 3_000_000}, format="json"
    )
    assert response.status_code in (400, 413)
    assert not Campaign.objects.filter(name="X").exists()


@pytest.mark.parametrize("path", ["/api/v1/campaigns/abc/", "/api/v1/campaigns/99999999999999999999/rolls/"])
def test_nonsense_ids_are_404_not_500(world, api, path):
    response = api(world.users["gm"]).get(path)
    assert response.status_code == 404
