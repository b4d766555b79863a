"""Importing a character the campaign already has (archive/restore.py): the import asks first.

A character's own document (its export, or its sheet) is recognised as that very character by its
creation build and ledger; failing that, a character of the same name and owner is a namesake.
Without an answer nothing is imported (409); ``copy`` adds a character whose name says it is a
restored copy; ``replace`` brings the character to the document's state by new ledger entries,
never by rewriting or deleting one.
"""

from __future__ import annotations

import copy
import datetime
import json

import pytest

from archive import restore, services
from archive.problems import ArchiveRefused
from characters import services as character_services
from characters.models import AdvancementEntry, Character
from tests.archive.test_refusals import counts

BONUS = {"kind": "sp_awarded", "type": "bonus", "session": 7, "amount": 10}


def comparable(document: dict) -> dict:
    return {k: v for k, v in document.items() if k not in ("exported_at", "exported_by")}


def ledger_rows(character) -> list[tuple]:
    return list(AdvancementEntry.objects.filter(character=character).order_by("id").values_list("id", "kind"))


def refused(world, document, campaign=None, **kwargs) -> ArchiveRefused:
    before = counts()
    with pytest.raises(ArchiveRefused) as caught:
        services.import_character(
            document, campaign or world.campaign, world.users["player"], world.users["gm"], **kwargs
        )
    assert counts() == before
    return caught.value


@pytest.fixture
def hero(world, make_hero):
    return make_hero(world.campaign)


def test_a_characters_own_document_is_not_imported_twice_without_an_answer(world, hero):
    document = services.export_character(hero)
    error = refused(world, document)
    assert error.status == 409
    message = " ".join(p.message for p in error.problems)
    assert "already has Harry Adams (player, Active, revision" in message
    assert "the very character this document holds" in message
    assert "on_duplicate=replace" in message and "on_duplicate=copy" in message
    assert Character.objects.filter(campaign=world.campaign, name="Harry Adams").count() == 1


def test_a_copy_is_a_second_character_whose_name_says_so(world, hero):
    copied = services.import_character(
        services.export_character(hero),
        world.campaign,
        world.users["player"],
        world.users["gm"],
        on_duplicate="copy",
    )
    assert copied.pk != hero.pk
    assert copied.name == f"Harry Adams (restored {datetime.date.today().isoformat()})"
    assert copied.build == hero.build and copied.revision == hero.revision


def test_replace_brings_an_advanced_character_back_by_new_ledger_entries(world, hero):
    printed = services.export_character(hero)
    before_rows = ledger_rows(hero)
    character_services.append_entry(hero, copy.deepcopy(BONUS), world.users["gm"])
    character_services.append_entry(hero, {**BONUS, "session": 8}, world.users["gm"])
    hero.refresh_from_db()
    assert hero.build != printed["build"]
    advanced_revision = hero.revision
    imported = services.import_document(
        printed, world.campaign, world.users["player"], world.users["gm"], on_duplicate="replace"
    )
    hero.refresh_from_db()
    assert imported.replaced and imported.character.pk == hero.pk and imported.entries_added == 2
    assert hero.build == printed["build"]
    assert hero.revision == advanced_revision + 2  # two reversals: new revisions, nothing overwritten
    rows = ledger_rows(hero)
    assert rows[: len(before_rows)] == before_rows  # the ledger is append-only: every old entry is there
    assert [kind for _, kind in rows[-2:]] == ["reversal", "reversal"]
    reasons = (
        AdvancementEntry.objects.filter(character=hero).order_by("-id").values_list("reason", flat=True)[:2]
    )
    assert all(reason.startswith("Restored from a character file (revision") for reason in reasons)
    assert Character.objects.filter(campaign=world.campaign, name="Harry Adams").count() == 1


