"""Rules-engine speed, watched for regressions: complete games per second per
game, mode and bots, and the time of one 1,000-playout MCTS move, each read
against a baseline measured in the same run (issue 17's games-per-second
targets are withdrawn: what is checked now is that no case gets slower).

Baselines, measured in the same run:

- a trivial dice race (games_per_second.py) through the same simulate loop:
  each figure is also given as "x race", how many race games one game costs,
  which is comparable across machines where the figures alone are not, and
  as microseconds a decision ("us/dec"); a race to 100 beside it splits the
  loop's own cost into a part per game and a part per decision, and
  "ceiling" is the games a second of a game of that many decisions whose
  rules cost no more than the race's (random bots: no engine of the loop can
  beat it);
- Gemstone Caverns greedy by the book: the same bots looking ahead with a copy,
  apply and heuristic per action and the best fit found one placement at a
  time (the reference paths the fast ones are tested against), so the gain of
  the fast paths is a same-run ratio.

- with --baseline DIR (a checkout of an earlier commit, e.g. made with
  `git worktree add /tmp/baseline main`), every case is also played by that
  checkout's engines, in a child process, and the table gives both and their
  ratio (the regression check: below 1.00x is slower). The two take turns, one run each (this checkout's, then the
  baseline's, --repeats times), so that both meet the machine's same slow and
  quick moments: on a shared host its speed moves by 1.5x within minutes.

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

from figures import Figure, add_json_option, write_json
from games_per_second import _Race

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gemstone_caverns.rules import GemstoneCaverns, _best_fit
from protopress.rules.mcts import Budget, MctsBot
from protopress.rules.registry import game_for
from protopress.rules.simulate import simulate


class _LongRace(_Race):
    """The dice race to 100: its games take about ten times the decisions, so that the
    two races together tell the loop's cost per game from its cost per decision."""

    def is_over(self, state):
        return max(state.positions) >= 100


@dataclass(frozen=True)
class Floor:
    """What the play loop, random bots and a trivial game's rules cost by themselves,
    from the two races: per game (setting up, seeding the bots, the record) and per
    decision (listing, choosing, applying)."""

    per_game: float  # microseconds
    per_decision: float

    @classmethod
    def of(cls, short: Rate, long: Rate) -> Floor:
        per_decision = (1e6 / long.games_per_second - 1e6 / short.games_per_second) / (
            long.decisions - short.decisions
        )
        return cls(1e6 / short.games_per_second - per_decision * short.decisions, per_decision)

    def ceiling(self, decisions: float) -> float:
        """Games a second of a game of that many decisions whose rules cost nothing
        more than the race's."""
        return 1e6 / (self.per_game + self.per_decision * decisions)


class BookCaverns(GemstoneCaverns):
    """Gemstone Caverns with the look-ahead by the book: made without its spec, so
    without its BotSupport (the greedy bot copies, applies and judges each action)."""

    def best_fit(self, state, seat: int) -> int:
        return _best_fit(state, seat)


@dataclass(frozen=True)
class Case:
    game: str
    bots: tuple[str, ...]
    options: dict
    games: int  # per timed run
    label: str


CASES = (
    Case("gemstone-caverns", ("greedy",) * 4, {}, 20, "Gemstone Caverns, 4 greedy"),
    Case("gemstone-caverns", ("random",) * 4, {}, 200, "Gemstone Caverns, 4 random"),
    Case("dragonstone-mine", ("greedy",) * 4, {"level": "2"}, 20, "DragonStone level 2, 4 greedy"),
    Case("gem-rush", ("greedy",) * 4, {"mode": "crisis"}, 20, "Gem Rush Crisis, 4 greedy"),
    Case("gem-rush", ("random",) * 4, {"mode": "crisis"}, 100, "Gem Rush Crisis, 4 random"),
    Case("stonespine-architects", ("greedy",), {}, 40, "Stonespine solo, greedy"),
)  # fmt: skip
MCTS_CASE = -1  # --one-case's number for the MCTS moves (a baseline's child process)


