"""A new game system is one folder plus one line in INSTALLED_APPS (issues 19 and 29).

The toy system in tests/toy_system/ is a complete system: an engine, a builder, a character page,
a print sheet, a blank sheet, an extra sheet kind, a play record with its archive section, a demo
and an API. The suite runs with it installed (tests/settings_toy.py: the project's settings and the
toy's one INSTALLED_APPS line, pyproject's DJANGO_SETTINGS_MODULE), so every test of the shared
system test kit (tests/system_kit.py) runs for it beside the project's four systems, and the
platform offers each of its parts with no change to the platform's code. docs/adding-a-system.md
walks through it.
"""

from __future__ import annotations

import contextlib
import importlib
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test.utils import modify_settings
from django.urls import clear_url_caches, reverse

from campaigns.models import Campaign, Membership, Role
from characters import registry
from characters.models import Character
from characters.systems import all_systems
from tests import system_kit

TOY_APP = "tests.toy_system"
#: The toy's API routes this module walks for every role (tests/campaigns/test_api_roles.py reads
#: it through the toy's testkit.API_ROLE_WALKS when the toy system is installed).
WALKED_ROUTES = {"api-toy-contests"}


def _reload_urls() -> None:
    """The URL conf includes each installed system's URLs when it is imported (as a server does
    once at start): import it again after the toy system goes or comes back."""
    import config.urls

    importlib.reload(config.urls)
    clear_url_caches()


@contextlib.contextmanager
def toy_uninstalled():
    """The project as it ships: the toy's INSTALLED_APPS line taken out, its system forgotten and
    its URLs gone; all of it back afterwards (its app's ready() registers it again)."""
    from django.apps import apps

    try:
        with modify_settings(INSTALLED_APPS={"remove": TOY_APP}):
            registry.unregister("toy")
            _reload_urls()
            yield
    finally:
        apps.get_app_config("toy_system").ready()
        _reload_urls()


@pytest.fixture
def toy_installed(db):
    """The toy system, installed for the whole run (tests/settings_toy.py)."""
    assert TOY_APP in settings.INSTALLED_APPS and registry.get("toy") is not None


@pytest.fixture
def toy_app(toy_installed):
    """The toy system with its model's table (migrated with the test database) and its URLs."""


@pytest.fixture
def gm(db, django_user_model, client):
    user = django_user_model.objects.create_user("toy-gm", password="a-long-toy-password")
    client.force_login(user)
    return user


@pytest.fixture
def table(toy_app, django_user_model):
    """A toy campaign with a GM and a player, each logged in on a client of their own."""
    from django.test import Client

    gm = django_user_model.objects.create_user("toy-gm", password="a-long-toy-password")
    player = django_user_model.objects.create_user("toy-player", password="a-long-toy-password")
    campaign = system_kit.make_campaign(gm, "toy", name="Toy night")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    clients = {}
    for name, user in (("gm", gm), ("player", player)):
        clients[name] = Client()
        clients[name].force_login(user)
    return {"campaign": campaign, "gm": gm, "player": player, "clients": clients}


def test_without_the_app_there_is_no_toy_system(gm, client):
    with toy_uninstalled():
        assert registry.get("toy") is None
        assert "toy" not in [system.key for system in all_systems()]
        page = client.get(reverse("campaign-create")).content.decode()
        assert 'value="toy"' not in page and "Toy Game" not in page
        assert all(system["key"] != "toy" for system in client.get("/api/v1/systems/").json())
    # and back, as the rest of the run has it
    assert (
        registry.get("toy") is not None
        and 'value="toy"' in client.get(reverse("campaign-create")).content.decode()
    )


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
    assert [key for key, _ in WIZARDS["toy"].STEPS] == ["hero", "review"]
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


def test_the_folders_convention_fills_in_every_hook(toy_installed):
    app = registry.get("toy")
    assert app is not None and app.package == TOY_APP
    assert app.engine == f"{TOY_APP}.engine" and app.wizard == f"{TOY_APP}.wizard"
    assert app.archive_sections == (f"{TOY_APP}.archive",) and app.demo == f"{TOY_APP}.demo"
    assert registry.url_modules("api_urls")[-1] == f"{TOY_APP}.api_urls"


