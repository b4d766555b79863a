"""One input boundary: the checks every text that enters Dossier passes before anything is stored.

Pure Python (the limits come in as a ``Limits``; ``limits()`` reads them from the settings), so
the same checker serves every way in:

- API bodies: kernel/parsers.py (DRF's DEFAULT_PARSER_CLASSES) parses JSON with ``loads`` and
  checks form and multipart fields with ``form_problem``;
- HTML pages: config/middleware.py checks every query, form and URL value with ``form_problem``;
- archive imports (web, API and ``manage.py import_campaign``): archive/format.py parses the file
  with ``loads`` and the archive's own limits;
- stored rows: ``manage.py find_bad_text`` reports (and repairs) what the boundary now refuses.

What is refused, with the path of the first value at fault (``choices.skills[3].name``):
text that is not valid Unicode (a lone surrogate) or holds a C0 control character other than
tab, newline and carriage return (NUL included); a string longer than the limit; a run of digits
so long that ``int()`` would refuse it; a number that is not finite or is larger than the limit;
JSON nested deeper than the limit (found before parsing, so deep input never recurses) or holding
more values than the limit.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

#: The characters refused in any text: C0 controls but tab, newline and carriage return, and
#: surrogate code points (after decoding, a surrogate is always a lone one: pairs are combined).
BAD_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
DIGIT_RUN = re.compile(r"\d+")
#: A JSON string token, escapes included (what the depth scan skips over).
JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},:]', re.DOTALL)
BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
NOT_BRACKET = re.compile(r"[^\[\]{}]+")


@dataclass(frozen=True)
class Limits:
    depth: int = 32
    string_chars: int = 100_000
    number: int = 2**53
    items: int | None = 20_000
    digit_run: int = 100


@dataclass(frozen=True)
class Problem:
    path: str
    message: str


class InputRefused(ValueError):
    """Input the boundary refuses; ``problem`` names where it is and why."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(f"{problem.path or '(body)'}: {problem.message}")


def limits(**overrides: Any) -> Limits:
    """The limits from the settings (INPUT_MAX_*), with ``overrides`` (archives count no items)."""
    from django.conf import settings

    values = {
        "depth": settings.INPUT_MAX_JSON_DEPTH,
        "string_chars": settings.INPUT_MAX_STRING_CHARS,
        "number": settings.INPUT_MAX_NUMBER,
        "items": settings.INPUT_MAX_JSON_ITEMS,
        "digit_run": settings.INPUT_MAX_DIGIT_RUN,
    }
    return Limits(**{**values, **overrides})