@dataclass(frozen=True)
class Rate:
    games_per_second: float
    decisions: float  # per game, on average over the timed runs

    @property
    def per_decision(self) -> float:
        """Microseconds a decision: the game's time spread over its decisions, the
        bots' choices and the play loop included."""
        return 1e6 / (self.games_per_second * self.decisions)


def games_per_second(game, catalog, bots, options, games: int, seed: int, repeats: int) -> Rate:
    """The best of repeats runs, each of new games (seeds seed, seed + 1, ...): replaying
    the same games would let the engines' memos (path scores, payments) answer
    everything the second time, which no real run enjoys."""
    simulate(game, catalog, list(bots), 1, seed - 1, options)  # warm the engine's tables
    times, decisions = [], []
    for run in range(repeats):
        start = time.process_time()  # CPU time: the machine is shared, wall time is noise
        records = simulate(game, catalog, list(bots), games, seed + run, options)
        times.append(time.process_time() - start)
        decisions += [record.decisions for record in records]
    return Rate(games / min(times), statistics.mean(decisions))


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
        start = time.process_time()  # one core's time: the machine is shared
        bot.choose(game, state)
        times.append(time.process_time() - start)
    return times


def measure_floor(scaled, seed: int, repeats: int) -> tuple[Rate, Floor]:
    """The race to 10's rate and the loop's floor from it and the race to 100 (scaled:
    games per run, scaled as --scale says)."""
    race = games_per_second(_Race(), None, ["random"] * 4, {}, scaled(2000), seed, repeats)
    long_race = games_per_second(_LongRace(), None, ["random"] * 4, {}, scaled(200), seed, repeats)
    return race, Floor.of(race, long_race)


def case_rate(case: Case, games: int, seed: int, repeats: int) -> Rate:
    catalog = load_catalog(builtin_catalog_path(case.game))
    return games_per_second(
        game_for(case.game), catalog, case.bots, case.options, games, seed, repeats
    )


def interleaved_rates(
    case: Case, number: int, checkout: Path, games: int, seed: int, repeats: int
) -> tuple[Rate, float]:
    """case_rate and baseline_rate in turns, one run each: run r of both plays the
    games of seed + r. Each side's figure is the best of its runs."""
    ours: list[Rate] = []
    theirs: list[float] = []
    for run in range(repeats):
        ours.append(case_rate(case, games, seed + run, 1))
        theirs.append(baseline_rate(checkout, number, games, seed + run, 1))
    best = max(rate.games_per_second for rate in ours)
    return Rate(best, statistics.mean(rate.decisions for rate in ours)), max(theirs)


def best_per_position(runs: list[list[float]]) -> list[float]:
    """Each position's fastest time over the runs."""
    return [min(times) for times in zip(*runs, strict=True)]


def baseline_mcts_seconds(checkout: Path, moves: int, seed: int) -> list[float]:
    """mcts_seconds of the same positions, played by another checkout's engines."""
    found = _baseline_run(checkout, [str(MCTS_CASE), "--mcts-moves", str(moves)], seed)
    return [float(seconds) for seconds in found["seconds"]]


