"""A print with no revision does not say "revision 0" (issue 44, the new-user walk's point 16): a
campaign report and a blank sheet are stored as revision 0, and the sheets page's list of prints and
the render's page read "revision 0" to a player who had no such thing to look for. They now name no
revision ("—" in the list); a character's prints keep theirs, and a draft's row in the characters
list shows none either."""

from __future__ import annotations

import pytest
from django.utils import timezone

from sheets import services
from sheets.models import SheetKind, SheetRender


@pytest.fixture
def sent(monkeypatch):
    from sheets import tasks

    monkeypatch.setattr(tasks.render_sheet, "delay", lambda render_id: None)


def done(render: SheetRender) -> SheetRender:
    SheetRender.objects.filter(pk=render.pk).update(
        status="done", pages=1, size=12_000, finished_at=timezone.now()
    )
    render.refresh_from_db()
    return render


def test_prints_without_a_revision_name_none(world, party, client, sent):
    member = world.membership["player"]
    blank, _ = services.request_render(world.users["player"], SheetKind.BLANK, world.campaign, member)
    sheet, _ = services.request_render(
        world.users["player"], SheetKind.CHARACTER, world.campaign, member, character=party["player"]
    )
    blank, sheet = done(blank), done(sheet)
    assert blank.revision == 0 and blank.stamp == ""
    assert sheet.stamp == f"revision {party['player'].revision}"
    client.force_login(world.users["player"])
    listing = client.get(f"/campaigns/{world.campaign.pk}/sheets/").content.decode()
    assert "revision 0" not in listing
    rows = listing.split('data-label="Revision">')[1:]
    assert any(row.startswith("—<") for row in rows)  # the blank sheet
    assert any(row.startswith(f"{party['player'].revision}<") for row in rows)  # the character's
    page = client.get(f"/sheets/{blank.pk}/").content.decode()
    assert "Ready: 1 page" in page and "revision 0" not in page and ", Letter." in page
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert f", revision {party['player'].revision}." in page


def test_a_drafts_row_in_the_characters_list_names_no_revision(world, client):
    from characters import services as character_services

    draft = character_services.create_draft(
        world.campaign, world.users["player"], choices={"name": "Jonah Pike"}
    )
    assert draft.revision == 0
    client.force_login(world.users["player"])
    listing = client.get(f"/campaigns/{world.campaign.pk}/characters/").content.decode()
    row = listing.split("Jonah Pike")[1].split("</tr>")[0]
    assert "Draft" in row and "<td>—</td>" in row and "<td>0</td>" not in row
