"""The admin shows an operator every model of the project, and never lets anyone edit or delete
what the engines write or what is append-only (the advancement ledger, the significance tally,
the dice log)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from campaigns.table import rolling

OUR_APPS = ("campaigns", "characters", "sheets", "ttk_missions", "tempo_conflicts", "d6_encounters")
APPEND_ONLY = ("characters.AdvancementEntry", "campaigns.SignificanceEntry", "campaigns.Roll")


@pytest.fixture
def operator(db, django_user_model, client):
    user = django_user_model.objects.create_superuser("operator", "op@example.org", "an-operator-password")
    client.force_login(user)
    return client


@pytest.fixture
def records(world):
    """A campaign with an agent, one ledger entry, a secret roll and a mission with a tally entry."""
    from campaigns.models import Mission, SignificanceEntry
    from characters.models import AdvancementEntry, Character
    from tests.sheets.conftest import BUILDERS

    build = BUILDERS["timemaster"](name="Harry Adams")
    agent = Character.objects.create(
        campaign=world.campaign,
        owner=world.users["player"],
        system="timemaster",
        name="Harry Adams",
        status="active",
        build=build,
        creation_build=build,
        revision=1,
    )
    entry = AdvancementEntry.objects.create(
        character=agent,
        kind="sp_awarded",
        payload={"type": "bonus", "session": "s1", "amount": 10},
        recorded_by=world.users["gm"],
        revision_after=2,
    )
    roll = rolling.record_roll(world.membership["gm"], kind="d1000", secret=True, purpose="a GM secret")
    mission = Mission.objects.create(campaign=world.campaign, title="Operation Sundial")
    tally = SignificanceEntry.objects.create(
        mission=mission, kind="other", rating=5, recorded_by=world.users["gm"]
    )
    return {
        "characters.AdvancementEntry": entry,
        "campaigns.Roll": roll,
        "campaigns.SignificanceEntry": tally,
    }


def _url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_model_of_the_project_is_in_the_admin():
    ours = [model for model in apps.get_models() if model._meta.app_label in OUR_APPS]
    missing = [
        m._meta.label for m in ours if not admin.site.is_registered(m) and m._meta.label not in _inlined()
    ]
    assert ours and not missing, f"not in the admin: {missing}"


def _inlined() -> set[str]:
    """Models shown inside their parent's page (a run's events, a conflict's sides ...)."""
    labels = set()
    for model_admin in admin.site._registry.values():
        labels |= {inline.model._meta.label for inline in model_admin.inlines}
    return labels


def test_the_operator_sees_every_list_and_record(operator, records):
    for model in list(admin.site._registry):
        if model._meta.app_label not in OUR_APPS:
            continue
        assert operator.get(_url(model, "changelist")).status_code == 200, model._meta.label
        row = model.objects.first()
        if row is not None:
            assert operator.get(_url(model, "change", row.pk)).status_code == 200, model._meta.label


@pytest.mark.parametrize("label", APPEND_ONLY)
def test_append_only_rows_cannot_be_added_changed_or_deleted_in_the_admin(operator, records, label):
    model = apps.get_model(label)
    row = records[label]
    before = model.objects.count()
    assert operator.get(_url(model, "add")).status_code == 403
    assert operator.post(_url(model, "change", row.pk), {"reason": "edited"}).status_code == 403
    assert operator.post(_url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
    page = operator.get(_url(model, "changelist")).content.decode()
    assert 'name="action"' not in page  # no bulk "delete selected"
    assert model.objects.count() == before
