"""``manage.py seed_demo`` seeds each installed system's demo from its folder's ``demo`` module,
found through the registry: the platform names no system's demo."""

from __future__ import annotations

import importlib
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from campaigns.models import Campaign
from characters import registry
from characters.models import Character


def test_each_system_offers_its_demo_by_the_folders_convention():
    """Every installed system's demo is ``<its package>.demo``, each of the project's systems
    (a folder of systems/ with its app) among them, and each names its campaign."""
    demos = {app.key: app.demo for app in registry.installed()}
    assert demos == {app.key: f"{app.package}.demo" for app in registry.installed()}
    systems = Path(__file__).resolve().parents[1] / "systems"
    folders = {path.parent.name for path in systems.glob("*/apps.py")}
    assert folders and {f"systems.{folder}" for folder in folders} <= {
        app.package for app in registry.installed()
    }
    for module in demos.values():
        name, _, _ = importlib.import_module(module).CAMPAIGN
        assert name


@pytest.mark.django_db
def test_seed_demo_makes_the_campaign_and_characters_each_systems_demo_names():
    out = StringIO()
    call_command("seed_demo", stdout=out)
    for app in registry.installed():
        demo = importlib.import_module(app.demo)
        name, module, _ = demo.CAMPAIGN
        campaign = Campaign.objects.get(name=name, system=app.key)
        assert campaign.module == module
        assert set(Character.objects.filter(campaign=campaign).values_list("name", flat=True)) == set(
            demo.CHARACTERS
        )
        assert f"Demo campaign ready: {name}" in out.getvalue()
