"""Lighthouse phone scores (performance, accessibility, best practices) of the app's pages.

Plain script, not run in CI (about 15 s a page):

    npm install --prefix ~/.cache/rummy-node lighthouse@12     # once (13 needs a newer Node)
    python bench/lighthouse.py [--dark] [--runs 3] [--lighthouse PATH]

It serves the app from a thread (SQLite in a temp folder) with a game three rounds in and a
finished one, and runs Lighthouse's default mobile emulation on each page with Debian's
Chromium. `--dark` runs every page in the dark colour scheme. Performance on a busy machine
swings by 20 points from run to run: each page is run `--runs` times and the median shown.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from bench.common import serve
from referee.engine.game import SeatResult
from referee.web import create_app
from referee.web.games import service
from referee.web.games.links import edit_url, view_url

LIGHTHOUSE = Path.home() / ".cache/rummy-node/node_modules/.bin/lighthouse"
CHROMIUM_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync"
)
CATEGORIES = ("performance", "accessibility", "best-practices")
PLAYERS = ["Anne-Marie K", "Bartholomeus", "Christabella", "Dominique L."]


def games(rounds: int) -> tuple[str, str]:
    started = service.start("contract", PLAYERS, lang="en")
    assert isinstance(started, service.Created)
    for number in range(1, rounds + 1):
        out = SeatResult(went_out=True)
        held = 60 if number == 7 else 0  # round 7: the others still hold the whole deal
        typed = service.Typed.read([out, *(SeatResult(penalty=held + p) for p in (20, 35, 5))])
        saved = service.enter_round(started.stored.id, number, typed, version=None)
        assert isinstance(saved, service.Saved)
    return started.stored.id, started.token


def run(lighthouse: Path, url: str, dark: bool) -> dict[str, int]:
    """One Lighthouse run, tried again once (on a busy machine Chromium may fail to start)."""
    try:
        return _run(lighthouse, url, dark)
    except subprocess.CalledProcessError:
        return _run(lighthouse, url, dark)


def _run(lighthouse: Path, url: str, dark: bool) -> dict[str, int]:
    flags = CHROMIUM_FLAGS + (
        " --force-dark-mode --blink-settings=preferredColorScheme=0" if dark else ""
    )
    done = subprocess.run(
        [
            str(lighthouse),
            url,
            f"--chrome-flags={flags}",
            "--quiet",
            "--output=json",
            f"--only-categories={','.join(CATEGORIES)}",
        ],
        env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    report = json.loads(done.stdout)
    failed = [
        audit_id
        for category in CATEGORIES
        for ref in report["categories"][category]["auditRefs"]
        if ref["weight"] and (report["audits"][(audit_id := ref["id"])].get("score") or 0) < 1
    ]
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    return {**scores, "failed": failed}  # type: ignore[dict-item]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", type=Path, default=LIGHTHOUSE)
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    folder = Path(tempfile.mkdtemp(prefix="rummy-lh-"))
    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{folder / 'lh.sqlite3'}"},
        instance_path=str(folder / "instance"),
    )
    base = serve(app)
    with app.test_request_context("/"):
        playing, token = games(3)
        finished, finished_token = games(7)
        pages = {
            "start /": "/",
            "edit page (round 4)": edit_url(playing, token),
            "view page": view_url(playing),
            "correct round 2": f"{edit_url(playing, token)}/rounds/2",
            "finished game (edit)": edit_url(finished, finished_token),
            "referee": "/referee",
            "rules": "/rules/contract",
            "clubs": "/clubs",
        }
    print(f"{'page':24} " + " ".join(f"{c:>14}" for c in CATEGORIES))
    for name, path in pages.items():
        runs = [run(args.lighthouse, base + path, args.dark) for _ in range(args.runs)]
        scores = {c: statistics.median(r[c] for r in runs) for c in CATEGORIES}
        failed = sorted({audit for r in runs for audit in r["failed"]})  # type: ignore[attr-defined]
        row = " ".join(f"{scores[c]:>14.0f}" for c in CATEGORIES)
        print(f"{name:24} {row}  {' '.join(failed)}")


if __name__ == "__main__":
    main()
