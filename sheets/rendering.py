"""HTML print templates to PDF. The ONLY module of the project that imports WeasyPrint.

- One FontConfiguration and one parsed sheet stylesheet per worker process: a new one per render
  grows memory and costs time (ARCHITECTURE.md "Facts measured").
- One url fetcher, ``SheetAssetFetcher``: it serves files under ``sheets/assets/`` and under each
  installed system's ``sheet_assets/`` folder, and refuses every other URL (http, https, data, file
  outside those folders ...). Fonts are vendored under ``sheets/assets/fonts/`` (OFL/Apache,
  licences beside them); nothing is ever fetched from the network.
- Each system's print stylesheet is its folder's ``sheet_assets/sheet.css`` (its faces, accent,
  motif and the named page of its footer), found by convention; its ``url()``s are its own folder's.
- Templates get the engines' ``SheetData`` and only lay it out; Django autoescaping stays on, so a
  character named ``<img src=...>`` prints as text.
"""

from __future__ import annotations

import concurrent.futures
import ctypes.util
import gc
import importlib.util
import io
import logging
import multiprocessing
import re
import ssl
import threading
import types
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import cssselect2
import pydyf
import weasyprint
import weasyprint.pdf as weasyprint_pdf
from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import CSS, HTML, Attachment
from weasyprint.css.counters import CounterStyle
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from characters import registry
from characters.systems import SheetData
from sheets import archival as archival_files
from sheets import fillable, marks, structure

logger = logging.getLogger(__name__)

#: Bump when a print template or the stylesheet changes: stored PDFs of the old version are not reused.
TEMPLATE_VERSION = "2026.21.0"

ASSETS_DIR = (Path(__file__).resolve().parent / "assets").resolve()
STYLESHEET = ASSETS_DIR / "sheet.css"
#: Where a system keeps its print stylesheet and the files it uses, inside its package (by convention).
SYSTEM_ASSETS = "sheet_assets"
SYSTEM_STYLESHEET = "sheet.css"
#: Letter is 18 mm shorter than A4: on A4 the rows marked a4-only fill the difference.
PAPER_RULES = {
    "letter": "",
    "a4": "tr.a4-only { display: table-row; } div.a4-only { display: block; }",
}
DOCUMENT_TEMPLATE = "sheets/document.html"
PAPER_SIZES = {"letter": "letter", "a4": "A4"}

if ctypes.util.find_library("harfbuzz-subset") is None:  # pragma: no cover - a broken machine
    # Without it WeasyPrint falls back to a much slower font subsetting (measured ~495 vs ~295 ms).
    raise ImportError("libharfbuzz-subset0 is missing: run scripts/system-deps.sh")

#: zlib level of the PDF streams. pydyf asks for level 9, which on a sheet's streams (content,
#: font subsets) took about twice the time of level 6 for a file 0.2 % smaller (measured on the
#: Fate Record Sheet: 212 kB raw, 15.5 ms at 9, 6.7 ms at 6, 75.6 vs 75.8 kB).
PDF_ZLIB_LEVEL = 6


def _compressobj(level=zlib.Z_DEFAULT_COMPRESSION, *args, **kwargs):
    return zlib.compressobj(min(level, PDF_ZLIB_LEVEL), *args, **kwargs)


# pydyf reads ``zlib.compressobj`` through its module global: give it a zlib whose compressobj caps
# the level (everything else is the real module). Only pydyf's streams are affected.
pydyf.zlib = types.SimpleNamespace(**{**vars(zlib), "compressobj": _compressobj})

ASSET_TYPES = {
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}


def system_asset_dirs() -> list[Path]:
    """The ``sheet_assets/`` folder of every installed system that has one, in INSTALLED_APPS order."""
    found = []
    for app in registry.installed():
        if not app.package:
            continue
        spec = importlib.util.find_spec(app.package)
        if spec is None or not spec.submodule_search_locations:
            continue
        for location in spec.submodule_search_locations:
            folder = (Path(location) / SYSTEM_ASSETS).resolve()
            if folder.is_dir():
                found.append(folder)
                break
    return found


