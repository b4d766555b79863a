"""Form fields of a fillable blank sheet, read off the laid-out sheet (no WeasyPrint import here).

A fillable sheet is the blank sheet exactly as it prints, with a PDF form field laid over every
place a player writes or ticks. The fields are not ``<input>`` elements in the print templates:
those would be laid out (and change the look of the sheet), and every template would carry a second
copy of its boxes. Instead ``fields_of`` walks the layout tree of the blank sheet and finds the
writing places by the classes the templates already use for the pencil:

- ``score-box`` (its ``value``): a text field named by its label (``rank_grade``, ``current_sta``);
- ``write-row`` with a header cell: a text field named by the header (``stamina_recovery``);
- rows of a ruled table, filled and empty (``write-rows``, a block of N rows): one text field per
  cell, named ``<section>_<row>_<column>`` (``skill_03_level``). The columns are named by the
  table's ``data-columns`` (comma-separated, in cell order) or else its header row; a row's
  ``data-row-name`` names its rows instead of the section (``skill``, ``attribute``). Such a row
  counts on from the rows of the same name before it, in any table; a cell the sheet prints text
  in is not a field, and a row whose first cell is printed is named by it
  (``skill_dodge_code`` beside a printed "Dodge"), a row under an empty header cell by its number
  (``attribute_01_name``, ``attribute_01_code``);
- ``write-line`` / ``write-in``: named by the label before them (``agent``, ``player``);
- ``wound``, ``tick``, ``tick-cell``, ``stone``, ``tally`` ticks, a Time to Kill ability track:
  check boxes (``wound_07``, ``preparation_stones_3``, ``tally_04``, ``grappling_track_2``).

``data-field`` on an element names its field outright where the label is too terse
(``stamina_current`` for "Current STA"; made a slug, so a template may write ``tempo {{ step }}``).
Names are unique in a document: a second sheet's fields (never the case for a blank sheet, which is
one page) would get ``_2``. docs/fillable-fields.md lists each system's names.

``sheets/rendering.py`` hands WeasyPrint the fields as form widgets (``pdf_forms``), and
``isolate_page_drawing`` wraps each page's drawing in q/Q as WeasyPrint writes it: WeasyPrint opens
a page with ``1 0 0 -1 0 H cm`` (y down, as CSS) outside any q/Q, so whatever a form filler or a
viewer appends to the page (a flattened field's appearance, an annotation) would be drawn mirrored
and in the wrong place (issue 45).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

#: Classes whose box is one text field.
TEXT_CLASSES = ("write-line", "write-in")
#: Classes whose box is one check box.
CHECK_CLASSES = ("wound", "tick", "tick-cell", "stone")
#: Gap between the ticks of a ``tally`` image, in mm (sheets/marks.py draws them).
_PX_PER_MM = 96 / 25.4


@dataclass(frozen=True)
class FormField:
    """One widget: its name, what a screen reader says for it, text or check box, its rectangle
    (x1, y1, x2, y2 in CSS px on the page)."""

    name: str
    title: str
    kind: str  # "text" or "checkbox"
    rect: tuple[float, float, float, float]
    page: int


def isolate_page_drawing(document, pdf) -> int:
    """A WeasyPrint finisher: wrap the content stream of every page of ``pdf`` (the pydyf PDF about
    to be written) in q/Q, so the page's own coordinate change ends with its drawing; returns how
    many pages. Only a fillable sheet needs it: nothing is appended to any other sheet's page."""
    del document  # the finisher's signature: (document, pdf)
    wrapped = 0
    for page in pdf.objects:
        if isinstance(page, dict) and page.get("Subtype") == "/Widget":
            # WeasyPrint writes a widget's Rect top first ([x1 top x2 bottom], the page's y flipped):
            # a filler that takes Rect[1] for the bottom draws the value a box's height too high.
            x1, y1, x2, y2 = page["Rect"]
            page["Rect"] = type(page["Rect"])((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))
            continue
        if not isinstance(page, dict) or page.get("Type") != "/Page":
            continue
        contents = page["Contents"]
        stream = pdf.objects[int(contents.split()[0])]
        stream.stream.insert(0, b"q")
        stream.stream.append(b"Q")
        wrapped += 1
    return wrapped


def slug(text: str) -> str:
    """``Rank/Grade`` -> ``rank_grade``, ``Current STA`` -> ``current_sta``."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def singular(section: str) -> str:
    """A section heading's slug as the name of one of its rows (``skills`` -> ``skill``)."""
    if section.endswith("ies"):
        return section[:-3] + "y"
    return section[:-1] if section.endswith("s") and not section.endswith("ss") else section


def _classes(element) -> list[str]:
    return (element.get("class") or "").split() if element is not None else []


def _text(element) -> str:
    """The element's own text and its children's, whitespace collapsed."""
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def _border_rect(box) -> tuple[float, float, float, float]:
    x, y = box.border_box_x(), box.border_box_y()
    return (x, y, x + box.border_width(), y + box.border_height())


