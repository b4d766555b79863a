"""The print documents are read by expat, not by WeasyPrint's HTML5 parser (sheets/rendering.py
``parse_sheet_source``): each sheet kind takes that path and lays out box for box as the HTML
parser's tree does, and a document expat cannot read still renders."""

from __future__ import annotations

import pytest
import weasyprint

from sheets import rendering
from tests.sheets import samples

CASE_IDS = sorted(samples.cases_by_id())


def boxes(document) -> list[tuple]:
    """Every box of every page: its kind, element, place, size and text."""
    out = []
    for page in document.pages:
        for box in page._page_box.descendants():
            out.append(
                (
                    type(box).__name__,
                    getattr(box, "element_tag", None),
                    box.position_x,
                    box.position_y,
                    box.width,
                    box.height,
                    getattr(box, "text", None),
                )
            )
    return out


def layout(source: str, *, html5: bool):
    font_config, stylesheets = rendering._Shared.stylesheet("letter")
    if html5:
        # WeasyPrint's own parse (tinyhtml5), with the same user-agent sheet as the sheets.
        html = weasyprint.HTML(
            string=source, base_url=rendering.STYLESHEET.as_uri(), url_fetcher=rendering.SheetAssetFetcher()
        )
        html._ua_stylesheets = lambda forms=False: [rendering._Shared.user_agent()]
    else:
        html = rendering.SheetHTML(string=source)
    return html.render(stylesheets=stylesheets, font_config=font_config)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_every_print_document_is_read_by_expat_and_lays_out_as_the_html5_parser_reads_it(case_id):
    case = samples.cases_by_id()[case_id]
    source = rendering.document_html(case.pages, title="Parse", author="Dossier")
    assert rendering.parse_sheet_source(source) is not None, "a print template is no longer well-formed XML"
    fast, html5 = layout(source, html5=False), layout(source, html5=True)
    assert len(fast.pages) == len(html5.pages) == case.declared_pages
    assert boxes(fast) == boxes(html5)


@pytest.mark.parametrize(
    "source",
    [
        "<!DOCTYPE html><html><body><p>An open void element<br></p></body></html>",
        "<!DOCTYPE html><html><body><p>A named entity&nbsp;here</p></body></html>",
        "<!DOCTYPE html><html><body><p>A control character \x0b in a name</p></body></html>",
        "<!DOCTYPE html><html><body><table><tr><td>A row the HTML parser puts in a tbody</td></tr>"
        "</table></body></html>",
        "<p>No html element</p>",
    ],
)
def test_a_document_expat_cannot_read_as_html5_would_goes_to_weasyprints_parser_and_still_renders(source):
    assert rendering.parse_sheet_source(source) is None
    document = layout(source, html5=False)
    assert len(document.pages) == 1
    text = "".join(box[6] or "" for box in boxes(document))
    assert text.startswith(("An open", "A named", "A control", "A row", "No html"))
