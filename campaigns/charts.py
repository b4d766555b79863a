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

Readable in greyscale and by colour-blind readers: the palette is Okabe-Ito's, ordered so that its
first four colours are at least 20 apart in CIE L* once printed grey (0, 37, 65 and 85); series
beyond the fourth repeat a lightness but never its dash pattern and marker shape, and every line
series has a dash and a marker of its own (``LINE_LOOKS``). Every series is named in the legend and
in the table. Readable at 390 px: the SVG scales to its box (no fixed size), with large label fonts
for the scaled-down picture; printed, it uses the sheet's serif at the sheet's size (``MEDIA``).

An empty chart (nothing drawn) is never drawn: its page and print show the chart's ``empty``
sentence (what will appear, and when), without axes or table.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from django.core.cache import cache

#: Okabe-Ito's colours. The first four are at least 20 apart in CIE L* in greyscale (black 0,
#: blue 37, sky blue 65, yellow 85); the others repeat a lightness band and are told apart by hue,
#: dash and marker.
PALETTE = ("#000000", "#0072B2", "#56B4E9", "#F0E442", "#D55E00", "#009E73", "#CC79A7", "#E69F00")
#: A line series' dash pattern and its markers' shape, in turn: no two series of a chart share both.
LINE_LOOKS = (
    ("", "circle"),
    ("10, 5", "square"),
    ("3, 4", "triangle"),
    ("14, 4, 3, 4", "diamond"),
    ("6, 3, 6, 8", "cross"),
    ("2, 2", "circle"),
    ("16, 6", "square"),
    ("8, 3, 2, 3", "triangle"),
)
#: How the picture is lettered on a screen and on paper (the sheet's own serif, printed 640 units
#: across about 180 mm: 10.5 units ≈ 8.4 pt, the size of the sheet's tables). On a screen one
#: drawing serves every width: 480 units wide with 18-unit letters, shown at most 520 px wide on a
#: laptop (19.5 px letters) and about 330 px on a 390 px phone (12.4 px; the 640-wide drawing's
#: 19-unit letters came out at 10 px there).
MEDIA = {
    "screen": {
        "font": "DejaVu Sans, Arial, sans-serif",
        "label": 18,
        "title": 19,
        "value": 17,
        "stroke": 3,
        "width": 480,
    },
    "print": {
        "font": "Sheet Libertine, Linux Libertine O, serif",
        "label": 10.5,
        "title": 11,
        "value": 10,
        "stroke": 2,
    },
}
KINDS = ("stacked_bar", "horizontal_stacked_bar", "bar", "line", "dots")
AUDIENCES = ("gm", "player")
CACHE_SECONDS = 7 * 24 * 3600
#: Bump when the drawing code changes: older cached pictures are not reused.
DRAWING_VERSION = "11"


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
    # what will appear here, and when: shown instead of a picture with nothing in it
    empty: str = "Nothing has been played that this chart draws yet."
    # the y axis' ticks as (value, label), on values that exist; () = whole numbers from 0
    y_labels: tuple[tuple[float, str], ...] = ()

    @property
    def is_empty(self) -> bool:
        """Nothing to draw: no value in any series (a bar of 0 draws nothing either)."""
        lines = self.kind in ("line", "dots")
        return not any(
            value is not None and (lines or value != 0) for series in self.series for value in series.values
        )

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


def report_intro(system: str, is_gm: bool) -> str:
    """The report page's first sentence in the system's own words (its charts module's
    ``REPORT_INTRO``), or one that names no kind of play."""
    found = provider(system)
    words = getattr(found, "REPORT_INTRO", None) or {}
    default = (
        "Your copy holds everything recorded in play."
        if is_gm
        else "What players may see, and your own characters."
    )
    return str(words.get("gm" if is_gm else "player") or default)


def campaign_charts(campaign: Any, user: Any, is_gm: bool) -> list[Chart]:
    found = provider(campaign.system)
    return found.campaign_charts(campaign, user, is_gm) if found is not None else []


def mission_charts(mission: Any, user: Any, is_gm: bool) -> list[Chart]:
    found = provider(mission.campaign.system)
    return found.mission_charts(mission, user, is_gm) if found is not None else []


