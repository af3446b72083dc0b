"""One PDF cache for every worker and restart: a diskcache under instance/, keyed by everything
that shapes the PDF (the app's version too), bounded by PDF_CACHE_MAX_MB (from the environment
too), safe under concurrent writers; `flask pdf warm` builds the common cards beforehand."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest
from flask import Flask

from referee.web import create_app
from referee.web.plumbing.database import database
from referee.web.printing.cache import PdfCache, fingerprint, pdf_cache


def _worker(instance: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "DATABASE_URL": f"sqlite:///{instance / 'db.sqlite3'}",
        },
        instance_path=str(instance),
    )


def test_a_card_built_by_one_worker_is_served_by_another_and_after_a_restart(
    app: Flask, tmp_path: Path
) -> None:
    url = "/rules/shanghai.pdf?lang=de&paper=letter"
    first = app.test_client().get(url)
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    assert pdf_cache(app).builds == 1
    assert len(pdf_cache(app)) == 1

    other = _worker(Path(app.instance_path))  # a second gunicorn worker, or the app restarted
    second = other.test_client().get(url)
    assert second.data == first.data and second.headers["ETag"] == first.headers["ETag"]
    assert pdf_cache(other).builds == 0
    again = other.test_client().get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    database(other).dispose()


def test_the_key_holds_the_app_version_and_what_shapes_the_card(tmp_path: Path) -> None:
    key = ("rule_card", "contract", "", "en", "a4")
    assert len(fingerprint()) == 64
    ours = PdfCache(tmp_path, max_bytes=10**6, salt=fingerprint())
    next_release = PdfCache(tmp_path, max_bytes=10**6, salt="rummy-referee 0.2.0 ...")
    assert ours.digest(key) != next_release.digest(key)
    ours.get_or_build(key, lambda: b"%PDF old")
    assert next_release.get(key) is None
    assert ours.digest(key) != ours.digest(("rule_card", "contract", "", "de", "a4"))


def test_the_cache_is_bounded_and_lets_the_longest_unused_go(tmp_path: Path) -> None:
    cache = PdfCache(tmp_path / "c", max_bytes=2 * 1024 * 1024, salt="s")
    for number in range(40):
        cache.get_or_build(("card", number), lambda: os.urandom(90_000))
        cache.get(("card", 0))  # used all along: it stays
        assert cache.size() <= 2 * 1024 * 1024, number  # PDFs, index and its log, all counted
    assert cache.get(("card", 0)) is not None
    assert cache.get(("card", 39)) is not None  # the newest stay
    assert cache.get(("card", 1)) is None  # the oldest unused went
    assert 10 <= len(cache) < 24


def test_pdf_cache_max_mb_is_read_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: set to 2, the cache grew to 45 MB. Rule cards and sheets, as a browser asks."""
    monkeypatch.setenv("PDF_CACHE_MAX_MB", "2")
    app = _worker(tmp_path / "instance")
    cache = pdf_cache(app)
    assert cache.max_bytes == 2 * 1024 * 1024
    client = app.test_client()
    served = 0
    for number in range(80):
        names = ",".join(f"P{number}-{seat}" for seat in range(8))
        answer = client.get(f"/sheets/contract.pdf?players={names}")
        assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
        served += len(answer.data)
        assert cache.size() <= 2 * 1024 * 1024, number
    assert cache.builds == 80 and served > 3 * 1024 * 1024  # more than it may keep was asked
    assert len(cache) * served / 80 > 1024 * 1024, "a full cache, not an empty one"
    database(app).dispose()


def test_a_bad_pdf_cache_max_mb_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PDF_CACHE_MAX_MB", "lots")
    with pytest.raises(ValueError, match="PDF_CACHE_MAX_MB"):
        _worker(tmp_path / "instance")


def _build_slowly(folder: str, counter: str) -> bytes:
    cache = PdfCache(Path(folder), max_bytes=10**6, salt="s")

    def build() -> bytes:
        with open(counter, "a") as handle:
            handle.write("built\n")
        time.sleep(0.3)
        return b"%PDF " + os.urandom(8).hex().encode()

    return cache.get_or_build(("card",), build).body


def test_concurrent_writers_build_once_and_every_reader_gets_the_whole_file(
    tmp_path: Path,
) -> None:
    counter = tmp_path / "builds.txt"
    context = multiprocessing.get_context("fork")
    with context.Pool(4) as pool:
        bodies = pool.starmap(_build_slowly, [(str(tmp_path / "c"), str(counter))] * 4)
    assert len(set(bodies)) == 1 and bodies[0].startswith(b"%PDF ")
    assert counter.read_text().count("built") == 1


def test_flask_pdf_warm_builds_the_common_cards_once(app: Flask) -> None:
    runner = app.test_cli_runner()
    args = ["pdf", "warm", "--variant", "contract", "--lang", "fr", "--lang", "de", "--paper", "a4"]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert "built 4 PDFs" in result.output  # the rule card and the blank sheet, in each language
    assert "built 0 PDFs" in runner.invoke(args=args).output
    client = app.test_client()
    before = pdf_cache(app).builds
    assert client.get("/rules/contract.pdf?lang=fr&paper=a4").status_code == 200
    assert pdf_cache(app).builds == before