def asset_dirs() -> list[Path]:
    """Every folder the sheets may read files from: the shared assets, then the systems'."""
    return [ASSETS_DIR, *system_asset_dirs()]


class RefusedURL(ValueError):
    """A sheet asked for something that is not one of the project's sheet assets."""


#: The TLS context handed to every sheet fetcher's (never used) HTTPS handler. Without one,
#: WeasyPrint's URLFetcher makes a default context per fetcher, which reads the system's whole CA
#: bundle: ~15-25 ms of every render, for a protocol the fetcher refuses anyway. Created once, with
#: no certificate authority loaded, so nothing could be verified against it even if it were used.
NO_NETWORK_TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


class SheetAssetFetcher(URLFetcher):
    """Serves ``file://`` URLs inside ``sheets/assets/`` and the installed systems' ``sheet_assets/``
    and nothing else; records what it refused."""

    def __init__(self) -> None:
        super().__init__(
            allowed_protocols=("file",),
            allow_redirects=False,
            fail_on_errors=False,
            ssl_context=NO_NETWORK_TLS,
        )
        self.served: list[str] = []
        self.refused: list[str] = []

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        generated = self.generated_asset(url)
        if generated is not None:
            self.served.append(url)
            return URLFetcherResponse(url, generated.encode(), {"Content-Type": "image/svg+xml"})
        path = self.asset_path(url)
        if path is None:
            self.refused.append(url)
            raise RefusedURL(f"Sheets may only use their own assets, not {url[:200]!r}.")
        self.served.append(url)
        media_type = ASSET_TYPES[path.suffix]
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": media_type})

    @staticmethod
    def _local_path(url: str) -> str | None:
        """The path of a plain local ``file://`` URL (no host, no query), or None."""
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost") or parts.query:
            return None
        return unquote(parts.path)

    @classmethod
    def generated_asset(cls, url: str) -> str | None:
        """The drawn images of ``sheets.marks`` (``file:///.../assets/generated/rows-5.svg``)."""
        path, prefix = cls._local_path(url), ASSETS_DIR.as_posix() + "/"
        return marks.generated_svg(path[len(prefix) :]) if path and path.startswith(prefix) else None

    @classmethod
    def asset_path(cls, url: str) -> Path | None:
        local = cls._local_path(url)
        if local is None:
            return None
        try:
            path = Path(local).resolve()
        except (OSError, ValueError):
            return None
        if path.suffix not in ASSET_TYPES or not path.is_file():
            return None
        if not any(path.is_relative_to(folder) for folder in asset_dirs()):
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


#: Rules of WeasyPrint's user-agent stylesheet that match *every* element through a pseudo-element
#: (list markers, footnote and note calls). For each of them WeasyPrint makes a computed style per
#: element of the document whether or not the pseudo-element is ever drawn: six styles per element,
#: about 1,800 per sheet, and the selector matching behind them (measured: 7-10 % of a sheet's render).
#: Sheets have no lists, footnotes or notes (tests/sheets/test_render_cost.py checks both that and that
#: the rules are still in WeasyPrint's sheet, so an upgrade that renames them fails loudly).
UA_PSEUDO_RULES = re.compile(
    r"^::(?:marker|footnote-call|footnote-marker|note-call|note-marker|note-callback) \{[^}]*\}\n", re.M
)
#: The form-field block of the same stylesheet: sheets have no form fields (PDF forms stay off).
UA_FORM_RULES = re.compile(r"^/\* Form fields \*/\n.*?(?=^/\* Pages \*/)", re.M | re.S)


def sheet_ua_css_text() -> str:
    """WeasyPrint's HTML user-agent stylesheet without the rules no sheet can use (see above)."""
    text = (Path(weasyprint.__file__).parent / "css" / "html5_ua.css").read_text(encoding="utf-8")
    text, pseudo_rules = UA_PSEUDO_RULES.subn("", text)
    text, form_blocks = UA_FORM_RULES.subn("", text)
    if pseudo_rules != 6 or form_blocks != 1:  # pragma: no cover - a WeasyPrint upgrade changed the sheet
        raise RuntimeError("WeasyPrint's user-agent stylesheet changed: review rendering.sheet_ua_css_text")
    return text


