"""Club night benchmark: how often opponents meet again under the mix draw and under the greedy
draw, and how long a mix draw takes.

Plain script, not run in CI: `python bench/events.py` (about two minutes on two cores).
For each player count, an evening of `--series` series at tables of 4 (3 or 5 where the count
needs them): series 1 drawn at random from a seed, each later series by the mix draw (planning
the series still to come, as an event draws it) or by the greedy draw (the baseline), `--seeds`
evenings each. Repeats are meetings of two players beyond their first over the evening
(`seating.evening_repeats`); "pair" is the most times one pair met. A draw's time is one later
series drawn by `mix_draw`, in milliseconds: wall clock and the process's CPU time (the machine
is shared: the load average is printed with the figures).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine.seating import (
    TableSize,
    evening_repeats,
    greedy_draw,
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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=50, help="evenings per count (default 50)")
    parser.add_argument("--series", type=int, default=4, help="series an evening (default 4)")
    parser.add_argument(
        "--players", type=int, nargs="*", default=None, help=f"counts (default {COUNTS} + {MORE})"
    )
    args = parser.parse_args()
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
