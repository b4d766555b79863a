"""Images the print stylesheet draws for empty writing rows, tick tracks and tallies, each made
for exactly what it covers (WeasyPrint draws every background image into a PDF group of its own,
so one image for many marks is cheaper than one mark each).

A block of N empty rows is ONE table row of N x ``ROW_MM`` (``sheet_layout.blank_rows``): its cells
carry the column rules, its background is ``rows_svg(N)`` (the line under each row) and a tick
column's cell shows ``ticks_svg(shape, N)`` (a tick box on each row). Each image is drawn for its N
rather than tiled from one row's image: WeasyPrint sizes a repeated tile in its own rounding, and
two tiled images drifted apart by about 0.1 mm a row (the ticks walked off their rows). Served by
``rendering.SheetAssetFetcher`` under ``generated/``; no other module writes SVG.
"""

from __future__ import annotations

import re

#: Height of a writing row: a pencil needs at least 6 mm (SHEETS-DESIGN.md, principle 5).
ROW_MM = 6
#: The most empty rows one block draws (the Fate Record Sheet's turn record has 21).
MAX_BLANK_ROWS = 24
#: Tick box side, as ``.tick`` in sheet.css; the rule under a row, as the tables' 0.4 pt hairline.
TICK_MM = 4.4
RULE_MM = 0.141
STROKE_MM = 0.282  # 0.8 pt, the tick boxes' border
DOT_MM = 1.15  # the dot of a ticked circle, as marks/circle-on.svg
SHAPES = ("box", "circle")
#: The longest tally one image draws (Flashpoints' fate points: ten), and the gap between its boxes.
MAX_TALLY = 10
TALLY_GAP_MM = 0.7
#: The longest track one image draws (a Time to Kill ability's + 0 - ; four leaves room).
MAX_TRACK = 4
GENERATED = re.compile(
    r"generated/(?:rows-(?P<rows>\d{1,2})|ticks-(?P<shape>box|circle)-(?P<ticks>\d{1,2})"
    rf"|track-circle-(?P<track>[ox]{{1,{MAX_TRACK}}})|tally-(?P<tally>\d{{1,2}})-(?P<tallied>\d{{1,2}}))\.svg"
)


def rows_svg(count: int) -> str:
    """The line under each of ``count`` rows; stretched to the row's width (only its height counts)."""
    height = count * ROW_MM
    rules = "".join(
        f'<rect x="0" y="{n * ROW_MM - RULE_MM:.3f}" width="100" height="{RULE_MM}" fill="#999"/>'
        for n in range(1, count)  # the last row's line is the table cell's own bottom border
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="{height}mm" '
        f'viewBox="0 0 100 {height}" preserveAspectRatio="none">{rules}</svg>'
    )


def ticks_svg(shape: str, count: int) -> str:
    """An empty tick box (``box``) or circle (``circle``) centred in each of ``count`` rows."""
    if shape not in SHAPES:
        raise ValueError(f"unknown tick shape {shape!r}")
    half, inset = TICK_MM / 2, STROKE_MM / 2
    top = (ROW_MM - TICK_MM) / 2
    marks = []
    for n in range(count):
        y = n * ROW_MM + top
        if shape == "box":
            side = TICK_MM - STROKE_MM
            marks.append(
                f'<rect x="{inset:.3f}" y="{y + inset:.3f}" width="{side:.3f}" height="{side:.3f}"/>'
            )
        else:
            marks.append(f'<circle cx="{half:.3f}" cy="{y + half:.3f}" r="{half - inset:.3f}"/>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{TICK_MM}mm" height="{count * ROW_MM}mm" '
        f'viewBox="0 0 {TICK_MM} {count * ROW_MM}"><g fill="none" stroke="#111" stroke-width="{STROKE_MM}">'
        f"{''.join(marks)}</g></svg>"
    )


def track_svg(pattern: str) -> str:
    """A row's track of tick circles in ONE image: ``pattern`` has a letter a circle, ``o`` empty
    and ``x`` ticked (dotted, as ``.tick.on``), each centred in an equal share of the width (the
    equal table columns the cell spans). The image has no intrinsic width: the stylesheet
    stretches it to the cell and, with no viewBox, only the centres move with the width; the
    circles keep their size. (Circles only: a box has no centre an SVG attribute can place by a
    percentage, and no sheet has a track of boxes in a table.)

    One image a row, not one a column: WeasyPrint draws every background image into a PDF group
    of its own, and the Time to Kill sheet's 32 tick cells were a tenth of its render."""
    if not pattern or set(pattern) - {"o", "x"} or len(pattern) > MAX_TRACK:
        raise ValueError(f"a track is 1 to {MAX_TRACK} of o and x, not {pattern!r}")
    half, count = TICK_MM / 2, len(pattern)
    circles = []
    for n, letter in enumerate(pattern):
        cx = f"{(2 * n + 1) * 50 / count:.3f}%"
        circles.append(
            f'<circle cx="{cx}" cy="{half}mm" r="{half - STROKE_MM / 2:.3f}mm" fill="none" '
            f'stroke="#111" stroke-width="{STROKE_MM}mm"/>'
        )
        if letter == "x":
            circles.append(f'<circle cx="{cx}" cy="{half}mm" r="{DOT_MM}mm" fill="#111"/>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="{TICK_MM}mm">{"".join(circles)}</svg>'
    )


