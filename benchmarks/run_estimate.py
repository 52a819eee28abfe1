"""The balance run's estimate of its duration against the real duration, per built-in game.

Each case is a balance run of a built-in game at its default settings, two
players, on every CPU (run_balance with an `estimate` callback, as
`protopress balance` on a terminal): the run times its first games in this
process, estimates the rest (protopress/balance/estimate.py) and plays it.
The baseline is the real duration of that rest, measured in the same run
from the moment the estimate is made to the run's end; the ratio estimate /
real is 1.0 for a perfect estimate, and the target is within 25% (0.75 to
1.25). The machine is shared: load that comes or goes during a run moves the
real duration and not the estimate.

    python benchmarks/run_estimate.py --games 2000 --bots random,greedy
"""

from __future__ import annotations

import argparse
import time

from figures import Figure, add_json_option, write_json

from protopress.balance.estimate import RunEstimate, duration_words
from protopress.balance.run import cpu_count, run_balance
from protopress.games import builtin_ids

TARGET = 0.25  # the estimate within 25% of the real duration


def case(game: str, bot: str, games: int, seed: int, workers: int) -> dict:
    said: list[tuple[RunEstimate, float]] = []
    run = run_balance(
        game,
        game,
        games,
        2,
        [bot],
        seed,
        {},
        workers=workers,
        estimate=lambda estimate: said.append((estimate, time.perf_counter())),
    )
    ended = time.perf_counter()
    if not said:
        raise SystemExit(f"{game}: the timed games were the whole run; give more --games")
    estimate, at = said[0]
    real = ended - at
    return {
        "game": game,
        "bot": bot,
        "games": run.covered,
        "timed": estimate.timed,
        "workers": estimate.workers,
        "per_game": estimate.per_game,
        "estimate": estimate.seconds,
        "real": real,
        "ratio": estimate.seconds / real,
    }


def line(result: dict) -> str:
    ratio = result["ratio"]
    verdict = "within 25%" if abs(ratio - 1) <= TARGET else "off by more than 25%"
    return (
        f"| {result['game']} | {result['bot']} | {result['games']} ({result['timed']} timed) "
        f"| {duration_words(result['per_game'])} | {result['estimate']:.1f} s "
        f"| {result['real']:.1f} s | {ratio:.2f} | {verdict} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply --games")
    parser.add_argument("--bots", default="random", help="the bot of every seat, per case")
    parser.add_argument("--games-list", default=",".join(builtin_ids()), help="built-in games")
    parser.add_argument("--workers", type=int, default=0, help="0: one per CPU")
    parser.add_argument("--seed", type=int, default=1)
    add_json_option(parser)
    args = parser.parse_args()
    workers = args.workers or cpu_count()
    games = max(1, int(args.games * args.scale))
    print(f"{cpu_count()} CPUs available; {workers} workers; {games} games a run")
    print("| game | bot | games | a timed game | estimate of the rest | real | ratio | |")
    print("|---|---|---|---|---|---|---|---|")
    results, figures = [], []
    for bot in args.bots.split(","):
        for game in args.games_list.split(","):
            result = case(game, bot, games, args.seed, workers)
            results.append(result)
            print(line(result), flush=True)
            figures.append(
                Figure(
                    f"{game}, {bot}: estimated duration",
                    round(result["estimate"], 3),
                    "s",
                    round(result["real"], 3),
                    "real duration",
                )
            )
    write_json(args.json, figures, results)


if __name__ == "__main__":
    main()
