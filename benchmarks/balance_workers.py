"""Balance runs: games per second on 1, 2 and all workers, and parallel efficiency.

Baseline, in the same run: 1 worker (run_balance plays in this process, no pool).
Efficiency with n workers is (games per second with n) / (n x games per second
with 1): 100% is a perfect speed-up. Every timing is a whole run_balance call,
so it includes starting the worker processes ("spawn": a fresh interpreter
that imports protopress and loads the catalog), measured on its own as the
time to play one game per worker. Each figure is the best of --repeats runs;
the machine is shared, so compare the ratios, not the figures alone.

The records are checked equal across worker counts on the way.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

from figures import Figure, add_json_option, write_json

from protopress.balance.run import cpu_count, run_balance

CASES = [  # (label, game, players, bots, options, games per --scale)
    (
        "dragonstone-mine level 2, 4 x random",
        "dragonstone-mine",
        4,
        ["random"],
        {"level": "2"},
        1500,
    ),
    (
        "dragonstone-mine level 2, 4 x greedy",
        "dragonstone-mine",
        4,
        ["greedy"],
        {"level": "2"},
        150,
    ),
    (
        "stonespine-architects solo, greedy",
        "stonespine-architects",
        1,
        ["greedy"],
        {"solo": "true", "difficulty": "normal"},
        600,
    ),
]


def timed(repeats: int, function):
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case's games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=2)
    add_json_option(parser)
    args = parser.parse_args()
    figures = []
    counts = sorted({1, 2, cpu_count()})
    print(f"{cpu_count()} CPUs available; workers: {', '.join(map(str, counts))}")
    for label, game, players, bots, options, games in CASES:
        games = max(1, int(games * args.scale))
        print(f"{label}: {games} games")
        baseline, reference = None, None
        for workers in counts:
            play = partial(
                run_balance,
                game,
                game,
                players=players,
                bots=bots,
                seed=args.seed,
                options=options,
                workers=workers,
            )
            seconds, result = timed(args.repeats, partial(play, games=games))
            records = [r.to_json() for r in result.records]
            if reference is None:
                reference = records
            assert records == reference, "the records differ between worker counts"
            rate = games / seconds
            baseline = baseline or rate
            line = f"  {workers} worker{'s' if workers > 1 else ' '}: {rate:8.1f} games/s"
            if workers > 1:
                figures.append(
                    Figure(f"{label}, {workers} workers", rate, "games/s", baseline,
                           "1 worker, in this process", better="higher")
                )  # fmt: skip
                start_up, _ = timed(args.repeats, partial(play, games=workers, chunk=1))
                line += (
                    f"  speed-up {rate / baseline:4.2f}x, efficiency {rate / baseline / workers:4.0%}"
                    f"  (start-up and one game per worker: {start_up:.2f} s)"
                )
            else:
                line += "  (baseline: in this process)"
            print(line)
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