def test_the_system_fields_take_their_choices_from_the_registry_so_a_new_system_needs_no_migration(
    toy_installed,
):
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", "-v", "3", stdout=out)
    except SystemExit:
        pytest.fail("makemigrations found changes:\n" + out.getvalue()[-4000:])
    assert "No changes detected" in out.getvalue()


def test_every_installed_system_app_is_registered_with_its_builder():
    from django.apps import apps

    configs = apps.get_app_configs()
    system_apps = [config for config in configs if isinstance(config, registry.SystemAppConfig)]
    assert [app.key for app in registry.installed()] == [config.system.key for config in system_apps]
    assert registry.system_choices() == [(config.system.key, config.system.name) for config in system_apps]
    for app in registry.installed():
        assert app.wizard and app.engine == f"{app.package}.engine"


# -- each part working ------------------------------------------------------------------------------
def test_a_player_builds_a_toy_hero_with_the_platforms_builder_and_sees_its_page(table):
    campaign, client = table["campaign"], table["clients"]["player"]
    started = client.post(reverse("character-new", args=[campaign.pk]))
    assert started.status_code == 302 and started["Location"].endswith("/build/hero/")
    draft = Character.objects.get(campaign=campaign, owner=table["player"])
    step = f"/characters/{draft.pk}/build/hero/"
    # The engine's words next to the field; nothing moves on.
    refused = client.post(step, {"name": "Pip", "knack": "7"})
    assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
    # The draft resumes where the engine still finds fault (the platform's resume).
    assert f'href="{step}"' in client.get(reverse("character-detail", args=[draft.pk])).content.decode()
    moved = client.post(step, {"name": "Pip", "knack": "2"})
    assert moved.status_code == 302 and moved["Location"].endswith("/build/review/")
    review = client.get(moved["Location"]).content.decode()
    assert "Toy hero" in review and "Pip" in review
    done = client.post(moved["Location"])
    assert done.status_code == 302 and done["Location"] == reverse("character-detail", args=[draft.pk])
    hero = Character.objects.get(pk=draft.pk)
    assert hero.status == Character.Status.ACTIVE and hero.build["knack"] == 2
    page = client.get(done["Location"]).content.decode()
    assert "Pip is ready to play." in page and "Knack" in page and "Dice" in page


def test_the_toy_heros_print_sheet_is_rendered_through_the_platforms_sheet_job(
    table, monkeypatch, settings, tmp_path
):
    from sheets import services as sheet_services
    from sheets.tasks import run_render
    from tests.sheets.conftest import pdf_text

    settings.MEDIA_ROOT = tmp_path / "media"
    queued: list[int] = []
    monkeypatch.setattr(sheet_services, "enqueue", queued.append)  # the job runs here instead
    campaign = table["campaign"]
    hero = system_kit.make_character(campaign, table["player"], name="Pip")
    membership = Membership.objects.get(campaign=campaign, user=table["player"])
    render, _ = sheet_services.request_render(table["player"], "character", campaign, membership, hero)
    assert queued == [render.pk] and run_render(render.pk) == "done"
    render.refresh_from_db()
    with render.file.open("rb") as handle:
        pages, text = pdf_text(handle.read())
    assert pages == 1 and "Pip" in text and "toy game" in text.casefold() and "Knack" in text


def test_the_toy_blank_sheet_is_found_in_the_systems_folder_and_renders(table):
    from sheets import blanks, rendering
    from tests.sheets.conftest import pdf_text

    assert blanks.has_blank_sheet("toy")
    sheet = blanks.blank_sheet("toy")
    assert sheet.template == "sheets/toy.html" and sheet.fields["blank"] is True
    result = rendering.render_pdf(
        [rendering.SheetPage(sheet, campaign="Toy night")], title="Toy", author="Dossier test"
    )
    pages, text = pdf_text(result.pdf)
    assert pages == 1
    labels = system_kit.extras("toy").BLANK_LABELS
    assert [label for label in labels if label.lower() not in text.lower()] == []


