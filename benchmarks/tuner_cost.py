"""The tuner's cost in games played to solve the planted case: Cottage Market
(examples/cottage-market) with Cottage, a two-wood card worth 2 points, made
worth --planted points, tuned back with the goals of docs/balance.md ("Tuning").

    .venv/bin/python benchmarks/tuner_cost.py [--planted 12] [--games 400] [--batch 100]
        [--seeds 3] [--budget 20000]

Each seed is one search (protopress.balance.tune, greedy bots, two players).
The baseline is the same search without sequential testing: every candidate it
tried played in full (--games each). Counted in games, not seconds, so the
figures hold on any machine.

No bare baseline (a process that imports nothing of ours): the figure is a count of
the games a search plays, not a time, and the search is the kit's own; a search
written again outside the kit would count the same games, and the same search with
every candidate played in full is what sequential testing is measured against.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from figures import Figure, add_json_option, write_json

from protopress.balance.goals import parse_goal
from protopress.balance.tune import Tuner, balance_batches, resolve_vary, tune

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "cottage-market"
GOALS = ("mean score 15-22", "no component effect above 80 points")
VARY = ("cards.*.points",)


def planted_document(points: int) -> dict:
    document = json.loads((EXAMPLE / "catalog.json").read_text(encoding="utf-8"))
    for card in document["cards"]:
        if card["id"] == "cottage":
            card["points"] = points
    return document


def search(points: int, games: int, batch: int, budget: int, seed: int) -> dict:
    document = planted_document(points)
    play = balance_batches(
        "cottage-market", 2, ["greedy", "greedy"], seed, rules=str(EXAMPLE / "rules.py")
    )
    with tempfile.TemporaryDirectory() as work:
        tuner = Tuner("cottage-market", document, [parse_goal(g) for g in GOALS],
                      resolve_vary(document, VARY), play, Path(work), games=games, batch=batch,
                      budget=budget)  # fmt: skip
        outcome = tune(tuner)
    return {
        "seed": seed,
        "fix": [str(edit) for edit in outcome.edits],
        "solved": outcome.fix is not None,
        "played": outcome.played,
        "candidates": outcome.candidates,
        "in_full": (outcome.candidates + 1) * games,  # every candidate played in full
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--planted", type=int, default=12, help="Cottage's planted points")
    parser.add_argument("--games", type=int, default=400, help="games a candidate plays in full")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--seeds", type=int, default=3, help="searches, seeds 0, 1, ...")
    add_json_option(parser)
    options = parser.parse_args()
    runs = [
        search(options.planted, options.games, options.batch, options.budget, seed)
        for seed in range(options.seeds)
    ]
    print(f"{'seed':>4}  {'fix':<32} {'candidates':>10} {'played':>8} {'in full':>8}")
    for run in runs:
        fix = ", ".join(run["fix"]) or "(none)"
        print(f"{run['seed']:>4}  {fix:<32} {run['candidates']:>10} {run['played']:>8,} "
              f"{run['in_full']:>8,}")  # fmt: skip
    played = statistics.fmean(run["played"] for run in runs)
    in_full = statistics.fmean(run["in_full"] for run in runs)
    solved = sum(run["solved"] for run in runs)
    print(f"solved {solved} of {len(runs)}; games played {played:,.0f} a search "
          f"(every candidate in full: {in_full:,.0f})")  # fmt: skip
    write_json(
        options.json,
        [
            Figure("games played to solve", played, "games", in_full, "every candidate in full"),
            Figure("searches solved", solved, "searches", len(runs), "searches", "higher"),
        ],
        details={"runs": runs, "goals": list(GOALS), "vary": list(VARY)},
    )


if __name__ == "__main__":
    main()
