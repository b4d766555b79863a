"""The heartbeat's check of every open stream's session (campaigns/table/live_guard.py, issue 47) reads
the sessions that still sign their user in with two queries for all of them, and gives every
session the answer Django's own ``auth.get_user`` gives it, one session at a time: kept only when
it still signs in the user its stream was opened for."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, get_user
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from campaigns.table import live_guard

pytestmark = pytest.mark.django_db


def _session(user) -> str:
    browser = Client()
    browser.force_login(user)
    return browser.cookies[settings.SESSION_COOKIE_NAME].value


def _django_says(sessions: dict[str, int]) -> set[str]:
    engine = import_module(settings.SESSION_ENGINE)
    kept = set()
    for key, user_id in sessions.items():
        user = get_user(SimpleNamespace(session=engine.SessionStore(key)))
        if user.is_authenticated and user.pk == user_id:
            kept.add(key)
    return kept


def test_every_session_gets_the_answer_django_gives_it(make_user):
    users = {name: make_user(name) for name in ("ann", "bob", "cy", "dee", "eve", "fay", "gus")}
    sessions = {}
    kept = _session(users["ann"])
    sessions[kept] = users["ann"].pk
    also_kept = _session(users["ann"])  # a second browser of the same account
    sessions[also_kept] = users["ann"].pk
    logged_out = _session(users["bob"])
    Session.objects.filter(session_key=logged_out).delete()
    sessions[logged_out] = users["bob"].pk
    new_password = _session(users["cy"])
    users["cy"].set_password("another-long-password")
    users["cy"].save()
    sessions[new_password] = users["cy"].pk
    deactivated = _session(users["dee"])
    users["dee"].is_active = False
    users["dee"].save()
    sessions[deactivated] = users["dee"].pk
    expired = _session(users["eve"])
    Session.objects.filter(session_key=expired).update(expire_date=timezone.now() - timedelta(seconds=1))
    sessions[expired] = users["eve"].pk
    someone_else = _session(users["fay"])
    sessions[someone_else] = users["gus"].pk  # the stream was opened for another user
    no_hash = _session(users["gus"])
    engine = import_module(settings.SESSION_ENGINE)
    store = engine.SessionStore(no_hash)
    del store[HASH_SESSION_KEY]
    store.save()
    sessions[no_hash] = users["gus"].pk
    sessions["never-issued"] = users["ann"].pk

    answer = live_guard.signed_in(dict(sessions))
    assert answer == {kept, also_kept}
    # Django's own answer, asked now of the same sessions (those it flushed stay ended)
    assert _django_says(sessions) == answer


def test_a_session_signed_under_an_old_secret_key_is_answered_by_django(make_user, settings):
    """A session hash made with a key now in SECRET_KEY_FALLBACKS: get_user keeps the user signed
    in (and moves the session to a new key); the bulk reading does not decide it, Django does."""
    user = make_user("ann")
    key = _session(user)  # signed, and its hash made, under the key of the time
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 40
    engine = import_module(settings.SESSION_ENGINE)
    assert live_guard._kept_in_bulk(engine.SessionStore, {key: user.pk}) == set()
    assert live_guard.signed_in({key: user.pk}) == {key}


def test_a_thousand_sessions_cost_a_few_queries(make_user, django_assert_max_num_queries):
    users = [make_user(f"player{n}") for n in range(20)]
    sessions = {_session(user): user.pk for user in users for _ in range(3)}
    with django_assert_max_num_queries(2):
        kept = live_guard.signed_in(sessions)
    assert kept == set(sessions)