class _Shared:
    """Per-process state, created on first use (a worker imports this once and keeps it)."""

    lock = threading.Lock()
    font_config: FontConfiguration | None = None
    #: (paper, the installed systems' asset folders) -> the stylesheets, in cascade order
    stylesheets: dict[tuple[str, tuple[Path, ...]], list[CSS]] = {}
    ua_stylesheet: CSS | None = None
    #: Images the sheets use (their own assets only), decoded once per worker.
    image_cache: dict = {}

    @classmethod
    def user_agent(cls) -> CSS:
        with cls.lock:
            if cls.ua_stylesheet is None:
                cls.ua_stylesheet = CSS(string=sheet_ua_css_text(), counter_style=CounterStyle())
            return cls.ua_stylesheet

    @classmethod
    def stylesheet(cls, paper: str) -> tuple[FontConfiguration, list[CSS]]:
        """The sheets' stylesheets for ``paper``: the shared one, each installed system's (its
        ``sheet_assets/sheet.css``, its ``url()``s read from its own folder), then the drawn marks
        and the paper's rules."""
        folders = tuple(system_asset_dirs())
        with cls.lock:
            if cls.font_config is None:
                cls.font_config = FontConfiguration()
            key = (paper, folders)
            if key not in cls.stylesheets:
                fetcher = SheetAssetFetcher()
                sources = [STYLESHEET] + [
                    folder / SYSTEM_STYLESHEET for folder in folders if (folder / SYSTEM_STYLESHEET).is_file()
                ]
                sheets = [
                    CSS(
                        string=source.read_text(encoding="utf-8"),
                        base_url=source.as_uri(),
                        url_fetcher=fetcher,
                        font_config=cls.font_config,
                    )
                    for source in sources
                ]
                tail = marks.generated_css()
                tail += f"\n@page {{ size: {PAPER_SIZES[paper]}; }}\n{PAPER_RULES[paper]}\n"
                sheets.append(
                    CSS(
                        string=tail,
                        base_url=STYLESHEET.as_uri(),
                        url_fetcher=fetcher,
                        font_config=cls.font_config,
                    )
                )
                cls.stylesheets[key] = sheets
            return cls.font_config, cls.stylesheets[key]


def parse_sheet_source(source: str) -> ElementTree.Element | None:
    """The element tree of a print document, read by expat, or None where only an HTML parser can.

    The print templates are written as polyglot markup (void elements closed, ``&#160;`` rather
    than named entities, every table row inside an explicit ``<tbody>``/``<thead>``), so the same
    text is HTML and well-formed XML and gives the same tree either way. WeasyPrint parses with
    tinyhtml5, a pure-Python HTML5 parser, which took 10-11 ms of a 9 kB sheet (7 % of its
    render); expat reads it in 0.2 ms. A document that is not well-formed XML (a template that
    left a void element open, a control character in a name) or that relies on a tree the HTML
    parser would build differently (a row straight inside a table: HTML adds the ``tbody``) gets
    None, and WeasyPrint's own parser. tests/sheets/test_parse.py lays out every sheet kind both
    ways and checks the boxes are the same.
    """
    try:
        root = ElementTree.fromstring(source.removeprefix("<!DOCTYPE html>"))
    except ElementTree.ParseError:
        return None
    if root.tag != "html" or root.find(".//table/tr") is not None:
        return None
    return root


class SheetHTML(HTML):
    """A sheet's HTML, read by ``parse_sheet_source`` and cascaded with the trimmed user-agent sheet.

    ``__init__`` and ``_ua_stylesheets`` stand in for WeasyPrint's own (the parse and the one hook
    it has for the user-agent sheet); WeasyPrint is pinned to one exact version, and the tests of
    the parse and of the trimmed sheet fail if either moves.
    """

    def __init__(
        self, *, string: str, base_url: str | None = None, url_fetcher: URLFetcher | None = None
    ) -> None:
        base_url = base_url or STYLESHEET.as_uri()
        url_fetcher = url_fetcher or SheetAssetFetcher()
        root = parse_sheet_source(string)
        if root is None:
            super().__init__(string=string, base_url=base_url, url_fetcher=url_fetcher)
            return
        self.base_url = base_url
        self.url_fetcher = url_fetcher
        self.media_type = "print"
        self.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
        self.etree_element = self.wrapper_element.etree_element

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        return [_Shared.user_agent()]


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


