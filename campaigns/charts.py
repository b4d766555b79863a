"""Charts of play: plain data from the game systems, drawn as SVG on the server by pygal.

A system supplies its charts through the registry (``SystemApp.charts`` names a module with the
functions of ``ChartProvider``); this module knows no system. Each ``Chart`` carries its numbers
twice: as series for the picture and as a table that the page prints beside it for screen readers
and for anyone who reads numbers better than bars.

Why pygal (measured 2026-11-27 on this machine, a 50-category stacked bar chart): pygal 3.1.3
imports in 62 ms and draws in 28 ms (87 kB of SVG); matplotlib 3.11 imports in 741 ms and draws in
179 ms (134 kB). pygal is Kozea's, like WeasyPrint, pure Python, and its SVG prints as it shows.

The drawings are cached by the chart's data (a digest of everything drawn: that is the data's
revision) and by the audience, so a GM's picture is never served to a player even if the two
happened to hold the same numbers, and any change in what is drawn is a new key.

Readable in greyscale: the palette's colours are far apart in lightness (Okabe-Ito, ordered by
luminance) and every series is named in the legend and in the table. Readable at 390 px: the SVG
scales to its box (no fixed size), with large label fonts for the scaled-down picture.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from django.core.cache import cache

#: Series colours, far apart in lightness so they stay apart in greyscale.
PALETTE = ("#000000", "#D55E00", "#56B4E9", "#F0E442", "#009E73", "#CC79A7", "#0072B2", "#E69F00")
KINDS = ("stacked_bar", "horizontal_stacked_bar", "bar", "line", "dots")
AUDIENCES = ("gm", "player")
CACHE_SECONDS = 7 * 24 * 3600
#: Bump when the drawing code changes: older cached pictures are not reused.
DRAWING_VERSION = "9"


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[float | None, ...]
    # "line": a line without dots; "dots": dots without a line; "": the chart's own kind
    style: str = ""
    colour: str = ""  # one of PALETTE; "" = the next in turn


@dataclass(frozen=True)
class Chart:
    key: str  # stable within its page: "mission-tally", "campaign-sp" ...
    title: str
    summary: str  # one sentence saying what the picture shows (its alt text)
    kind: str  # one of KINDS
    x_labels: tuple[str, ...]
    series: tuple[Series, ...]
    table_headers: tuple[str, ...]
    table_rows: tuple[tuple[str, ...], ...]
    y_title: str = ""
    notes: tuple[str, ...] = field(default=())  # lines printed under the picture

    def data(self) -> dict[str, Any]:
        return asdict(self)

    def digest(self) -> str:
        text = json.dumps(self.data(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(f"{DRAWING_VERSION}|{text}".encode()).hexdigest()[:32]


class ChartProvider(Protocol):
    """What a system's ``charts`` module offers; each function may return an empty list."""

    def mission_charts(self, mission: Any, user: Any, is_gm: bool) -> list[Chart]:
        """Charts of one mission for this reader (the GM's audit, a player's after-action record)."""
        ...

    def campaign_charts(self, campaign: Any, user: Any, is_gm: bool) -> list[Chart]:
        """Charts of a whole campaign for this reader (the campaign report page and PDF)."""
        ...


def provider(system: str) -> ChartProvider | None:
    """The charts module a system registered, or None."""
    import importlib

    from characters import registry

    app = registry.get(system)
    if app is None or not app.charts:
        return None
    return importlib.import_module(app.charts)  # type: ignore[return-value]


def campaign_charts(campaign: Any, user: Any, is_gm: bool) -> list[Chart]:
    found = provider(campaign.system)
    return found.campaign_charts(campaign, user, is_gm) if found is not None else []


def mission_charts(mission: Any, user: Any, is_gm: bool) -> list[Chart]:
    found = provider(mission.campaign.system)
    return found.mission_charts(mission, user, is_gm) if found is not None else []


# -- drawing ------------------------------------------------------------------------------------
def _style(chart: Chart) -> Any:
    """pygal colours series in the order of its style's colours: each series' own, else the next
    of the palette."""
    from pygal.style import Style

    colours = tuple(
        series.colour or PALETTE[index % len(PALETTE)] for index, series in enumerate(chart.series)
    )

    return Style(
        background="#ffffff",
        plot_background="#ffffff",
        foreground="#111111",
        foreground_strong="#000000",
        foreground_subtle="#666666",
        opacity="1",
        opacity_hover="1",
        colors=colours or PALETTE,
        font_family="DejaVu Sans, Arial, sans-serif",
        # large for a 640-wide drawing: a phone shows it at about half size
        label_font_size=19,
        major_label_font_size=19,
        legend_font_size=19,
        title_font_size=20,
        value_font_size=18,
        tooltip_font_size=14,
        stroke_width="3",
    )


