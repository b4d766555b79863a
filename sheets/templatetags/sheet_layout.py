"""Layout helpers for print templates: presentation only, no rules."""

from __future__ import annotations

import math

from django import template

register = template.Library()


@register.filter
def split_share(items, share) -> tuple[list, list]:
    """``items`` cut in two, the first part holding ``share`` (0..1) of them, rounded up.

    Sheets lay a long list out in two table cells instead of CSS columns: WeasyPrint balances
    columns by laying their content out again and again, which cost most of a D6 sheet's render.
    """
    items = list(items)
    cut = math.ceil(len(items) * float(share))
    return items[:cut], items[cut:]


@register.filter
def chunks(items, size) -> list[list]:
    """``items`` in rows of ``size`` (a grid of score boxes)."""
    items, size = list(items), int(size)
    return [items[i : i + size] for i in range(0, len(items), size)]


@register.filter
def pad_rows(items, count) -> dict:
    """Exactly ``count`` rows for a table of fixed height: the items, then None for each empty row a
    pencil fills in play. When there are more items than rows, the last row says how many more
    (``more``) instead of pushing the sheet onto a second page."""
    items, count = list(items or []), int(count)
    if len(items) > count:
        shown = count - 1
        return {"shown": items[:shown], "more": len(items) - shown}
    return {"shown": items + [None] * (count - len(items)), "more": 0}