#: Sheets are archival and tagged: PDF/A-3 (ISO 19005-3) allows embedded files of any type, the
#: character's JSON among them, as associated files; level "a" (accessible) makes WeasyPrint write
#: the structure tree (pdf_tags): the document language and title, headings, tables with their
#: header cells, borders and backgrounds as artifacts. Not claimed: PDF/UA-1. WeasyPrint 70 leaves
#: the text of page-margin boxes (the footer stamp) out of the structure tree without marking it as
#: an artifact, which PDF/UA forbids, and its identification would need a PDF/A extension schema
#: in the metadata; docs/performance.md ("Archival sheets") keeps the reasoning and the cost.
PDFA_VARIANT = "pdf/a-3a"
#: WeasyPrint's PDF/A-3 step, with the catalog's list of associated files (AF) cleaned up.
ARCHIVAL_VARIANT = "dossier-pdf/a-3a"


def _archival_variant(pdf, document, page_streams, attachments, compress):
    """WeasyPrint's PDF/A-3 step, then each associated file listed once in the catalog's AF
    (WeasyPrint 70 adds every embedded file twice: from the name tree and from its file spec)."""
    weasyprint_pdf.VARIANTS[PDFA_VARIANT][0](pdf, document, page_streams, attachments, compress)
    if "AF" in pdf.catalog:
        pdf.catalog["AF"] = pydyf.Array(dict.fromkeys(pdf.catalog["AF"]))


# generate_pdf and Document look variants up in this one dict (WeasyPrint is pinned; the tests of
# the embedded file read the AF back).
weasyprint_pdf.VARIANTS[ARCHIVAL_VARIANT] = (_archival_variant, weasyprint_pdf.VARIANTS[PDFA_VARIANT][1])


def render_pdf(
    pages: list[SheetPage],
    *,
    title: str,
    author: str,
    paper: str = "letter",
    rendered_at: datetime | None = None,
    attachments: list[tuple[str, bytes]] | None = None,
    archival: bool = True,
    fillable: bool = False,
    numbering: tuple[int, int] | None = None,
) -> RenderedPDF:
    """Lay out ``pages`` as one document and return the PDF bytes and its page count.

    ``archival``: a PDF/A-3 file (ARCHIVAL_VARIANT). ``attachments``: (file name, JSON bytes) of the
    character documents to embed (sheets/archival.py), each an associated file with relationship
    Source and MIME type application/json, their SHA-256 in the document information.
    ``fillable``: form fields over every writing place (sheets/fillable.py); PDF/A forbids form
    fields that need their appearance made by the reader, so a fillable PDF is never archival."""
    if fillable and archival:
        raise ValueError("a fillable sheet is not PDF/A: render it with archival=False")
    fetcher = SheetAssetFetcher()
    rendered_at = rendered_at or timezone.now()
    options: dict = {"pdf_variant": ARCHIVAL_VARIANT} if archival else {}
    with _collector_paused():
        document = _layout(
            pages,
            title=title,
            author=author,
            paper=paper,
            rendered_at=rendered_at,
            fetcher=fetcher,
            numbering=numbering,
        )
        if fillable:
            options["pdf_tags"] = True  # still a tagged document, like every sheet
            add_form_fields(document)
        if attachments:
            document.metadata.custom[archival_files.CHECKSUM_KEY] = archival_files.checksum_entry(attachments)
            options["custom_metadata"] = True
            options["attachments"] = [
                Attachment(
                    file_obj=io.BytesIO(data),
                    name=name,
                    description="This character as a Dossier character document: import it to restore.",
                    relationship=archival_files.RELATIONSHIP,
                    url_fetcher=fetcher,  # never fetches (file_obj): spares a default fetcher's TLS set-up
                    created=rendered_at,
                    modified=rendered_at,
                )
                for name, data in attachments
            ]
        finisher = structure.fold_text_runs
        if fillable:
            finisher = _finish_fillable
        pdf = document.write_pdf(finisher=finisher, **options)
        page_count = len(document.pages)
        del document
    return RenderedPDF(pdf=pdf, pages=page_count, fetcher=fetcher)


