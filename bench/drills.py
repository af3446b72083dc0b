"""Drills benchmark (issue 32): how long a pack of 50 drills takes, the engine alone and as
`GET /api/v1/drills` answers it (read, drawn, judged, said in words, JSON). Target: under
200 ms a pack. And the trainer's offline pack (`/training/<variant>/offline.json`, two
sessions with every page rendered: what a phone fetches in the background to train without
signal), its time and size, raw and gzipped.

Plain script, not run in CI: `python bench/drills.py` (about half a minute). For every
variant: a pack of every kind the variant has in turn (what the trainer asks for) at each
level, and a pack of each kind alone at level 3 (the most near misses; `solve` the heaviest),
over several seeds; the median and the worst, in milliseconds.
"""

from __future__ import annotations

import gzip
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask.testing import FlaskClient

from referee.engine.drills import LEVELS, drills, kinds_for
from referee.engine.variants import VARIANTS
from referee.web import create_app

COUNT = 50
SEEDS = range(5)
TARGET_MS = 200.0


def _engine_ms(variant_id: str, kind: str | None, level: int) -> list[float]:
    variant = VARIANTS[variant_id]
    times = []
    for seed in SEEDS:
        start = time.perf_counter()
        drills(variant, kind=kind, level=level, count=COUNT, seed=seed)
        times.append((time.perf_counter() - start) * 1000)
    return times


def _api_ms(client: FlaskClient, variant_id: str, level: int) -> list[float]:
    times = []
    for seed in SEEDS:
        query = f"/api/v1/drills?variant={variant_id}&level={level}&count={COUNT}&seed={seed}"
        start = time.perf_counter()
        answer = client.get(f"{query}&lang=de")
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.get_json()
    return times


def _offline_packs(client: FlaskClient) -> None:
    print("\nThe offline pack (two sessions, every page rendered), level 3, German:")
    for variant_id in VARIANTS:
        times, sizes, packed = [], [], []
        for seed in SEEDS:
            start = time.perf_counter()
            answer = client.get(
                f"/training/{variant_id}/offline.json?level=3&seed={seed}",
                headers={"Accept-Language": "de"},
            )
            times.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200, answer.status_code
            sizes.append(len(answer.data))
            packed.append(len(gzip.compress(answer.data)))
        print(
            "  "
            + _line(variant_id, times)
            + f"   {max(sizes) / 1024:5.0f} KB, gzipped {max(packed) / 1024:4.1f} KB"
        )


def _line(label: str, times: list[float]) -> str:
    return f"{label:<34} median {statistics.median(times):6.1f} ms   worst {max(times):6.1f} ms"


def main() -> int:
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "RATELIMIT_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        },
        instance_path=str(folder),
    )
    client = app.test_client()
    drills(VARIANTS["contract"], kind="solve", count=5)  # load the solver and its tables once
    worst = 0.0
    print(f"A pack of {COUNT} drills; {len(SEEDS)} seeds each.\n")
    for variant_id, variant in VARIANTS.items():
        print(variant_id)
        for level in LEVELS:
            times = _engine_ms(variant_id, None, level)
            api = _api_ms(client, variant_id, level)
            worst = max(worst, *times, *api)
            print("  " + _line(f"every kind, level {level} (engine)", times))
            print("  " + _line(f"every kind, level {level} (API, de)", api))
        for kind in kinds_for(variant):
            times = _engine_ms(variant_id, kind, 3)
            worst = max(worst, *times)
            print("  " + _line(f"{kind}, level 3 (engine)", times))
    _offline_packs(client)
    verdict = "under" if worst < TARGET_MS else "OVER"
    print(f"\nworst pack: {worst:.1f} ms, {verdict} the {TARGET_MS:.0f} ms target")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