def test_replace_brings_an_older_character_forward_and_each_step_can_be_reverted(world, hero, make_campaign):
    older = services.export_character(hero)
    character_services.append_entry(hero, copy.deepcopy(BONUS), world.users["gm"])
    hero.refresh_from_db()
    newer = services.export_character(hero)
    table = make_campaign("timemaster", name="Another table")
    there = services.import_character(older, table, world.users["player"], world.users["gm"])
    imported = services.import_document(
        newer, table, world.users["player"], world.users["gm"], on_duplicate="replace"
    )
    there.refresh_from_db()
    assert imported.replaced and imported.entries_added == 1 and there.build == hero.build
    added = there.entries.order_by("-id").first()
    assert added.kind == "sp_awarded" and added.recorded_by == world.users["gm"]
    character_services.revert_entry(added, world.users["gm"], "the restore was a mistake")
    there.refresh_from_db()
    assert there.build == older["build"]  # the GM undoes the restore like any entry


def test_replace_records_again_an_entry_reverted_after_the_print(world, hero):
    printed = services.export_character(hero)
    reversed_ids = set(AdvancementEntry.objects.filter(character=hero).values_list("reverses_id", flat=True))
    entry = (
        AdvancementEntry.objects.filter(character=hero)
        .exclude(kind=AdvancementEntry.REVERSAL)
        .exclude(pk__in=reversed_ids - {None})
        .order_by("-id")
        .first()
    )
    character_services.revert_entry(entry, world.users["gm"], "not earned")
    imported = services.import_document(
        printed, world.campaign, world.users["player"], world.users["gm"], on_duplicate="replace"
    )
    hero.refresh_from_db()
    assert imported.entries_added == 1 and hero.build == printed["build"]
    last = hero.entries.order_by("-id").first()
    assert (last.kind, last.payload) == (entry.kind, entry.payload)  # recorded again, a new revision


def test_replacing_with_the_same_state_changes_nothing(world, hero):
    revision = hero.revision
    imported = services.import_document(
        services.export_character(hero),
        world.campaign,
        world.users["player"],
        world.users["gm"],
        on_duplicate="replace",
    )
    hero.refresh_from_db()
    assert imported.entries_added == 0 and hero.revision == revision
    assert "nothing changed" in imported.summary()


def test_a_namesake_is_asked_about_and_cannot_be_replaced(world, hero, make_hero, make_campaign):
    other_table = make_campaign("timemaster", name="Another table")
    stranger = make_hero(other_table, ledger=False)  # same name and owner, built alike ...
    character_services.append_entry(stranger, copy.deepcopy(BONUS), world.users["gm"])  # ... another story
    document = json.loads(json.dumps(services.export_character(stranger)))
    error = refused(world, document)
    assert error.status == 409 and "a character of the same name and owner" in error.problems[0].message
    error = refused(world, document, on_duplicate="replace")
    assert error.status == 400 and "cannot be replaced" in error.problems[0].message
    made = services.import_character(
        document, world.campaign, world.users["player"], world.users["gm"], on_duplicate="copy"
    )
    assert made.name.startswith("Harry Adams (restored ")


def test_an_unknown_answer_is_refused(world, hero):
    error = refused(world, services.export_character(hero), on_duplicate="overwrite")
    assert error.status == 400 and error.problems[0].path == "on_duplicate"


def test_another_characters_document_is_not_taken_for_a_duplicate(world, hero, make_hero, make_campaign):
    other_table = make_campaign("timemaster", name="Another table")
    mae = make_hero(other_table, "other_player", name="Mae Lin")
    made = services.import_character(
        services.export_character(mae), world.campaign, world.users["other_player"], world.users["gm"]
    )
    assert made.name == "Mae Lin"


def test_a_copys_name_fits_the_column():
    name = restore.copy_name("x" * 200, datetime.date(2026, 12, 7))
    assert len(name) == Character._meta.get_field("name").max_length
    assert name.endswith(" (restored 2026-12-07)")


def test_the_api_answers_409_then_takes_the_answer(world, hero, api):
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/import/"
    document = json.dumps(services.export_character(hero))
    asked = api(world.users["gm"]).post(url, document, content_type="application/json")
    assert asked.status_code == 409, asked.content
    assert "on_duplicate=replace" in json.dumps(asked.json())
    made = api(world.users["gm"]).post(url + "?on_duplicate=copy", document, content_type="application/json")
    assert made.status_code == 201 and made.json()["replaced"] is False
    replaced = api(world.users["gm"]).post(
        url + "?on_duplicate=replace", document, content_type="application/json"
    )
    assert replaced.status_code == 201 and replaced.json()["id"] == hero.pk and replaced.json()["replaced"]