def test_the_toy_scorecard_is_a_sheet_kind_offered_and_rendered_through_the_sheet_job(
    table, client, monkeypatch, settings, tmp_path
):
    from sheets import services as sheet_services
    from sheets.models import kind_choices
    from sheets.tasks import run_render
    from tests.sheets.conftest import pdf_text
    from tests.toy_system.models import Contest

    assert ("toy_scorecard", "Contest scorecard") in kind_choices()
    settings.MEDIA_ROOT = tmp_path / "media"
    queued: list[int] = []
    monkeypatch.setattr(sheet_services, "enqueue", queued.append)  # the job runs here instead
    campaign = table["campaign"]
    Contest.objects.create(campaign=campaign, title="The Marble Race", score=4)
    # The sheets page offers it to a player (the scores are no secret in the toy game).
    client.force_login(table["player"])
    page = client.get(reverse("campaign-sheets", args=[campaign.pk])).content.decode()
    assert "Contest scorecard" in page and "Print the scorecard" in page
    membership = Membership.objects.get(campaign=campaign, user=table["player"])
    render, created = sheet_services.request_render(table["player"], "toy_scorecard", campaign, membership)
    assert created and queued == [render.pk] and run_render(render.pk) == "done"
    render.refresh_from_db()
    with render.file.open("rb") as handle:
        pages, text = pdf_text(handle.read())
    assert pages == 1 and "Contest scorecard" in text and "The Marble Race" in text
    # The same contests: the stored print is reused; a new contest makes a new one.
    again, created = sheet_services.request_render(table["player"], "toy_scorecard", campaign, membership)
    assert again.pk == render.pk and not created
    Contest.objects.create(campaign=campaign, title="The Sack Race", score=2)
    fresh, created = sheet_services.request_render(table["player"], "toy_scorecard", campaign, membership)
    assert created and fresh.pk != render.pk


def test_the_toy_contests_go_through_the_campaign_archive_and_back(table):
    from archive import services as archive_services
    from archive.problems import ArchiveRefused
    from tests.toy_system.models import Contest

    campaign, gm = table["campaign"], table["gm"]
    system_kit.make_character(campaign, table["player"], name="Pip")
    Contest.objects.create(campaign=campaign, title="The Marble Race", score=4, created_by=gm)
    document = archive_services.export_campaign(campaign, gm)
    assert [(c["title"], c["score"], c["created_by"]) for c in document["toy_contests"]] == [
        ("The Marble Race", 4, "toy-gm")
    ]
    copy = archive_services.import_campaign(document, gm)
    assert copy.system == "toy"
    assert list(copy.toy_contests.values_list("title", "score")) == [("The Marble Race", 4)]
    assert copy.characters.get().build["knack"] == 2
    # A bad record is refused with where and what; nothing is made.
    document["toy_contests"][0]["score"] = "many"
    with pytest.raises(ArchiveRefused) as refused:
        archive_services.import_campaign(document, gm)
    assert [p.path for p in refused.value.problems] == ["toy_contests[0].score"]
    assert Campaign.objects.filter(system="toy").count() == 2


def test_the_demo_seeds_the_toy_campaign(toy_app):
    out = StringIO()
    call_command("seed_demo", "--system", "toy", stdout=out)
    campaign = Campaign.objects.get(system="toy")
    assert campaign.name == "Demo: Toy Box" and "Demo campaign ready: Demo: Toy Box" in out.getvalue()
    assert set(campaign.characters.values_list("name", flat=True)) == {"Pip", "Mo"}
    system_kit.extras("toy").check_demo(campaign)
    assert Campaign.objects.exclude(system="toy").count() == 0  # only the system asked for


