"""A campaign archive written as it is read: the same bytes as ``json.dumps`` of the whole document,
produced a piece at a time, so the memory an export needs does not grow with the campaign.

A document is given as (key, value) pairs in order; a value that is an iterator (the rolls) is
written item by item, every other value with ``json.dumps``. The two styles are the two the
archive has always been written in: PRETTY (``indent=1``: the web download and manage.py) and
COMPACT (what DRF's JSONRenderer writes: the API). tests/archive/test_streaming.py holds the bytes
equal to those of the whole document dumped at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from rest_framework.utils.encoders import JSONEncoder

PRETTY = {"ensure_ascii": False, "indent": 1}
# DRF's JSONRenderer with its defaults (UNICODE_JSON, COMPACT_JSON, STRICT_JSON on).
COMPACT = {"ensure_ascii": False, "separators": (",", ":"), "allow_nan": False, "cls": JSONEncoder}
ITEMS_PER_PIECE = 500


def _encoder(style: dict) -> json.JSONEncoder:
    """One encoder per style (json.dumps with options builds a new one per call)."""
    options = {key: value for key, value in style.items() if key != "cls"}
    return style.get("cls", json.JSONEncoder)(**options)


_ENCODERS = {id(PRETTY): _encoder(PRETTY), id(COMPACT): _encoder(COMPACT)}


def _dumps(value: Any, style: dict) -> str:
    encoder = _ENCODERS.get(id(style))
    text = encoder.encode(value) if encoder is not None else json.dumps(value, **style)
    if style is COMPACT:  # as DRF's JSONRenderer: these two break JavaScript string literals
        text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return text


def _nested(text: str, depth: int, style: dict) -> str:
    """A value dumped on its own, indented as json.dumps indents it ``depth`` levels down (JSON
    text holds no raw newline inside strings, so every newline is a line break of the layout)."""
    return text.replace("\n", "\n" + " " * depth) if style.get("indent") else text


def _array(items: Iterable, style: dict) -> Iterator[str]:
    pretty = bool(style.get("indent"))
    pieces: list[str] = []
    written = 0
    for item in items:
        text = _dumps(item, style)
        pieces.append(("," if written else "[") + ("\n  " + _nested(text, 2, style) if pretty else text))
        written += 1
        if len(pieces) >= ITEMS_PER_PIECE:
            yield "".join(pieces)
            pieces.clear()
    if not written:
        yield "[]"
        return
    yield "".join(pieces) + ("\n ]" if pretty else "]")


def write(parts: Iterable[tuple[str, Any]], style: dict) -> Iterator[str]:
    """The JSON text of the object made of ``parts``, in pieces."""
    pretty = bool(style.get("indent"))
    first = True
    for key, value in parts:
        opening = "{" if first else ","
        yield opening + ("\n " if pretty else "") + _dumps(key, style) + (": " if pretty else ":")
        first = False
        if isinstance(value, Iterator):
            yield from _array(value, style)
        else:
            yield _nested(_dumps(value, style), 1, style)
    yield "{}" if first else ("\n}" if pretty else "}")
