"""The tagged sheet's structure tree, made lean before WeasyPrint writes it.

WeasyPrint tags every run of text it sets with a structure element of its own: a ``Span`` whose
only content is that run's marked content (one MCID), under the element the text belongs to (a
table cell, a heading, a block). A character sheet sets about two hundred such runs, so nearly half
of its PDF objects (206 of 464 on the TIMEMASTER sheet) are these one-run Spans. They say nothing a
reader needs: the run already belongs to its cell or heading, in the same order.

``fold_text_runs`` is WeasyPrint's ``finisher``: it puts each such run straight into its parent's
content, where the Span stood (PDF 32000-1, 14.7.2: a structure element's K may hold marked-content
ids beside child elements, and an MCID stands for content on the element's own page, ``Pg``;
WeasyPrint itself does this for the text of links), and points the page's parent-tree entry for
that MCID at the parent. The reading order, the headings, tables and artifacts are unchanged.

The folded Span's object is left empty and unreferenced (``<< >>``): WeasyPrint has numbered every
object and written references as bytes, so an object cannot be taken out of the file, and an empty
dictionary nobody refers to is valid PDF that costs a few bytes. What it saves: every later reading
of the sheet has half the objects to copy and write (a party bundle joined from stored sheets,
``sheets/assemble.py``; measured in docs/performance.md).
"""

from __future__ import annotations

from typing import Any

#: The keys of a Span WeasyPrint made for one run of text, and nothing else (no attributes, no
#: alternate text, no language): only such a Span is folded.
_PLAIN_SPAN_KEYS = frozenset({"Type", "S", "K", "Pg", "P"})


def _number(reference: Any) -> int | None:
    """The object number of a pydyf reference (``b"12 0 R"``), or None for anything else."""
    if not isinstance(reference, bytes):
        return None
    parts = reference.split()
    if len(parts) != 3 or parts[2] != b"R" or not parts[0].isdigit():
        return None
    return int(parts[0])


def fold_text_runs(document: Any, pdf: Any) -> int:
    """Fold every one-run Span of ``pdf`` (a pydyf PDF WeasyPrint is about to write) into its
    parent; returns how many were folded. A PDF without a structure tree is left as it is."""
    del document  # the finisher's signature: (document, pdf)
    objects = pdf.objects
    root_number = _number(pdf.catalog.get("StructTreeRoot"))
    if root_number is None:
        return 0
    parent_tree = objects[_number(objects[root_number]["ParentTree"])]
    # Where each element is named in a page's MCID array: (array, index) per mention.
    mentioned: dict[bytes, list[tuple[Any, int]]] = {}
    nums = parent_tree["Nums"]
    for position in range(1, len(nums), 2):
        entry = nums[position]
        if isinstance(entry, list):  # a page's array (an annotation's entry is a reference)
            for index, reference in enumerate(entry):
                mentioned.setdefault(reference, []).append((entry, index))
    folded = 0
    # Children are numbered after their parents (WeasyPrint adds an element before its content),
    # so from the last object down a nested one-run Span is folded before the Span that holds it.
    for element in reversed(objects):
        if not isinstance(element, dict) or element.get("S") != "/Span" or element.keys() != _PLAIN_SPAN_KEYS:
            continue
        kids = element["K"]
        if element.get("Type") != "/StructElem" or len(kids) != 1 or type(kids[0]) is not int:
            continue
        parent_number = _number(element["P"])
        parent = objects[parent_number] if parent_number is not None else None
        if not isinstance(parent, dict) or parent.get("Pg") != element["Pg"]:
            continue  # an MCID in K is read on the parent's page: only the same page may fold
        reference = element.reference
        siblings = parent.get("K")
        if not isinstance(siblings, list) or siblings.count(reference) != 1:
            continue  # not in its parent's content (WeasyPrint's unlinked page-margin text): left
        siblings[siblings.index(reference)] = kids[0]
        for page_array, index in mentioned.pop(reference, []):
            page_array[index] = parent.reference
            mentioned.setdefault(parent.reference, []).append((page_array, index))
        element.clear()
        folded += 1
    return folded
