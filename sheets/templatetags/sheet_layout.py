"""Layout helpers for print templates: presentation only, no rules."""

from __future__ import annotations

import math

from django import template
from django.utils.html import conditional_escape, format_html, mark_safe

from sheets.marks import MAX_BLANK_ROWS, SHAPES

register = template.Library()


@register.filter
def chunks(items, size) -> list[list]:
    """``items`` in rows of ``size`` (a grid of score boxes)."""
    items, size = list(items), int(size)
    return [items[i : i + size] for i in range(0, len(items), size)]


@register.filter
def pad_rows(items, count) -> dict:
    """A list for a table of fixed height, ``count`` rows in all: the items (``shown``), then how many
    empty rows a pencil fills in play (``blank``, drawn by ``blank_rows``). When there are more items
    than rows, the last row says how many more (``more``) instead of pushing the sheet onto a second
    page.

    ``count`` may be "rows,width": an item whose ``name`` is longer than ``width`` characters takes
    two rows (its name wraps instead of being cut, issue 30) while the table has rows to spare."""
    rows, _, width = str(count).partition(",")
    items, count = list(items or []), int(rows)
    if len(items) > count:
        shown = count - 1
        lines = [{"item": item, "two": False} for item in items[:shown]]
        return {"shown": items[:shown], "blank": 0, "more": len(items) - shown, "lines": lines}
    spare = count - len(items)
    lines = []
    for item in items:
        two = bool(width) and spare > 0 and len(str(_name(item))) > int(width)
        spare -= two
        lines.append({"item": item, "two": two})
    return {"shown": items, "blank": spare, "more": 0, "lines": lines}


def _name(item) -> str:
    return item.get("name", "") if isinstance(item, dict) else getattr(item, "name", "")


@register.simple_tag
def blank_rows(count, columns, extra_class="", tick_column=None, tick_shape="box", cells="", name=""):
    """``count`` empty writing rows of a table with ``columns`` cells, as ONE row of ``count`` x 6 mm
    whose cells carry the column rules and whose background draws the lines between the rows
    (``sheets.marks``).

    Each empty row used to be a row of empty cells: 1 + ``columns`` boxes to lay out and draw per row
    (measured: the Fate Record Sheet's 21 empty turn rows were a quarter of its render). The
    ``tick_column`` (1-based) draws a tick on each row, a ``box`` or a ``circle`` (``tick_shape``), as
    the cell's background.
    ``extra_class`` adds classes to the row (``a4-only``: rows only A4 has room for); ``cells`` gives
    the cells' classes, comma-separated in column order, where a column's rule depends on them;
    ``name`` names the rows' form fields on a fillable sheet (``data-row-name``, sheets/fillable.py)."""
    count, columns = int(count), int(columns)
    if count <= 0:
        return ""
    if count > MAX_BLANK_ROWS:
        raise ValueError(f"at most {MAX_BLANK_ROWS} blank rows in one block, not {count}")
    cell_classes = [name.strip() for name in str(cells).split(",")] if cells else []
    cell_classes += [""] * (columns - len(cell_classes))
    if tick_column:
        if tick_shape not in SHAPES:
            raise ValueError(f"a tick is one of {', '.join(SHAPES)}, not {tick_shape!r}")
        shape_class = "" if tick_shape == "box" else f" {tick_shape}"
        cell_classes[int(tick_column) - 1] = "tick-column" + shape_class
    cells = "".join(
        format_html('<td class="{}"></td>', name) if name else "<td></td>" for name in cell_classes[:columns]
    )
    classes = " ".join(filter(None, ["write-rows", f"r{count}", conditional_escape(extra_class)]))
    if name:
        return format_html(
            '<tr class="{}" data-rows="{}" data-row-name="{}">{}</tr>', classes, count, name, mark_safe(cells)
        )
    return format_html('<tr class="{}" data-rows="{}">{}</tr>', classes, count, mark_safe(cells))


@register.filter
def sheet_name(name) -> str:
    """A character's name as a sheet's title prints it (issue 45): whole up to the length the platform
    keeps a character's name at (``Character.name``, the name the footer stamp and the character's
    pages show), cut at the last word that fits there, with an ellipsis, past it. A builder may keep a
    longer name in the build (TIMEMASTER and D6 take 200 characters); set whole, it took a third and
    fourth title line and pushed the sheet onto a second page."""
    from characters.models import Character

    limit = Character._meta.get_field("name").max_length
    name = " ".join(str(name or "").split())
    if len(name) <= limit:
        return name
    cut = name[: limit - 1]
    if " " in cut and name[limit - 1] != " ":
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-·") + "…"


@register.filter
def share_rows(items, spec) -> dict:
    """Groups (an attribute with its skills: ``spec`` is "rows,key", the key holding a group's items)
    laid out in two table columns of ``rows`` rows each, for a list of groups that may be long (D6
    takes up to 40 attributes, issue 45): each group is its head row and the same number of item rows
    (``pad_rows``: its items, then empty rows to fill in play), as many as the column's rows allow, at
    least one; when even one item row each does not fit, the groups that do are shown and ``more``
    says how many are left out, on the last pair of rows.

    Two table cells, not CSS columns: WeasyPrint balances columns by laying their content out again
    and again, which cost most of one system's sheet render (it replaces ``split_share``, which cut
    the list in two and gave every group five item rows however many groups there were).

    Returns ``{"columns": [[{"group": g, "rows": pad_rows(...)} ...], [...]], "more": n}``."""
    rows_text, _, key = str(spec).partition(",")
    groups, rows = list(items or []), int(rows_text)
    most = 2 * (rows // 2)  # two rows each (head and one item) in each of the two columns
    more = 0
    if len(groups) > most:
        more = len(groups) - (most - 1)
        groups = groups[: most - 1]  # the last slot of the second column says how many more
    per_column = math.ceil(len(groups) / 2) if groups else 0
    item_rows = max(1, rows // per_column - 1) if per_column else 0
    laid = [
        {"group": group, "rows": pad_rows(group.get(key) if isinstance(group, dict) else [], item_rows)}
        for group in groups
    ]
    return {"columns": [laid[:per_column], laid[per_column:]], "more": more}


@register.filter
def fold_leading(rows, key) -> list[dict]:
    """A reference strip's rows with the leading run whose ``key`` is 0 (or empty) folded into one
    column, its last row, which carries the run's ``first`` row (issue 45: D6's multi-action strip
    runs from 1 to the allotment + 5, and an allotment of 30, the form's limit, made 35 columns that
    ran off the page; "1-30 none" then 31..35 hold it in six, as an allotment of 1 always printed).

    Returns ``[{"row": row, "first": the run's first row or None}, ...]``."""
    rows = list(rows or [])
    run = 0
    while run < len(rows) and not rows[run].get(key):
        run += 1
    if run <= 1:
        return [{"row": row, "first": None} for row in rows]
    return [{"row": rows[run - 1], "first": rows[0]}] + [{"row": row, "first": None} for row in rows[run:]]