def _baseline_run(checkout: Path, case: list[str], seed: int) -> dict:
    """This script's --one-case run (case: its number and options) in a child
    process whose protopress is checkout's: what it printed, as JSON."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, __file__, "--one-case", *case, "--seed", str(seed)]
    found = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(found.stdout)


def baseline_rate(checkout: Path, number: int, games: int, seed: int, repeats: int) -> float:
    """CASES[number] played by the engines of another checkout."""
    case = [str(number), "--games", str(games), "--repeats", str(repeats)]
    return float(_baseline_run(checkout, case, seed)["games_per_second"])


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
    add_json_option(parser)
    args = parser.parse_args()
    if args.one_case == MCTS_CASE:
        catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
        positions = mcts_positions(catalog, args.mcts_moves, args.seed)
        print(json.dumps({"seconds": mcts_seconds(catalog, positions, 1000, args.seed)}))
        return
    if args.one_case is not None:
        rate = case_rate(CASES[args.one_case], args.games, args.seed, args.repeats)
        print(json.dumps({"games_per_second": rate.games_per_second}))
        return
    if args.baseline is not None and not (args.baseline / "protopress").is_dir():
        parser.error(f"--baseline {args.baseline}: no protopress package in that folder")

    def scaled(games: int) -> int:
        return max(1, round(games * args.scale))

    race, floor = measure_floor(scaled, args.seed, args.repeats)
    print(
        f"baseline: dice race, 4 random bots, {race.games_per_second:,.0f} games/s; "
        f"the loop's floor (races to 10 and to 100): {floor.per_game:.0f} us a game "
        f"and {floor.per_decision:.2f} us a decision\n"
    )
    figures: list[Figure] = []
    race_ms = 1e3 / race.games_per_second
    header = f"{'game, bots':<34}{'games/s':>9}{'x race':>9}"
    header += f"{'decisions':>10}{'us/dec':>8}{'ceiling':>9}"
    if args.baseline is not None:
        header += f"{'baseline':>11}{'gain':>7}"
    print(header)
    for number, case in enumerate(CASES):
        if args.only and case.game not in args.only:
            continue
        catalog = load_catalog(builtin_catalog_path(case.game))
        games = scaled(case.games)
        if args.baseline is not None:
            found, base = interleaved_rates(
                case, number, args.baseline, games, args.seed, args.repeats
            )
        else:
            found = case_rate(case, games, args.seed, args.repeats)
        rate = found.games_per_second
        line = f"{case.label:<34}{rate:9.1f}{race.games_per_second / rate:9.0f}"
        line += f"{found.decisions:10.0f}{found.per_decision:8.1f}"
        line += f"{floor.ceiling(found.decisions):9.0f}"
        figures.append(Figure(case.label, 1e3 / rate, "ms a game", race_ms, "dice race"))
        if args.baseline is not None:
            line += f"{base:11.1f}{rate / base:6.2f}x"
            figures.append(
                Figure(f"{case.label}, against --baseline", rate, "games/s", base,
                       f"{args.baseline}", better="higher")
            )  # fmt: skip
        print(line, flush=True)
        if case.game == "gemstone-caverns" and case.bots[0] == "greedy":
            book = games_per_second(
                BookCaverns(), catalog, case.bots, case.options, scaled(2), args.seed, 1
            ).games_per_second
            print(
                f"{'  the same, look-ahead by the book':<34}{book:9.1f}"
                f"{race.games_per_second / book:9.0f}  (fast paths {rate / book:.0f}x)"
            )
            figures.append(
                Figure(f"{case.label}, fast paths", 1e3 / rate, "ms a game", 1e3 / book,
                       "the look-ahead by the book")
            )  # fmt: skip

    if args.no_mcts or (args.only and "dragonstone-mine" not in args.only):
        write_json(args.json, figures)
        return
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    positions = mcts_positions(catalog, args.mcts_moves, args.seed)
    ours: list[list[float]] = []
    theirs: list[list[float]] = []
    for _ in range(args.repeats):  # in turns with the baseline's, one run each
        ours.append(mcts_seconds(catalog, positions, 1000, args.seed))
        if args.baseline is not None:
            theirs.append(baseline_mcts_seconds(args.baseline, args.mcts_moves, args.seed))
    times = best_per_position(ours)
    worst, mean = max(times), statistics.mean(times)
    print(
        f"\nMCTS move, DragonStone level 2 (2 players), 1,000 playouts, {len(times)} positions: "
        f"CPU time mean {mean:.3f} s, slowest {worst:.3f} s"
    )
    move = "MCTS move, DragonStone level 2, 1,000 playouts"
    if theirs:
        base = best_per_position(theirs)
        print(
            f"  baseline: mean {statistics.mean(base):.3f} s, slowest {max(base):.3f} s; "
            f"gain {statistics.mean(base) / mean:.2f}x (mean), {max(base) / worst:.2f}x (slowest)"
        )
        figures += [
            Figure(f"{move}, mean", mean, "s", statistics.mean(base), f"{args.baseline}"),
            Figure(f"{move}, slowest", worst, "s", max(base), f"{args.baseline}"),
        ]
    else:
        figures += [Figure(f"{move}, mean", mean, "s"), Figure(f"{move}, slowest", worst, "s")]
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
