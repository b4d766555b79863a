"""A new user's first minutes: the demo seed, the login page's demo hint, import within reach, the
favicon, and a quiet server console on a 403."""

from __future__ import annotations

import logging

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from campaigns.models import Campaign
from characters.models import Character
from tests import system_kit

SYSTEMS = set(system_kit.installed_keys())


def _row_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


@pytest.mark.django_db
def test_the_demo_seed_gives_every_system_a_campaign_with_finished_characters_and_play(capsys):
    call_command("seed_demo")
    campaigns = Campaign.objects.filter(name__startswith="Demo: ")
    assert {c.system for c in campaigns} == SYSTEMS
    for campaign in campaigns:
        owners = set(
            Character.objects.filter(campaign=campaign, status=Character.Status.ACTIVE).values_list(
                "owner__username", flat=True
            )
        )
        assert owners == {"alice", "bob"}, campaign.name
        assert {m.user.username: m.role for m in campaign.memberships.select_related("user")} == {
            "gm": "gm",
            "alice": "player",
            "bob": "player",
        }
        # the system's own play, as its test kit (systems/<x>/testkit.py) says it seeds it
        check_demo = getattr(system_kit.extras(campaign.system), "check_demo", None)
        assert check_demo is not None, f"{campaign.system} has no testkit.check_demo"
        check_demo(campaign)


@pytest.mark.django_db
def test_seeding_the_demo_twice_changes_nothing():
    call_command("seed_demo")
    before = _row_counts()
    call_command("seed_demo")
    assert _row_counts() == before


@pytest.mark.django_db
def test_the_login_page_names_the_demo_accounts_only_in_demo_mode(client):
    call_command("seed_demo")
    with override_settings(DEMO_MODE=True):
        page = client.get("/accounts/login/").content.decode()
        assert "Demo accounts" in page and "dossier-alice" in page
    with override_settings(DEMO_MODE=False):
        page = client.get("/accounts/login/").content.decode()
        assert "Demo accounts" not in page and "dossier-alice" not in page


def test_demo_mode_is_never_on_without_debug():
    import subprocess
    import sys

    code = "import django,os; django.setup(); from django.conf import settings; print(settings.DEMO_MODE)"
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "DEMO_MODE": "1",
        "SECRET_KEY": "x" * 50,
    }
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.django_db
def test_import_is_linked_from_the_campaign_list(client, make_user):
    client.force_login(make_user("newcomer"))
    page = client.get("/campaigns/").content.decode()
    assert 'href="/campaigns/import/"' in page


@pytest.mark.django_db
def test_favicon_answers_with_an_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content)[:4] == b"\x00\x00\x01\x00"  # the .ico header


def test_a_403_is_logged_as_one_line_without_a_traceback(world, client, caplog):
    client.force_login(world.users["player"])
    with caplog.at_level(logging.INFO):
        response = client.get(f"/campaigns/{world.campaign.pk}/settings/")
    assert response.status_code == 403
    (line,) = caplog.records  # the access line says it all (issue 44, finding 11)
    assert (line.name, line.status) == ("dossier.request", 403)
    assert "Traceback" not in caplog.text and "PermissionDenied" not in caplog.text
    assert not [r for r in caplog.records if r.exc_info]


def test_a_form_error_is_one_line_and_a_static_file_none_at_info(world, client, caplog):
    """Issue 44, finding 11: django.request's "Bad Request" line came beside the access line, and
    every static file of a page view (a 304 once cached) was a line of its own."""
    client.force_login(world.users["gm"])
    with caplog.at_level(logging.INFO):
        refused = client.post("/campaigns/new/", {"name": "", "system": ""})
        static = client.get("/static/js/live.js")
    assert refused.status_code == 400 and static.status_code == 200
    assert [(r.name, r.levelname, r.status) for r in caplog.records] == [("dossier.request", "INFO", 400)]
    with caplog.at_level(logging.DEBUG, logger="dossier.request"):
        client.get("/static/js/live.js")
    debug = [r.status for r in caplog.records if r.levelname == "DEBUG" and r.name == "dossier.request"]
    assert debug == [200]


def test_demo_users_keep_their_passwords_when_seeded_again(db):
    call_command("seed_demo")
    call_command("seed_demo")
    assert get_user_model().objects.get(username="bob").check_password("dossier-bob")
