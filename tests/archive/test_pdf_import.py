"""Restoring a character from its archival sheet: the PDF goes where a character document goes.

The round trip per system: a character with history, its sheet rendered as its owner gets it, the
PDF imported into an empty campaign, exported again: the two character documents are equal (ids
aside: those never leave the server). Hostile PDFs are each a 400 naming what is wrong, with
nothing stored (refused_character counts the rows before and after).
"""

from __future__ import annotations

import hashlib
import io
import json
import zlib
from pathlib import Path

import pikepdf
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from archive import services
from archive.problems import ArchiveRefused
from campaigns.access import get_campaign_for_user
from sheets import archival
from sheets import services as sheet_services
from sheets.tasks import run_render
from tests.archive.conftest import SYSTEMS
from tests.archive.test_refusals import refused_character


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"


def sheet_pdf(user, character, kind="character") -> bytes:
    campaign = character.campaign
    _, membership = get_campaign_for_user(user, campaign.pk)
    render, _ = sheet_services.request_render(
        user, kind, campaign, membership, character if kind == "character" else None
    )
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    return Path(render.file.path).read_bytes()


def comparable(document: dict) -> dict:
    return {k: v for k, v in document.items() if k not in ("exported_at", "exported_by")}


def round_trip(world, character, target):
    pdf = sheet_pdf(character.owner, character)
    copy = services.import_character(pdf, target, world.users["player"], world.users["gm"])
    assert comparable(services.export_character(copy)) == comparable(services.export_character(character))
    return copy


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_character_of_each_system_comes_back_from_its_sheet(system, world, make_campaign, make_hero):
    source = make_campaign(system)
    hero = make_hero(source)
    round_trip(world, hero, make_campaign(system, name="An empty table"))


def test_an_agent_with_mission_history_comes_back_from_its_sheet(world, full_campaign, make_campaign):
    harry = full_campaign.characters.get(name="Harry Adams")
    assert harry.entries.filter(kind="mission_started").exists()
    copy = round_trip(world, harry, make_campaign("timemaster", name="An empty table"))
    assert copy.build["state"]["missions_closed"] == ["mission:~1"]  # a key, never a server id


def test_the_api_takes_the_sheet_as_an_upload(world, make_campaign, make_hero, api):
    hero = make_hero(make_campaign("d6"))
    target = make_campaign("d6", name="An empty table")
    upload = SimpleUploadedFile("ana.pdf", sheet_pdf(world.users["player"], hero), "application/pdf")
    url = f"/api/v1/campaigns/{target.pk}/characters/import/"
    refused = api(world.users["player"]).post(url, {"file": upload}, format="multipart")
    assert refused.status_code == 403
    upload.seek(0)
    made = api(world.users["gm"]).post(url, {"file": upload, "owner": "player"}, format="multipart")
    assert made.status_code == 201, made.content
    assert made.json()["name"] == "Ana" and made.json()["owner"] == "player"


def test_the_import_page_takes_the_sheet(world, make_campaign, make_hero, client):
    hero = make_hero(make_campaign("tempo"))
    target = make_campaign("tempo", name="An empty table")
    client.force_login(world.users["gm"])
    upload = SimpleUploadedFile("finn.pdf", sheet_pdf(world.users["gm"], hero), "application/pdf")
    page = client.get(f"/campaigns/{target.pk}/archive/")
    assert page.status_code == 200 and b'accept=".json,.pdf' in page.content  # a sheet is welcome
    response = client.post(
        f"/campaigns/{target.pk}/archive/characters/import/", {"file": upload, "owner": "player"}, follow=True
    )
    assert response.status_code == 200
    assert target.characters.filter(name="Finn Marlowe", owner=world.users["player"]).exists()


# -- hostile and wrong PDFs ---------------------------------------------------------------------------
def _rewritten(pdf_bytes: bytes, change) -> bytes:
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    change(pdf)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _spec(pdf):
    return pdf.Root.Names.EmbeddedFiles.Names[1]


def _replace_file(data: bytes, *, checksum: bool, packed: bytes | None = None):
    def change(pdf):
        spec = _spec(pdf)
        stream = pikepdf.Stream(pdf, packed if packed is not None else data)
        if packed is not None:
            stream.Filter = pikepdf.Name.FlateDecode
        stream.Type = pikepdf.Name.EmbeddedFile
        spec.EF.F = pdf.make_indirect(stream)
        if checksum:
            name = str(spec.F)
            pdf.docinfo[f"/{archival.CHECKSUM_KEY}"] = f"{name}:{hashlib.sha256(data).hexdigest()}"

    return change


@pytest.fixture
def harry_pdf(world, make_hero):
    return sheet_pdf(world.users["player"], make_hero(world.campaign))


def test_a_sheet_that_carries_no_character_is_refused(world, make_hero):
    hero = make_hero(world.campaign)
    blank = sheet_pdf(world.users["player"], hero, kind="blank")
    problems, _ = refused_character(world, blank)
    assert problems and "carries no character" in " ".join(m for _, m in problems)


