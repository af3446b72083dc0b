"""Charts (plumbing/charts.py): SVG the CSP lets through and a dark theme can colour, ticks
that hold every value, and the table of the numbers drawn."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from flask import Flask
from flask_babel import force_locale
from hypothesis import given
from hypothesis import strategies as st

from referee.web.plumbing.charts import LineChart, Series, chart_svg, legend_key, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.test_request_context("/"):
        yield


def _chart(points: int = 7, series: int = 4, decimals: int = 0) -> LineChart:
    return LineChart(
        title="Running totals",
        x_title="Round",
        y_title="Total",
        x_labels=tuple(str(n) for n in range(1, points + 1)),
        series=tuple(
            Series(f"P{s}", tuple(float(s * 7 + n * 11) for n in range(points)))
            for s in range(series)
        ),
        decimals=decimals,
    )


@pytest.mark.usefixtures("ctx")
def test_the_svg_has_no_inline_style_or_script_and_follows_the_pages_colours() -> None:
    svg = str(chart_svg(_chart()))
    assert "style=" not in svg and "<script" not in svg and "<style" not in svg
    root = ET.fromstring(svg)
    assert root.get("aria-hidden") == "true" and root.get("viewBox")
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 4
    groups = [g for g in root.iter(f"{SVG}g") if "chart-series" in (g.get("class") or "")]
    assert [g.get("class") for g in groups] == [f"chart-series chart-s{n}" for n in range(1, 5)]
    # Lines differ by dash as well as colour, and every point has a marker.
    assert len({line.get("stroke-dasharray") for line in lines}) == 4
    assert all(len(g.findall(f"{SVG}*")) == 1 + 7 for g in groups)
    labels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-labels"]
    assert labels and all(g.get("fill") == "currentColor" for g in labels)


@pytest.mark.usefixtures("ctx")
def test_a_long_line_marks_only_its_last_point() -> None:
    root = ET.fromstring(str(chart_svg(_chart(points=40, series=1))))
    group = next(g for g in root.iter(f"{SVG}g") if "chart-s1" in (g.get("class") or ""))
    assert len(group.findall(f"{SVG}*")) == 2  # the line and one marker
    shown = [t.text for t in root.iter(f"{SVG}text")]
    assert "1" in shown and "40" in shown and len(shown) < 20  # some x labels, not all 40


@pytest.mark.usefixtures("ctx")
def test_the_table_holds_every_value_drawn() -> None:
    chart = _chart(points=3, series=2)
    assert chart.rows() == [("1", ["0", "7"]), ("2", ["11", "18"]), ("3", ["22", "29"])]
    gaps = LineChart("t", "x", "y", ("a", "b"), (Series("P", (None, 2.5)),), decimals=1)
    assert gaps.rows() == [("a", ["–"]), ("b", ["2.5"])]
    with force_locale("de"):
        assert LineChart("t", "x", "y", ("a",), (Series("P", (1234.5,)),), 1).rows() == [
            ("a", ["1.234,5"])
        ]


@pytest.mark.usefixtures("ctx")
def test_a_legend_key_draws_its_series_line_and_marker() -> None:
    key = str(legend_key(9))  # the palette comes round again
    assert "chart-s2" in key and "style=" not in key
    ET.fromstring(key)


@given(st.floats(-500, 500, allow_nan=False), st.floats(0, 1000, allow_nan=False))
def test_ticks_are_round_and_hold_the_range(low: float, width: float) -> None:
    high = low + width
    ticks = nice_ticks(low, high)
    assert ticks[0] <= low + 1e-9 and ticks[-1] >= high - 1e-9
    assert 2 <= len(ticks) <= 8
    steps = [b - a for a, b in itertools.pairwise(ticks)]
    assert max(steps) - min(steps) <= 1e-9 * max(1.0, abs(ticks[-1]), abs(ticks[0]))