def _descendants(box) -> Iterator:
    yield box
    for child in getattr(box, "children", ()):
        yield from _descendants(child)


class _Namer:
    def __init__(self) -> None:
        self.used: dict[str, int] = {}

    def __call__(self, name: str) -> str:
        name = name or "field"
        count = self.used.get(name, 0) + 1
        self.used[name] = count
        return name if count == 1 else f"{name}_{count}"


def fields_of(pages, root_element, tally_gap_mm: float) -> list[FormField]:
    """Every writing place of the laid-out ``pages`` (WeasyPrint page boxes) as a form field.

    ``root_element``: the document's element tree (for parents: the label before a write-in, the
    header row of a table). ``tally_gap_mm``: the gap between the ticks of a tally image."""
    parents = {child: parent for parent in root_element.iter() for child in parent}
    name = _Namer()
    out: list[FormField] = []
    section = ""
    row_counters: dict[int, int] = {}  # per table element: rows seen
    rows: dict[str, int] = {}  # per data-row-name: write-in rows seen, in any table
    seen: set[int] = set()

    def table_of(element):
        while element is not None and element.tag != "table":
            element = parents.get(element)
        return element

    def column_names(table) -> list[str]:
        if table is not None and table.get("data-columns"):
            return [slug(column) for column in table.get("data-columns").split(",")]
        head = table.find("thead") if table is not None else None
        cells = head.find("tr") if head is not None else None
        return [slug(_text(cell)) for cell in cells] if cells is not None else []

    for number, page in enumerate(pages):
        for box in _descendants(page):
            element = getattr(box, "element", None)
            if element is None or hasattr(box, "text") or getattr(box, "width", None) is None:
                continue
            if element.tag in ("h1", "h2") and id(element) not in seen and element.tag == "h2":
                # The section heading, without its aside ("Wounds 3 wounds ..." -> "wounds").
                section = slug(element.text or _text(element))
            first = id(element) not in seen
            seen.add(id(element))
            if not first:
                continue
            classes = _classes(element)
            field_name = slug(element.get("data-field") or "")
            if "score-box" in classes:
                label = element.find("span[@class='label']")
                value = next(
                    (b for b in _descendants(box) if "value" in _classes(getattr(b, "element", None))), box
                )
                title = _text(label) or "Score"
                rect = _border_rect(value if value is not box else box)
                if value is box:
                    rect = _border_rect(box)
                out.append(FormField(name(field_name or slug(title)), title, "text", rect, number))
            elif element.tag == "tr" and element.get("data-row-name") and "write-row" in classes:
                out.extend(
                    _named_row_fields(box, element, column_names(table_of(element)), number, name, rows)
                )
            elif "write-row" in classes and element.tag == "tr":
                header = element.find("th")
                cells = [cell for cell in element if cell.tag == "td"]
                if header is not None and len(cells) == 1:
                    cell_box = _box_of(box, cells[0])
                    if cell_box is not None and not _has_marks(cells[0]):
                        title = _text(header)
                        out.append(
                            FormField(
                                name(field_name or slug(title)), title, "text", _border_rect(cell_box), number
                            )
                        )
                elif header is None:
                    table = table_of(element)
                    row = row_counters[id(table)] = row_counters.get(id(table), 0) + 1
                    out.extend(_row_fields(box, element, column_names(table), section, row, number, name, 1))
            elif "write-rows" in classes:
                table = table_of(element)
                count = int(element.get("data-rows") or 1)
                base = slug(element.get("data-row-name") or "")
                for k in range(count):
                    if base:
                        row = rows[base] = rows.get(base, 0) + 1
                    else:
                        row = row_counters[id(table)] = row_counters.get(id(table), 0) + 1
                    out.extend(
                        _row_fields(
                            box,
                            element,
                            column_names(table),
                            section,
                            row,
                            number,
                            name,
                            count,
                            k,
                            base or "",
                        )
                    )
            elif "write-row" in classes:  # a lone ruled line ("Notes")
                title = _text(element) or section or "Notes"
                out.append(
                    FormField(name(field_name or slug(title)), title, "text", _border_rect(box), number)
                )
            elif any(c in classes for c in TEXT_CLASSES):
                parent = parents.get(element)
                label = ""
                if parent is not None:
                    for sibling in parent:
                        if sibling is element:
                            break
                        if "label" in _classes(sibling):
                            label = _text(sibling)
                title = label or section or "Write-in"
                out.append(
                    FormField(name(field_name or slug(title)), title, "text", _border_rect(box), number)
                )
            elif "track-cell" in classes:
                row = parents.get(element)
                cell = row.find("td") if row is not None else None
                label = _cell_label(cell)
                ability = slug(label) or section
                steps = int(element.get("colspan") or 1)
                x1, y1, x2, y2 = _border_rect(box)
                width = (x2 - x1) / steps
                for k in range(steps):
                    rect = (x1 + k * width, y1, x1 + (k + 1) * width, y2)
                    title = f"{label or section}, track box {k + 1}"
                    out.append(FormField(name(f"{ability}_track_{k + 1}"), title, "checkbox", rect, number))
            elif "tally" in classes:
                count = int(element.get("data-ticks") or 1)
                gap = tally_gap_mm * _PX_PER_MM
                x1, y1, x2, y2 = _border_rect(box)
                side = ((x2 - x1) + gap) / count - gap
                for k in range(count):
                    left = x1 + k * (side + gap)
                    title = f"Tally box {k + 1}"
                    out.append(
                        FormField(
                            name(f"tally_{k + 1:02d}"), title, "checkbox", (left, y1, left + side, y2), number
                        )
                    )
            elif any(c in classes for c in CHECK_CLASSES):
                out.append(_check_field(box, element, parents, section, number, name, field_name))
    return out