@pytest.fixture
def bundle(world, make_hero, make_campaign):
    """The GM's party bundle of a D6 table with Ana (player's) and Mae Lin (other_player's)."""
    table = make_campaign("d6")
    make_hero(table, "player")
    mae = make_hero(table, "other_player", name="Mae Lin")
    return table, sheet_pdf(world.users["gm"], mae, kind="party_bundle")


def test_a_party_bundle_is_not_imported_without_saying_which_characters(world, bundle):
    table, pdf = bundle
    problems, error = refused_character(world, pdf, campaign=table)
    text = " ".join(m for _, m in problems)
    assert error.status == 400 and "party bundle carrying 2 characters" in text
    assert "0: Ana (player, revision" in text and "1: Mae Lin (other_player, revision" in text


def test_the_ticked_characters_of_a_bundle_are_restored_each_to_its_owner(world, bundle, make_campaign):
    table, pdf = bundle
    target = make_campaign("d6", name="An empty table")
    documents = services.character_documents(pdf)
    assert [d["name"] for d in documents] == ["Ana", "Mae Lin"]
    picks = [services.Pick(1, world.users["other_player"])]
    (done,) = services.import_characters(documents, picks, target, world.users["gm"])
    mae = table.characters.get(name="Mae Lin")
    assert (done.character.name, done.character.owner) == ("Mae Lin", world.users["other_player"])
    assert comparable(services.export_character(done.character)) == comparable(services.export_character(mae))
    assert not target.characters.filter(name="Ana").exists()


def test_a_bundle_into_its_own_campaign_asks_about_each_character_already_there(world, bundle):
    from tests.archive.test_refusals import counts

    table, pdf = bundle
    documents = services.character_documents(pdf)
    picks = [services.Pick(0, world.users["player"], "copy"), services.Pick(1, world.users["other_player"])]
    before = counts()
    with pytest.raises(ArchiveRefused) as caught:  # Mae Lin has no answer: neither is imported
        services.import_characters(documents, picks, table, world.users["gm"])
    assert counts() == before and caught.value.status == 409
    assert caught.value.problems[0].path == "characters[1].on_duplicate"
    picks[1].on_duplicate = "replace"
    done = services.import_characters(documents, picks, table, world.users["gm"])
    assert [(d.character.name.startswith("Ana (restored "), d.replaced) for d in done] == [
        (True, False),
        (False, True),
    ]
    assert table.characters.filter(name="Mae Lin").count() == 1


def test_a_tampered_file_in_a_bundle_refuses_the_whole_bundle(world, bundle):
    table, pdf = bundle
    data = pikepdf.open(io.BytesIO(pdf))
    document = json.loads(_spec(data).EF.F.read_bytes())
    document["name"] = "Someone else"
    altered = _rewritten(pdf, _replace_file(json.dumps(document).encode(), checksum=False))
    problems, _ = refused_character(world, altered, campaign=table)
    assert "does not match the checksum" in " ".join(m for _, m in problems)


def test_a_sheet_of_another_system_is_refused(world, make_hero, make_campaign):
    pdf = sheet_pdf(world.users["player"], make_hero(make_campaign("d6")))
    problems, error = refused_character(world, pdf)  # the world's campaign plays TIMEMASTER
    assert error.status == 400 and "This campaign plays timemaster, not d6." in {m for _, m in problems}


def test_the_api_imports_the_characters_a_bundle_names(world, bundle, make_campaign, api):
    _, pdf = bundle
    target = make_campaign("d6", name="An empty table")
    url = f"/api/v1/campaigns/{target.pk}/characters/import/"

    def post(user, **fields):
        upload = SimpleUploadedFile("party.pdf", pdf, "application/pdf")
        return api(world.users[user]).post(url, {"file": upload, **fields}, format="multipart")

    assert post("player", characters="all").status_code == 403  # importing stays the GM's
    asked = post("gm")
    assert asked.status_code == 400 and "characters=all" in json.dumps(asked.json())
    assert post("gm", characters="0,7").status_code == 400
    assert not target.characters.exists()
    made = post("gm", characters="all")
    assert made.status_code == 201, made.content
    owners = {c["name"]: c["owner"] for c in made.json()["characters"]}
    assert owners == {"Ana": "player", "Mae Lin": "other_player"}  # each to the owner its sheet names
    again = post("gm", characters="1")
    assert again.status_code == 409 and "on_duplicate" in json.dumps(again.json())


