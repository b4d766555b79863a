"""A toy game system, installed for the test suite (tests/settings_toy.py): one folder and one line in
INSTALLED_APPS, and the platform offers it without a change of its own code. Everything is found
by the folder's convention: the engine (engine.py), the builder (wizard.py and its templates),
the character page and print sheet (templates/), the blank sheet and the
scorecard sheet kind (sheets.py), the archive section (archive.py), the demo
(demo.py), the API (api_urls.py) and its test-kit extras (testkit.py); see docs/adding-a-system.md."""

from characters.registry import SheetKindSpec, SystemApp, SystemAppConfig


class ToySystemConfig(SystemAppConfig):
    name = "tests.toy_system"
    label = "toy_system"
    system = SystemApp(
        key="toy",
        name="Toy Game",
        new_label="New toy hero",
        # its print document besides the character sheet: tests/toy_system/sheets.py's toy_scorecard
        sheet_kinds=(
            SheetKindSpec("toy_scorecard", "Contest scorecard", template="sheets/toy_scorecard.html"),
        ),
    )
