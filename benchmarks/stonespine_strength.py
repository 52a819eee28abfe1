"""Stonespine Architects: how well the greedy bot plays, on fixed seeds, so that
two checkouts (two versions of the bot) can be compared game by game.

Solo at both difficulties: the player's win rate against the rival (95% Wilson
interval) and the mean margin, player minus rival (normal 95% interval);
multiplayer (three greedy players): the mean score of a seat. With --baseline
DIR every line is also played by that checkout's bot (a child process whose
protopress is DIR's), on the same seeds, and the paired difference of the
margins (or scores) is given with its 95% interval: a bot change that makes
the bot weaker shows as a difference below zero.

    PYTHONPATH=$PWD python benchmarks/stonespine_strength.py --games 300 --baseline /tmp/baseline
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from figures import Figure, add_json_option, write_json

from protopress.balance.intervals import mean_interval, proportion
from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.registry import game_for
from protopress.rules.simulate import simulate

LINES = {  # name: (players, options)
    "solo normal": (1, {"solo": True, "difficulty": "normal"}),
    "solo hard": (1, {"solo": True, "difficulty": "hard"}),
    "three players": (3, {}),
}


def played(name: str, games: int, seed: int) -> list[dict]:
    """Per game: won (solo), margin (solo: player minus rival) or the seats' scores."""
    players, options = LINES[name]
    game = game_for("stonespine-architects")
    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    records = simulate(game, catalog, ["greedy"] * players, games, seed, options)
    if players == 1:
        return [
            {"won": bool(r.outcome.solo_won), "margin": r.scores[0] - r.outcome.rival_score}
            for r in records
        ]
    return [{"scores": list(r.scores)} for r in records]


def measure(name: str, games: int, seed: int, checkout: Path | None) -> list[dict]:
    if checkout is None:
        return played(name, games, seed)
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, __file__, "--one", name, "--games", str(games), "--seed", str(seed)]
    found = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(found.stdout)


def values(name: str, games: list[dict]) -> list[float]:
    """The figure paired game by game: the margin (solo) or the mean seat score."""
    if LINES[name][0] == 1:
        return [g["margin"] for g in games]
    return [sum(g["scores"]) / len(g["scores"]) for g in games]


def summary(name: str, games: list[dict]) -> str:
    figure = mean_interval(values(name, games))
    text = f"mean {figure['mean']:+.2f} ({figure['low']:+.2f} to {figure['high']:+.2f})"
    if LINES[name][0] == 1:
        wins = proportion(sum(g["won"] for g in games), len(games))
        return f"wins {wins['rate']:.1%} ({wins['low']:.1%}-{wins['high']:.1%}), margin {text}"
    return f"seat score {text}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--baseline", type=Path, help="a checkout to compare with, seed by seed")
    parser.add_argument("--one", choices=sorted(LINES), help=argparse.SUPPRESS)  # for --baseline
    add_json_option(parser)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(played(args.one, args.games, args.seed)))
        return
    print(f"{args.games} games a line, seeds from {args.seed}")
    figures = []
    for name in LINES:
        now = measure(name, args.games, args.seed, None)
        print(f"{name:<14} now:      {summary(name, now)}")
        figure = "mean margin, player minus rival" if LINES[name][0] == 1 else "mean seat score"
        mean_now = mean_interval(values(name, now))["mean"]
        if args.baseline is None:
            figures.append(Figure(f"{name}: {figure}", mean_now, "points", better="higher"))
            continue
        base = measure(name, args.games, args.seed, args.baseline)
        print(f"{'':<14} baseline: {summary(name, base)}")
        paired = [a - b for a, b in zip(values(name, now), values(name, base), strict=True)]
        diff = mean_interval(paired)
        print(
            f"{'':<14} now minus baseline, paired: {diff['mean']:+.2f} "
            f"({diff['low']:+.2f} to {diff['high']:+.2f})",
            flush=True,
        )
        mean_base = mean_interval(values(name, base))["mean"]
        figures.append(Figure(f"{name}: {figure}", mean_now, "points", mean_base,
                              f"{args.baseline}", better="higher"))  # fmt: skip
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
