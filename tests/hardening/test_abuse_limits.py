"""Logins lock out after repeated failures; signups, tokens, logins and imports are rate limited.

Every limit answers 429 with Retry-After: in the API's error shape on the API, a readable page on
the web. The rates are settings (RATE_LIMITS, AXES_*); tests set small ones.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

PASSWORD = "a-long-test-password"


@pytest.fixture
def small_rates(settings):
    small = {"signup": "2/hour", "token": "3/hour", "login": "4/hour", "archive-import": "2/hour"}
    settings.RATE_LIMITS = {**getattr(settings, "RATE_LIMITS", {}), **small}
    return settings.RATE_LIMITS


def assert_api_429(response):
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["status"] == 429 and body["errors"][0]["message"] and body["detail"]
    assert int(response["Retry-After"]) > 0


def assert_page_429(response, words: str):
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) > 0
    assert response["Content-Type"].startswith("text/html")
    assert words in response.content.decode()


def web_login(client, password: str, address: str = "10.0.0.1"):
    return client.post("/accounts/login/", {"username": "player", "password": password}, REMOTE_ADDR=address)


def test_repeated_wrong_web_logins_lock_that_username_from_that_address(world, client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert web_login(client, "wrong").status_code == 200  # the form again, with its error
    assert_page_429(web_login(client, "wrong"), "Too many failed logins")
    # Locked: even the right password is refused now, from that address ...
    assert_page_429(web_login(client, PASSWORD), "Too many failed logins")
    assert "_auth_user_id" not in client.session
    # ... but the player can still log in from elsewhere (a stranger cannot lock them out).
    assert web_login(client, PASSWORD, address="10.0.0.2").status_code == 302


def test_repeated_wrong_passwords_at_the_token_endpoint_lock_out_too(world, settings):
    client = APIClient(REMOTE_ADDR="10.0.0.3")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        wrong = client.post("/api/v1/auth/token/", {"username": "player", "password": "wrong"})
        assert wrong.status_code == 400
    assert_api_429(client.post("/api/v1/auth/token/", {"username": "player", "password": "wrong"}))
    locked = client.post("/api/v1/auth/token/", {"username": "player", "password": PASSWORD}, format="json")
    assert_api_429(locked)
    assert "Too many failed logins" in locked.json()["errors"][0]["message"]
    # One lockout for the username at that address, whichever door was knocked on.
    assert_page_429(
        APIClient().post(
            "/accounts/login/", {"username": "player", "password": PASSWORD}, REMOTE_ADDR="10.0.0.3"
        ),
        "Too many failed logins",
    )


def test_a_successful_login_clears_earlier_failures(world, client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        web_login(client, "wrong")
    assert web_login(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert web_login(client, "wrong").status_code == 200


def test_signups_from_one_address_are_rate_limited(db, client, small_rates):
    def signup(name):
        return client.post(
            "/accounts/signup/",
            {"username": name, "password1": "a-fine-long-pass-77", "password2": "a-fine-long-pass-77"},
            REMOTE_ADDR="10.0.1.1",
        )

    assert signup("first").status_code == 302
    client.logout()
    assert signup("second").status_code == 302
    client.logout()
    assert_page_429(signup("third"), "created accounts")
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="third").exists()
    assert client.get("/accounts/signup/").status_code == 200  # looking at the form is not counted


def test_web_logins_from_one_address_are_rate_limited(world, client, small_rates):
    for name in ("a", "b", "c", "d"):
        client.post("/accounts/login/", {"username": name, "password": "x"}, REMOTE_ADDR="10.0.2.1")
    assert_page_429(web_login(client, PASSWORD, address="10.0.2.1"), "failed to log in from this address")


def test_token_requests_from_one_address_are_rate_limited(world, small_rates):
    client = APIClient(REMOTE_ADDR="10.0.3.1")
    for name in ("a", "b", "c"):
        assert client.post("/api/v1/auth/token/", {"username": name, "password": "x"}).status_code == 400
    assert_api_429(client.post("/api/v1/auth/token/", {"username": "player", "password": PASSWORD}))
    # X-Forwarded-For from the client is not believed (PROXY_COUNT is 0): no way round the limit.
    spoofed = client.post(
        "/api/v1/auth/token/",
        {"username": "player", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="192.0.2.44",
    )
    assert_api_429(spoofed)


def test_imports_are_rate_limited_per_user_across_the_api_and_the_page(world, api, client, small_rates):
    gm = world.users["gm"]
    for _ in range(2):
        response = api(gm).post("/api/v1/campaigns/import/", b"{}", content_type="application/json")
        assert response.status_code == 400
    assert_api_429(api(gm).post("/api/v1/campaigns/import/", b"{}", content_type="application/json"))
    assert_api_429(
        api(gm).post(
            f"/api/v1/campaigns/{world.campaign.pk}/characters/import/",
            b"{}",
            content_type="application/json",
        )
    )
    client.force_login(gm)
    assert_page_429(client.post("/campaigns/import/", {}), "imported archives")
    assert client.get("/campaigns/import/").status_code == 200
    # Another user has a budget of their own.
    other = api(world.users["outsider"]).post(
        "/api/v1/campaigns/import/", b"{}", content_type="application/json"
    )
    assert other.status_code == 400


def test_an_outsider_over_the_import_limit_still_gets_404_for_a_foreign_campaign(
    world, api, client, small_rates
):
    outsider = world.users["outsider"]
    for _ in range(3):
        api(outsider).post("/api/v1/campaigns/import/", b"{}", content_type="application/json")
    foreign = f"/api/v1/campaigns/{world.campaign.pk}/characters/import/"
    assert api(outsider).post(foreign, b"{}", content_type="application/json").status_code == 404
    client.force_login(outsider)
    assert client.post(f"/campaigns/{world.campaign.pk}/archive/characters/import/", {}).status_code == 404


CHILD = """
import django
django.setup()
from django.test import RequestFactory
from kernel.abuse import SignupThrottle
request = RequestFactory().post("/accounts/signup/", REMOTE_ADDR="10.0.9.9")
print("allowed" if SignupThrottle().allow_request(request, None) else "throttled")
"""


def test_the_counters_are_shared_with_another_process(db, client, small_rates, settings):
    """Several gunicorn workers must see one count: another process reading the same cache is
    throttled by the signups this one served."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    cache = settings.CACHES["default"]
    if cache["BACKEND"].endswith("FileBasedCache"):
        cache_url = f"filecache://{cache['LOCATION']}"
    else:
        cache_url = os.environ["CACHE_URL"]
    for name in ("one", "two"):
        client.post(
            "/accounts/signup/",
            {"username": name, "password1": "a-fine-long-pass-77", "password2": "a-fine-long-pass-77"},
            REMOTE_ADDR="10.0.9.9",
        )
        client.logout()
    env = {
        **os.environ,
        "CACHE_URL": cache_url,
        "DEBUG": "1",
        "RATE_LIMIT_SIGNUP": small_rates["signup"],
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    child = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
    )
    assert child.stdout.strip() == "throttled", child.stdout + child.stderr


def test_a_lockout_ends_after_the_cool_off(world, client, settings):
    from datetime import timedelta

    from axes.models import AccessAttempt
    from django.utils import timezone

    for _ in range(settings.AXES_FAILURE_LIMIT):
        web_login(client, "wrong")
    assert web_login(client, PASSWORD).status_code == 429
    past = timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(minutes=1)
    AccessAttempt.objects.update(attempt_time=past)
    assert web_login(client, PASSWORD).status_code == 302


def test_behind_a_proxy_the_lockout_counts_the_address_the_proxy_saw(world, client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}  # PROXY_COUNT=1

    def login_via_proxy(password, forwarded_for):
        return client.post(
            "/accounts/login/",
            {"username": "player", "password": password},
            REMOTE_ADDR="10.9.9.9",
            HTTP_X_FORWARDED_FOR=forwarded_for,
        )

    for index in range(settings.AXES_FAILURE_LIMIT):
        login_via_proxy("wrong", f"6.6.6.{index}, 198.51.100.7")  # a forged first entry changes nothing
    assert login_via_proxy(PASSWORD, "7.7.7.7, 198.51.100.7").status_code == 429
    assert login_via_proxy(PASSWORD, "198.51.100.8").status_code == 302  # another client behind the proxy
