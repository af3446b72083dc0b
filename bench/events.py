"""Club night benchmark: how often opponents meet again under the mix draw and under the greedy
draw, and how long a mix draw takes; with `--web`, the time of drawing and starting a series
through the events service (each table's game made and filed in the club) and the size of the
room's board, its refreshed fragment and the host's page.

Plain script, not run in CI: `python bench/events.py` (about two minutes on two cores).
For each player count, an evening of `--series` series at tables of 4 (3 or 5 where the count
needs them): series 1 drawn at random from a seed, each later series by the mix draw (planning
the series still to come, as an event draws it) or by the greedy draw (the baseline), `--seeds`
evenings each. Repeats are meetings of two players beyond their first over the evening
(`seating.evening_repeats`); "pair" is the most times one pair met. A draw's time is one later
series drawn by `mix_draw`, in milliseconds: wall clock and the process's CPU time (the machine
is shared: the load average is printed with the figures).

`--rules`: for 16 to 32 players, the issue's seating rules (three couples kept apart, one car
kept together, one player at table 2) over `--series` series (series 1 at random and mended,
the later ones mixed, as an evening draws them), `--seeds` evenings each: the repeats of the
same evenings without rules, with them (and beyond the car's own meetings, which a pair kept
together cannot avoid), the rules honoured over every series, and the slowest draw.

`--web` (`--db sqlite|postgresql|both`): for each count, an evening in a club with that many
players checked in; series 1 drawn and started by `events.service.draw(start=True)` in one
transaction (the draw, every table's game kept and filed in the club, its records and board),
median of `--repeat` fresh evenings, wall and CPU ms; then the board page, its fragment and the
host's page, bytes as sent and gzipped.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import DATABASES, databases
from referee.engine.seating import (
    Keep,
    SeatingRule,
    TableSize,
    evening_repeats,
    greedy_draw,
    honour,
    in_force,
    judge,
    meetings_of,
    mix_draw,
    random_draw,
    table_sizes,
)

COUNTS = (16, 20, 24, 28, 32)
MORE = (12, 17, 21, 40, 60, 100)  # odd tables, small rooms, and rooms far beyond a club's


def evening(players: int, seed: int, series: int, *, mix: bool) -> tuple[int, int, list[float]]:
    """(repeats, the most meetings of one pair, [wall ms, cpu ms] of each later draw)."""
    names = [f"P{i:03}" for i in range(players)]
    size = TableSize()
    sizes = table_sizes(players, size)
    assert sizes is not None
    past = [random_draw(names, sizes, seed)]
    times: list[float] = []
    for number in range(2, series + 1):
        draw_seed = 1000 * seed + number
        if mix:
            wall, cpu = time.perf_counter(), time.process_time()
            drawn = mix_draw(
                names, sizes, past, draw_seed, preferred=size.preferred, ahead=series - number
            )
            times.append((time.perf_counter() - wall) * 1e3)
            times.append((time.process_time() - cpu) * 1e3)
        else:
            drawn = greedy_draw(names, sizes, past, draw_seed, preferred=size.preferred)
        past.append(drawn)
    return evening_repeats(past), max(meetings_of(past).values(), default=0), times


def club_rules(names: list[str]) -> tuple[SeatingRule, ...]:
    """The issue's Done-when: three couples apart, one car together, one wheelchair at table 2."""
    return (
        SeatingRule(keep=Keep.APART, players=(names[0], names[1])),
        SeatingRule(keep=Keep.APART, players=(names[2], names[3])),
        SeatingRule(keep=Keep.APART, players=(names[4], names[5])),
        SeatingRule(keep=Keep.TOGETHER, players=(names[6], names[7])),
        SeatingRule(keep=Keep.TABLE, players=(names[8],), table=2),
    )


def ruled_evening(
    players: int, seed: int, series: int, rules: bool
) -> tuple[int, int, int, int, float]:
    """(repeats, repeats beyond the car's own, rules met, rules asked, slowest draw ms): series
    1 at random (mended for the rules), the later ones mixed, as `Event` draws them."""
    names = [f"P{i:03}" for i in range(players)]
    sizes = table_sizes(players, TableSize())
    assert sizes is not None
    asked = club_rules(names) if rules else ()
    kept, _ = in_force(asked, names, len(sizes))
    started = time.perf_counter()
    past = [honour(random_draw(names, sizes, seed), kept, seed)]
    slowest = time.perf_counter() - started
    for number in range(2, series + 1):
        started = time.perf_counter()
        past.append(
            mix_draw(names, sizes, past, 1000 * seed + number, preferred=TableSize().preferred,
                     ahead=series - number, rules=kept)
        )  # fmt: skip
        slowest = max(slowest, time.perf_counter() - started)
    met = meetings_of(past)
    car = [frozenset(r.players) for r in asked if r.keep is Keep.TOGETHER]
    own = sum(max(met.get(pair, 0) - 1, 0) for pair in car)
    unmet = sum(len(judge(asked, tables)) for tables in past)
    repeats = evening_repeats(past)
    return repeats, repeats - own, len(asked) * series - unmet, len(asked) * series, slowest * 1e3


