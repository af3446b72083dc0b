"""Print how long each kind of PDF takes to build, cold and warm, and how big it is.

    .venv/bin/python bench/pdf.py [--repeat N]

cold:   the first one in a fresh process (imports, fonts, parsed CSS made then).
warm:   built again with everything loaded (median, min and max of N builds not yet cached).
cached: the same URL asked again over HTTP: the shared disk cache answers.
fresh:  every variant in every language once (A4), after the first card of the process: what
        someone asking for a card nobody asked for before waits, its median and the slowest,
        in wall and processor time (this process's; the machine may be busy with other work),
        and where it goes: WeasyPrint laying pages out, writing the PDF (fonts subset, tags),
        the rest (the rule text, the template).
Aims (issue 5): a warm rule card under 300 ms, a warm score sheet under 30 ms; (issue 35) the
slowest fresh rule card under 500 ms.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine.game import Game, SeatResult
from referee.engine.variants import VARIANTS
from referee.web import create_app
from referee.web.printing import pdfs
from referee.web.printing.cache import pdf_cache
from referee.web.printing.pdfs import Built, render_rule_card
from referee.web.printing.sheets import blank_sheet, game_sheet, render_sheet
from referee.web.vocabulary.house_rules import table_rules

LANGUAGES = ("en", "de", "nl", "pt", "fr", "es")


def _game() -> Game:
    """Four players, five rounds in: Ann and Di take turns going out."""
    game = Game.start("contract", ["Ann", "Bo", "Cy", "Di"])
    for n in range(1, 6):
        out, other = (0, 3) if n % 2 else (3, 0)
        results = [SeatResult(penalty=20)] * 4
        results[out] = SeatResult(went_out=True)
        results[other] = SeatResult(penalty=35 if n % 2 == 0 else 5)
        results[2] = SeatResult(penalty=45)
        game = game.enter_round(n, results).game
    return game


GAME = _game()


def _timed(build: Callable[[], Built]) -> tuple[float, Built]:
    started = time.perf_counter()
    built = build()
    return (time.perf_counter() - started) * 1000, built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=6, help="warm builds per kind (default 6)")
    repeat = max(1, parser.parse_args().repeat)

    with tempfile.TemporaryDirectory() as instance:
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": "sqlite://"},
            instance_path=instance,
        )
        client = app.test_client()
        # As the deployment's gunicorn does (deploy/gunicorn.conf.py, when_ready): the loaded
        # app kept out of full collections, so a layout's garbage is collected, not the app.
        gc.collect()
        gc.freeze()

        def card(variant: str, lang: str, paper: str) -> Callable[[], Built]:
            def build() -> Built:
                with app.test_request_context(f"/?lang={lang}"):
                    return render_rule_card(table_rules(variant), lang, paper)

            return build

        def sheet(players: list[str], lang: str, paper: str) -> Callable[[], Built]:
            def build() -> Built:
                with app.test_request_context(f"/?lang={lang}"):
                    return render_sheet(blank_sheet(table_rules("contract"), lang, paper, players))

            return build

        def filled(lang: str) -> Callable[[], Built]:
            def build() -> Built:
                with app.test_request_context(f"/?lang={lang}"):
                    return render_sheet(game_sheet(GAME, lang, "a4", "2 December 2026"))

            return build

        kinds = {
            "rule card (WeasyPrint, 2 pages)": (
                card("contract", "en", "a4"),
                [card(v, lang, "a4") for v in ("shanghai", "contract") for lang in LANGUAGES],
            ),
            "blank score sheet, 4 players (ReportLab)": (
                sheet(["Ann", "Bo", "Cy", "Di"], "en", "a4"),
                [sheet(["Ann", "Bo", "Cy", "Di"], lang, "letter") for lang in LANGUAGES],
            ),
            "blank score sheet, 8 players, landscape": (
                sheet([""] * 8, "de", "a4"),
                [sheet([""] * 8, lang, "a4") for lang in LANGUAGES],
            ),
            "game's score sheet, 5 rounds filled": (
                filled("en"),
                [filled(lang) for lang in LANGUAGES],
            ),
        }
        print(
            f"{'kind':44} {'cold ms':>8} {'warm ms':>8} {'min ms':>8} {'max ms':>8} {'size KB':>8}"
        )
        for name, (cold_build, warm_builds) in kinds.items():
            cold, built = _timed(cold_build)
            warm = [_timed(b)[0] for b in (warm_builds * repeat)[:repeat]]
            print(
                f"{name:44} {cold:8.1f} {statistics.median(warm):8.1f} {min(warm):8.1f}"
                f" {max(warm):8.1f}"
                f" {len(built.body) / 1024:8.1f}"
            )

        fresh_cards(app)

        shutil.rmtree(pdf_cache(app).folder, ignore_errors=True)
        url = "/rules/zioncheck-nl.pdf?lang=pt&paper=letter"
        first = time.perf_counter()
        client.get(url)
        built_ms = (time.perf_counter() - first) * 1000
        second = time.perf_counter()
        answer = client.get(url)
        cached_ms = (time.perf_counter() - second) * 1000
        print(f"HTTP {url}: built {built_ms:.1f} ms, cached {cached_ms:.2f} ms")
        third = time.perf_counter()
        not_modified = client.get(url, headers={"If-None-Match": answer.headers["ETag"]})
        print(
            f"HTTP same with If-None-Match: {not_modified.status_code} in "
            f"{(time.perf_counter() - third) * 1000:.2f} ms"
        )


def fresh_cards(app: Any) -> None:
    """Every variant in every language once; the first card of the process was built above."""
    spent = {"layout": 0.0, "write": 0.0}
    render = pdfs._render

    def timed_render(html: str, paper: str) -> Any:
        started = time.process_time()
        try:
            return render(html, paper)
        finally:
            spent["layout"] += time.process_time() - started

    pdfs._render = timed_render  # type: ignore[assignment]
    weasyprint = pdfs._weasyprint()["module"]
    write_pdf = weasyprint.Document.write_pdf

    def timed_write(document: Any, *args: Any, **kwargs: Any) -> bytes:
        started = time.process_time()
        try:
            return write_pdf(document, *args, **kwargs)  # type: ignore[no-any-return]
        finally:
            spent["write"] += time.process_time() - started

    weasyprint.Document.write_pdf = timed_write
    walls, cpus = [], []
    slowest = ("", 0.0)
    try:
        for variant in VARIANTS:
            for lang in LANGUAGES:
                with app.test_request_context(f"/?lang={lang}"):
                    started, started_cpu = time.perf_counter(), time.process_time()
                    render_rule_card(table_rules(variant), lang, "a4")
                    wall = (time.perf_counter() - started) * 1000
                walls.append(wall)
                cpus.append((time.process_time() - started_cpu) * 1000)
                if wall > slowest[1]:
                    slowest = (f"{variant} {lang}", wall)
    finally:
        pdfs._render = render
        weasyprint.Document.write_pdf = write_pdf
    total = sum(cpus) / 1000
    print(
        f"fresh rule cards, {len(walls)} (every variant and language, A4): wall median "
        f"{statistics.median(walls):.0f} ms, the slowest {slowest[1]:.0f} ms ({slowest[0]}); "
        f"processor median {statistics.median(cpus):.0f} ms, the most {max(cpus):.0f} ms; "
        f"of the processor time {spent['layout'] / total:.0%} laying pages out, "
        f"{spent['write'] / total:.0%} writing the PDF"
    )


if __name__ == "__main__":
    main()