def test_the_import_page_lists_a_bundle_and_imports_what_is_ticked(world, bundle, make_campaign, client):
    _, pdf = bundle
    target = make_campaign("d6", name="An empty table")
    client.force_login(world.users["gm"])
    url = f"/campaigns/{target.pk}/archive/characters/import/"
    listed = client.post(
        url, {"file": SimpleUploadedFile("party.pdf", pdf, "application/pdf"), "owner": "gm"}
    )
    page = listed.content.decode()
    assert listed.status_code == 200 and "This party bundle carries 2 characters" in page
    assert 'name="pick" value="0"' in page and 'name="pick" value="1"' in page
    assert not target.characters.exists()
    token = listed.context["pending"]["token"]
    nothing = client.post(url, {"pending": token, "owner": "gm", "confirm": "1"})
    assert nothing.status_code == 400 and "Tick at least one character" in nothing.content.decode()
    done = client.post(
        url,
        {"pending": token, "owner": "gm", "confirm": "1", "pick": ["0"], "owner_0": "player"},
        follow=True,
    )
    assert done.status_code == 200 and "Imported Ana (revision" in done.content.decode()
    assert list(target.characters.values_list("name", "owner__username")) == [("Ana", "player")]
    stale = client.post(url, {"pending": token, "owner": "gm", "confirm": "1", "pick": ["1"]})
    assert stale.status_code == 400 and "upload the file again" in stale.content.decode()


def test_the_import_page_asks_before_importing_a_sheet_twice(world, make_hero, client):
    hero = make_hero(world.campaign)
    pdf = sheet_pdf(world.users["player"], hero)
    client.force_login(world.users["gm"])
    url = f"/campaigns/{world.campaign.pk}/archive/characters/import/"
    asked = client.post(
        url, {"file": SimpleUploadedFile("harry.pdf", pdf, "application/pdf"), "owner": "player"}
    )
    page = asked.content.decode()
    assert asked.status_code == 409 and "Harry Adams is already in this campaign" in page
    assert (
        'value="replace"' in page and 'value="copy"' in page and "on_duplicate=" not in page
    )  # no API words
    assert world.campaign.characters.filter(name__startswith="Harry Adams").count() == 1
    token = asked.context["pending"]["token"]
    other = Client()
    other.force_login(world.users["player"])  # someone else cannot answer for the GM
    assert other.post(url, {"pending": token, "on_duplicate": "copy"}).status_code == 403
    unanswered = client.post(url, {"pending": token, "owner": "player"})
    assert unanswered.status_code == 409
    assert "to replace it or to import a copy" in unanswered.content.decode()
    done = client.post(url, {"pending": token, "owner": "player", "on_duplicate": "replace"}, follow=True)
    assert "Harry Adams already holds what the file holds: nothing changed." in done.content.decode()
    assert world.campaign.characters.filter(name__startswith="Harry Adams").count() == 1


def test_an_attachment_that_does_not_match_its_checksum_is_refused(world, harry_pdf):
    pdf = pikepdf.open(io.BytesIO(harry_pdf))
    document = json.loads(_spec(pdf).EF.F.read_bytes())
    document["build"]["success_points"] = 9999
    altered = _rewritten(harry_pdf, _replace_file(json.dumps(document).encode(), checksum=False))
    problems, _ = refused_character(world, altered)
    assert "does not match the checksum" in " ".join(m for _, m in problems)


def test_an_attachment_altered_with_its_checksum_is_caught_by_the_replay(world, harry_pdf):
    pdf = pikepdf.open(io.BytesIO(harry_pdf))
    document = json.loads(_spec(pdf).EF.F.read_bytes())
    document["build"]["success_points"] = 9999
    altered = _rewritten(harry_pdf, _replace_file(json.dumps(document).encode(), checksum=True))
    problems, _ = refused_character(world, altered)
    assert "build" in {path for path, _ in problems}


def test_a_compressed_bomb_is_refused_without_unpacking_it(world, harry_pdf, settings):
    settings.ARCHIVE_MAX_BYTES = 2 * 1024 * 1024
    huge = b"[" + b" " * (16 * 1024 * 1024) + b"]"  # 16 MB of JSON that packs to about 16 kB
    bomb = _rewritten(harry_pdf, _replace_file(huge, checksum=True, packed=zlib.compress(huge, 9)))
    assert len(bomb) < settings.ARCHIVE_MAX_BYTES
    problems, _ = refused_character(world, bomb)
    assert "unpacks to more than 2 MB" in " ".join(m for _, m in problems)


def test_a_lone_surrogate_in_the_attachment_is_refused(world, harry_pdf):
    pdf = pikepdf.open(io.BytesIO(harry_pdf))
    text = _spec(pdf).EF.F.read_bytes().decode()
    broken = text.replace('"name":"Harry Adams"', '"name":"Harry \\ud800 Adams"', 1).encode()
    assert broken != text.encode()
    problems, _ = refused_character(world, _rewritten(harry_pdf, _replace_file(broken, checksum=True)))
    assert problems and all(path == "name" for path, _ in problems)


def test_a_damaged_pdf_is_refused(world, harry_pdf):
    problems, _ = refused_character(world, harry_pdf[:2000])
    assert problems and all(path == "file" for path, _ in problems)


def test_a_pdf_whose_metadata_has_no_checksum_is_refused(world, harry_pdf):
    def drop(pdf):
        del pdf.docinfo[f"/{archival.CHECKSUM_KEY}"]

    problems, _ = refused_character(world, _rewritten(harry_pdf, drop))
    assert "holds no checksum" in " ".join(m for _, m in problems)
