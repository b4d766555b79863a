"""Archival sheets: PDF/A-3 files carrying each character's export document as an associated file.

Read back with pikepdf (a qpdf binding, independent of WeasyPrint): the PDF/A identification in the
XMP metadata, the sRGB output intent, the embedded file with its relationship and MIME type, the
catalog's associated files, and the SHA-256 of the file in the document information. There is no
PDF/A validator to install here (veraPDF is Java and not packaged); these are the parts of
ISO 19005-3 that an embedded character depends on.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pikepdf
import pytest

from archive import format as archive_format
from archive import services as archive_services
from campaigns.access import get_campaign_for_user
from sheets import archival, services
from sheets.tasks import run_render


def rendered(user, kind, campaign, character=None) -> bytes:
    _, membership = get_campaign_for_user(user, campaign.pk)
    render, _ = services.request_render(user, kind, campaign, membership, character)
    run_render(render.pk)
    render.refresh_from_db()
    return Path(render.file.path).read_bytes()


def embedded(data: bytes) -> dict[str, tuple[str, str, bytes]]:
    """file name -> (relationship, MIME type, bytes) of every embedded file."""
    pdf = pikepdf.open(io.BytesIO(data))
    found = {}
    for name, spec in pdf.attachments.items():
        stream = spec.get_file()
        found[name] = (str(spec.relationship), stream.mime_type, stream.read_bytes())
    return found


def test_a_character_sheet_is_pdf_a_3_with_an_srgb_output_intent(world, party):
    data = rendered(world.users["player"], "character", world.campaign, party["player"])
    pdf = pikepdf.open(io.BytesIO(data))
    with pdf.open_metadata() as xmp:
        assert xmp.get("pdfaid:part") == "3"
        assert xmp.get("pdfaid:conformance") == "A"  # accessible: tagged
    intent = pdf.Root.OutputIntents[0]
    assert intent.S == "/GTS_PDFA1" and "/DestOutputProfile" in intent
    assert pdf.Root.Lang == "en"


def test_the_sheet_carries_the_character_document_as_its_source(world, party):
    harry = party["player"]
    data = rendered(world.users["player"], "character", world.campaign, harry)
    files = embedded(data)
    assert list(files) == ["harry-adams-r1.json"]
    relationship, media_type, content = files["harry-adams-r1.json"]
    assert relationship == "/Source" and media_type == "application/json"
    document = json.loads(content)
    assert document["format"] == archive_format.CHARACTER
    assert document["format_version"] == archive_format.FORMAT_VERSION
    assert "exported_at" not in document and "exported_by" not in document
    assert document == archive_services.archival_document(harry)
    # an associated file of the document (PDF/A-3 wants it listed in the catalog's AF)
    pdf = pikepdf.open(io.BytesIO(data))
    assert [str(spec.F) for spec in pdf.Root.AF] == ["harry-adams-r1.json"]


def test_the_metadata_holds_the_sha256_of_the_embedded_document(world, party):
    data = rendered(world.users["gm"], "character", world.campaign, party["other_player"])
    _, _, content = embedded(data)["mae-lin-r4.json"]
    pdf = pikepdf.open(io.BytesIO(data))
    sums = archival.parse_checksum_entry(str(pdf.docinfo[f"/{archival.CHECKSUM_KEY}"]))
    assert sums == {"mae-lin-r4.json": hashlib.sha256(content).hexdigest()}


def test_the_owner_and_the_gm_share_one_stored_render(world, party):
    harry = party["player"]
    renders = []
    for who in ("player", "gm"):
        _, membership = get_campaign_for_user(world.users[who], world.campaign.pk)
        renders.append(
            services.request_render(world.users[who], "character", world.campaign, membership, harry)[0]
        )
    assert renders[0].pk == renders[1].pk


def test_the_gm_bundle_carries_every_character_and_a_player_bundle_only_their_own(world, party):
    gm_copy = rendered(world.users["gm"], "party_bundle", world.campaign)
    assert sorted(embedded(gm_copy)) == ["harry-adams-r1.json", "mae-lin-r4.json"]
    player_copy = rendered(world.users["player"], "party_bundle", world.campaign)
    assert sorted(embedded(player_copy)) == ["harry-adams-r1.json"]
    pdf = pikepdf.open(io.BytesIO(player_copy))
    assert "mae-lin" not in str(pdf.docinfo[f"/{archival.CHECKSUM_KEY}"])


def _structure(pdf) -> list[str]:
    """The structure types of the tagged PDF's structure tree, in reading order."""
    found: list[str] = []

    def walk(element):
        if isinstance(element, pikepdf.Dictionary) and "/S" in element:
            found.append(str(element.S))
            if element.get("/K") is not None:
                walk(element.K)
        elif isinstance(element, pikepdf.Array):
            for child in element:
                walk(child)

    walk(pdf.Root.StructTreeRoot.K)
    return found


@pytest.mark.parametrize("kind", ["character", "party_bundle", "blank"])
def test_every_sheet_is_tagged_with_headings_in_order_and_table_headers(world, party, kind):
    character = party["player"] if kind == "character" else None
    data = rendered(world.users["gm"], kind, world.campaign, character)
    pdf = pikepdf.open(io.BytesIO(data))
    assert pdf.Root.MarkInfo.Marked is True and pdf.Root.Lang == "en"
    assert pdf.Root.ViewerPreferences.DisplayDocTitle is True  # a reader shows the title, not the file name
    assert str(pdf.docinfo.Title)
    structure = _structure(pdf)
    levels = [int(s[2:]) for s in structure if s[:2] == "/H" and s[2:].isdigit()]
    assert levels and levels[0] == 1
    assert all(later <= earlier + 1 for earlier, later in zip(levels, levels[1:], strict=False))
    assert "/Table" in structure and "/TH" in structure
    # decorative marks (borders, backgrounds, the drawn boxes) are artifacts, not content
    operators = [
        str(op.operands[0]) for page in pdf.pages for op in pikepdf.parse_content_stream(page, "BDC BMC")
    ]
    assert "/Artifact" in operators


@pytest.mark.parametrize("kind", ["blank"])
def test_a_sheet_about_no_character_carries_no_file(world, kind):
    data = rendered(world.users["observer"], kind, world.campaign)
    assert embedded(data) == {}
    pdf = pikepdf.open(io.BytesIO(data))
    assert f"/{archival.CHECKSUM_KEY}" not in pdf.docinfo


def test_the_character_page_says_the_sheet_carries_the_character_and_how_to_restore(world, party, client):
    client.force_login(world.users["player"])
    page = client.get(f"/characters/{party['player'].pk}/").content.decode()
    assert "it carries Harry Adams whole" in page
    assert f'href="/campaigns/{world.campaign.pk}/archive/"' in page
    client.force_login(world.users["other_player"])  # no sheet section for someone else's character
    assert "it carries" not in client.get(f"/characters/{party['player'].pk}/").content.decode()
