"""A choice setting's display names live on its spec (``SettingSpec.choice_labels`` and
``choice_help``, in the system's engine), so the platform holds no system's labels."""

from __future__ import annotations

from characters import display_names, registry
from characters.systems import get_system
from characters.systems.base import SettingSpec


def _choice_specs():
    for app in registry.installed():
        for spec in get_system(app.key).settings:
            if spec.kind == "choice":
                yield app.key, spec


def test_every_labelled_code_is_a_choice_of_its_setting():
    for system, spec in _choice_specs():
        labelled = [code for code, _ in spec.choice_labels]
        assert set(labelled) <= set(spec.choices), (system, spec.name)
        assert len(labelled) == len(set(labelled)), (system, spec.name)


def test_the_form_offers_the_specs_names_and_help():
    for system, spec in _choice_specs():
        names = dict(spec.choice_labels)
        offered = display_names.choices(system, spec)
        assert [code for code, _ in offered] == list(spec.choices)
        for code, label in offered:
            assert label == names.get(code, display_names.words(code))
        assert display_names.setting_help(system, spec) == (spec.choice_help or spec.help)


def test_a_new_systems_setting_names_its_codes_without_a_platform_edit():
    spec = SettingSpec(
        "clue_rule",
        "Clue rule",
        "choice",
        "core",
        help="core: the core clue is free; spend: every clue costs a point.",
        choices=("core", "spend", "every_scene"),
        choice_labels=(("core", "Core clues are free"), ("spend", "Every clue costs a point")),
        choice_help="Core clues are free: ... Every clue costs a point: ...",
    )
    assert display_names.choices("pulp", spec) == [
        ("core", "Core clues are free"),
        ("spend", "Every clue costs a point"),
        ("every_scene", "Every scene"),
    ]
    assert display_names.setting_value("pulp", spec, "spend") == "Every clue costs a point"
    assert display_names.setting_help("pulp", spec) == spec.choice_help


def test_the_d6_initiative_method_reads_as_its_method():
    spec = next(spec for spec in get_system("d6").settings if spec.name == "initiative_method")
    assert display_names.setting_value("d6", spec, "every_round") == "Method 3: a roll every round"