def _finish_fillable(document, pdf) -> None:
    """The finisher of a fillable sheet: the tags folded as for any sheet, each page's drawing
    wrapped in q/Q (fillable.isolate_page_drawing) so a filled and flattened field stands upright."""
    structure.fold_text_runs(document, pdf)
    fillable.isolate_page_drawing(document, pdf)


def add_form_fields(document) -> list[fillable.FormField]:
    """Lay a form widget over every writing place of ``document`` (sheets/fillable.py).

    The widgets go where WeasyPrint's ``pdf_forms`` puts an ``<input>``'s (``page.forms``), so
    WeasyPrint writes the AcroForm; the sheet's boxes and drawing stay exactly as printed. No
    ``<input>`` element is laid out, so the form-field rules of the user-agent stylesheet
    (UA_FORM_RULES, stripped for every sheet) are not needed back."""
    page_boxes = [page._page_box for page in document.pages]
    root_box = next(child for child in page_boxes[0].children if child.element is not None)
    found = fillable.fields_of(page_boxes, root_box.element, marks.TALLY_GAP_MM)
    for entry in found:
        attributes = {"type": entry.kind, "name": entry.name, "title": entry.title}
        widget = types.SimpleNamespace(element=ElementTree.Element("input", attributes), style=root_box.style)
        document.pages[entry.page].forms.setdefault(None, []).append((widget, entry.rect))
    return found


#: A document of fewer sheets than this per process is rendered whole: below it the fork and the
#: join cost more than the second core gives back.
MIN_SHEETS_PER_CHUNK = 3


def may_fork() -> bool:
    """Whether this process may start processes of its own. A daemonic process may not
    (multiprocessing refuses with "daemonic processes are not allowed to have children"), and a
    worker pool's child can be one: such a process renders the bundle whole instead."""
    return not multiprocessing.current_process().daemon


def _render_chunk(pages: list[SheetPage], options: dict[str, Any]) -> tuple[bytes, int]:
    result = render_pdf(pages, **options)
    return result.pdf, result.pages