def test_the_toy_api_lists_and_adds_contests_for_members_only(table, django_user_model):
    campaign, clients = table["campaign"], table["clients"]
    url = f"/api/v1/campaigns/{campaign.pk}/toy-contests/"
    added = clients["gm"].post(url, {"title": "The Marble Race", "score": 3}, content_type="application/json")
    assert added.status_code == 201 and added.json()["title"] == "The Marble Race"
    assert clients["player"].post(url, {"title": "Mine"}, content_type="application/json").status_code == 403
    assert [c["title"] for c in clients["player"].get(url).json()] == ["The Marble Race"]
    bad = clients["gm"].post(url, {"title": "", "score": "x"}, content_type="application/json")
    assert bad.status_code == 400 and "title" in bad.content.decode() and "score" in bad.content.decode()
    # A campaign of another system, or one the user is not in, is 404.
    other = system_kit.make_campaign(table["gm"], system_kit.installed_keys()[0])
    assert clients["gm"].get(f"/api/v1/campaigns/{other.pk}/toy-contests/").status_code == 404
    stranger = django_user_model.objects.create_user("toy-stranger", password="a-long-toy-password")
    clients["gm"].force_login(stranger)
    assert clients["gm"].get(url).status_code == 404


def test_the_toy_api_answers_each_role_as_it_must(table, django_user_model):
    """Every role on the toy's one route (WALKED_ROUTES): members read, the GM alone adds, an
    outsider and a visitor learn nothing, and a refused request changes nothing."""
    from django.test import Client

    from tests.toy_system.models import Contest

    campaign = table["campaign"]
    url = f"/api/v1/campaigns/{campaign.pk}/toy-contests/"
    observer = django_user_model.objects.create_user("toy-observer", password="a-long-toy-password")
    Membership.objects.create(campaign=campaign, user=observer, role=Role.OBSERVER)
    outsider = django_user_model.objects.create_user("toy-outsider", password="a-long-toy-password")
    clients = {**table["clients"], "anonymous": Client()}
    for name, user in (("observer", observer), ("outsider", outsider)):
        clients[name] = Client()
        clients[name].force_login(user)
    expected = {
        "gm": (200, 201),
        "player": (200, 403),
        "observer": (200, 403),
        "outsider": (404, 404),
        "anonymous": (401, 401),
    }
    for role, (read, add) in expected.items():
        before = Contest.objects.count()
        body = {"title": f"{role}'s race", "score": 1}
        assert clients[role].get(url).status_code == read, role
        assert clients[role].post(url, body, content_type="application/json").status_code == add, role
        assert Contest.objects.count() == before + (add == 201), role


# -- the shared system test kit, for the toy system --------------------------------------------------
def test_the_shared_system_test_kit_passes_for_the_toy_system(table):
    from tests.systems.test_contract import check_contract

    check_contract("toy")
    hero = system_kit.make_character(table["campaign"], table["player"], name="Kim")
    assert hero.status == Character.Status.ACTIVE and hero.system == "toy"
    assert system_kit.sample_build("toy")["knack"] == 2
    assert system_kit.module_of("toy") == ""
    assert "toy" in system_kit.installed_keys()


def test_the_toy_engine_is_pure_like_every_engine():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    probe = (
        "import json, sys; import tests.toy_system.engine as e; e.SYSTEM.new_build({'name': 'Pip'}, None); "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'django')))"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == []


def test_a_system_whose_engine_keeps_no_ids_needs_no_archive_format(toy_installed):
    from archive import references

    assert registry.get("toy").archive_format == ""
    assert references.spots_of("toy") is None and references.archive_format("toy") is None
    document = {"system": "toy", "build": {"name": "Pip", "knack": 2}, "ledger": [{"payload": {"x": 1}}]}
    assert references.character(document, lambda kind, value, path: "changed") == document
    # the systems that keep ids say where (their archive_format module, by the folder's convention)
    kept = {app.key for app in registry.installed() if references.spots_of(app.key) is not None}
    assert kept == {app.key for app in registry.installed() if app.archive_format}


def test_the_import_contracts_hold_with_the_toy_system_among_the_systems(tmp_path):
    """lint-imports with the toy's folder counted as a system: the platform and config import
    nothing of it, it imports no other system, and its engine no Django (the project's own
    contracts, pyproject.toml, with tests.toy_system beside systems.*)."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    config = tmp_path / "toy-contracts.toml"
    config.write_text(
        """
