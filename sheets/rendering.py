"""HTML print templates to PDF. The ONLY module of the project that imports WeasyPrint.

- One FontConfiguration and one parsed sheet stylesheet per worker process: a new one per render
  grows memory and costs time (ARCHITECTURE.md "Facts measured").
- One url fetcher, ``SheetAssetFetcher``: it serves files under ``sheets/assets/`` and refuses every
  other URL (http, https, data, file outside the folder ...). Fonts come from the system (DejaVu,
  installed by scripts/system-deps.sh); nothing is ever fetched from the network.
- Templates get the engines' ``SheetData`` and only lay it out; Django autoescaping stays on, so a
  character named ``<img src=...>`` prints as text.
"""

from __future__ import annotations

import ctypes.util
import gc
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from characters.systems import SheetData

#: Bump when a print template or the stylesheet changes: stored PDFs of the old version are not reused.
TEMPLATE_VERSION = "2025.3"

ASSETS_DIR = (Path(__file__).resolve().parent / "assets").resolve()
STYLESHEET = ASSETS_DIR / "sheet.css"
DOCUMENT_TEMPLATE = "sheets/document.html"
PAPER_SIZES = {"letter": "letter", "a4": "A4"}

if ctypes.util.find_library("harfbuzz-subset") is None:  # pragma: no cover - a broken machine
    # Without it WeasyPrint falls back to a much slower font subsetting (measured ~495 vs ~295 ms).
    raise ImportError("libharfbuzz-subset0 is missing: run scripts/system-deps.sh")

ASSET_TYPES = {
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}


class RefusedURL(ValueError):
    """A sheet asked for something that is not one of the project's sheet assets."""


class SheetAssetFetcher(URLFetcher):
    """Serves ``file://`` URLs inside ``sheets/assets/`` and nothing else; records what it refused."""

    def __init__(self) -> None:
        super().__init__(allowed_protocols=("file",), allow_redirects=False, fail_on_errors=False)
        self.served: list[str] = []
        self.refused: list[str] = []

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        path = self.asset_path(url)
        if path is None:
            self.refused.append(url)
            raise RefusedURL(f"Sheets may only use their own assets, not {url[:200]!r}.")
        self.served.append(url)
        media_type = ASSET_TYPES[path.suffix]
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": media_type})

    @staticmethod
    def asset_path(url: str) -> Path | None:
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost") or parts.query:
            return None
        try:
            path = Path(unquote(parts.path)).resolve()
        except (OSError, ValueError):
            return None
        if not path.is_relative_to(ASSETS_DIR) or path.suffix not in ASSET_TYPES or not path.is_file():
            return None
        return path


@dataclass
class SheetPage:
    """One sheet of a document and what its footer says."""

    sheet: SheetData
    campaign: str
    character: str = ""
    revision: int | None = None
    # What the number counts: a character's "revision", or the events of a mission run.
    stamp_label: str = "revision"


@dataclass
class RenderedPDF:
    pdf: bytes
    pages: int
    fetcher: SheetAssetFetcher = field(repr=False)


class _Shared:
    """Per-process state, created on first use (a worker imports this once and keeps it)."""

    lock = threading.Lock()
    font_config: FontConfiguration | None = None
    stylesheets: dict[str, CSS] = {}

    @classmethod
    def stylesheet(cls, paper: str) -> tuple[FontConfiguration, CSS]:
        with cls.lock:
            if cls.font_config is None:
                cls.font_config = FontConfiguration()
            if paper not in cls.stylesheets:
                css = STYLESHEET.read_text(encoding="utf-8")
                css += f"\n@page {{ size: {PAPER_SIZES[paper]}; }}\n"
                cls.stylesheets[paper] = CSS(
                    string=css,
                    base_url=STYLESHEET.as_uri(),
                    url_fetcher=SheetAssetFetcher(),
                    font_config=cls.font_config,
                )
            return cls.font_config, cls.stylesheets[paper]


def document_html(
    pages: list[SheetPage], *, title: str, author: str, rendered_at: datetime | None = None
) -> str:
    """The HTML of one document holding every page (a bundle is one document, not N glued)."""
    rendered_at = rendered_at or timezone.now()
    return render_to_string(
        DOCUMENT_TEMPLATE,
        {
            "title": title,
            "author": author,
            "rendered_at": rendered_at,
            "pages": [
                {
                    "template": page.sheet.template,
                    "sheet": page.sheet,
                    "fields": page.sheet.fields,
                    "campaign": page.campaign,
                    "character": page.character,
                    "revision": page.revision,
                    "stamp_label": page.stamp_label,
                }
                for page in pages
            ],
        },
    )


def render_pdf(
    pages: list[SheetPage],
    *,
    title: str,
    author: str,
    paper: str = "letter",
    rendered_at: datetime | None = None,
) -> RenderedPDF:
    """Lay out ``pages`` as one document and return the PDF bytes and its page count."""
    fetcher = SheetAssetFetcher()
    with _collector_paused():
        document = _layout(
            pages, title=title, author=author, paper=paper, rendered_at=rendered_at, fetcher=fetcher
        )
        pdf = document.write_pdf()
        page_count = len(document.pages)
        del document
    return RenderedPDF(pdf=pdf, pages=page_count, fetcher=fetcher)


def _layout(pages: list[SheetPage], *, title: str, author: str, paper: str, rendered_at, fetcher):
    """The laid-out WeasyPrint document of ``pages`` (one document, however many sheets)."""
    if paper not in PAPER_SIZES:
        raise ValueError(f"unknown paper size {paper!r}")
    if not pages:
        raise ValueError("a document needs at least one sheet")
    font_config, stylesheet = _Shared.stylesheet(paper)
    source = document_html(pages, title=title, author=author, rendered_at=rendered_at)
    html = HTML(string=source, base_url=STYLESHEET.as_uri(), url_fetcher=fetcher)
    return html.render(stylesheets=[stylesheet], font_config=font_config)


@contextmanager
def _collector_paused():
    """Pause Python's cyclic garbage collector while one document is laid out.

    Layout allocates hundreds of thousands of short-lived boxes; each automatic collection walks
    every object still alive, so in a 20-sheet bundle the collector cost grew with the size of the
    document (measured: ~1.2x a single sheet per page with it running, ~0.7x paused). The
    collector runs again as soon as the document is done, so the cycles it left are freed by the
    next collection (bench/sheets.py checks that worker memory stays flat over 300 renders).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def render_minimal(paper: str = "letter") -> RenderedPDF:
    """The benchmark's yardstick: the fixed cost of any sheet PDF and nothing more.

    One page through the same path as every sheet: the document template, the sheet stylesheet and
    page setup (margins, the footer string, "page N of M"), a heading in the sheets' bold face and a
    line of body text in their regular face, so both fonts are subset and embedded as in a sheet.
    """
    sheet = SheetData(
        system="", template="sheets/minimal.html", title="Minimal sheet", fields={"text": "One line of text."}
    )
    return render_pdf(
        [SheetPage(sheet, campaign="Dossier", character="Minimal sheet", revision=1)],
        title="Minimal",
        author="Dossier",
        paper=paper,
    )


def count_text_boxes(pages: list[SheetPage], paper: str = "letter") -> int:
    """How many runs of text the layout of ``pages`` sets (bench/sheets.py's text floor reads it)."""
    from weasyprint.formatting_structure.boxes import TextBox

    document = _layout(
        pages, title="count", author="count", paper=paper, rendered_at=None, fetcher=SheetAssetFetcher()
    )
    return sum(isinstance(box, TextBox) for page in document.pages for box in page._page_box.descendants())
