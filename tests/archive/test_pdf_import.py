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

from archive import services
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


def test_a_party_bundle_of_two_characters_is_refused(world, make_hero):
    make_hero(world.campaign, "player")
    hero = make_hero(world.campaign, "other_player", name="Mae Lin")
    bundle = sheet_pdf(world.users["gm"], hero, kind="party_bundle")
    problems, _ = refused_character(world, bundle)
    assert "carries 2 characters" in " ".join(m for _, m in problems)


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