def points_chart(
    campaign: Any,
    user: Any,
    is_gm: bool,
    *,
    what: str,
    gained: dict[str, str],
    spent: dict[str, str],
    held: str = "",
    key: str = "",
    title: str = "",
    empty: str = "",
) -> Chart:
    """A pool of points each character tracks (fate points, say), per character the reader may
    see (the GM: every character of the campaign but drafts; a player: their own): gained, spent
    (from the ledger entries that stand: reversals and the entries they reverse left out) and held
    now (the build's ``held`` key). ``gained`` and ``spent`` map an entry kind to the payload key
    holding its count (a missing count is 1). The system names the kinds; this knows none.

    ``what`` names the points in the reader's words ("fate points"); the build's key, the chart's
    key, its title and its empty sentence follow from it unless given."""
    from characters.models import AdvancementEntry, Character

    slug = "_".join(what.split())
    held = held or slug
    key = key or f"campaign-{slug.replace('_', '-')}"
    title = title or f"{what[:1].upper()}{what[1:]} per character"
    empty = empty or f"Each character's {what} appear here once one of them holds or gains any."

    found = Character.objects.filter(campaign=campaign).exclude(status=Character.Status.DRAFT)
    if not is_gm:
        found = found.filter(owner=user)
    characters = list(found.only("id", "name", "build").order_by("name", "id"))
    ledger = list(
        AdvancementEntry.objects.filter(character__in=characters, kind__in=(*gained, *spent, "reversal"))
        .only("id", "character_id", "kind", "payload", "reverses_id")
        .order_by("id")
    )
    undone = {e.reverses_id for e in ledger if e.kind == "reversal"}
    totals: dict[int, dict[str, int]] = {c.pk: {"gained": 0, "spent": 0} for c in characters}
    for entry in ledger:
        if entry.kind == "reversal" or entry.pk in undone or entry.character_id not in totals:
            continue
        for side, kinds in (("gained", gained), ("spent", spent)):
            if entry.kind in kinds:
                count = (entry.payload or {}).get(kinds[entry.kind], 1)
                totals[entry.character_id][side] += int(count) if isinstance(count, int) else 0
    now = {c.pk: int((c.build or {}).get(held) or 0) for c in characters}
    columns = (("Gained", "gained"), ("Spent", "spent"))
    series = [
        Series(label, tuple(totals[c.pk][side] for c in characters), colour=PALETTE[index])
        for index, (label, side) in enumerate(columns)
    ]
    series.append(Series("Held now", tuple(now[c.pk] for c in characters), colour=PALETTE[2]))
    return Chart(
        key=key,
        title=title,
        summary=f"For each character, the {what} gained and spent over the campaign, and held now.",
        kind="bar",
        x_labels=tuple(c.name for c in characters),
        series=tuple(series),
        table_headers=("Character", "Gained", "Spent", "Held now"),
        table_rows=tuple(
            (c.name, str(totals[c.pk]["gained"]), str(totals[c.pk]["spent"]), str(now[c.pk]))
            for c in characters
        ),
        y_title=what[:1].upper() + what[1:],
        empty=empty,
    )


# -- drawing ------------------------------------------------------------------------------------
def _style(chart: Chart, medium: str = "screen", font: str = "") -> Any:
    """pygal colours series in the order of its style's colours: each series' own, else the next
    of the palette."""
    from pygal.style import Style

    media = MEDIA[medium]

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
        font_family=font or media["font"],
        label_font_size=media["label"],
        major_label_font_size=media["label"],
        legend_font_size=media["label"],
        title_font_size=media["title"],
        value_font_size=media["value"],
        tooltip_font_size=14,
        stroke_width=str(media["stroke"]),
    )