def _check_field(box, element, parents, section, number, name, field_name) -> FormField:
    classes = _classes(element)
    parent = parents.get(element)
    if "wound" in classes:
        text = _text(element)
        base, title = "wound", f"Wound box {text}"
        given = f"wound_{int(text):02d}" if text.isdigit() else ""
    elif "stone" in classes:
        row = parents.get(parent) if parent is not None else None
        header = row.find("th") if row is not None else None
        base = slug(_text(header)) or "stone"
        index = [c for c in parent if "stone" in _classes(c)].index(element) + 1 if parent is not None else 1
        given, title = f"{base}_{index}", f"{_text(header) or 'Stone'} {index}"
    elif "tick-cell" in classes and parent is not None:
        first = parent.find("td")
        table = parent
        while table is not None and table.tag != "table":
            table = parents.get(table)
        head = table.find("thead/tr") if table is not None else None
        column = slug(_text(head[-1])) if head is not None and len(head) else "tick"
        label = _cell_label(first)
        given = f"{slug(label)}_{column}"
        title = f"{label}: {column.replace('_', ' ')}"
    else:  # a tick beside a line of text ("Fatally wounded")
        own = slug(_text(parent)) if parent is not None else section
        given, title = own or f"{section}_tick", _text(parent) or "Tick"
    return FormField(name(field_name or given), title, "checkbox", _border_rect(box), number)


def _cell_label(cell) -> str:
    """A row's name from its first cell: its own text, else its first child's (``<strong>``), not a
    note under it."""
    if cell is None:
        return ""
    own = (cell.text or "").strip()
    if own:
        return own
    return _text(cell[0]) if len(cell) else ""


def _has_marks(cell) -> bool:
    """A cell drawn with stones or ticks is check boxes, not a text field."""
    return any(set(_classes(child)) & {"stone", "tick"} for child in cell.iter())


def _box_of(row_box, element):
    return next((b for b in _descendants(row_box) if getattr(b, "element", None) is element), None)


def _named_row_fields(row_box, row_element, columns, number, name, rows) -> list[FormField]:
    """The fields of a row with a ``data-row-name``, header cell or not: one per cell the sheet
    leaves empty, named by the row's first cell where the sheet prints it (``skill_dodge_code``),
    else by the row's number among the rows of that name (``skill_03_name``)."""
    base = slug(row_element.get("data-row-name"))
    cells = [cell for cell in row_element if cell.tag in ("th", "td")]
    printed = _cell_label(cells[0]) if cells else ""
    if printed:
        key, heading = slug(printed), printed
    else:
        rows[base] = rows.get(base, 0) + 1
        key, heading = f"{rows[base]:02d}", f"row {rows[base]}"
    out = []
    for index, cell in enumerate(cells):
        cell_box = _box_of(row_box, cell)
        if cell_box is None or _text(cell) or _has_marks(cell):
            continue
        column = columns[index] if index < len(columns) and columns[index] else f"column_{index + 1}"
        title = f"{base.replace('_', ' ').capitalize()}, {heading}: {column.replace('_', ' ')}"
        out.append(FormField(name(f"{base}_{key}_{column}"), title, "text", _border_rect(cell_box), number))
    return out


def _row_fields(
    row_box, row_element, columns, section, row, number, name, count, k=0, base=""
) -> list[FormField]:
    """One text field per cell of a table row (``count``: rows drawn by this one row box, ``k``: which;
    ``base``: the rows' name, else the section's)."""
    out = []
    cells = [cell for cell in row_element if cell.tag == "td"]
    for index, cell in enumerate(cells):
        cell_box = _box_of(row_box, cell)
        if cell_box is None:
            continue
        x1, y1, x2, y2 = _border_rect(cell_box)
        height = (y2 - y1) / count
        rect = (x1, y1 + k * height, x2, y1 + (k + 1) * height)
        column = columns[index] if index < len(columns) and columns[index] else f"column_{index + 1}"
        base = slug(base) or singular(section) or "row"
        title = f"{(section or base).replace('_', ' ').capitalize()}, row {row}: {column.replace('_', ' ')}"
        kind = "checkbox" if "tick-column" in _classes(cell) else "text"
        out.append(FormField(name(f"{base}_{row:02d}_{column}"), title, kind, rect, number))
    return out