def join(path: str, key: str | int) -> str:
    """``join("choices", "skills")`` -> ``choices.skills``; ``join("skills", 3)`` -> ``skills[3]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def shown_name(name: str) -> str:
    """A field name fit to be echoed in an error: refused characters replaced, long names cut."""
    name = BAD_CHARACTER.sub("\ufffd", name)
    return name if len(name) <= 80 else f"{name[:80]}…"


def describe(character: str) -> str:
    code = ord(character)
    if code == 0:
        return "a NUL character (U+0000)"
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate (U+{code:04X}, not valid Unicode)"
    return f"a control character (U+{code:04X})"


def text_problem(text: str, limit: Limits) -> str | None:
    """Why ``text`` is refused, or None."""
    if len(text) > limit.string_chars:
        return f"is {len(text)} characters long; the limit is {limit.string_chars}."
    bad = BAD_CHARACTER.search(text)
    if bad:
        return f"holds {describe(bad.group())} at position {bad.start()}; it cannot be stored."
    if len(text) > limit.digit_run:
        longest = max((len(run) for run in DIGIT_RUN.findall(text)), default=0)
        if longest > limit.digit_run:
            return f"holds a number of {longest} digits; the limit is {limit.digit_run}."
    return None


class HugeNumber:
    """A JSON number too long to convert (kept as its digits so the walk can name its path)."""

    def __init__(self, digits: str):
        self.digits = digits


def number_problem(number: Any, limit: Limits) -> str | None:
    if isinstance(number, HugeNumber):
        return f"is a number of {len(number.digits)} digits; numbers are limited to ±{limit.number}."
    if isinstance(number, float) and not math.isfinite(number):
        return "is not a finite number."
    if abs(number) > limit.number:
        return f"is out of range; numbers are limited to ±{limit.number}."
    return None


def value_problem(value: Any, path: str = "", limit: Limits | None = None) -> Problem | None:
    """The first refused part of a decoded JSON value (document order), walked without recursion."""
    limit = limit or Limits()
    stack: list[tuple[Any, str, int]] = [(value, path, 1)]
    seen = 0
    while stack:
        item, where, depth = stack.pop()
        seen += 1
        if limit.items is not None and seen > limit.items:
            return Problem(path, f"holds more than {limit.items} values; that is the limit.")
        if isinstance(item, str):
            message = text_problem(item, limit)
        elif isinstance(item, bool) or item is None:
            message = None
        elif isinstance(item, (int, float, HugeNumber)):
            message = number_problem(item, limit)
        elif isinstance(item, (dict, list)):
            if depth > limit.depth:
                return Problem(where, f"nests deeper than {limit.depth} levels.")
            pairs = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
            for key, child in reversed(pairs):
                child_path = join(where, shown_name(key) if isinstance(key, str) else key)
                if isinstance(key, str):
                    key_message = text_problem(key, limit)
                    if key_message:
                        return Problem(child_path, f"has a name that {key_message}")
                stack.append((child, child_path, depth + 1))
            continue
        else:
            message = f"is a {type(item).__name__}, which JSON does not hold."
        if message:
            return Problem(where, message)
    return None


def depth_problem(text: str, limit: Limits, path: str = "") -> Problem | None:
    """Nesting deeper than the limit, found in the text before it is parsed (deep input would
    otherwise recurse in the parser and in everything that walks the value afterwards)."""
    if text.count("[") + text.count("{") <= limit.depth:
        return None
    brackets = NOT_BRACKET.sub("", JSON_STRING.sub("", text))
    if max(accumulate(BRACKET_STEP[b] for b in brackets), default=0) <= limit.depth:
        return None
    return Problem(_deep_path(text, limit.depth, path), f"nests deeper than {limit.depth} levels.")


def _deep_path(text: str, depth: int, path: str) -> str:
    """The path of the first container nested deeper than ``depth`` (only on the refusal path)."""
    frames: list[list[Any]] = []  # [kind, key or index, path of the container]
    expecting_key = False
    where = path
    for token in JSON_TOKEN.finditer(text):
        mark = token.group()
        if mark in "[{":
            if frames:
                kind, key, parent = frames[-1]
                where = join(parent, key) if key is not None else parent
            if len(frames) >= depth:
                return where
            frames.append(["array", 0, where] if mark == "[" else ["object", None, where])
            expecting_key = mark == "{"
        elif mark in "]}":
            if frames:
                frames.pop()
        elif mark == ",":
            if frames and frames[-1][0] == "array":
                frames[-1][1] += 1
            expecting_key = bool(frames) and frames[-1][0] == "object"
        elif mark == ":":
            expecting_key = False
        elif expecting_key and frames:
            try:
                frames[-1][1] = shown_name(json.loads(mark))
            except ValueError:
                frames[-1][1] = "?"
    return where


def _parse_int(digits: str) -> int | HugeNumber:
    return HugeNumber(digits) if len(digits.lstrip("-")) > 30 else int(digits)


def _parse_constant(name: str) -> float:
    return float(name.replace("Infinity", "inf"))


def loads(text: str, limit: Limits | None = None, path: str = "") -> Any:
    """JSON text decoded and checked: InputRefused naming the path of the first problem;
    json.JSONDecodeError when it is not JSON at all."""
    limit = limit or Limits()
    problem = depth_problem(text, limit, path)
    if problem is None:
        value = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
        problem = value_problem(value, path, limit)
    if problem is not None:
        raise InputRefused(problem)
    return value


def form_problem(pairs, limit: Limits | None = None) -> Problem | None:
    """The first refused name or value of form fields: ``pairs`` is (name, value) pairs, e.g. a
    QueryDict's ``.lists()`` flattened, or URL arguments."""
    limit = limit or Limits()
    for name, value in pairs:
        name = str(name)
        message = text_problem(name, limit)
        if message:
            return Problem(shown_name(name), f"has a name that {message}")
        if isinstance(value, str):
            message = text_problem(value, limit)
            if message:
                return Problem(shown_name(name), message)
    return None


def querydict_pairs(querydict) -> list[tuple[str, str]]:
    return [(name, value) for name, values in querydict.lists() for value in values]


def replace_bad_characters(value: Any, replacement: str = "\ufffd") -> Any:
    """``value`` with every refused character in its strings (keys too) replaced: the repair of
    ``manage.py find_bad_text --fix`` (for values within the depth limit)."""
    if isinstance(value, str):
        return BAD_CHARACTER.sub(replacement, value)
    if isinstance(value, list):
        return [replace_bad_characters(item, replacement) for item in value]
    if isinstance(value, dict):
        return {
            replace_bad_characters(key, replacement): replace_bad_characters(item, replacement)
            for key, item in value.items()
        }
    return value


def prune_depth(value: Any, limit: Limits, replacement: str = "\ufffd", depth: int = 1) -> Any:
    """``value`` with every list or object nested deeper than the limit replaced by
    ``replacement`` (recursion stops at the limit)."""
    if not isinstance(value, (list, dict)):
        return value
    if depth > limit.depth:
        return replacement
    if isinstance(value, list):
        return [prune_depth(item, limit, replacement, depth + 1) for item in value]
    return {key: prune_depth(item, limit, replacement, depth + 1) for key, item in value.items()}


def decode_stored(text: str, limit: Limits) -> tuple[Any, Problem | None]:
    """A stored JSON column's text as the boundary sees it: (value, first problem). Value is
    None when the text cannot be decoded at all (nested deeper than the parser goes)."""
    problem = depth_problem(text, limit)
    try:
        value = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except RecursionError:
        return None, problem
    return value, problem or value_problem(value, "", limit)
