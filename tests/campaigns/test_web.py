"""The web pages: who may open what, and that forms answer bad input with a 400."""

import pytest

from campaigns.models import Campaign, Membership, Roll

PAGES = ["/campaigns/{c}/", "/campaigns/{c}/members/", "/campaigns/{c}/dice/", "/campaigns/{c}/dice/log/"]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("role,status", [("gm", 200), ("player", 200), ("observer", 200), ("outsider", 404)])
def test_campaign_pages_by_role(world, client, page, role, status):
    client.force_login(world.users[role])
    assert client.get(page.format(c=world.campaign.pk)).status_code == status


@pytest.mark.parametrize("page", PAGES + ["/campaigns/", "/campaigns/new/"])
def test_pages_need_login(world, client, page):
    response = client.get(page.format(c=world.campaign.pk))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_settings_page_is_gm_only(world, client):
    client.force_login(world.users["player"])
    assert client.get(f"/campaigns/{world.campaign.pk}/settings/").status_code == 403
    client.force_login(world.users["gm"])
    assert client.get(f"/campaigns/{world.campaign.pk}/settings/").status_code == 200


def test_signup_logs_in_and_lists_campaigns(client, db):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "zebra-lantern-93", "password2": "zebra-lantern-93"},
    )
    assert response.status_code == 302
    assert client.get("/campaigns/").status_code == 200


def test_signup_with_mismatched_passwords_is_a_400(client, db):
    response = client.post(
        "/accounts/signup/", {"username": "x", "password1": "zebra-lantern-93", "password2": "no"}
    )
    assert response.status_code == 400
    assert b"didn" in response.content or b"match" in response.content


def test_create_campaign_from_the_web(client, make_user):
    client.force_login(make_user("maker"))
    response = client.post("/campaigns/new/", {"name": "Flash", "system": "tempo:flashpoints"})
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Flash")
    assert (campaign.system, campaign.module) == ("tempo", "flashpoints")
    bad = client.post("/campaigns/new/", {"name": "", "system": "gurps"})
    assert bad.status_code == 400


def test_rolling_on_the_page_logs_and_bad_input_is_400(world, client):
    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/dice/"
    ok = client.post(url, {"kind": "d10", "count": 2, "modifier": 0}, HTTP_HX_REQUEST="true")
    assert ok.status_code == 200 and Roll.objects.count() == 1
    bad = client.post(url, {"kind": "percent", "count": 5, "modifier": 0})
    assert bad.status_code == 400 and Roll.objects.count() == 1


def test_observer_cannot_roll_on_the_page(world, client):
    client.force_login(world.users["observer"])
    response = client.post(f"/campaigns/{world.campaign.pk}/dice/", {"kind": "d6", "count": 1, "modifier": 0})
    assert response.status_code == 403 and Roll.objects.count() == 0


def test_join_link_flow(world, client):
    from campaigns import services

    invitation = services.create_invitation(world.campaign, world.users["gm"])
    anonymous = client.get(f"/join/{invitation.code}/")
    assert anonymous.status_code == 200 and b"Log in" in anonymous.content
    client.force_login(world.users["outsider"])
    assert client.post(f"/join/{invitation.code}/").status_code == 302
    assert Membership.objects.filter(campaign=world.campaign, user=world.users["outsider"]).exists()
    services.revoke_invitation(invitation)
    assert client.get("/join/nope/").status_code == 404


def test_gm_manages_members_from_the_page(world, client):
    client.force_login(world.users["gm"])
    member = world.membership["observer"]
    client.post(f"/campaigns/{world.campaign.pk}/members/{member.pk}/role/", {"role": "player"})
    assert Membership.objects.get(pk=member.pk).role == "player"
    client.post(f"/campaigns/{world.campaign.pk}/members/{member.pk}/remove/", {"confirm": "1"})
    assert not Membership.objects.filter(pk=member.pk).exists()
    client.force_login(world.users["player"])
    other = world.membership["other_player"]
    assert (
        client.post(
            f"/campaigns/{world.campaign.pk}/members/{other.pk}/remove/", {"confirm": "1"}
        ).status_code
        == 403
    )
