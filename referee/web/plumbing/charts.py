"""Line charts drawn on the server as SVG: a game's running totals, a club's ratings over time.

A chart is data (`LineChart`): the pages draw it with `chart_svg` beside a table of the same
numbers (`templates/_chart.html`), the score sheet with ReportLab. The SVG has no inline style
(the CSP forbids it) and no script: its colours are presentation attributes that
`static/css/charts.css` overrides through custom properties, and its text and axes are
`currentColor`, so the chart follows the page's colours, dark ones included. Each line also
has its own dash and marker, so it can be told apart without colour.

(Why not pygal: its SVG carries an inline <style> and <script> that the CSP blocks, and its
colours are fixed in them. ReportLab's SVG renderer writes style= attributes.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape

from flask import Flask
from markupsafe import Markup

from referee.web.plumbing.formats import number, number_format

#: The series' colours, in order: each keeps 3:1 against a white and a near-black page
#: (charts.css names them --chart-1 … --chart-8; a theme may set its own).
COLOURS: Final = (
    "#2f6fd6", "#d4471f", "#14875a", "#9c4fc4", "#b06f00", "#0f8a9e", "#d13b82", "#6f7f12",
)  # fmt: skip
#: Each series' dash (SVG stroke-dasharray; "" is a solid line), so lines differ without colour.
DASHES: Final = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")
MARKERS: Final = ("circle", "square", "triangle", "diamond", "down", "circle", "square", "cross")
#: Above this many points a line carries a marker on its last point only.
MARKED_POINTS: Final = 24

WIDTH: Final = 340
HEIGHT: Final = 200
FONT_SIZE: Final = 11


@dataclass(frozen=True)
class Series:
    """One line: a name and a value per position of the x axis (None: no point there)."""

    name: str
    values: tuple[float | None, ...]


@dataclass(frozen=True)
class LineChart:
    """What a chart shows, in words and numbers."""

    title: str  # the chart said in a few words: its caption and accessible name
    x_title: str  # what the x axis counts ("Round")
    y_title: str  # what the y axis measures ("Total")
    x_labels: tuple[str, ...]
    series: tuple[Series, ...]
    decimals: int = 0  # digits after the decimal point in labels and the table
    zero_based: bool = True  # the y axis starts at 0 (or below it)

    def format(self, value: float | None) -> str:
        """A value as the labels and the table write it, in the page's language."""
        return "–" if value is None else number(value, self.decimals)

    def rows(self) -> list[tuple[str, list[str]]]:
        """The table of the chart: a row per x position, a value per series."""
        write = number_format(self.decimals)
        return [
            (
                label,
                ["–" if v is None else write(v) for v in (s.values[index] for s in self.series)],
            )
            for index, label in enumerate(self.x_labels)
        ]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values from at most `low` to at least `high`, about `count` of them."""
    if high - low < 1e-3:  # one value (or as good as): a unit above it
        high = low + 1
    raw = (high - low) / max(1, count - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = [first]
    while ticks[-1] < high - 1e-9 or len(ticks) < 2:
        ticks.append(first + len(ticks) * step)  # multiplied, not summed: no drift
    return ticks


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _marker(shape: str, x: float, y: float) -> str:
    """A point's marker, 7 units across."""
    if shape == "circle":
        return f'<circle class="chart-dot" cx="{_num(x)}" cy="{_num(y)}" r="3.5"/>'
    paths = {
        "square": f"M{_num(x - 3)} {_num(y - 3)}h6v6h-6z",
        "triangle": f"M{_num(x)} {_num(y - 4)}l4 7h-8z",
        "down": f"M{_num(x)} {_num(y + 4)}l4 -7h-8z",
        "diamond": f"M{_num(x)} {_num(y - 4.2)}l4.2 4.2-4.2 4.2-4.2-4.2z",
        "cross": f"M{_num(x - 3.5)} {_num(y - 1.2)}h7v2.4h-7zM{_num(x - 1.2)} {_num(y - 3.5)}"
        f"h2.4v7h-2.4z",
    }
    return f'<path class="chart-dot" d="{paths[shape]}"/>'


@dataclass(frozen=True)
class _Frame:
    """Where the plot sits in the SVG, and how values map onto it."""

    left: float
    right: float
    top: float
    bottom: float
    low: float
    high: float
    positions: int

    def x(self, index: int) -> float:
        if self.positions == 1:
            return (self.left + self.right) / 2
        return self.left + (self.right - self.left) * index / (self.positions - 1)

    def y(self, value: float) -> float:
        return self.bottom - (self.bottom - self.top) * (value - self.low) / (self.high - self.low)


def _frame(chart: LineChart, ticks: Sequence[float], width: int, height: int) -> _Frame:
    widest = max(len(chart.format(tick)) for tick in ticks)
    left = 8 + widest * FONT_SIZE * 0.62
    return _Frame(
        left=left,
        right=width - 12,
        top=24,
        bottom=height - 38,
        low=ticks[0],
        high=ticks[-1],
        positions=max(1, len(chart.x_labels)),
    )


