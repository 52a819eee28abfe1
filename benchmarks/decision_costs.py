"""Where a decision's time goes, part by part, against the play loop's own floor.

engine_speed.py gives each case's microseconds a decision. This script splits
a decision into its parts, in the same games the simulate loop plays (the
same seeds, bots and options):

- list: the game's legal_actions;
- choose: the bot's choice (for a greedy bot, its whole look-ahead);
- apply: the game's apply;
- loop: the rest (is_over, to_move, setting up, the record), per decision.

and sets the rules' part (list + choose + apply) beside its baseline, the
loop's floor a decision: what the same loop costs with a trivial game (the
dice races of engine_speed.py, measured in the same run). "x floor" is how
many times that floor the rules' part costs: comparable across runs and
machines where the microseconds are not, so a part that grows shows as a
regression.

Parts are wall time (perf_counter_ns, 66 ns a reading here, its own cost
measured and taken off), each the best of --repeats runs: CPU time clocks
cost 300 ns a reading, too much beside parts of one or two microseconds.
Wall time on a shared machine moves with the neighbours, so read the parts
against one another and against the race measured in the same run.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from engine_speed import CASES, Case, measure_floor
from figures import Figure, add_json_option, write_json

from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.bot_names import make_bot
from protopress.rules.core import derive_seed
from protopress.rules.registry import game_for


@dataclass(frozen=True)
class Parts:
    """Microseconds a decision, by part, and decisions a game."""

    decisions: float
    listing: float
    choosing: float
    applying: float
    loop: float

    @property
    def rules(self) -> float:
        return self.listing + self.choosing + self.applying

    @property
    def total(self) -> float:
        return self.rules + self.loop


def _reading_cost(samples: int = 100_000) -> float:
    """Nanoseconds between two back-to-back readings of the clock."""
    clock = time.perf_counter_ns
    start = clock()
    for _ in range(samples):
        clock()
    return (clock() - start) / samples


def split(case: Case, games: int, seed: int, reading: float) -> Parts:
    """The case's games of seeds (seed, 0), (seed, 1), ... as simulate plays them,
    each decision's listing, choosing and applying timed apart."""
    game = game_for(case.game)
    catalog = load_catalog(builtin_catalog_path(case.game))
    clock = time.perf_counter_ns
    listing = choosing = applying = 0
    decisions = 0
    start = clock()
    for index in range(games):
        game_seed = derive_seed(seed, "game", index)
        state = game.setup(catalog, len(case.bots), random.Random(game_seed), case.options)
        bots = [
            make_bot(name, derive_seed(game_seed, "bot", seat))
            for seat, name in enumerate(case.bots)
        ]
        while not game.is_over(state):
            t0 = clock()
            legal = game.legal_actions(state)
            t1 = clock()
            action = bots[game.to_move(state)].choose(game, state, legal)
            t2 = clock()
            game.apply(state, action)
            t3 = clock()
            listing += t1 - t0
            choosing += t2 - t1
            applying += t3 - t2
            decisions += 1
        game.scores(state), game.winners(state), game.record(state)
    whole = clock() - start
    # each part's interval holds one reading's cost; the loop pays the readings too
    per = 1e-3 / decisions
    parts = [
        (listing - reading * decisions) * per,
        (choosing - reading * decisions) * per,
        (applying - reading * decisions) * per,
    ]
    loop = (whole - listing - choosing - applying - reading * decisions) * per
    return Parts(decisions / games, *parts, loop)


def best_split(case: Case, games: int, seed: int, repeats: int, reading: float) -> Parts:
    """Each part's smallest over repeats runs of new games; their mean decisions a game."""
    split(case, 1, seed - 1, reading)  # warm the engine's tables, as engine_speed.py does
    runs = [split(case, games, seed + run, reading) for run in range(repeats)]
    return Parts(
        decisions=sum(run.decisions for run in runs) / len(runs),
        listing=min(run.listing for run in runs),
        choosing=min(run.choosing for run in runs),
        applying=min(run.applying for run in runs),
        loop=min(run.loop for run in runs),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="games per run, scaled")
    parser.add_argument(
        "--only", action="append", metavar="GAME", help="only this game's cases (repeatable)"
    )
    add_json_option(parser)
    args = parser.parse_args()

    def scaled(games: int) -> int:
        return max(1, round(games * args.scale))

    race, floor = measure_floor(scaled, args.seed, args.repeats)
    reading = _reading_cost()
    print(
        f"the dice race, 4 random bots: {race.games_per_second:,.0f} games/s; the loop's floor "
        f"{floor.per_game:.0f} us a game and {floor.per_decision:.2f} us a decision "
        f"(a clock reading: {reading:.0f} ns, taken off)\n"
    )
    print(
        f"{'game, bots':<32}{'list':>7}{'choose':>8}{'apply':>7}{'loop':>7}{'total':>8}"
        f"{'x floor':>9}   (us a decision; x floor: the rules' part)"
    )
    figures = []
    for case in CASES:
        if args.only and case.game not in args.only:
            continue
        parts = best_split(case, scaled(case.games), args.seed, args.repeats, reading)
        print(
            f"{case.label:<32}{parts.listing:7.1f}{parts.choosing:8.1f}{parts.applying:7.1f}"
            f"{parts.loop:7.1f}{parts.total:8.1f}{parts.rules / floor.per_decision:8.1f}x",
            flush=True,
        )
        floor_name = "the loop's floor a decision (dice races)"
        for part, value in (
            ("list", parts.listing),
            ("choose", parts.choosing),
            ("apply", parts.applying),
            ("list + choose + apply", parts.rules),
        ):
            figures.append(
                Figure(f"{case.label}: {part}", value, "us a decision", floor.per_decision,
                       floor_name)
            )  # fmt: skip
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
