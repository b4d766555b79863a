"""Shared fixtures: the personas every endpoint is tested with; the hypothesis profiles; what
keeps tests apart when pytest-xdist runs them in several processes."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import settings

from tests.profiles import DEV_MAX_EXAMPLES, HYPOTHESIS_PROFILE

# -- hypothesis profiles (tests/profiles.py) and xdist groups ----------------------------------------
#: Marks whose tests share something outside their process: the services layer's real Celery
#: worker processes (started, and some killed, by the tests): under xdist they run in one process.
#: Browser tests need no such mark: each xdist process has its own live server, in-memory database
#: and browser, and each worker of the services layer its own databases (tests/xdist_services.py).
SERIAL_MARKS = ("services",)


#: One system's cases only: `DOSSIER_KIT_SYSTEM_ONLY=<key> pytest ...` leaves out every case
#: parametrised by another installed system (a system's author running the shared kit for theirs;
#: docs/adding-a-system.md). Tests that take no system all run.
KIT_SYSTEM_ONLY = os.environ.get("DOSSIER_KIT_SYSTEM_ONLY", "")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    if KIT_SYSTEM_ONLY:
        _keep_one_systems_cases(config, items, KIT_SYSTEM_ONLY)
    for item in items:
        for name in SERIAL_MARKS:
            if item.get_closest_marker(name) and not item.get_closest_marker("xdist_group"):
                item.add_marker(pytest.mark.xdist_group(name))
                break
        if HYPOTHESIS_PROFILE == "dev":
            _cap_examples(item)
    # The tests of many seconds each go first: xdist hands tests out in this order, so a long one
    # started last would leave the other core idle while it runs (docs/testing.md).
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _keep_one_systems_cases(config, items, key: str) -> None:
    from tests import system_kit

    others = set(system_kit.installed_keys()) - {key}
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        names_another = any(isinstance(value, str) and value in others for value in params.values())
        (dropped if names_another else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _cap_examples(item) -> None:
    test = getattr(item, "obj", None)
    test = getattr(test, "__func__", test)
    # hypothesis reads the settings from this attribute each time the test runs
    chosen = getattr(test, "_hypothesis_internal_use_settings", None)
    if chosen is not None and chosen.max_examples > DEV_MAX_EXAMPLES:
        test._hypothesis_internal_use_settings = settings(chosen, max_examples=DEV_MAX_EXAMPLES)


# -- the test database: copied from a migrated template (tests/db_template.py) ----------------------
@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings):
    """pytest-django's own, then: while pytest-django sets the test databases up (the next
    fixture), an in-memory SQLite one is copied from the migrated template instead of migrated."""
    from tests import db_template

    template = db_template.in_use()
    template.__enter__()
    _TEMPLATE_IN_USE.append(template)
    yield


_TEMPLATE_IN_USE: list = []


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's own; once it has made the test databases, call_command is Django's again
    (the migration tests call migrate themselves)."""
    while _TEMPLATE_IN_USE:
        _TEMPLATE_IN_USE.pop().__exit__(None, None, None)
    # Import every migration module now, as migrating did: a migration evaluates its fields'
    # defaults (django.utils.timezone.now) when imported, and imported first inside a test that
    # patches timezone.now it would keep the test's lambda, so makemigrations --check in a later
    # test of the same process would see a change in admin and auth (seen under make test).
    from django.db.migrations.loader import MigrationLoader

    MigrationLoader(None, ignore_no_migrations=True)
    yield


# -- isolation under pytest-xdist ----------------------------------------------------------------
@pytest.fixture(autouse=True, scope="session")
def private_media_root(tmp_path_factory):
    """Files a test writes go to a folder of its own test process, never to var/media: under
    pytest-xdist two processes make rows with the same ids and would overwrite each other's
    files. Tests that need their own folder still set settings.MEDIA_ROOT themselves."""
    from django.test.utils import override_settings

    override = override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media"))
    override.enable()
    yield
    override.disable()


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """Tests make many users: a deliberately slow hasher would cost ~0.2 s each (1 s per world)."""
    from django.test.utils import override_settings

    override = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    override.enable()
    yield
    override.disable()


@pytest.fixture(autouse=True, scope="session")
def static_files_found_per_request():
    """WhiteNoise finds a static file when it is asked for, as under `make run` (DEBUG). Django's
    test runner turns DEBUG off, so WhiteNoise would otherwise stat and index all ~220 static files
    each time a test client loads the middleware (8 % of tests/characters' CPU, docs/testing.md)."""
    from django.test.utils import override_settings

    override = override_settings(WHITENOISE_AUTOREFRESH=True)
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


@pytest.fixture(autouse=True)
def live_feed_answers_at_once(settings):
    """The live feed under WSGI (the test client, the live server) ends its answer as soon as it has
    sent what is new instead of waiting for more (campaigns/table/live_views.py); what a process keeps of
    rendered lines is dropped (a rolled-back database hands the same ids out again)."""
    from campaigns.table import live

    settings.LIVE_SYNC_WAIT_SECONDS = 0
    live.forget()