def render_in_chunks(
    pages: list[SheetPage],
    *,
    processes: int,
    title: str,
    author: str,
    paper: str = "letter",
    rendered_at: datetime | None = None,
    attachments: list[tuple[str, bytes]] | None = None,
) -> RenderedPDF:
    """An archival document of many sheets rendered as ``processes`` documents at once, a run of
    consecutive sheets each, and joined (sheets/assemble.py keeps the tags and the files).

    One document for many sheets is cheaper per sheet than sheets one by one (fonts subset once,
    one layout context), so each process gets one chunk, not a sheet at a time. This process
    renders the first chunk; the others are forked from it (they inherit its fonts and parsed
    stylesheets) and send their PDF back. The embedded character documents ride with the first
    chunk; the join lists them all."""
    from sheets import assemble

    rendered_at = rendered_at or timezone.now()
    count = max(1, min(processes, len(pages) // MIN_SHEETS_PER_CHUNK))
    options = {"title": title, "author": author, "paper": paper, "rendered_at": rendered_at}
    if count == 1 or not may_fork():
        return render_pdf(pages, attachments=attachments, **options)
    size, extra = divmod(len(pages), count)
    chunks, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        chunks.append((pages[start:end], (start + 1, len(pages))))
        start = end
    _Shared.stylesheet(paper)  # parsed once here, inherited by the forked processes
    _Shared.user_agent()
    context = multiprocessing.get_context("fork")
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=count - 1, mp_context=context) as pool:
            others = [
                pool.submit(_render_chunk, chunk, {**options, "numbering": numbering})
                for chunk, numbering in chunks[1:]
            ]
            first_pages, first_numbering = chunks[0]
            first = render_pdf(first_pages, attachments=attachments, numbering=first_numbering, **options)
            results = [(first.pdf, first.pages)] + [future.result() for future in others]
    except (concurrent.futures.process.BrokenProcessPool, OSError, AssertionError) as error:
        # No process could be started or one died (out of memory, a pool that refuses children):
        # the bundle is still made, whole, in this process.
        logger.warning("bundle rendered whole: its chunk processes failed (%s)", error)
        return render_pdf(pages, attachments=attachments, **options)
    if any(result[1] != len(chunk) for result, (chunk, _) in zip(results, chunks, strict=True)):
        # A sheet ran over one page, so the chunks' page numbers are off: render it whole.
        return render_pdf(pages, attachments=attachments, **options)
    pdf, page_count = assemble.join([result[0] for result in results], title=title)
    return RenderedPDF(pdf=pdf, pages=page_count, fetcher=first.fetcher)


def _layout(
    pages: list[SheetPage],
    *,
    title: str,
    author: str,
    paper: str,
    rendered_at,
    fetcher,
    numbering: tuple[int, int] | None = None,
):
    """The laid-out WeasyPrint document of ``pages`` (one document, however many sheets)."""
    if paper not in PAPER_SIZES:
        raise ValueError(f"unknown paper size {paper!r}")
    if not pages:
        raise ValueError("a document needs at least one sheet")
    font_config, shared = _Shared.stylesheet(paper)
    source = document_html(pages, title=title, author=author, rendered_at=rendered_at)
    html = SheetHTML(string=source, base_url=STYLESHEET.as_uri(), url_fetcher=fetcher)
    stylesheets = list(shared)
    if numbering is not None:  # a chunk of a larger document: its pages are numbered within the whole
        first, total = numbering
        stylesheets.append(
            CSS(
                string=f'@page {{ @bottom-right {{ content: "page " counter(page) " of {int(total)}"; }} }}'
                f"@page :first {{ counter-reset: page {int(first) - 1}; counter-increment: page; }}",
                url_fetcher=fetcher,
            )
        )
    return html.render(stylesheets=stylesheets, font_config=font_config, cache=_Shared.image_cache)


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


#: CSS px per point and per millimetre (WeasyPrint lays out in CSS px: 96 per inch).
PX_PER_PT = 96 / 72
PX_PER_MM = 96 / 25.4
#: Slack for rounding in layout (a hundredth of a millimetre is far below what a printer shows).
_SLACK_PX = 0.05 * PX_PER_MM


@dataclass
class LayoutReport:
    """What the layout tree of a document says about fitting (tests/sheets/test_layout_invariants.py).

    ``overflows``: boxes whose border box leaves the page's content area; ``wide_tables``: tables
    wider than the block that holds them; ``min_font_pt``: the smallest text on the sheets (the
    footer, in the page margin, is left out); ``filled``: per page, how far down the content area the
    lowest box reaches (0 to 1); ``rects_mm``: border boxes (x, y, width, height in mm from the page's
    corner) of the elements with a class in MEASURED_CLASSES (``write-row`` and ``tick`` are the ones a
    pencil needs; a block of empty rows counts as its rows); ``text``: every run of text, in order.
    """

    pages: int
    overflows: list[str]
    wide_tables: list[str]
    min_font_pt: float
    filled: list[float]
    rects_mm: dict[str, list[tuple[float, float, float, float]]]
    text: str

    def heights(self, name: str) -> list[float]:
        return [rect[3] for rect in self.rects_mm[name]]


#: Element classes whose box sizes the report collects.
MEASURED_CLASSES = ("write-row", "tick", "score-box", "wound", "sheet-title", "gm-badge", "notes-box")


def _describe(box) -> str:
    element = box.element
    classes = element.get("class", "") if element is not None else ""
    text = getattr(box, "text", "") or ""
    return f"{type(box).__name__} <{box.element_tag} class={classes!r}> {text[:40]!r}"


def _walk(box, holder):
    """Every box under ``box`` with the block that holds it (a table's: its wrapper's parent)."""
    from weasyprint.formatting_structure import boxes

    yield box, holder
    inner_holder = holder if getattr(box, "is_table_wrapper", False) else box
    for child in box.children:
        if isinstance(child, boxes.Box):
            yield from _walk(child, inner_holder)


def _mm(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """A box's place and size in WeasyPrint's px as millimetres, to 0.01 mm."""
    return (
        round(x / PX_PER_MM, 2),
        round(y / PX_PER_MM, 2),
        round(w / PX_PER_MM, 2),
        round(h / PX_PER_MM, 2),
    )


def layout_report(pages: list[SheetPage], paper: str = "letter") -> LayoutReport:
    """Lay out ``pages`` once and check every box against its page (no PDF is written)."""
    from weasyprint.formatting_structure import boxes

    with _collector_paused():
        document = _layout(
            pages, title="check", author="check", paper=paper, rendered_at=None, fetcher=SheetAssetFetcher()
        )
    overflows: list[str] = []
    wide_tables: list[str] = []
    filled: list[float] = []
    rects: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in MEASURED_CLASSES}
    texts: list[str] = []
    measured: set[int] = set()
    min_font = float("inf")
    for page in document.pages:
        page_box = page._page_box
        left, top = page_box.content_box_x(), page_box.content_box_y()
        right, bottom = left + page_box.width, top + page_box.height
        lowest = top
        for margin_box in page_box.children:
            if isinstance(margin_box, boxes.MarginBox):  # the footer stamp: its text, not its size
                texts.extend(box.text for box in margin_box.descendants() if isinstance(box, boxes.TextBox))
        root = next(child for child in page_box.children if not isinstance(child, boxes.MarginBox))
        for box, parent in _walk(root, None):
            if box.width is None or box.position_x is None:
                continue
            if isinstance(box, boxes.TextBox):
                texts.append(box.text)
                if box.text.strip():
                    min_font = min(min_font, box.style["font_size"] / PX_PER_PT)
                x, y, w, h = box.position_x, box.position_y, box.width, box.height
            else:
                x, y, w, h = box.border_box_x(), box.border_box_y(), box.border_width(), box.border_height()
            if box.element_tag not in ("html", "body"):
                if x < left - _SLACK_PX or x + w > right + _SLACK_PX or y + h > bottom + _SLACK_PX:
                    overflows.append(f"page {len(filled) + 1}: {_describe(box)}")
                if h > 0 and not isinstance(box, boxes.TableBox | boxes.TableRowGroupBox):
                    lowest = max(lowest, y + h)
            if isinstance(box, boxes.TableBox) and parent is not None and parent.width is not None:
                # The wrapper's own containing block: the table must fit inside the block holding it.
                holder_left = parent.content_box_x()
                if x < holder_left - _SLACK_PX or x + w > holder_left + parent.width + _SLACK_PX:
                    wide_tables.append(_describe(box))
            element = box.element
            if element is not None and id(element) not in measured and not isinstance(box, boxes.TextBox):
                measured.add(id(element))  # the element's outermost box; its anonymous children share it
                for name in (element.get("class") or "").split():
                    if name in rects:
                        rects[name].append(_mm(x, y, w, h))
                    elif name in ("write-rows", "write-block"):  # N empty rows in one block: N rows
                        count = int(element.get("data-rows"))
                        rects["write-row"].extend(
                            _mm(x, y + k * h / count, w, h / count) for k in range(count)
                        )
                    elif name == "tally":  # a row of N tick boxes in one image: N ticks
                        count, gap = int(element.get("data-ticks")), marks.TALLY_GAP_MM * PX_PER_MM
                        side = (w + gap) / count - gap
                        rects["tick"].extend(_mm(x + k * (side + gap), y, side, h) for k in range(count))
        filled.append((lowest - top) / (bottom - top))
    return LayoutReport(
        pages=len(document.pages),
        overflows=overflows,
        wide_tables=wide_tables,
        min_font_pt=round(min_font, 2),
        filled=filled,
        rects_mm=rects,
        text=" ".join(" ".join(texts).split()),
    )
