"""Instant party bundles: joined from the stored PDFs of the party's sheets, still archival and tagged."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pikepdf

from sheets.models import RenderStatus, SheetRender
from sheets.tasks import run_render
from tests.sheets.conftest import pdf_text


def request_url(campaign):
    return f"/api/v1/campaigns/{campaign.pk}/sheets/"


def render_character(api, user, campaign, character, paper="letter"):
    body = {"kind": "character", "character": character.pk, "paper": paper}
    created = api(user).post(request_url(campaign), body, format="json").json()
    assert run_render(created["id"]) == "done"
    return created["id"]


def bundle(api, user, campaign, paper="letter"):
    return api(user).post(request_url(campaign), {"kind": "party_bundle", "paper": paper}, format="json")


def test_a_bundle_of_rendered_sheets_is_joined_at_once_archival_tagged_with_every_character(
    world, party, api
):
    gm = world.users["gm"]
    parts = [render_character(api, gm, world.campaign, character) for character in party.values()]
    response = bundle(api, gm, world.campaign)
    assert response.status_code == 200, response.content  # done in the request: nothing queued
    render = SheetRender.objects.get(pk=response.json()["id"])
    assert render.status == RenderStatus.DONE and render.pages == 2
    # Harry Adams and Mae Lin, in the bundle's (name) order.
    assert sorted(render.snapshot["joined_from"]) == sorted(parts)
    data = Path(render.file.path).read_bytes()
    pages, text = pdf_text(data)
    assert pages == 2 and "Harry Adams" in text and "Mae Lin" in text
    pdf = pikepdf.open(io.BytesIO(data))
    with pdf.open_metadata() as meta:
        assert meta["pdfaid:part"] == "3" and meta["pdfaid:conformance"] == "A"
        assert meta["dc:title"] == render.snapshot["subject"]
    assert "/OutputIntents" in pdf.Root
    files = {str(spec.F): spec for spec in pdf.Root.AF}
    assert sorted(files) == ["harry-adams-r1.json", "mae-lin-r4.json"]
    names = pdf.Root.Names.EmbeddedFiles.Names
    assert len(names) == 4 and [str(names[0]), str(names[2])] == sorted(files)
    sums = dict(item.rsplit(":", 1) for item in str(pdf.docinfo.DossierSHA256).split())
    for name, spec in files.items():
        assert spec.AFRelationship == pikepdf.Name.Source
        assert spec.EF.F.Subtype == pikepdf.Name("/application/json")
        assert sums[name] == hashlib.sha256(spec.EF.F.read_bytes()).hexdigest()
    # The structure trees joined: one document element, every page's marked content in the parent tree.
    tree = pdf.Root.StructTreeRoot
    keys = [int(tree.ParentTree.Nums[i]) for i in range(0, len(tree.ParentTree.Nums), 2)]
    assert sorted(int(page.StructParents) for page in pdf.pages) == [0, 1]
    assert set(keys) >= {0, 1} and int(tree.ParentTreeNextKey) == max(keys) + 1
    document = tree.K[0]
    headings = [str(kid.S) for kid in document.K if "/S" in kid]
    assert headings == ["/Sect", "/Sect"]  # a section per sheet, as in a bundle rendered whole
    assert all(kid.P.objgen == document.objgen for kid in document.K)
    page_of_second = {kid.Pg.objgen for kid in _elements(document.K[1]) if "/Pg" in kid}
    assert page_of_second == {pdf.pages[1].obj.objgen}  # its marked content points at the copied page


def _elements(element):
    yield element
    kids = element.get("/K")
    for kid in kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []:
        if isinstance(kid, pikepdf.Dictionary):
            yield from _elements(kid)


def test_the_joined_bundle_is_reused_like_a_rendered_one(world, party, api):
    gm = world.users["gm"]
    for character in party.values():
        render_character(api, gm, world.campaign, character)
    first = bundle(api, gm, world.campaign).json()
    again = bundle(api, gm, world.campaign)
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    assert SheetRender.objects.filter(kind="party_bundle").count() == 1


def test_a_bundle_with_a_sheet_not_rendered_yet_is_queued_and_rendered_whole(world, party, api):
    gm = world.users["gm"]
    render_character(api, gm, world.campaign, party["player"])
    response = bundle(api, gm, world.campaign)
    assert response.status_code == 202
    render = SheetRender.objects.get(pk=response.json()["id"])
    assert render.status == RenderStatus.QUEUED and "joined_from" not in render.snapshot


def test_a_stale_or_other_paper_sheet_is_not_joined(world, party, api):
    gm = world.users["gm"]
    for character in party.values():
        render_character(api, gm, world.campaign, character, paper="a4")
    assert bundle(api, gm, world.campaign, paper="letter").status_code == 202  # other paper
    party["player"].revision += 1
    party["player"].save(update_fields=["revision"])
    assert bundle(api, gm, world.campaign, paper="a4").status_code == 202  # an older revision


def test_a_players_bundle_is_never_joined_from_sheets_carrying_other_players_characters(world, party, api):
    # The stored sheets carry each character's document (their owner's and the GM's copy); the
    # player's bundle must not carry Mae Lin's, so it is rendered for its own audience instead.
    gm = world.users["gm"]
    for character in party.values():
        render_character(api, gm, world.campaign, character)
    response = bundle(api, world.users["player"], world.campaign)
    assert response.status_code == 202
    assert run_render(response.json()["id"]) == "done"
    render = SheetRender.objects.get(pk=response.json()["id"])
    pdf = pikepdf.open(io.BytesIO(Path(render.file.path).read_bytes()))
    assert [str(spec.F) for spec in pdf.Root.AF] == [
        name for name in (str(spec.F) for spec in pdf.Root.AF) if name.startswith("harry-adams")
    ]
    assert len(pdf.Root.AF) == 1
