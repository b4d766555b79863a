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