def whole_ticks(chart: Chart) -> list[float]:
    """Ticks on whole numbers from 0 (or the lowest value) to the highest, at most six, at a step
    of 1, 2 or 5 times a power of ten: no 0.8 on an axis of counts."""
    values = [v for series in chart.series for v in series.values if v is not None]
    if chart.kind in ("stacked_bar", "horizontal_stacked_bar"):  # a stack reaches its sum
        values += [
            sum(v for series in chart.series if index < len(series.values) and (v := series.values[index]))
            for index in range(max((len(series.values) for series in chart.series), default=0))
        ]
    low = min(0, math.floor(min(values, default=0)))
    high = max(1, math.ceil(max(values, default=1)))
    step = next(m * 10**p for p in range(0, 12) for m in (1, 2, 5) if (high - low) / (m * 10**p) <= 5)
    start = (low // step) * step
    return list(range(start, high + step, step))[:7]


_SHAPES = {
    "square": lambda x, y, r: f"{x - r},{y - r} {x + r},{y - r} {x + r},{y + r} {x - r},{y + r}",
    "triangle": lambda x, y, r: f"{x},{y - 1.2 * r} {x + 1.1 * r},{y + 0.8 * r} {x - 1.1 * r},{y + 0.8 * r}",
    "diamond": lambda x, y, r: f"{x},{y - 1.3 * r} {x + 1.3 * r},{y} {x},{y + 1.3 * r} {x - 1.3 * r},{y}",
    "cross": lambda x, y, r: (
        f"{x - r},{y - r / 3} {x - r / 3},{y - r / 3} {x - r / 3},{y - r} {x + r / 3},{y - r} "
        f"{x + r / 3},{y - r / 3} {x + r},{y - r / 3} {x + r},{y + r / 3} {x + r / 3},{y + r / 3} "
        f"{x + r / 3},{y + r} {x - r / 3},{y + r} {x - r / 3},{y + r / 3} {x - r},{y + r / 3}"
    ),
}


def _markers(shapes: dict[int, str]) -> Any:
    """pygal draws every dot as a circle: a series whose look asks for another shape gets it, so
    marks differ by shape as well as by colour."""

    def apply(tree: Any) -> Any:
        for group in list(tree.iter()):
            classes = str(group.get("class", "")).split()
            index = next((int(c[6:]) for c in classes if c.startswith("serie-") and c[6:].isdigit()), None)
            shape = shapes.get(index) if index is not None else None
            if shape is None or shape == "circle":
                continue
            for dot in list(group.iter()):
                if not (isinstance(dot.tag, str) and dot.tag.rsplit("}", 1)[-1] == "circle"):
                    continue
                x, y, r = (float(dot.get(name, 0)) for name in ("cx", "cy", "r"))
                dot.tag = dot.tag.replace("circle", "polygon")
                for name in ("cx", "cy", "r"):
                    dot.attrib.pop(name, None)
                dot.set("points", _SHAPES[shape](round(x, 2), round(y, 2), r))
        return tree

    return apply


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


def legend_columns(chart: Chart) -> int:
    """Two columns of legend, or one when a series' name would run into its neighbour's (at 18 of
    480 units, past 16 letters)."""
    return 1 if max((len(s.name) for s in chart.series), default=0) > 16 else 2


def height(chart: Chart) -> int:
    """The drawing's height (for a width of 480 on a screen, 640 in print): room for the legend's
    rows and slanted labels."""
    columns = legend_columns(chart)
    legend_rows = (len(chart.series) + columns - 1) // columns
    base = 100 + 50 * len(chart.x_labels) if chart.kind == "horizontal_stacked_bar" else 330
    return base + 34 * legend_rows + (40 if len(chart.x_labels) > 12 else 0)


def draw(chart: Chart, medium: str = "screen", font: str = "") -> str:
    """The chart as an SVG document (no script, no external reference), lettered for its medium.
    Its <title> is the chart's summary: a PDF's figure takes its alternative text from it."""
    import pygal

    if chart.kind not in KINDS:
        raise ValueError(f"Unknown chart kind {chart.kind!r}.")
    if medium not in MEDIA:
        raise ValueError(f"Unknown medium {medium!r}.")
    if chart.is_empty:
        raise ValueError("An empty chart is not drawn: show its empty sentence.")
    many = len(chart.x_labels) > 12
    y_labels: list[Any] = (
        [{"value": value, "label": label} for value, label in chart.y_labels]
        if chart.y_labels
        else whole_ticks(chart)
    )
    config: dict[str, Any] = {
        "style": _style(chart, medium, font),
        "width": MEDIA[medium].get("width", 640),
        "height": height(chart),
        "explicit_size": False,
        "js": [],
        "disable_xml_declaration": True,
        "legend_at_bottom": True,
        "legend_at_bottom_columns": legend_columns(chart),
        "truncate_legend": -1,
        "truncate_label": -1,
        "x_label_rotation": 45 if many else 0,
        "show_minor_x_labels": not many,
        "x_labels_major_every": max(1, len(chart.x_labels) // 10) if many else None,
        "print_values": chart.kind == "horizontal_stacked_bar",
        "print_zeroes": False,
        "y_title": chart.y_title or None,
        "no_data_text": "",
        "include_x_axis": True,
        # ticks on values that exist: the chart's own, or whole numbers (counts and points)
        "y_labels": y_labels,
        "show_minor_y_labels": True,
        "margin": 12,
        # pygal leaves no room for slanted labels when it places the legend under them
        "margin_bottom": 36 + (30 * -(-len(chart.series) // legend_columns(chart)) if many else 0),
    }
    cls = {
        "stacked_bar": pygal.StackedBar,
        "horizontal_stacked_bar": pygal.HorizontalStackedBar,
        "bar": pygal.Bar,
        "line": pygal.Line,
        "dots": pygal.Line,
    }[chart.kind]
    drawing = _quiet(cls)(**config)
    drawing.add_xml_filter(_without_scripts)
    drawing.add_xml_filter(_titled(chart.summary))
    drawing.uuid = chart.digest()  # the element ids inside the SVG: the same data, the same bytes
    # No title inside the picture: the page's caption or the print's heading carries it, once.
    drawing.x_labels = list(chart.x_labels)
    shapes: dict[int, str] = {}
    width = MEDIA[medium]["stroke"]
    for index, series in enumerate(chart.series):
        options: dict[str, Any] = {}
        style = series.style or ("dots" if chart.kind == "dots" else "")
        dash, shape = LINE_LOOKS[index % len(LINE_LOOKS)]
        if style == "dots":
            options.update(stroke=False, dots_size=4 if many else 7)
            shapes[index] = shape
        elif style == "line":
            # a line of one point draws nothing: it shows as its dot until a second one comes
            single = sum(value is not None for value in series.values) < 2
            options.update(
                show_dots=single, dots_size=5, stroke_style={"width": width, "dasharray": dash or "8, 4"}
            )
        elif chart.kind == "line":
            options.update(dots_size=5, stroke_style={"width": width, "dasharray": dash})
            shapes[index] = shape
        drawing.add(series.name, list(series.values), **options)
    drawing.add_xml_filter(_markers(shapes))
    return str(drawing.render(is_unicode=True))


_QUIET: dict[Any, Any] = {}


def _quiet(cls: Any) -> Any:
    """The pygal class without its tooltips: each point's <desc> values serve pygal's script,
    which a picture shown as an image never runs; leaving them out is a third of the standing
    chart's drawing time and of its bytes."""
    if cls not in _QUIET:
        _QUIET[cls] = type(cls.__name__, (cls,), {"_tooltip_data": lambda self, *args, **kwargs: None})
    return _QUIET[cls]


def _titled(summary: str) -> Any:
    """The SVG's <title> says what the picture shows (pygal writes "Pygal" there)."""

    def apply(tree: Any) -> Any:
        for element in tree.iter():
            if isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "title":
                element.text = summary
                break
        return tree

    return apply


def cache_key(chart: Chart, audience: str, medium: str = "screen", font: str = "") -> str:
    if audience not in AUDIENCES:
        raise ValueError(f"Unknown audience {audience!r}.")
    lettering = hashlib.sha256(font.encode()).hexdigest()[:8]  # a key without spaces
    return f"chart:{audience}:{chart.digest()}" + ("" if medium == "screen" else f":{medium}:{lettering}")


def is_cached(chart: Chart, audience: str) -> bool:
    """The page's drawing of this data is in the cache."""
    return cache.get(cache_key(chart, audience)) is not None


def svg(chart: Chart, audience: str, medium: str = "screen", font: str = "") -> str:
    """The drawing, from the cache when this audience has seen the same data drawn before."""
    key = cache_key(chart, audience, medium, font)
    cached = cache.get(key)
    if isinstance(cached, str):
        return cached
    drawn = draw(chart, medium, font)
    cache.set(key, drawn, CACHE_SECONDS)
    return drawn


def for_page(chart: Chart, audience: str) -> dict[str, Any]:
    """What a page template shows: the picture as an image (its styles stay inside the image,
    so the page's Content-Security-Policy needs no inline style), its summary and its table; an
    empty chart, only its sentence."""
    if chart.is_empty:
        return {"chart": chart, "empty": True, "rows": []}
    drawn = svg(chart, audience)
    return {
        "chart": chart,
        "src": "data:image/svg+xml;base64," + base64.b64encode(drawn.encode()).decode(),
        "width": MEDIA["screen"]["width"],
        "height": height(chart),
        "svg": drawn,
        # each cell with its column's name: a phone shows the rows as label/value pairs
        "rows": [list(zip(chart.table_headers, row, strict=False)) for row in chart.table_rows],
    }


def print_font(system: str) -> str:
    """The font family a system's printed sheets are set in (its charts module's ``PRINT_FONT``,
    a CSS font-family list of the sheet's vendored fonts), or the shared sheet's serif."""
    found = provider(system)
    return str(getattr(found, "PRINT_FONT", "") or MEDIA["print"]["font"])


def for_print(chart: Chart, audience: str, font: str = "") -> dict[str, Any]:
    """What a print template shows (plain data, frozen into a render's snapshot); an empty chart,
    only its sentence."""
    empty = chart.is_empty
    return {
        "key": chart.key,
        "title": chart.title,
        "summary": chart.summary,
        "empty": chart.empty if empty else "",
        "svg": "" if empty else svg(chart, audience, "print", font),
        "table_headers": list(chart.table_headers),
        "table_rows": [] if empty else [list(row) for row in chart.table_rows],
        "notes": [] if empty else list(chart.notes),
    }
