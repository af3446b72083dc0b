"""What a filled score sheet has beside its grid: the running totals as a line chart (ReportLab's
own charts, from the same `LineChart` the game page draws) and a QR code of the game's view
link (segno's matrix, drawn as squares)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import segno
from reportlab.graphics import renderPDF
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.graphics.widgets import markers
from reportlab.lib.colors import Color, HexColor
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from referee.web.plumbing.charts import COLOURS, LineChart, nice_ticks

#: ReportLab's names for the page chart's markers.
_MARKERS = {
    "circle": "FilledCircle",
    "square": "FilledSquare",
    "triangle": "FilledTriangle",
    "diamond": "FilledDiamond",
    "down": "FilledTriangle",
    "cross": "Cross",
}
_SHAPES = ("circle", "square", "triangle", "diamond", "down", "circle", "square", "cross")
_DASHES: tuple[tuple[float, ...] | None, ...] = (
    None, (4, 2), (1.5, 2), (5, 2, 1.5, 2), None, (4, 2), (1.5, 2), (5, 2, 1.5, 2),
)  # fmt: skip
INK = Color(0.07, 0.07, 0.07)
#: ReportLab's marker maker (its stubs leave it untyped).
_marker: Callable[..., Any] = markers.makeMarker
GRID = Color(0.75, 0.75, 0.75)
#: Room the legend takes right of the plot.
LEGEND_WIDTH = 96.0


def draw_qr(canvas: Canvas, link: str, x: float, y: float, size: float) -> None:
    """The link as a QR code, `size` points square, its lower left corner at (x, y)."""
    code = segno.make(link, error="m")
    rows = [list(row) for row in code.matrix]
    border = 2
    modules = len(rows) + 2 * border
    step = size / modules
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(x, y, size, size, 0, 1)
    canvas.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(rows):
        top = y + size - (r + border + 1) * step
        c = 0
        while c < len(row):  # a run of dark modules is one rectangle
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            canvas.rect(x + (start + border) * step, top, (c - start) * step, step, 0, 1)


def draw_link(
    canvas: Canvas,
    link: str,
    caption: str,
    left: float,
    bottom: float,
    room_top: float,
    size: float,
    font: str = "RefereeSans",
) -> None:
    """`link` as a QR code `size` points square at (left, bottom), its caption above it,
    where there is room for both below `room_top` (else nothing)."""
    lines = simpleSplit(caption, font, 7, size)[:3]
    if room_top - bottom < size + 9 * len(lines) + 8:
        return
    draw_qr(canvas, link, left, bottom, size)
    canvas.setFont(font, 7)
    canvas.setFillColorRGB(0.3, 0.3, 0.3)
    y = bottom + size + 3 + 9 * (len(lines) - 1)
    for line in lines:
        canvas.drawString(left, y, line)
        y -= 9
    canvas.setFillColorRGB(*INK.rgb())


def _x_label(chart: LineChart, value: float) -> str:
    index = round(value) - 1
    return chart.x_labels[index] if 0 <= index < len(chart.x_labels) else ""


def chart_drawing(chart: LineChart, width: float, height: float, font: str) -> Drawing:
    """The chart as a ReportLab drawing: plot, axes with the chart's words, legend right."""
    drawing = Drawing(width, height)
    values = [v for s in chart.series for v in s.values if v is not None] or [0.0]
    ticks = nice_ticks(min(0.0, min(values)), max(0.0, max(values)))
    plot = LinePlot()
    plot.x, plot.y = 30, 22
    plot.width = int(width - plot.x - LEGEND_WIDTH - 8)
    plot.height = int(height - plot.y - 16)
    plot.data = [
        [(i + 1, v) for i, v in enumerate(series.values) if v is not None]
        for series in chart.series
    ]
    count = len(chart.x_labels)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 1, max(2, count)
    step = max(1, -(-count // 10))
    plot.xValueAxis.valueSteps = list(range(1, count + 1, step))
    plot.xValueAxis.labelTextFormat = lambda value: _x_label(chart, value)
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = ticks[0], ticks[-1]
    plot.yValueAxis.valueSteps = ticks
    plot.yValueAxis.labelTextFormat = chart.format
    plot.yValueAxis.visibleGrid = 1
    plot.yValueAxis.gridStrokeColor = GRID
    plot.yValueAxis.gridStrokeWidth = 0.4
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = font
        axis.labels.fontSize = 7
        axis.strokeColor = INK
    for number, _series in enumerate(chart.series):
        style = number % len(COLOURS)
        line = plot.lines[number]
        line.strokeColor = HexColor(COLOURS[style])
        line.strokeWidth = 1.6
        if _DASHES[style]:
            line.strokeDashArray = list(_DASHES[style] or ())
        line.symbol = _marker(_MARKERS[_SHAPES[style]], size=4)
        line.symbol.fillColor = HexColor(COLOURS[style])
        line.symbol.strokeColor = HexColor(COLOURS[style])
    drawing.add(plot)
    _legend(drawing, chart, plot.x + plot.width + 12, plot.y + plot.height, font)
    drawing.add(String(0, height - 8, chart.y_title, fontName=font, fontSize=7, fillColor=INK))
    title_width = pdfmetrics.stringWidth(chart.x_title, font, 7)
    drawing.add(
        String(plot.x + plot.width - title_width, 2, chart.x_title, fontName=font, fontSize=7)
    )
    return drawing


def _legend(drawing: Drawing, chart: LineChart, left: float, top: float, font: str) -> None:
    y = top - 6
    for number, series in enumerate(chart.series):
        style = number % len(COLOURS)
        colour = HexColor(COLOURS[style])
        line = Line(left, y + 2.5, left + 16, y + 2.5, strokeColor=colour, strokeWidth=1.6)
        if _DASHES[style]:
            line.strokeDashArray = list(_DASHES[style] or ())
        drawing.add(line)
        marker = _marker(_MARKERS[_SHAPES[style]], size=4, x=left + 8, y=y + 2.5)
        marker.fillColor = marker.strokeColor = colour
        drawing.add(marker)
        name = series.name
        size = 7.5
        while size > 5 and pdfmetrics.stringWidth(name, font, size) > LEGEND_WIDTH - 22:
            size -= 0.5
        drawing.add(String(left + 20, y, name, fontName=font, fontSize=size, fillColor=INK))
        y -= 11


def draw_chart(
    canvas: Canvas, chart: LineChart, x: float, y: float, width: float, height: float, font: str
) -> None:
    """The chart drawn on the page, its lower left corner at (x, y)."""
    renderPDF.draw(chart_drawing(chart, width, height, font), canvas, x, y)
