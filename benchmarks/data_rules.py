"""Cottage Market's rules as data (rules.yaml) against the same game in Python (rules.py),
and both against the same rules written plainly with no protopress (bare).

Baselines, in the same run: rules.py, the hand-written engine of the same game,
and benchmarks/bare/cottage_market.py, the same rules and bots written plainly in a
process that imports nothing of ours (its games are as long: 23.7 turns a greedy
game, 36 a random one). Both engines play the same games (same seeds, same bots:
tests/rules/data hold them identical), in alternating blocks so that the machine's
load falls on both alike; the first figure is the data engine's time a game over
rules.py's (issue 38's target: at most 2x); then each engine's over the bare
script's (same number of games and seeds, its own random draws). Greedy bots look
one move ahead on every decision (copy, apply, judge), so they weigh the state copy
and the compiled expressions; random bots weigh legal_actions and apply.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from figures import Figure, add_json_option, run_bare, write_json

from protopress.components.loader import load_catalog
from protopress.rules.plugins import load_rules
from protopress.rules.simulate import play

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "cottage-market"
CASES = (("greedy", ["greedy", "greedy"]), ("random", ["random", "random", "random"]))


def seconds(game, catalog, bots, seeds) -> float:
    start = time.perf_counter()
    for seed in seeds:
        play(game, catalog, bots, seed)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games of each engine per case")
    parser.add_argument("--blocks", type=int, default=10, help="alternating blocks of games")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies --games")
    add_json_option(parser)
    args = parser.parse_args()
    catalog = load_catalog(EXAMPLE / "catalog.json")
    data = load_rules(str(EXAMPLE / "rules.yaml")).new_game()
    python = load_rules(str(EXAMPLE / "rules.py")).new_game()
    games = max(args.blocks, round(args.games * args.scale))
    block = max(1, games // args.blocks)
    figures = []
    for label, bots in CASES:
        play(data, catalog, bots, 0), play(python, catalog, bots, 0)  # compiled, warmed
        totals = {"data": 0.0, "python": 0.0}
        for first in range(0, games, block):
            seeds = range(first, min(first + block, games))
            order = ("data", "python") if (first // block) % 2 == 0 else ("python", "data")
            for name in order:
                engine = data if name == "data" else python
                totals[name] += seconds(engine, catalog, bots, seeds)
        per_data, per_python = (1e3 * totals[name] / games for name in ("data", "python"))
        bare = 1e3 * run_bare("cottage_market.py", str(EXAMPLE / "catalog.json"), "--bots", *bots,
                              "--games", str(games))["per_game"]  # fmt: skip
        print(f"{len(bots)} x {label:<7} {games} games: rules.yaml {per_data:6.2f} ms a game, "
              f"rules.py {per_python:6.2f} ms a game: {per_data / per_python:.2f}x; "
              f"bare {bare:6.2f} ms a game: rules.yaml {per_data / bare:.1f}x, "
              f"rules.py {per_python / bare:.1f}x")  # fmt: skip
        name = f"cottage-market {len(bots)} x {label}"
        figures += [
            Figure(f"{name}, rules.yaml", per_data, "ms a game", per_python, "rules.py"),
            Figure(f"{name}, rules.yaml against bare", per_data, "ms a game", bare, "bare Python"),
            Figure(f"{name}, rules.py against bare", per_python, "ms a game", bare, "bare Python"),
        ]
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
