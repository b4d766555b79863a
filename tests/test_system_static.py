"""A game system's page CSS lives in its own folder (``systems/<system>/static/<system>/``), found
by the staticfiles finders like any app's; the platform's ``static/css`` holds no system's CSS."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

from characters import registry

ROOT = Path(settings.BASE_DIR)
STATIC_TAG = re.compile(r"""\{%\s*static\s+['"]([^'"]+)['"]\s*%\}""")


def _system_folders() -> list[Path]:
    return [ROOT / Path(*app.package.split(".")) for app in registry.installed()]


def test_every_static_file_a_systems_template_names_resolves_through_the_finders():
    named = {
        (template, path)
        for folder in _system_folders()
        for template in (folder / "templates").rglob("*.html")
        for path in STATIC_TAG.findall(template.read_text(encoding="utf-8"))
    }
    assert any(path.endswith(".css") for _, path in named)
    missing = [(str(template.relative_to(ROOT)), path) for template, path in named if not finders.find(path)]
    assert missing == []


def test_each_systems_css_is_served_from_its_own_folder():
    for folder in _system_folders():
        for css in (folder / "static").rglob("*.css"):
            name = css.relative_to(folder / "static").as_posix()
            assert Path(finders.find(name)) == css
            assert name.split("/")[0] == folder.name  # namespaced by the system's folder


def test_the_platforms_static_folder_holds_no_systems_page_css():
    platform_css = {path.name for path in (ROOT / "static").rglob("*.css")}
    assert not {"d6.css", "tempo.css", "ttk.css", "missions.css"} & platform_css


def test_a_systems_page_head_links_its_own_css():
    assert "/static/d6/d6.css" in render_to_string("d6_encounters/_head.html")
    assert "/static/time_to_kill/ttk.css" in render_to_string("ttk_missions/_head.html")
    assert "/static/timemaster/missions.css" in render_to_string("campaigns/mission_head.html")
