"""Blank character sheets for paper play: every system, any member, nothing about any character."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets import blanks, rendering
from sheets.tasks import run_render
from tests import system_kit
from tests.sheets.conftest import pdf_text

SYSTEMS = tuple(system_kit.installed_keys())


def labels(system: str) -> list[str]:
    """Labels every blank sheet of the system prints: its test kit's BLANK_LABELS."""
    return list(getattr(system_kit.extras(system), "BLANK_LABELS", []))


def request_url(campaign):
    return f"/api/v1/campaigns/{campaign.pk}/sheets/"


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_each_systems_blank_sheet_is_one_page_with_its_labels_and_no_values(system, paper):
    result = rendering.render_pdf(
        [rendering.SheetPage(blanks.blank_sheet(system), campaign="Paper Play")],
        title="Blank",
        author="Dossier test",
        paper=paper,
    )
    pages, text = pdf_text(result.pdf)
    assert pages == result.pages == 1
    assert labels(system), f"{system}: its testkit.py names no BLANK_LABELS"
    for label in labels(system):
        assert label.lower() in text.lower(), label  # headings print upper-case
    assert "page 1 of 1" in text and "Paper Play" in text
    assert "revision" not in text  # no character, so no revision in the footer
    assert "Blank sheet" not in text  # the name is a write-in line, not a title


def test_a_blank_sheet_has_no_numbers_of_its_own():
    fields = blanks.blank_sheet("timemaster").fields
    assert all(stat["score"] == "" for stat in fields["basic_statistics"])
    assert not any(box["struck"] or box["marked"] for box in fields["wound_boxes"])
    assert fields["skills"] == fields["talents"] == fields["times_visited"] == []


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 202), ("player", 202), ("other_player", 202), ("observer", 202), ("outsider", 404)],
)
def test_any_member_may_request_a_blank_sheet(world, api, persona, expected):
    response = api(world.users[persona]).post(request_url(world.campaign), {"kind": "blank"}, format="json")
    assert response.status_code == expected, response.content


def test_anonymous_cannot_request_a_blank_sheet(world, api):
    assert api().post(request_url(world.campaign), {"kind": "blank"}, format="json").status_code == 401


def test_every_member_shares_one_blank_render_and_downloads_it(world, party, api):
    first = (
        api(world.users["player"]).post(request_url(world.campaign), {"kind": "blank"}, format="json").json()
    )
    again = api(world.users["observer"]).post(request_url(world.campaign), {"kind": "blank"}, format="json")
    assert again.json()["id"] == first["id"]  # queued already: the same render, no second one
    assert run_render(first["id"]) == "done"
    for persona, expected in (
        ("gm", 200),
        ("player", 200),
        ("other_player", 200),
        ("observer", 200),
        ("outsider", 404),
    ):
        response = api(world.users[persona]).get(f"/api/v1/sheets/{first['id']}/download/")
        assert response.status_code == expected, persona
        if expected == 200:
            assert b"".join(response.streaming_content).startswith(b"%PDF")
        else:
            assert b"%PDF" not in response.content


def test_a_blank_sheet_shows_nothing_of_the_partys_characters(world, party, api):
    from sheets.models import SheetRender

    created = (
        api(world.users["gm"]).post(request_url(world.campaign), {"kind": "blank"}, format="json").json()
    )
    assert run_render(created["id"]) == "done"
    render = SheetRender.objects.get(pk=created["id"])
    assert not render.gm_copy and render.character is None and render.revision == 0
    pages, text = pdf_text(Path(render.file.path).read_bytes())
    assert pages == 1 and "Strength" in text
    assert "Harry Adams" not in text and "Mae Lin" not in text


def test_the_campaign_page_offers_a_blank_sheet_to_an_observer(world, client):
    client.force_login(world.users["observer"])
    page = client.get(f"/campaigns/{world.campaign.pk}/sheets/")
    assert page.status_code == 200
    assert b'data-testid="print-blank"' in page.content
    response = client.post(f"/campaigns/{world.campaign.pk}/sheets/", {"kind": "blank", "paper": "a4"})
    assert response.status_code == 302
