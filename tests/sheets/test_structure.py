"""The structure tree after sheets/structure.py folds WeasyPrint's one-run Spans into their parents.

Each case is rendered twice, with the fold and without it, and read back with pikepdf: what a screen
reader walks (the element types in order, and every piece of marked content in reading order, page
by page) must be the same, the parent tree must still name, for every MCID of every page, the
element whose content holds it, and no Span holding a single run may be left.
"""

from __future__ import annotations

import functools
import io

import pikepdf
import pytest

from sheets import rendering, structure
from tests.sheets import samples

#: Every sheet kind with its demo data, and every case that runs over more than one page (elements
#: on each page; a bundle of one sheet per system).
CASES = [
    case_id
    for case_id, case in samples.cases_by_id().items()
    if case.variant == "demo" or case.declared_pages > 1
]


def _render(case_id: str) -> pikepdf.Pdf:
    case = samples.cases_by_id()[case_id]
    data = rendering.render_pdf(case.pages, title="Structure", author="Dossier tests").pdf
    return pikepdf.open(io.BytesIO(data))


@functools.cache
def _folded_bytes(case_id: str) -> bytes:
    """The case rendered as it ships (folded), once per process: the fold test and the parent-tree
    test read the longest case's same file. The unfolded render is never kept (it is made with the
    fold patched out, for one test)."""
    case = samples.cases_by_id()[case_id]
    return rendering.render_pdf(case.pages, title="Structure", author="Dossier tests").pdf


def _folded(case_id: str) -> pikepdf.Pdf:
    return pikepdf.open(io.BytesIO(_folded_bytes(case_id)))


def _reading(pdf: pikepdf.Pdf) -> tuple[list[str], list[tuple[int, int]]]:
    """The structure types other than Span, and (page, MCID) of every content item, in the order
    a reader walks the tree (depth first, K in order)."""
    page_of = {page.obj.objgen: number for number, page in enumerate(pdf.pages)}
    types: list[str] = []
    content: list[tuple[int, int]] = []

    def walk(element):
        if str(element.S) != "/Span":
            types.append(str(element.S))
        kids = element.get("/K")
        for kid in kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []:
            if isinstance(kid, int):
                content.append((page_of[element.Pg.objgen], int(kid)))
            elif isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/MCR":
                content.append((page_of[kid.Pg.objgen], int(kid.MCID)))
            elif isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
                walk(kid)

    for top in pdf.Root.StructTreeRoot.K:
        walk(top)
    return types, content


def _one_run_spans(pdf: pikepdf.Pdf) -> int:
    return sum(
        1
        for obj in pdf.objects
        if isinstance(obj, pikepdf.Dictionary)
        and obj.get("/S") == "/Span"
        and isinstance(obj.get("/K"), pikepdf.Array)
        and len(obj.K) == 1
        and isinstance(obj.K[0], int)
    )


@pytest.mark.parametrize("case_id", CASES)
def test_folding_keeps_what_a_reader_walks_and_leaves_no_one_run_span(case_id, monkeypatch):
    folded = _folded(case_id)
    monkeypatch.setattr(structure, "fold_text_runs", lambda document, pdf: 0)
    plain = _render(case_id)

    assert _one_run_spans(plain) > 0  # WeasyPrint wraps each run of text in a Span
    assert _one_run_spans(folded) == 0
    assert _reading(folded) == _reading(plain)
    types, content = _reading(folded)
    assert "/H1" in types and content  # a real tree was walked
    emptied = sum(1 for obj in folded.objects if isinstance(obj, pikepdf.Dictionary) and len(obj.keys()) == 0)
    live = len(folded.objects) - emptied
    # every folded Span is gone from what a reader of the file copies (one object fewer for each at
    # least; a proportion, as this said before, fails a one-page sheet of few Spans such as the toy's)
    assert live <= len(plain.objects) - _one_run_spans(plain)


LONGEST = max(CASES, key=lambda case_id: samples.cases_by_id()[case_id].declared_pages)


@pytest.mark.parametrize("case_id", [LONGEST])
def test_the_parent_tree_names_the_element_holding_each_mcid(case_id):
    pdf = _folded(case_id)
    tree = pdf.Root.StructTreeRoot.ParentTree.Nums
    entries = {int(tree[i]): tree[i + 1] for i in range(0, len(tree), 2)}
    checked = 0
    for page in pdf.pages:
        for mcid, element in enumerate(entries[int(page.StructParents)]):
            assert element.Pg.objgen == page.obj.objgen
            kids = element.K if isinstance(element.K, pikepdf.Array) else [element.K]
            assert mcid in [int(kid) for kid in kids if isinstance(kid, int)]
            checked += 1
    assert checked > 100


def test_a_pdf_without_a_structure_tree_is_left_alone():
    case = samples.cases_by_id()[CASES[0]]
    untagged = rendering.render_pdf(case.pages, title="Plain", author="Dossier tests", archival=False).pdf
    pdf = pikepdf.open(io.BytesIO(untagged))
    assert "/StructTreeRoot" not in pdf.Root
    assert _one_run_spans(pdf) == 0
