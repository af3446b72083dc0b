"""Metrics for operators, off unless `METRICS=1`: `GET /metrics` in Prometheus' text format.

Requests and their latencies by route (the rule, never the path: a path may hold an edit
token), PDF builds by kind with their time, and the solver's time. Under gunicorn with several
workers, set `PROMETHEUS_MULTIPROC_DIR` to an empty folder: every worker then writes its
figures there and `/metrics` adds them up (deploy/gunicorn.conf.py clears a dead worker's).
Recording goes through `pdf_build()` and `solving()`, which cost nothing while metrics are off.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from flask import Flask, current_app, has_app_context
from prometheus_client import CollectorRegistry, Histogram

EXTENSION = "metrics"
_SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


@dataclass(frozen=True)
class Recorders:
    pdf_builds: Histogram
    solver: Histogram


def _recorders() -> Recorders | None:
    if not has_app_context():
        return None
    found: Recorders | None = current_app.extensions.get(EXTENSION)
    return found


@contextmanager
def pdf_build(kind: str) -> Iterator[None]:
    """Time one PDF build of `kind` (rule_card, sheet, game_sheet)."""
    recorders = _recorders()
    started = time.perf_counter()
    yield
    if recorders is not None:
        recorders.pdf_builds.labels(kind=kind).observe(time.perf_counter() - started)


@contextmanager
def solving() -> Iterator[None]:
    """Time one run of the solver."""
    recorders = _recorders()
    started = time.perf_counter()
    yield
    if recorders is not None:
        recorders.solver.observe(time.perf_counter() - started)


def enabled(value: object) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def init_app(app: Flask) -> None:
    if not enabled(app.config.get("METRICS", os.environ.get("METRICS", ""))):
        return
    from prometheus_flask_exporter import PrometheusMetrics

    registry: CollectorRegistry | None
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

        GunicornInternalPrometheusMetrics(app, group_by="url_rule")
        registry = None  # every worker writes to the folder; the collector reads them all
    else:
        registry = CollectorRegistry()
        PrometheusMetrics(app, registry=registry, group_by="url_rule")
    app.extensions[EXTENSION] = Recorders(
        pdf_builds=Histogram(
            "rummy_pdf_builds_seconds",
            "PDFs built (a cache miss), by kind, and how long each took",
            ["kind"],
            buckets=_SECONDS,
            registry=registry,
        ),
        solver=Histogram(
            "rummy_solver_seconds",
            "Time the solver took for one hand",
            buckets=_SECONDS,
            registry=registry,
        ),
    )
