"""Shared fixtures: the personas every endpoint is tested with."""

from __future__ import annotations

import random

import pytest


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """Tests make many users: a deliberately slow hasher would cost ~0.2 s each (1 s per world)."""
    from django.test.utils import override_settings

    override = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    override.enable()
    yield
    override.disable()


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory):
    """Rate-limit counters live in the default cache: a file cache of this test run's own (never the
    one a dev server in var/ uses), unless CACHE_URL names one (a Redis database kept for tests)."""
    import os

    from django.test.utils import override_settings

    if os.environ.get("CACHE_URL"):
        yield
        return
    location = tmp_path_factory.mktemp("cache")
    backend = "django.core.cache.backends.filebased.FileBasedCache"
    override = override_settings(CACHES={"default": {"BACKEND": backend, "LOCATION": str(location)}})
    override.enable()
    yield
    override.disable()


@pytest.fixture(autouse=True)
def fresh_cache(private_cache):
    """Each test starts with no rate-limit counters, so one test's requests never throttle another's."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def rng():
    return random.Random(1984)


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, password: str = "a-long-test-password"):
        return django_user_model.objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def world(db, make_user):
    """A TIMEMASTER campaign with a GM, two players and an observer, and an outsider elsewhere."""
    from campaigns import services
    from campaigns.models import Membership, Role

    users = {name: make_user(name) for name in ("gm", "player", "other_player", "observer", "outsider")}
    campaign = services.create_campaign(users["gm"], name="Time Corps", system="timemaster")
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)
    elsewhere = services.create_campaign(users["outsider"], name="Elsewhere", system="d6")

    class World:
        pass

    w = World()
    w.users = users
    w.campaign = campaign
    w.elsewhere = elsewhere
    w.membership = {m.user.username: m for m in campaign.memberships.select_related("user")}
    return w


@pytest.fixture
def api(db):
    from rest_framework.test import APIClient

    def client_for(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return client_for