[tool.importlinter]
root_packages = ["characters", "campaigns", "sheets", "systems", "archive", "config", "tests"]
include_external_packages = true

[[tool.importlinter.contracts]]
name = "The platform and config import nothing of the toy system"
type = "forbidden"
source_modules = ["characters", "campaigns", "sheets", "archive", "config"]
forbidden_modules = ["tests.toy_system"]

[[tool.importlinter.contracts]]
name = "The toy system imports no other system"
type = "independence"
modules = ["tests.toy_system", "systems.*"]
# A system's own tests (systems/<key>/tests) may use the platform's shared test helpers, which
# reach every system (the sheet samples, the API role walk): the shipped code is what is independent.
ignore_imports = ["systems.*.tests.** -> tests.**"]

[[tool.importlinter.contracts]]
name = "The toy engine is pure"
type = "forbidden"
source_modules = ["tests.toy_system.engine"]
forbidden_modules = ["django", "rest_framework", "celery", "weasyprint", "campaigns", "sheets", "archive"]
"""
    )
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint_imports
    out = subprocess.run(
        [lint_imports, "--config", str(config), "--no-cache"], cwd=root, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "3 kept, 0 broken" in out.stdout


def test_the_contract_that_the_platform_imports_no_system_has_no_exceptions():
    """pyproject.toml forbids every platform package, config included, to import anything under
    systems, with no ignore_imports: the one edge between them is INSTALLED_APPS, a string."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    contracts = project["tool"]["importlinter"]["contracts"]
    platform = {"characters", "campaigns", "sheets", "archive", "config"}
    found = [
        c
        for c in contracts
        if c["type"] == "forbidden"
        and platform <= set(c["source_modules"])
        and c["forbidden_modules"] == ["systems"]
    ]
    assert len(found) == 1 and "ignore_imports" not in found[0]
    # nor does any other contract excuse a platform module's import of a system
    excused = [
        line for c in contracts for line in c.get("ignore_imports", []) if line.split(".")[0] in platform
    ]
    assert excused == []


def test_the_whole_shared_test_kit_runs_for_the_toy_system_in_this_run(request):
    """The suite runs with the toy installed (tests/settings_toy.py), so every shared test
    (system_kit.SHARED_TESTS) is collected into this same run, and those parametrised by system have
    a toy case beside the project's four: the run fails if any of them fails. (It was a pytest of
    its own, ~95 s of one core, running the kit a second time; docs/testing.md.)"""
    from pathlib import Path

    assert TOY_APP in settings.INSTALLED_APPS and "toy" in system_kit.installed_keys()
    root = Path(__file__).resolve().parents[1]
    shared = [root / path for path in system_kit.SHARED_TESTS]
    collected: dict[str, list[str]] = {}
    for item in request.session.items:
        path = Path(str(item.path))
        for module in shared:
            if path == module or module in path.parents:
                collected.setdefault(str(path.relative_to(root)), []).append(item.name)
    wanted = {
        str(path.relative_to(root))
        for module in shared
        for path in ([module] if module.suffix == ".py" else module.rglob("test_*.py"))
    }
    # every shared test module is in this run (a `-k` or a path given on the command line narrows it)
    if len(request.session.items) >= 1000:
        assert wanted <= set(collected), wanted - set(collected)
    with_toy = {
        module
        for module, names in collected.items()
        if any("toy" in name.partition("[")[2] for name in names)
    }
    assert {
        "tests/systems/test_contract.py",
        "tests/test_wrong_system_routes.py",
        "tests/characters/test_wizard_steps.py",
        "tests/sheets/test_blank_sheets.py",
        "tests/sheets/test_layout_invariants.py",
        "tests/sheets/test_longest_input.py",
        "tests/archive/test_round_trip.py",
        "tests/archive/test_play_records.py",
        "tests/archive/test_schema.py",
    } & set(collected) <= with_toy