def rules_table(counts: list[int], seeds: int, series: int) -> None:
    print(f"{series} series, {seeds} evenings a count, the issue's 5 rules; "
          f"load average {os.getloadavg()}")  # fmt: skip
    print(
        f"{'players':>7} {'repeats, no rules':>18} {'repeats, rules':>15} {'beyond the car':>15} "
        f"{'rules honoured':>15} {'slowest draw ms':>16}"
    )
    for players in counts:
        plain = [ruled_evening(players, seed, series, False)[0] for seed in range(seeds)]
        ruled = [ruled_evening(players, seed, series, True) for seed in range(seeds)]
        print(
            f"{players:>7} {statistics.mean(plain):>18.2f} "
            f"{statistics.mean(r[0] for r in ruled):>15.2f} "
            f"{statistics.mean(r[1] for r in ruled):>15.2f} "
            f"{sum(r[2] for r in ruled):>8}/{sum(r[3] for r in ruled):<6} "
            f"{max(r[4] for r in ruled):>16.1f}"
        )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def web(wanted: str, counts: list[int], repeat: int) -> None:
    """Drawing and starting a series through the service, and the pages' sizes."""
    import gzip
    import statistics as stats

    from referee.web import create_app
    from referee.web.events import service
    from referee.web.plumbing.database import database

    for label, url in databases(wanted, "bench-events-"):
        folder = Path(tempfile.mkdtemp(prefix="bench-events-app-"))
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url}, instance_path=str(folder))
        client = app.test_client()
        print(f"\n{label}: draw + start a series through the service (median of {repeat})")
        print(
            f"{'players':>7} {'tables':>6} {'wall ms':>9} {'cpu ms':>8}   "
            "pages: board / live / host (bytes/gzipped)"
        )
        for players in counts:
            wall, cpu = [], []
            for run in range(repeat):
                club = client.post("/api/v1/clubs", json={"name": f"Bench {run}"}).get_json()
                auth = {"Authorization": f"Bearer {club['edit_token']}"}
                api = f"/api/v1/clubs/{club['id']}/events"
                made = client.post(api, json={"name": "Bench night", "variant": "contract",
                                              "series": 4}, headers=auth).get_json()  # fmt: skip
                names = [f"Player {n:03}" for n in range(players)]
                client.post(f"{api}/{made['id']}/players", json={"names": names}, headers=auth)
                with app.test_request_context("/"):
                    started, started_cpu = time.perf_counter(), time.process_time()
                    drawn = service.draw(club["id"], made["id"], club["edit_token"], 1, start=True)
                    wall.append((time.perf_counter() - started) * 1e3)
                    cpu.append((time.process_time() - started_cpu) * 1e3)
                assert isinstance(drawn, service.Changed), drawn
            page = f"/clubs/{club['id']}/events/{made['id']}"
            sizes = []
            for path in (
                f"{page}/board",
                f"{page}/board/live",
                f"{page}/edit/{club['edit_token']}",
            ):
                body = client.get(path, headers={"Accept-Encoding": "identity"}).data
                sizes.append(f"{len(body)}/{len(gzip.compress(body))}")
            tables = len(drawn.stored.event.series[0].tables)
            print(f"{players:>7} {tables:>6} {stats.median(wall):>9.1f} {stats.median(cpu):>8.1f}"
                  f"   {' / '.join(sizes)}")  # fmt: skip
        database(app).dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=50, help="evenings per count (default 50)")
    parser.add_argument("--series", type=int, default=4, help="series an evening (default 4)")
    parser.add_argument(
        "--players", type=int, nargs="*", default=None, help=f"counts (default {COUNTS} + {MORE})"
    )
    parser.add_argument("--web", action="store_true", help="the service and pages too")
    parser.add_argument("--rules", action="store_true", help="the draws with seating rules")
    parser.add_argument("--db", choices=DATABASES, default="sqlite", help="--web's databases")
    parser.add_argument("--repeat", type=int, default=5, help="--web's evenings a count")
    args = parser.parse_args()
    if args.web:
        web(args.db, args.players or list(COUNTS), args.repeat)
        return
    if args.rules:
        rules_table(args.players or list(COUNTS), args.seeds, args.series)
        return
    counts = args.players or [*COUNTS, *MORE]
    print(f"{args.series} series, {args.seeds} evenings a count; load average {os.getloadavg()}")
    print(
        f"{'players':>7} {'tables':<14} {'mix repeats':>16} {'greedy repeats':>16} "
        f"{'pair':>9} {'wall ms med/p99/max':>22} {'cpu ms med/p99/max':>22}"
    )
    for players in counts:
        mix, greedy, wall, cpu = [], [], [], []
        pair_mix = pair_greedy = 0
        for seed in range(args.seeds):
            repeats, pair, times = evening(players, seed, args.series, mix=True)
            mix.append(repeats)
            pair_mix = max(pair_mix, pair)
            wall.extend(times[0::2])
            cpu.extend(times[1::2])
            repeats, pair, _ = evening(players, seed, args.series, mix=False)
            greedy.append(repeats)
            pair_greedy = max(pair_greedy, pair)
        sizes = table_sizes(players, TableSize()) or ()
        tables = " + ".join(f"{sizes.count(size)}×{size}" for size in dict.fromkeys(sizes))
        print(
            f"{players:>7} {tables:<14} "
            f"{statistics.mean(mix):>8.2f} / max {max(mix):<3} "
            f"{statistics.mean(greedy):>8.2f} / max {max(greedy):<3} "
            f"{pair_mix:>4}/{pair_greedy:<4} "
            f"{statistics.median(wall):>7.1f}/{percentile(wall, 0.99):>6.1f}/{max(wall):>6.1f} "
            f"{statistics.median(cpu):>7.1f}/{percentile(cpu, 0.99):>6.1f}/{max(cpu):>6.1f}"
        )
        if statistics.mean(mix) > statistics.mean(greedy) or max(mix) > max(greedy):
            print(f"        ! the mix draw repeats more than the greedy draw at {players}")


if __name__ == "__main__":
    main()