def tally_width_mm(count: int) -> float:
    return round(count * TICK_MM + (count - 1) * TALLY_GAP_MM, 3)


def tally_svg(count: int, ticked: int) -> str:
    """A row of ``count`` tick boxes ``TALLY_GAP_MM`` apart, the first ``ticked`` of them crossed (as
    ``.tick.on``): a tally such as fate points in ONE image instead of a box each (ten inline boxes
    cost about 3 ms of the Flashpoints sheet's render more than one image, interleaved A/B)."""
    if not 1 <= count <= MAX_TALLY or not 0 <= ticked <= count:
        raise ValueError(
            f"a tally is 1 to {MAX_TALLY} boxes with 0 to all of them ticked, not {ticked} of {count}"
        )
    inset, side = STROKE_MM / 2, TICK_MM - STROKE_MM
    low, high = 0.9, TICK_MM - 0.9  # the cross of marks/box-on.svg
    marks = []
    for n in range(count):
        x = n * (TICK_MM + TALLY_GAP_MM)
        marks.append(f'<rect x="{x + inset:.3f}" y="{inset:.3f}" width="{side:.3f}" height="{side:.3f}"/>')
        if n < ticked:
            left, right = f"{x + low:.3f}", f"{x + high:.3f}"
            marks.append(
                f'<path d="M{left} {low} {right} {high}M{right} {low} {left} {high}" stroke-width="0.45"/>'
            )
    width = tally_width_mm(count)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{TICK_MM}mm" '
        f'viewBox="0 0 {width} {TICK_MM}"><g fill="none" stroke="#111" stroke-width="{STROKE_MM}">'
        f"{''.join(marks)}</g></svg>"
    )


def track_patterns() -> list[str]:
    """Every pattern ``track_svg`` draws: each length from 1 to ``MAX_TRACK``, each mark o or x."""
    patterns = [""]
    out = []
    for _ in range(MAX_TRACK):
        patterns = [p + letter for p in patterns for letter in "ox"]
        out.extend(patterns)
    return out


def generated_svg(relative_path: str) -> str | None:
    """The SVG a stylesheet URL under ``generated/`` names, or None when it names none of them."""
    match = GENERATED.fullmatch(relative_path)
    if match is None:
        return None
    if match["track"]:
        return track_svg(match["track"])
    if match["tally"]:
        try:
            return tally_svg(int(match["tally"]), int(match["tallied"]))
        except ValueError:  # a count or ticked number out of range names no image
            return None
    count = int(match["rows"] or match["ticks"])
    if not 1 <= count <= MAX_BLANK_ROWS:
        return None
    return rows_svg(count) if match["rows"] else ticks_svg(match["shape"], count)


def generated_css() -> str:
    """The print rules that use the images above: for each size of block (a table's ``tr.write-rows``
    or a ``div.write-block`` of lines to write notes on) its height and images; for each track
    pattern (``td.track-cell.track-oxo``) and each tally (``span.tally.n10.t3``: ten boxes, three
    ticked) its image."""
    rules = []
    for n in range(1, MAX_BLANK_ROWS + 1):
        height = f"{n * ROW_MM}mm"
        rules.append(
            f"tr.r{n} {{ background: url(generated/rows-{n}.svg) left top / 100% {height} no-repeat; }}\n"
            f"tr.r{n} > td {{ height: {height}; }}\n"
            f"tr.r{n} > td.tick-column {{ background: url(generated/ticks-box-{n}.svg) center top / "
            f"{TICK_MM}mm {height} no-repeat; }}\n"
            f"tr.r{n} > td.tick-column.circle {{ background-image: url(generated/ticks-circle-{n}.svg); }}\n"
            f"div.write-block.r{n} {{ height: {height}; background: url(generated/rows-{n}.svg) left top / "
            f"100% {height} no-repeat; }}\n"
        )
    for pattern in track_patterns():
        rules.append(
            f"td.track-cell.track-{pattern} "
            f"{{ background-image: url(generated/track-circle-{pattern}.svg); }}\n"
        )
    for count in range(1, MAX_TALLY + 1):
        rules.append(f".tally.n{count} {{ width: {tally_width_mm(count)}mm; }}\n")
        rules.extend(
            f".tally.n{count}.t{ticked} {{ background-image: url(generated/tally-{count}-{ticked}.svg); }}\n"
            for ticked in range(count + 1)
        )
    return "".join(rules)
