"""Every redirect target taken from the request stays on this site (issue 18, finding 4): signup,
login and logout follow ``next`` only to a path of ours, and fall back to their default otherwise."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

HOSTILE = [
    "https://evil.example/",
    "//evil.example/path",
    "http:\\\\evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    "data:text/html,<script>alert(1)</script>",
    "https://testserver@evil.example/",
]
NEW_ACCOUNT = {"username": "newbie", "password1": "zebra-lantern-93", "password2": "zebra-lantern-93"}


@pytest.mark.parametrize("target", HOSTILE)
def test_signup_never_redirects_off_site(client, db, django_user_model, target):
    response = client.post("/accounts/signup/?" + urlencode({"next": target}), NEW_ACCOUNT)
    assert response.status_code == 302
    assert response["Location"] == "/campaigns/"
    assert django_user_model.objects.filter(username="newbie").exists()


def test_signup_follows_a_next_on_this_site(client, db):
    response = client.post("/accounts/signup/?next=/campaigns/new/", NEW_ACCOUNT)
    assert response.status_code == 302 and response["Location"] == "/campaigns/new/"


@pytest.mark.parametrize("target", HOSTILE)
def test_login_never_redirects_off_site(client, make_user, target):
    make_user("pat")
    response = client.post(
        "/accounts/login/", {"username": "pat", "password": "a-long-test-password", "next": target}
    )
    assert response.status_code == 302
    assert response["Location"] == "/campaigns/"
    # The login page's signup link carries only a safe next along.
    client.logout()
    page = client.get("/accounts/login/", {"next": target}).content.decode()
    assert "evil.example" not in page and "javascript" not in page.lower()


@pytest.mark.parametrize("target", HOSTILE)
def test_logout_never_redirects_off_site(client, make_user, target):
    client.force_login(make_user("pat"))
    response = client.post("/accounts/logout/?" + urlencode({"next": target}))
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/"
