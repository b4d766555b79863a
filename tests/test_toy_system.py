"""A new game system is one folder plus one line in INSTALLED_APPS (issue 19): the toy system in
tests/toy_system/ registers itself from its AppConfig.ready(), and the campaign creation choices,
the systems API, the campaign page's builder button and the builder list offer it, with no
change to the platform's code."""

from __future__ import annotations

import pytest
from django.test.utils import modify_settings
from django.urls import reverse

from campaigns.models import Campaign
from characters import registry
from characters.systems import all_systems


@pytest.fixture
def toy_installed(db):
    with modify_settings(INSTALLED_APPS={"append": "tests.toy_system"}):
        yield
    registry.unregister("toy")


@pytest.fixture
def gm(db, django_user_model, client):
    user = django_user_model.objects.create_user("toy-gm", password="a-long-toy-password")
    client.force_login(user)
    return user


def test_without_the_app_there_is_no_toy_system(gm, client):
    assert registry.get("toy") is None
    assert "toy" not in [system.key for system in all_systems()]
    page = client.get(reverse("campaign-create")).content.decode()
    assert 'value="toy"' not in page


def test_the_toy_system_is_offered_everywhere_once_its_app_is_installed(toy_installed, gm, client):
    from characters.views import WIZARDS

    # The campaign creation choices.
    page = client.get(reverse("campaign-create")).content.decode()
    assert 'value="toy"' in page and "Toy Game" in page
    # The systems API.
    listed = client.get("/api/v1/systems/").json()
    assert {"key": "toy", "label": "Toy Game"}.items() <= next(s for s in listed if s["key"] == "toy").items()
    # A campaign of the toy system, created from the form.
    response = client.post(reverse("campaign-create"), {"name": "Toy night", "system": "toy"})
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign = Campaign.objects.get(name="Toy night")
    assert campaign.system == "toy"
    # The builder list and the campaign page's builder button.
    assert [key for key, _ in WIZARDS["toy"].STEPS] == ["name", "review"]
    assert "toy" in list(WIZARDS)
    detail = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "New toy hero" in detail and reverse("character-new", args=[campaign.pk]) in detail
    listing = client.get(reverse("character-list", args=[campaign.pk])).content.decode()
    assert "New toy hero" in listing
    # The model fields' choices come from the registry (a callable), so the campaign passes model
    # validation and no migration of the platform is needed.
    assert ("toy", "Toy Game") in Campaign._meta.get_field("system").choices
    campaign.full_clean()
    # A campaign created through the API.
    created = client.post(
        "/api/v1/campaigns/", {"name": "Toy API night", "system": "toy"}, content_type="application/json"
    )
    assert created.status_code == 201, created.content.decode()[:2000]
    assert created.json()["system"] == "toy"


def test_the_system_fields_take_their_choices_from_the_registry_so_a_new_system_needs_no_migration(
    toy_installed,
):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_every_installed_system_app_is_registered_with_its_builder():
    from django.apps import apps

    system_apps = [
        config for config in apps.get_app_configs() if isinstance(config, registry.SystemAppConfig)
    ]
    assert [app.key for app in registry.installed()] == [config.system.key for config in system_apps]
    assert registry.system_choices() == [(config.system.key, config.system.name) for config in system_apps]
    for app in registry.installed():
        assert app.wizard and app.engine == f"{app.package}.engine"
