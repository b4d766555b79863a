"""Sheet kinds and blank sheets come from the registry (issue 29): the platform names no system."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from characters import registry
from sheets import blanks, kinds, services
from sheets.models import gm_only_kinds, kind_choices


def test_the_systems_kinds_are_declared_in_their_apps_and_completed_by_the_folder_convention():
    spec = kinds.spec("fate_record")
    assert kinds.system_of("fate_record").key == "time_to_kill"
    assert spec.template == "sheets/time_to_kill_fate_record.html"
    assert spec.data == "systems.time_to_kill.sheets:fate_record"
    assert spec.find == "systems.time_to_kill.sheets:find_fate_record"
    assert spec.offer == "systems.time_to_kill.sheets:fate_record_offer"
    report = kinds.spec("after_action")
    assert kinds.system_of("after_action").key == "timemaster"
    assert (report.target, report.target_required, report.file_word) == (
        "mission",
        True,
        "after-action-report",
    )


def test_kind_choices_and_gm_only_kinds_are_read_from_the_registry():
    choices = dict(kind_choices())
    assert choices["fate_record"] == "Fate Record Sheet"
    assert choices["after_action"] == "After-action report"
    assert {"character", "blank", "party_bundle", "campaign_report"} <= set(choices)
    assert gm_only_kinds() == frozenset({"fate_record"})
    assert "fate_record" in services.REQUESTABLE_KINDS
    assert list(services.REQUESTABLE_KIND_CHOICES) == kind_choices()


@pytest.mark.parametrize("system", [app.key for app in registry.installed()])
def test_every_installed_system_supplies_its_blank_sheet_from_its_folder(system):
    app = registry.get(system)
    assert app.blank_sheet == f"{app.package}.sheets:blank_sheet"
    sheet = blanks.blank_sheet(system)
    assert sheet.system == system and sheet.fields["blank"] is True


@pytest.fixture
def bare_system():
    """A system with an engine and nothing to print besides its character sheet."""
    registry.register(registry.SystemApp(key="bare", name="Bare", engine="systems.d6.engine"))
    yield registry.get("bare")
    registry.unregister("bare")


def test_a_system_without_a_blank_sheet_gets_a_clear_refusal(bare_system):
    campaign = SimpleNamespace(system="bare", module="", name="Bare Bones", pk=1)
    membership = SimpleNamespace(is_gm=True, user_id=1)
    assert not blanks.has_blank_sheet("bare")
    with pytest.raises(services.SheetRequestError) as refused:
        services.plan("blank", campaign, membership)
    assert refused.value.field == "kind"
    assert refused.value.message == blanks.NO_BLANK_SHEET
    with pytest.raises(KeyError):
        blanks.blank_sheet("bare")


def test_a_kind_of_another_system_is_refused_for_the_campaign(bare_system):
    campaign = SimpleNamespace(system="bare", module="", name="Bare Bones", pk=1)
    membership = SimpleNamespace(is_gm=True, user_id=1)
    with pytest.raises(services.SheetRequestError) as refused:
        services.plan("fate_record", campaign, membership)
    assert refused.value.message == "The Fate Record Sheet belongs to Time to Kill campaigns."


def test_a_kind_declared_by_its_key_alone_gets_a_label_template_and_file_word():
    registry.register(
        registry.SystemApp(key="keyed", name="Keyed", engine="systems.d6.engine", sheet_kinds=("toy_report",))
    )
    try:
        spec = kinds.spec("toy_report")
        assert (spec.label, spec.template, spec.file_word) == (
            "Toy report",
            "sheets/keyed_toy_report.html",
            "toy-report",
        )
        assert ("toy_report", "Toy report") in kind_choices()
    finally:
        registry.unregister("keyed")
    assert kinds.spec("toy_report") is None
