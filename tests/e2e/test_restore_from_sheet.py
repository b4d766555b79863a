"""Browser test: the GM restores characters from their PDFs on the Export tab, at 1280 and 390 px.
A sheet of a character still in the campaign asks (replace or copy) before importing anything; a
party bundle lists its characters and imports the ticked ones. Screenshots: restore-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.archive import conftest as archive
from tests.archive.test_pdf_import import sheet_pdf
from tests.e2e.test_archive import check_page, log_in

pytestmark = pytest.mark.e2e
make_campaign, make_hero = archive.make_campaign, archive.make_hero


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_gm_restores_a_sheet_and_a_bundle(
    new_page, shot, transactional_db, world, make_campaign, make_hero, tmp_path, settings, width, height
):
    settings.MEDIA_ROOT = tmp_path / "media"
    table = make_campaign("d6")
    ana = make_hero(table, "player")
    mae = make_hero(table, "other_player", name="Mae Lin")
    sheet, party = tmp_path / "ana.pdf", tmp_path / "party.pdf"
    sheet.write_bytes(sheet_pdf(world.users["player"], ana))
    party.write_bytes(sheet_pdf(world.users["gm"], mae, kind="party_bundle"))
    page = new_page(width, height)
    log_in(page, "gm")
    page.goto(f"/campaigns/{table.pk}/archive/")

    page.get_by_label("Character file (.json) or its sheet (.pdf)").set_input_files(str(sheet))
    page.get_by_role("button", name="Import character").click()
    expect(page.get_by_role("heading", name="Ana is already in this campaign")).to_be_visible()
    check_page(page)
    shot(page, f"restore-duplicate-{width}")
    assert table.characters.filter(name__startswith="Ana").count() == 1
    page.get_by_role("button", name="Import as a copy").click()
    expect(page.get_by_text("Imported Ana (restored ")).to_be_visible()

    page.get_by_label("Character file (.json) or its sheet (.pdf)").set_input_files(str(party))
    page.get_by_role("button", name="Import character").click()
    expect(page.get_by_role("heading", name="This party bundle carries 2 characters")).to_be_visible()
    check_page(page)
    page.get_by_role("checkbox", name="Import Mae Lin").check()
    page.get_by_role("radio", name="Replace Mae Lin").check()
    shot(page, f"restore-bundle-{width}")
    page.get_by_role("button", name="Import the ticked characters").click()
    expect(page.get_by_text("Mae Lin already holds what the file holds: nothing changed.")).to_be_visible()
    assert table.characters.filter(name="Mae Lin").count() == 1
