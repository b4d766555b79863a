"""Pages of a long list by position (keyset), for the server-rendered pages.

A page-number paginator counts the whole list for its "Page 3 of 12" and skips rows with an OFFSET
that grows with the depth: both cost in proportion to the list. A keyset page asks for the rows
after (or before) the last one shown along an indexed, unique ordering, and one row more to know
whether another page follows: the same query at any length and any depth (issue 22).

The links carry the position as ``?before=<key>`` (the next, older page) or ``?after=<key>`` (the
previous, newer one); there is no page count. A key that is not a whole number is a 400.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import BadRequest


@dataclass
class KeysetPage:
    object_list: list[Any]
    has_next: bool  # older rows follow
    has_previous: bool  # newer rows came before
    next_key: int | None = None
    previous_key: int | None = None
    extra: dict = field(default_factory=dict)

    def __iter__(self):
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)

    def __bool__(self) -> bool:
        return bool(self.object_list)

    @property
    def has_other_pages(self) -> bool:
        return self.has_next or self.has_previous


def position(params, name: str) -> int | None:
    """The row position a page link carries in ``params[name]``: None if absent, a 400 if not a
    whole number."""
    raw = params.get(name)
    if raw in (None, ""):
        return None
    if not (str(raw).isascii() and str(raw).isdigit()) or len(str(raw)) > 18:  # not "²" or "①"
        raise BadRequest(f"'{name}' must be the position of a row as the page links give it.")
    return int(raw)


def keyset_page(queryset, params, per_page: int, key: str = "id", attr: str | None = None) -> KeysetPage:
    """One page of ``queryset`` newest first by the unique, indexed integer column ``key``
    (descending), positioned by ``?before=`` / ``?after=`` in ``params``. ``attr`` is how to read
    the key from a row (default: ``key``)."""
    attr = attr or key
    before, after = position(params, "before"), position(params, "after")
    if after is not None and before is None:
        rows = list(queryset.filter(**{f"{key}__gt": after}).order_by(key)[: per_page + 1])
        has_previous = len(rows) > per_page
        rows = rows[:per_page][::-1]
        has_next = True
    else:
        if before is not None:
            queryset = queryset.filter(**{f"{key}__lt": before})
        rows = list(queryset.order_by(f"-{key}")[: per_page + 1])
        has_next = len(rows) > per_page
        rows = rows[:per_page]
        has_previous = before is not None
    if not rows:  # a position past either end: no links but back to the start
        return KeysetPage([], False, before is not None or after is not None)
    return KeysetPage(
        rows,
        has_next=has_next,
        has_previous=has_previous,
        next_key=getattr(rows[-1], attr),
        previous_key=getattr(rows[0], attr),
    )
