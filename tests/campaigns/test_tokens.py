"""API tokens: hashed, expiring, listed and revoked by their owner only, all revoked by a new password."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

WALKED_ROUTES = {"api-token-list", "api-token-revoke"}
PASSWORD = "a-long-test-password"


def new_token(username: str, password: str = PASSWORD) -> str:
    response = APIClient().post("/api/v1/auth/token/", {"username": username, "password": password})
    assert response.status_code == 200, response.content
    return response.json()["token"]


def token_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_the_token_endpoint_answers_as_before_and_stores_only_a_hash(world):
    from knox.models import AuthToken

    # The README's way: a form post of username and password, the token sent back as "Token <key>".
    response = APIClient().post("/api/v1/auth/token/", {"username": "player", "password": PASSWORD})
    body = response.json()
    assert response.status_code == 200 and set(body) == {"token", "expiry"}
    assert token_client(body["token"]).get("/api/v1/me/").json()["username"] == "player"
    stored = AuthToken.objects.get(user=world.users["player"])
    assert body["token"] not in (stored.digest, stored.token_key) and body["token"].startswith(
        stored.token_key
    )
    # JSON works too, and a wrong password is the API's usual 400.
    as_json = APIClient().post(
        "/api/v1/auth/token/", {"username": "player", "password": PASSWORD}, format="json"
    )
    assert as_json.status_code == 200
    wrong = APIClient().post("/api/v1/auth/token/", {"username": "player", "password": "wrong"})
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["message"]


def test_a_token_expires_after_the_configured_days(world, settings):
    from knox.models import AuthToken

    token = new_token("player")
    stored = AuthToken.objects.get(user=world.users["player"])
    days = settings.REST_KNOX["TOKEN_TTL"].days
    assert days == 30
    assert timedelta(days=days - 1) < stored.expiry - timezone.now() <= timedelta(days=days)
    AuthToken.objects.filter(pk=stored.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    response = token_client(token).get("/api/v1/me/")
    assert response.status_code == 401 and response.json()["errors"]


def test_the_listing_shows_only_ones_own_tokens_and_marks_the_current_one(world):
    first, second = new_token("player"), new_token("player")
    new_token("other_player")
    listing = token_client(second).get("/api/v1/auth/tokens/")
    assert listing.status_code == 200
    rows = listing.json()
    assert {row["id"] for row in rows} == {first[:15], second[:15]}
    assert [row["current"] for row in rows if row["id"] == second[:15]] == [True]
    assert all(row["expiry"] for row in rows)


def test_revoking_a_token_stops_it_at_once(world):
    keep, drop = new_token("player"), new_token("player")
    client = token_client(keep)
    assert client.delete(f"/api/v1/auth/tokens/{drop[:15]}/").status_code == 204
    assert token_client(drop).get("/api/v1/me/").status_code == 401
    assert client.get("/api/v1/me/").status_code == 200
    assert client.delete(f"/api/v1/auth/tokens/{drop[:15]}/").status_code == 404


def test_another_users_token_is_not_found_and_keeps_working(world):
    mine, theirs = new_token("player"), new_token("other_player")
    response = token_client(mine).delete(f"/api/v1/auth/tokens/{theirs[:15]}/")
    assert response.status_code == 404 and response.json()["status"] == 404
    assert token_client(theirs).get("/api/v1/me/").status_code == 200


@pytest.mark.parametrize("path", ["/api/v1/auth/tokens/", "/api/v1/auth/tokens/abc/"])
def test_the_token_endpoints_need_a_login(db, path):
    client = APIClient()
    response = client.get(path) if path.endswith("tokens/") else client.delete(path)
    assert response.status_code == 401 and response.json()["status"] == 401


def test_changing_the_password_on_the_web_revokes_every_token(world, client):
    tokens = [new_token("player"), new_token("player")]
    other = new_token("other_player")
    client.force_login(world.users["player"])
    response = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-password-42",
            "new_password2": "another-long-password-42",
        },
    )
    assert response.status_code == 302
    assert all(token_client(token).get("/api/v1/me/").status_code == 401 for token in tokens)
    assert token_client(other).get("/api/v1/me/").status_code == 200
    assert "API tokens were revoked" in client.get(response["Location"]).content.decode()


def test_a_password_set_any_other_way_revokes_the_tokens_too(world):
    token = new_token("player")
    user = world.users["player"]
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])  # a save that does not touch the password keeps them
    assert token_client(token).get("/api/v1/me/").status_code == 200
    user.set_password("another-long-password-42")
    user.save()
    assert token_client(token).get("/api/v1/me/").status_code == 401


def test_too_many_active_tokens_is_refused_until_one_is_revoked(world, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_LIMIT_PER_USER": 2}
    first = new_token("player")
    new_token("player")
    refused = APIClient().post("/api/v1/auth/token/", {"username": "player", "password": PASSWORD})
    assert refused.status_code == 409 and "revoke one" in refused.json()["errors"][0]["message"]
    token_client(first).delete(f"/api/v1/auth/tokens/{first[:15]}/")
    assert new_token("player")


def test_the_token_page_lists_and_revokes_only_ones_own(world, client):
    mine, theirs = new_token("player"), new_token("other_player")
    client.force_login(world.users["player"])
    page = client.get("/accounts/tokens/").content.decode()
    assert mine[:15] in page and theirs[:15] not in page and mine not in page
    assert client.post(f"/accounts/tokens/{theirs[:15]}/revoke/").status_code == 404
    assert token_client(theirs).get("/api/v1/me/").status_code == 200
    response = client.post(f"/accounts/tokens/{mine[:15]}/revoke/")
    assert response.status_code == 302
    assert token_client(mine).get("/api/v1/me/").status_code == 401
    assert mine[:15] not in client.get("/accounts/tokens/").content.decode()


@pytest.mark.parametrize(
    "header", ["Token \u00e9\u00e9", "Token abc", "Token " + "f" * 64, "Token a b", "Token"]
)
def test_a_malformed_or_unknown_token_is_401_never_500(db, header):
    response = APIClient().get("/api/v1/me/", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401 and response.json()["status"] == 401
