"""A cold party bundle rendered in chunks, one per process, and joined: the same document."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pikepdf
from pypdf import PdfReader

from sheets import blanks, rendering
from sheets.models import SheetRender
from sheets.tasks import run_render

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def footers(data: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()[-4:]) for page in PdfReader(io.BytesIO(data)).pages]


def test_chunks_rendered_in_two_processes_join_into_one_numbered_archival_document():
    pages = [
        rendering.SheetPage(
            blanks.blank_sheet("timemaster"), campaign="Chunks", character=f"Agent {i}", revision=1
        )
        for i in range(7)
    ]
    files = [(f"agent-{i}-r1.json", b'{"n": %d}' % i) for i in range(3)]
    result = rendering.render_in_chunks(
        pages, processes=2, title="Party", author="Dossier test", rendered_at=WHEN, attachments=files
    )
    assert result.pages == 7
    assert footers(result.pdf) == [f"page {n} of 7" for n in range(1, 8)]  # numbered across chunks
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(result.pdf)).pages]
    assert [f"Agent {i}" in text for i, text in enumerate(texts)] == [True] * 7  # in order
    pdf = pikepdf.open(io.BytesIO(result.pdf))
    with pdf.open_metadata() as meta:
        assert meta["pdfaid:part"] == "3" and meta["pdfaid:conformance"] == "A"
    assert sorted(str(spec.F) for spec in pdf.Root.AF) == [name for name, _ in files]
    assert sorted(int(page.StructParents) for page in pdf.pages) == list(range(7))
    assert len(pdf.Root.StructTreeRoot.K[0].K) == 7  # a section per sheet


def test_a_small_document_is_rendered_whole():
    pages = [rendering.SheetPage(blanks.blank_sheet("tempo"), campaign="Small", character="One", revision=1)]
    result = rendering.render_in_chunks(pages, processes=2, title="Small", author="Dossier test")
    assert result.pages == 1 and footers(result.pdf) == ["page 1 of 1"]


def test_a_cold_party_bundle_task_renders_in_chunks_with_every_characters_document(
    world, make_character, api, settings
):
    settings.SHEET_BUNDLE_PROCESSES = 2
    for i in range(6):
        make_character(world.campaign, world.users["player"], name=f"Agent {i:02d}")
    created = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/sheets/", {"kind": "party_bundle"}, format="json"
    )
    assert created.status_code == 202
    assert run_render(created.json()["id"]) == "done"
    render = SheetRender.objects.get(pk=created.json()["id"])
    data = Path(render.file.path).read_bytes()
    assert render.pages == 6 and footers(data)[-1] == "page 6 of 6"
    pdf = pikepdf.open(io.BytesIO(data))
    assert sorted(str(spec.F) for spec in pdf.Root.AF) == [f"agent-{i:02d}-r1.json" for i in range(6)]


def test_a_daemonic_process_renders_the_bundle_whole(monkeypatch):
    """A worker pool's child may be daemonic, and a daemonic process may start no processes: the
    bundle is then rendered whole (one document) instead of failing."""
    import multiprocessing

    from sheets import rendering

    class Daemon:
        daemon = True

    monkeypatch.setattr(multiprocessing, "current_process", lambda: Daemon())
    assert not rendering.may_fork()
    calls = []
    monkeypatch.setattr(rendering, "render_pdf", lambda pages, **options: calls.append(len(pages)) or "whole")
    pages = [object()] * 9
    assert rendering.render_in_chunks(pages, processes=2, title="t", author="a") == "whole"
    assert calls == [9]
