"""Joining stored sheet PDFs into one document: the instant party bundle and a cold bundle's chunks.

Each part is an archival sheet as ``sheets/rendering.py`` writes it (PDF/A-3a, tagged, the character
documents as associated files). The joined file keeps all of that:

- pages in order; the first part's catalog (language, viewer preferences, MarkInfo, output intent,
  the PDF/A identification in its XMP metadata) stands for the whole file;
- the structure trees: each part's top-level elements go under the first part's document element,
  its parent tree is re-numbered past the ones before it (``/StructParents`` of pages and
  ``/StructParent`` of annotations with it), so the bundle stays tagged (PDF/A-3 level "a");
- every embedded file, once in the name tree and once in the catalog's AF, and the checksum entry
  (``DossierSHA256``) listing them all, as a render of the whole bundle would.

pikepdf (qpdf) copies objects between files; a page's fonts stay as the part subset them, so a
joined bundle is larger than one rendered whole (measured in docs/performance.md).
"""

from __future__ import annotations

import io
from typing import Any

import pikepdf

from sheets import archival

#: A stored part qpdf cannot read (or a structure it cannot copy): the bundle is rendered instead.
JoinError = pikepdf.PdfError


def _number_tree_pairs(tree: Any) -> list[tuple[int, Any]]:
    """Every (key, value) of a PDF number tree (flat ``/Nums`` or with ``/Kids``)."""
    pairs: list[tuple[int, Any]] = []
    if "/Nums" in tree:
        nums = tree.Nums
        pairs.extend((int(nums[i]), nums[i + 1]) for i in range(0, len(nums), 2))
    for kid in tree.get("/Kids", []):
        pairs.extend(_number_tree_pairs(kid))
    return pairs


def _name_tree_pairs(tree: Any) -> list[tuple[str, Any]]:
    pairs: list[tuple[str, Any]] = []
    if "/Names" in tree:
        names = tree.Names
        pairs.extend((str(names[i]), names[i + 1]) for i in range(0, len(names), 2))
    for kid in tree.get("/Kids", []):
        pairs.extend(_name_tree_pairs(kid))
    return pairs


def _copy(out: pikepdf.Pdf, part: pikepdf.Pdf, obj: Any) -> Any:
    """``obj`` of ``part`` in ``out``, through qpdf's copy, which maps each object once (so the pages
    copied before are the ones referred to); a direct array or dictionary is made indirect in the
    part first, so qpdf copies it whole in one call."""
    if isinstance(obj, pikepdf.Array | pikepdf.Dictionary) and not obj.is_indirect:
        obj = part.make_indirect(obj)
    return out.copy_foreign(obj) if isinstance(obj, pikepdf.Object) and obj.is_indirect else obj


def _document_element(pdf: pikepdf.Pdf) -> Any:
    """The structure element every top-level element of a part goes under (WeasyPrint: Document)."""
    kids = pdf.Root.StructTreeRoot.K
    return kids[0] if isinstance(kids, pikepdf.Array) else kids


def join(parts: list[bytes], *, title: str) -> tuple[bytes, int]:
    """One PDF of ``parts`` (stored sheet PDFs) in order, and its page count."""
    if not parts:
        raise ValueError("nothing to join")
    out = pikepdf.open(io.BytesIO(parts[0]))
    tagged = "/StructTreeRoot" in out.Root
    next_key = 0
    parent_tree: list[Any] = []
    if tagged:
        pairs = _number_tree_pairs(out.Root.StructTreeRoot.ParentTree)
        for key, value in pairs:
            parent_tree.extend([key, value])
        next_key = max((key for key, _ in pairs), default=-1) + 1
    files = _name_tree_pairs(out.Root.Names.EmbeddedFiles) if "/Names" in out.Root else []
    checksums = archival.parse_checksum_entry(str(out.docinfo.get("/DossierSHA256", "")))
    for data in parts[1:]:
        part = pikepdf.open(io.BytesIO(data))
        offset = next_key
        for page in part.pages:
            out.pages.append(page)
            copied = out.pages[-1]
            if "/StructParents" in copied:
                copied.StructParents = int(copied.StructParents) + offset
            for annotation in copied.get("/Annots", []):
                if "/StructParent" in annotation:
                    annotation.StructParent = int(annotation.StructParent) + offset
        if tagged and "/StructTreeRoot" in part.Root:
            pairs = _number_tree_pairs(part.Root.StructTreeRoot.ParentTree)
            for key, value in pairs:
                parent_tree.extend([key + offset, _copy(out, part, value)])
            next_key = offset + max((key for key, _ in pairs), default=-1) + 1
            document = _document_element(out)
            for element in _document_element(part).K:
                copied_element = _copy(out, part, element)
                if isinstance(copied_element, pikepdf.Dictionary):
                    copied_element.P = document
                document.K.append(copied_element)
        if "/Names" in part.Root and "/EmbeddedFiles" in part.Root.Names:
            files.extend(
                (name, _copy(out, part, spec))
                for name, spec in _name_tree_pairs(part.Root.Names.EmbeddedFiles)
            )
        checksums.update(archival.parse_checksum_entry(str(part.docinfo.get("/DossierSHA256", ""))))
    if tagged:
        out.Root.StructTreeRoot.ParentTree = out.make_indirect(
            pikepdf.Dictionary(Nums=pikepdf.Array(parent_tree))
        )
        out.Root.StructTreeRoot.ParentTreeNextKey = next_key
    if files:
        files.sort(key=lambda pair: pair[0])  # a name tree is sorted by name
        names = pikepdf.Array()
        for name, spec in files:
            names.append(pikepdf.String(name))
            names.append(spec)
        out.Root.Names.EmbeddedFiles = out.make_indirect(pikepdf.Dictionary(Names=names))
        out.Root.AF = pikepdf.Array([spec for _, spec in files])
        out.docinfo["/DossierSHA256"] = " ".join(f"{name}:{digest}" for name, digest in checksums.items())
    with out.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta["dc:title"] = title
    out.docinfo["/Title"] = title
    buffer = io.BytesIO()
    # The parts' streams are compressed already: copied as they are, not inflated and deflated again.
    # Object streams generated: the parts' small objects, copied out of their own object streams,
    # packed into new ones (preserving wrote them loose). Measured on 20 stored character sheets:
    # 2.41 -> 1.60 MB and about a quarter less CPU for the join (docs/performance.md).
    out.save(
        buffer,
        stream_decode_level=pikepdf.StreamDecodeLevel.none,
        object_stream_mode=pikepdf.ObjectStreamMode.generate,
        fix_metadata_version=False,
    )
    return buffer.getvalue(), len(out.pages)
