"""Rules-engine cost in instructions, this checkout against a baseline checkout:
the steady reading beside engine_speed.py's timed one.

On a shared host a timed run moves by 1.5x within minutes, and ratios of 10%
drown in it. `valgrind --tool=callgrind` counts the instructions a run
executes: the same count for the same code and inputs whatever the
neighbours do. Each case of engine_speed.py (and the 1,000-playout MCTS move)
is run under callgrind by both checkouts, once with its games and once with
none; the difference is the games' own instructions (imports, catalog loading
and the engine's tables cancel out). The gain is baseline / this checkout.
Slow: valgrind runs Python about 50 times slower; --scale and --only keep a
look short. Needs valgrind (Debian package valgrind).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from engine_speed import CASES
from figures import Figure, add_json_option, write_json

HERE = Path(__file__).resolve().parent

# What one callgrind run executes: games of a case (by its number in CASES), or
# MCTS moves; with a count of 0 it loads everything and plays nothing.
RUN = """
import sys
sys.path.insert(0, {here!r})
from engine_speed import CASES, mcts_positions, mcts_seconds
from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.registry import game_for
from protopress.rules.simulate import simulate
number, count, seed = {number}, {count}, {seed}
if number < 0:
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    positions = mcts_positions(catalog, 6, seed)  # engine_speed.py's six
    if count:
        mcts_seconds(catalog, positions[:count], 1000, seed)
else:
    case = CASES[number]
    catalog = load_catalog(builtin_catalog_path(case.game))
    simulate(game_for(case.game), catalog, list(case.bots), count, seed, case.options)
"""


def instructions(checkout: Path, number: int, count: int, seed: int) -> int:
    """Instructions of one run (callgrind's "Collected"), protopress from checkout."""
    # one hash seed: str hashes (and so set and dict orders) are the same every run
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
    code = RUN.format(here=str(HERE), number=number, count=count, seed=seed)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    found = subprocess.run(
        [*command, sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True
    )
    if found.returncode != 0:
        raise SystemExit(f"the run under valgrind failed ({checkout}):\n{found.stderr[-2000:]}")
    total = re.search(r"Collected : (\d+)", found.stderr)
    if total is None:
        raise SystemExit("valgrind printed no instruction count")
    return int(total.group(1))


def games_instructions(checkout: Path, number: int, count: int, seed: int) -> int:
    """The games' own instructions: a run of count games less a run of none."""
    return instructions(checkout, number, count, seed) - instructions(checkout, number, 0, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout to compare with")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=0.5, help="games per case, scaled")
    parser.add_argument(
        "--mcts-moves", type=int, default=6, help="MCTS moves: the first of engine_speed.py's six"
    )
    parser.add_argument("--no-mcts", action="store_true", help="skip the MCTS moves")
    parser.add_argument(
        "--only", action="append", metavar="GAME", help="only this game's cases (repeatable)"
    )
    add_json_option(parser)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian package valgrind)")
    if not (args.baseline / "protopress").is_dir():
        parser.error(f"--baseline {args.baseline}: no protopress package in that folder")
    if not 1 <= args.mcts_moves <= 6:
        parser.error("--mcts-moves: 1 to 6")
    here = HERE.parent
    cases = [
        (number, case.label, max(1, round(case.games * args.scale)))
        for number, case in enumerate(CASES)
        if not args.only or case.game in args.only
    ]
    if not args.no_mcts and (not args.only or "dragonstone-mine" in args.only):
        cases.append((-1, "MCTS move, DragonStone L2, 1,000 playouts", args.mcts_moves))
    figures = []
    print(f"{'case':<44}{'count':>6}{'now (M)':>10}{'baseline (M)':>14}{'gain':>8}")
    for number, label, count in cases:
        now = games_instructions(here, number, count, args.seed)
        base = games_instructions(args.baseline, number, count, args.seed)
        print(f"{label:<44}{count:6d}{now / 1e6:10.0f}{base / 1e6:14.0f}{base / now:7.3f}x")
        figures.append(Figure(f"{label}, {count}", now / 1e6, "M instructions", base / 1e6,
                              f"{args.baseline}"))  # fmt: skip
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
