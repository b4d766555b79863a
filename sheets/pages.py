"""What a render's PDF is made of, read from its snapshot: the pages (each the engine's SheetData and
what its footer says), the character documents it carries, its title and its file name.

Both sides use it: the render task (sheets/tasks.py) to make the PDF, and sheets/services.py for
the bundles it joins from stored sheets; neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from characters.systems import SheetData, get_system
from sheets import archival, kinds
from sheets.blanks import blank_sheet
from sheets.models import SheetKind, SheetRender

CAMPAIGN_REPORT_TEMPLATE = "sheets/campaign_report.html"
CHRONICLE_TEMPLATE = "sheets/chronicle.html"


@dataclass
class PageSource:
    """One page of a document, as the renderer needs it (no WeasyPrint here)."""

    sheet: SheetData
    campaign: str
    character: str
    revision: int | None
    stamp_label: str = "revision"


def page_sources(render: SheetRender) -> list[PageSource]:
    """The engine's SheetData for every page of a render, from its snapshot."""
    snapshot = render.snapshot
    campaign = snapshot.get("campaign", "")
    sources = []
    for page in snapshot.get("pages", []):
        if page["kind"] == SheetKind.CHARACTER:
            sheet = get_system(page["system"]).sheet(page["build"])
            sources.append(PageSource(sheet, campaign, page["name"], page["revision"]))
        elif page["kind"] == SheetKind.BLANK:
            sources.append(
                PageSource(blank_sheet(page["system"], page.get("module", "")), campaign, "", None)
            )
        elif page["kind"] == SheetKind.CAMPAIGN_REPORT:
            record = page["record"]
            sheet = SheetData(page["system"], CAMPAIGN_REPORT_TEMPLATE, record["title"], record)
            sources.append(PageSource(sheet, campaign, "", None))
        elif page["kind"] == SheetKind.CHRONICLE:
            record = page["record"]
            sheet = SheetData(page["system"], CHRONICLE_TEMPLATE, record["title"], record)
            sources.append(PageSource(sheet, campaign, "", None))
        elif "fields" in page and kinds.spec(page["kind"]) is not None:  # a system's kind
            sheet = kinds.sheet_data(page)
            sources.append(
                PageSource(
                    sheet, campaign, page["character"], page["revision"], page["stamp_label"] or "revision"
                )
            )
        else:
            raise ValueError(f"unknown page kind {page['kind']!r}")
    return sources


def embedded_files(render: SheetRender) -> list[tuple[str, bytes]]:
    """(file name, bytes) of the character documents a render's PDF carries."""
    return [
        (entry["name"], archival.encode(entry["document"]))
        for entry in render.snapshot.get("attachments") or []
    ]


def attached_characters(render: SheetRender) -> list[int]:
    return [entry["character_id"] for entry in render.snapshot.get("attachments") or []]


def file_name(render: SheetRender) -> str:
    return f"sheets/{render.campaign_id}/{render.pk}-{render.kind}-v{render.template_version}.pdf"


def title_of(render: SheetRender) -> str:
    subject = render.snapshot.get("subject", "")
    if (render.kind == SheetKind.CHARACTER or render.snapshot.get("stamp_label")) and render.stamp:
        return f"{subject}, {render.stamp}"
    return subject or render.get_kind_display()
