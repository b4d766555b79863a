"""Issue 18, repair path: rows stored before the input boundary may hold what it now refuses.

A row that holds a lone surrogate reads back with U+FFFD on every page, API answer and export
(kernel/fields.py), and ``manage.py find_bad_text`` finds it and, with --fix, repairs it.

The rows are written with raw SQL, bypassing the boundary, as an older Dossier stored them. Only
SQLite can hold a lone surrogate or NUL (its JSON is text; PostgreSQL's jsonb refuses both
escapes), so those tests run on SQLite; nesting too deep is stored by both and tested on both.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from characters.models import Character
from tests.archive.conftest import make_campaign, make_hero  # noqa: F401  (fixtures)

sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="only SQLite's JSON text can hold a lone surrogate or NUL"
)


def raw_json(character, column):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM characters_character WHERE id = %s", [character.pk])
        return cursor.fetchone()[0]


def poison(character, column, old, new):
    """Replace ``old`` by ``new`` in the stored JSON text, as the boundary-less Dossier did."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE characters_character SET {column} = replace({column}, %s, %s) WHERE id = %s",
            [old, new, character.pk],
        )
    assert new in raw_json(character, column)


def find_bad_text(*args):
    out = StringIO()
    call_command("find_bad_text", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def hero(world, make_hero):  # noqa: F811
    return make_hero(world.campaign, "player")


@sqlite_only
def test_a_stored_lone_surrogate_reads_back_as_the_replacement_character(world, hero, client, api):
    poison(hero, "build", '"Harry Adams"', '"Harry \\udc00Adams"')
    poison(hero, "choices", '"Harry Adams"', '"Harry \\udc00Adams"')
    shown = "Harry \ufffdAdams"
    assert Character.objects.get(pk=hero.pk).build["name"] == shown
    campaign = world.campaign.pk
    for user in ("gm", "player"):
        client.force_login(world.users[user])
        for url in (
            f"/characters/{hero.pk}/",
            f"/campaigns/{campaign}/characters/",
            f"/characters/{hero.pk}/history/",
        ):
            response = client.get(url)
            assert response.status_code == 200, url
        gm_api = api(world.users[user])
        detail = gm_api.get(f"/api/v1/campaigns/{campaign}/characters/{hero.pk}/")
        assert detail.status_code == 200 and detail.json()["build"]["name"] == shown
        export = gm_api.get(f"/api/v1/campaigns/{campaign}/characters/{hero.pk}/export/")
        assert export.status_code == 200 and shown in export.content.decode()
    client.force_login(world.users["gm"])
    assert client.get(f"/campaigns/{campaign}/archive/export/").status_code == 200
    assert api(world.users["gm"]).get(f"/api/v1/campaigns/{campaign}/export/").status_code == 200


@sqlite_only
def test_find_bad_text_reports_and_fixes_lone_surrogates_and_nul_and_writes_nothing_else(world, hero):
    poison(hero, "build", '"Harry Adams"', '"Harry \\udc00Adams"')
    poison(hero, "choices", '"Harry Adams"', '"Harry\\u0000 Adams"')
    untouched = {c: raw_json(hero, c) for c in ("creation_build", "updated_at", "revision", "name")}

    report = find_bad_text()
    assert f"characters.Character pk={hero.pk} build.name: holds a lone surrogate (U+DC00" in report
    assert f"characters.Character pk={hero.pk} choices.name: holds a NUL character" in report
    assert "2 stored value(s)" in report
    assert "\\udc00" in raw_json(hero, "build"), "without --fix nothing changes"

    fixed = find_bad_text("--fix")
    assert fixed.count("-> fixed") == 2 and "2 fixed" in fixed
    hero.refresh_from_db()
    assert hero.build["name"] == "Harry \ufffdAdams" and hero.choices["name"] == "Harry\ufffd Adams"
    assert "\\udc00" not in raw_json(hero, "build") and "\\u0000" not in raw_json(hero, "choices")
    assert {c: raw_json(hero, c) for c in untouched} == untouched
    assert "0 stored value(s)" in find_bad_text()


def test_a_stored_value_nested_600_deep_is_found_and_cut_at_the_limit(world, hero, api):
    deep = {"name": "Harry Adams", "notes": []}
    inner = deep["notes"]
    for _ in range(600):
        inner.append([])
        inner = inner[0]
    Character.objects.filter(pk=hero.pk).update(choices=deep)  # the ORM, bypassing the boundary
    untouched = {c: raw_json(hero, c) for c in ("build", "updated_at", "revision")}

    report = find_bad_text()
    assert (
        f"characters.Character pk={hero.pk} choices.notes{'[0]' * 31}: nests deeper than 32 levels." in report
    )
    assert "1 fixed" in find_bad_text("--fix")
    hero.refresh_from_db()
    cut = hero.choices["notes"]
    for _ in range(30):
        cut = cut[0]
    assert cut == ["\ufffd"]
    assert {c: raw_json(hero, c) for c in untouched} == untouched
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/{hero.pk}/"
    assert api(world.users["gm"]).get(url).status_code == 200
    assert "0 stored value(s)" in find_bad_text()


def test_over_long_text_is_reported_and_left_for_a_person(world, hero, settings):
    settings.INPUT_MAX_STRING_CHARS = 5
    report = find_bad_text("--fix")
    assert (
        f"characters.Character pk={hero.pk} name: is 11 characters long; the limit is 5. (fix it by hand)"
        in report
    )
    hero.refresh_from_db()
    assert hero.name == "Harry Adams"


def test_a_clean_database_has_nothing_to_report(world, hero):
    assert find_bad_text().strip() == "0 stored value(s) the input boundary refuses."