def _y_axis(chart: LineChart, frame: _Frame, ticks: Sequence[float]) -> list[str]:
    out = ['<g class="chart-grid" stroke="#8a8a8a" stroke-width="1">']
    out += [
        f'<line x1="{_num(frame.left)}" x2="{_num(frame.right)}" '
        f'y1="{_num(frame.y(t))}" y2="{_num(frame.y(t))}"/>'
        for t in ticks
    ]
    out.append("</g>")
    out.append(f'<g class="chart-labels" fill="currentColor" font-size="{FONT_SIZE}">')
    out += [
        f'<text x="{_num(frame.left - 5)}" y="{_num(frame.y(t) + 4)}" text-anchor="end">'
        f"{escape(chart.format(t))}</text>"
        for t in ticks
    ]
    out.append(f'<text x="0" y="12" font-weight="600">{escape(chart.y_title)}</text>')
    out.append("</g>")
    return out


def _x_axis(chart: LineChart, frame: _Frame, width: int, height: int) -> list[str]:
    count = len(chart.x_labels)
    step = max(1, math.ceil(count / 8))
    shown = list(range(0, count, step))
    if shown and shown[-1] != count - 1:
        if len(shown) > 1 and count - 1 - shown[-1] < step / 2:
            shown.pop()  # too close to the last label, which is always there
        shown.append(count - 1)
    out = [f'<g class="chart-labels" fill="currentColor" font-size="{FONT_SIZE}">']
    for i in shown:
        x, label = frame.x(i), chart.x_labels[i]
        half = len(label) * FONT_SIZE * 0.31  # about half the label's width
        anchor = "end" if x + half > width else "start" if x - half < 0 else "middle"
        out.append(
            f'<text x="{_num(x)}" y="{_num(frame.bottom + 15)}" text-anchor="{anchor}">'
            f"{escape(label)}</text>"
        )
    out.append(
        f'<text x="{width - 2}" y="{height - 4}" text-anchor="end" font-weight="600">'
        f"{escape(chart.x_title)}</text>"
    )
    out.append("</g>")
    out.append(
        f'<line class="chart-axis" stroke="currentColor" stroke-width="1.5" '
        f'x1="{_num(frame.left)}" x2="{_num(frame.right)}" '
        f'y1="{_num(frame.bottom)}" y2="{_num(frame.bottom)}"/>'
    )
    return out


def _series(chart: LineChart, frame: _Frame) -> list[str]:
    out: list[str] = []
    for index, series in enumerate(chart.series):
        style = index % len(COLOURS)
        colour, dash, shape = COLOURS[style], DASHES[style], MARKERS[style]
        points = [(i, v) for i, v in enumerate(series.values) if v is not None]
        if not points:
            continue
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="chart-series chart-s{style + 1}" stroke="{colour}" fill="{colour}">')
        coords = " ".join(f"{_num(frame.x(i))},{_num(frame.y(v))}" for i, v in points)
        out.append(
            f'<polyline class="chart-line" fill="none" stroke-width="2.5" '
            f'stroke-linejoin="round" stroke-linecap="round"{dash_attr} points="{coords}"/>'
        )
        marked = points if len(points) <= MARKED_POINTS else points[-1:]
        out += [_marker(shape, frame.x(i), frame.y(v)) for i, v in marked]
        out.append("</g>")
    return out


def chart_svg(chart: LineChart, *, width: int = WIDTH, height: int = HEIGHT) -> Markup:
    """The chart as an inline SVG element (hidden from screen readers: the table says it)."""
    values = [v for s in chart.series for v in s.values if v is not None] or [0.0]
    low, high = min(values), max(values)
    if chart.zero_based:
        low, high = min(low, 0.0), max(high, 0.0)
    ticks = nice_ticks(low, high)
    frame = _frame(chart, ticks, width, height)
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" aria-hidden="true" focusable="false">',
        *_y_axis(chart, frame, ticks),
        *_x_axis(chart, frame, width, height),
        *_series(chart, frame),
        "</svg>",
    ]
    return Markup("".join(parts))


def legend_key(index: int) -> Markup:
    """The small line-and-marker of series `index`, for the legend beside a chart."""
    style = index % len(COLOURS)
    colour, dash, shape = COLOURS[style], DASHES[style], MARKERS[style]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return Markup(
        f'<svg class="chart-key" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 12" '
        f'width="30" height="12" aria-hidden="true" focusable="false">'
        f'<g class="chart-series chart-s{style + 1}" stroke="{colour}" fill="{colour}">'
        f'<line class="chart-line" x1="1" x2="29" y1="6" y2="6" stroke-width="2.5"{dash_attr}/>'
        f"{_marker(shape, 15, 6)}</g></svg>"
    )


def init_app(app: Flask) -> None:
    """What every template may use to draw a chart (templates/_chart.html)."""
    app.jinja_env.globals.update(chart_svg=chart_svg, chart_legend_key=legend_key)
