"""Rules-engine speed against the targets of issue 17: complete games per second
per game, mode and bots, and the time of one MCTS move.

Baselines, measured in the same run:

- a trivial dice race (games_per_second.py) through the same simulate loop:
  each figure is also given as "x race", how many race games one game costs,
  which is comparable across machines where the figures alone are not;
- Gemstone Caverns greedy by the book: the same bots looking ahead with a copy,
  apply and heuristic per action and the best fit found one placement at a
  time (the reference paths the fast ones are tested against), so the gain of
  the fast paths is a same-run ratio.

- with --baseline DIR (a checkout of an earlier commit, e.g. made with
  `git worktree add /tmp/baseline main`), every case is also played by that
  checkout's engines, in a child process right after this checkout's, and
  the table gives both and their ratio.

Each figure is the best of --repeats runs in CPU time of the process (the machine
is shared: wall time would mostly measure the neighbours), each run of
new games seeded as `protopress simulate --seed S` seeds them (S = --seed, then
--seed + 1, ...), so every invocation plays the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from games_per_second import _Race

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gemstone_caverns.rules import GemstoneCaverns, _best_fit
from protopress.rules.mcts import Budget, MctsBot
from protopress.rules.registry import game_for
from protopress.rules.simulate import simulate


class BookCaverns(GemstoneCaverns):
    """Gemstone Caverns with the look-ahead by the book (no fast paths)."""

    action_values = None  # the greedy bot copies, applies and judges each action
    best_actions = None  # ... and takes the best of those values itself

    def best_fit(self, state, seat: int) -> int:
        return _best_fit(state, seat)


@dataclass(frozen=True)
class Case:
    game: str
    bots: tuple[str, ...]
    options: dict
    games: int  # per timed run
    target: float | None  # games per second, issue 17
    label: str


CASES = (
    Case("gemstone-caverns", ("greedy",) * 4, {}, 20, 100, "Gemstone Caverns, 4 greedy"),
    Case("gemstone-caverns", ("random",) * 4, {}, 200, 2000, "Gemstone Caverns, 4 random"),
    Case("dragonstone-mine", ("greedy",) * 4, {"level": "2"}, 20, 60, "DragonStone level 2, 4 greedy"),
    Case("gem-rush", ("greedy",) * 4, {"mode": "crisis"}, 20, 300, "Gem Rush Crisis, 4 greedy"),
    Case("gem-rush", ("random",) * 4, {"mode": "crisis"}, 100, 1000, "Gem Rush Crisis, 4 random"),
    Case("stonespine-architects", ("greedy",), {}, 40, 300, "Stonespine solo, greedy"),
)  # fmt: skip
MCTS_TARGET = 0.5  # seconds for a 1,000-playout move in DragonStone level 2


def games_per_second(game, catalog, bots, options, games: int, seed: int, repeats: int) -> float:
    """The best of repeats runs, each of new games (seeds seed, seed + 1, ...): replaying
    the same games would let the engines' memos (path scores, payments) answer
    everything the second time, which no real run enjoys."""
    simulate(game, catalog, list(bots), 1, seed - 1, options)  # warm the engine's tables
    times = []
    for run in range(repeats):
        start = time.process_time()  # CPU time: the machine is shared, wall time is noise
        simulate(game, catalog, list(bots), games, seed + run, options)
        times.append(time.process_time() - start)
    return games / min(times)


def mcts_positions(catalog, count: int, seed: int) -> list:
    """DragonStone level 2 two-player positions from a seeded random game, each
    with a real choice (two legal actions or more), spread over the game."""
    game = game_for("dragonstone-mine")
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.setup(catalog, 2, random.Random(rng.getrandbits(32)), {"level": "2"})
        decisions = 0
        while not game.is_over(state) and len(positions) < count:
            legal = game.legal_actions(state)
            if len(legal) >= 2 and decisions % 15 == 5:
                positions.append(state.copy())
            game.apply(state, rng.choice(legal))
            decisions += 1
    return positions


def mcts_seconds(catalog, positions, playouts: int, seed: int) -> list[float]:
    game = game_for("dragonstone-mine")
    times = []
    for number, state in enumerate(positions):
        bot = MctsBot(seed + number, Budget(playouts=playouts))
        start = time.process_time()  # one core's time, as the target is stated
        bot.choose(game, state)
        times.append(time.process_time() - start)
    return times


def case_rate(case: Case, games: int, seed: int, repeats: int) -> float:
    catalog = load_catalog(builtin_catalog_path(case.game))
    return games_per_second(
        game_for(case.game), catalog, case.bots, case.options, games, seed, repeats
    )


def baseline_rate(checkout: Path, number: int, games: int, seed: int, repeats: int) -> float:
    """CASES[number] played by the engines of another checkout (this script, run by a
    child process whose protopress is that checkout's)."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, __file__, "--one-case", str(number), "--games", str(games)]
    command += ["--seed", str(seed), "--repeats", str(repeats)]
    found = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(json.loads(found.stdout)["games_per_second"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="games per run, scaled")
    parser.add_argument("--mcts-moves", type=int, default=6)
    parser.add_argument("--baseline", type=Path, help="a checkout to compare with, case by case")
    parser.add_argument("--one-case", type=int, help=argparse.SUPPRESS)  # for --baseline
    parser.add_argument("--games", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--no-mcts", action="store_true", help="skip the MCTS move timing")
    parser.add_argument(
        "--only", action="append", metavar="GAME", help="only this game's cases (repeatable)"
    )
    args = parser.parse_args()
    if args.one_case is not None:
        rate = case_rate(CASES[args.one_case], args.games, args.seed, args.repeats)
        print(json.dumps({"games_per_second": rate}))
        return
    if args.baseline is not None and not (args.baseline / "protopress").is_dir():
        parser.error(f"--baseline {args.baseline}: no protopress package in that folder")

    def scaled(games: int) -> int:
        return max(1, round(games * args.scale))

    race = games_per_second(
        _Race(), None, ["random"] * 4, {}, scaled(2000), args.seed, args.repeats
    )
    print(f"baseline: dice race, 4 random bots, {race:,.0f} games/s\n")
    header = f"{'game, bots':<34}{'games/s':>9}{'x race':>9}{'target':>9}  met"
    if args.baseline is not None:
        header += f"{'baseline':>11}{'gain':>7}"
    print(header)
    for number, case in enumerate(CASES):
        if args.only and case.game not in args.only:
            continue
        catalog = load_catalog(builtin_catalog_path(case.game))
        rate = case_rate(case, scaled(case.games), args.seed, args.repeats)
        met = "yes" if case.target and rate >= case.target else "no"
        line = f"{case.label:<34}{rate:9.1f}{race / rate:9.0f}{case.target:9.0f}  {met:<3}"
        if args.baseline is not None:
            base = baseline_rate(args.baseline, number, scaled(case.games), args.seed, args.repeats)
            line += f"{base:11.1f}{rate / base:6.2f}x"
        print(line, flush=True)
        if case.game == "gemstone-caverns" and case.bots[0] == "greedy":
            book = games_per_second(
                BookCaverns(), catalog, case.bots, case.options, scaled(2), args.seed, 1
            )
            print(
                f"{'  the same, look-ahead by the book':<34}{book:9.1f}{race / book:9.0f}"
                f"{'':>9}  (fast paths {rate / book:.0f}x)"
            )

    if args.no_mcts or (args.only and "dragonstone-mine" not in args.only):
        return
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    positions = mcts_positions(catalog, args.mcts_moves, args.seed)
    times = [
        min(runs)
        for runs in zip(
            *(mcts_seconds(catalog, positions, 1000, args.seed) for _ in range(args.repeats)),
            strict=True,
        )
    ]
    worst, mean = max(times), statistics.mean(times)
    print(
        f"\nMCTS move, DragonStone level 2 (2 players), 1,000 playouts, {len(times)} positions: "
        f"CPU time mean {mean:.3f} s, slowest {worst:.3f} s; target under {MCTS_TARGET} s: "
        f"{'met' if worst < MCTS_TARGET else 'not met'}"
    )


if __name__ == "__main__":
    main()
