"""``manage.py seed_demo`` seeds each installed system's demo from its folder's ``demo`` module,
found through the registry: the platform names no system's demo."""

from __future__ import annotations

import importlib
from io import StringIO

import pytest
from django.core.management import call_command

from campaigns.models import Campaign
from characters import registry
from characters.models import Character


def test_each_system_offers_its_demo_by_the_folders_convention():
    assert {app.key: app.demo for app in registry.installed()} == {
        "timemaster": "systems.timemaster.demo",
        "time_to_kill": "systems.time_to_kill.demo",
        "tempo": "systems.tempo.demo",
        "d6": "systems.d6.demo",
    }


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