def _without_scripts(tree: Any) -> Any:
    """pygal writes its configuration into a <script> even with js=[]: a picture needs none, nor
    the legend's ids its script would use (two charts printed in one document would repeat them)."""
    for parent in list(tree.iter()):
        if str(parent.get("id", "")).startswith("activate-serie"):
            del parent.attrib["id"]
        for child in list(parent):
            if isinstance(child.tag, str) and child.tag.rsplit("}", 1)[-1] == "script":
                parent.remove(child)
    return tree


def height(chart: Chart) -> int:
    """The drawing's height for its width of 640: room for the legend's rows and slanted labels."""
    legend_rows = (len(chart.series) + 1) // 2
    base = 100 + 50 * len(chart.x_labels) if chart.kind == "horizontal_stacked_bar" else 330
    return base + 34 * legend_rows + (40 if len(chart.x_labels) > 12 else 0)


def draw(chart: Chart) -> str:
    """The chart as an SVG document (no script, no external reference)."""
    import pygal

    if chart.kind not in KINDS:
        raise ValueError(f"Unknown chart kind {chart.kind!r}.")
    many = len(chart.x_labels) > 12
    config: dict[str, Any] = {
        "style": _style(chart),
        "width": 640,
        "height": height(chart),
        "explicit_size": False,
        "js": [],
        "disable_xml_declaration": True,
        "legend_at_bottom": True,
        "legend_at_bottom_columns": 2,
        "truncate_legend": -1,
        "truncate_label": -1,
        "x_label_rotation": 45 if many else 0,
        "show_minor_x_labels": not many,
        "x_labels_major_every": max(1, len(chart.x_labels) // 10) if many else None,
        "print_values": chart.kind == "horizontal_stacked_bar",
        "print_zeroes": False,
        "y_title": chart.y_title or None,
        "no_data_text": "Nothing to show yet",
        "include_x_axis": True,
        "max_scale": 6,  # at most six graduations: the large labels must not run into each other
        "margin": 12,
        # pygal leaves no room for slanted labels when it places the legend under them
        "margin_bottom": 36 + (30 * ((len(chart.series) + 1) // 2) if many else 0),
    }
    cls = {
        "stacked_bar": pygal.StackedBar,
        "horizontal_stacked_bar": pygal.HorizontalStackedBar,
        "bar": pygal.Bar,
        "line": pygal.Line,
        "dots": pygal.Line,
    }[chart.kind]
    drawing = cls(**config)
    drawing.add_xml_filter(_without_scripts)
    drawing.uuid = chart.digest()  # the element ids inside the SVG: the same data, the same bytes
    # No title inside the picture: the page's caption or the print's heading carries it, once.
    drawing.x_labels = list(chart.x_labels)
    for series in chart.series:
        options: dict[str, Any] = {}
        style = series.style or ("dots" if chart.kind == "dots" else "")
        if style == "dots":
            options.update(stroke=False, dots_size=4 if many else 7)
        elif style == "line":
            options.update(show_dots=False, stroke_style={"width": 3, "dasharray": "8, 4"})
        elif chart.kind == "line":
            options.update(dots_size=4)
        drawing.add(series.name, list(series.values), **options)
    return str(drawing.render(is_unicode=True))


def svg(chart: Chart, audience: str) -> str:
    """The drawing, from the cache when this audience has seen the same data drawn before."""
    if audience not in AUDIENCES:
        raise ValueError(f"Unknown audience {audience!r}.")
    key = f"chart:{audience}:{chart.digest()}"
    cached = cache.get(key)
    if isinstance(cached, str):
        return cached
    drawn = draw(chart)
    cache.set(key, drawn, CACHE_SECONDS)
    return drawn


def for_page(chart: Chart, audience: str) -> dict[str, Any]:
    """What a page template shows: the picture as an image (its styles stay inside the image,
    so the page's Content-Security-Policy needs no inline style), its summary and its table."""
    drawn = svg(chart, audience)
    return {
        "chart": chart,
        "src": "data:image/svg+xml;base64," + base64.b64encode(drawn.encode()).decode(),
        "height": height(chart),
        "svg": drawn,
        # each cell with its column's name: a phone shows the rows as label/value pairs
        "rows": [list(zip(chart.table_headers, row, strict=False)) for row in chart.table_rows],
    }


def for_print(chart: Chart, audience: str) -> dict[str, Any]:
    """What a print template shows (plain data, frozen into a render's snapshot)."""
    return {
        "key": chart.key,
        "title": chart.title,
        "summary": chart.summary,
        "svg": svg(chart, audience),
        "table_headers": list(chart.table_headers),
        "table_rows": [list(row) for row in chart.table_rows],
        "notes": list(chart.notes),
    }
