"""Signed historical years: negative = B.C., no year 0 (timemaster-characters.md, conventions).

Arithmetic runs on astronomical numbering (1 B.C. = 0) and converts back.
"""

from __future__ import annotations

from typing import Any, TypeGuard


def is_year(value: Any) -> TypeGuard[int]:
    """A whole, non-zero year (booleans are not years)."""
    return isinstance(value, int) and not isinstance(value, bool) and value != 0


def to_astronomical(year: int) -> int:
    """1 B.C. (-1) -> 0, 2 B.C. -> -1; A.D. years unchanged."""
    return year + 1 if year < 0 else year


def from_astronomical(value: int) -> int:
    return value - 1 if value <= 0 else value


def add_years(year: int, years: int) -> int:
    """The historical year ``years`` after ``year`` (10 B.C. + 20 = 11 A.D.)."""
    return from_astronomical(to_astronomical(year) + years)


def years_between(start: int, end: int) -> int:
    """How many years ``end`` lies after ``start`` (1776 to 1876 = 100)."""
    return to_astronomical(end) - to_astronomical(start)


def year_label(year: int) -> str:
    return f"{-year} B.C." if year < 0 else f"{year} A.D."


def span_label(start: int, end: int) -> str:
    return year_label(start) if start == end else f"{year_label(start)} to {year_label(end)}"


def century_label(year: int) -> str:
    """The era of a year as its century: 1863 -> "19th century A.D.", -44 -> "1st century B.C."."""
    number = (abs(year) - 1) // 100 + 1
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix} century {'B.C.' if year < 0 else 'A.D.'}"
