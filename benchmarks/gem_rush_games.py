"""Gem Rush rules engine: complete games per second, on one core.

Measured: four greedy bots in Crisis mode, four random bots in Rush mode, and
four random bots in Crisis mode (default skills, the built-in catalog; games
seeded as `protopress simulate` seeds them).

Baseline, measured in the same run: growing one random mine from the full
80-tile stack with protopress.games.gem_rush.mine_growth.grow_mine (the cost of
placing every tile of a game's mine, with no players, cards or rules). Each
figure is also given as games per baseline mine-growth, so the ratio is
comparable across machines.
"""

from __future__ import annotations

import argparse
import random

from figures import Figure, add_json_option, write_json
from timing import best

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.mine import room_stack
from protopress.games.gem_rush.mine_growth import grow_mine
from protopress.games.gem_rush.spec import SPEC
from protopress.rules.core import derive_seed
from protopress.rules.simulate import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="random-bot games per run")
    parser.add_argument("--greedy-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    add_json_option(parser)
    args = parser.parse_args()
    figures = []

    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    game = SPEC.new_game()  # with its BotSupport, as the commands play it
    stack = room_stack(catalog.of_kind("room-tile"))

    mines = 50
    rng = random.Random(args.seed)
    growth = best(lambda: [grow_mine(stack, rng) for _ in range(mines)], 3) / mines
    print(f"baseline: one full mine growth (grow_mine):  {growth * 1e3:7.2f} ms")

    cases = [
        ("crisis", "greedy", args.greedy_games),
        ("rush", "random", args.games),
        ("crisis", "random", args.games),
    ]
    for mode, bot, games in cases:
        decisions = turns = 0

        def run(mode=mode, bot=bot, games=games) -> None:
            nonlocal decisions, turns
            decisions = turns = 0
            for index in range(games):
                seed = derive_seed(args.seed, "game", index)
                _, record, _ = play(game, catalog, [bot] * 4, seed, {"mode": mode})
                decisions += record.decisions
                turns += record.turns

        elapsed = best(run, 3)
        per_game = elapsed / games
        print(
            f"{mode:<6} 4 x {bot:<6}: {games / elapsed:8.1f} games/s "
            f"({per_game * 1e3:7.2f} ms a game = {per_game / growth:5.1f} mine growths; "
            f"{turns / games:5.1f} turns, {decisions / games:6.1f} decisions, "
            f"{elapsed / decisions * 1e6:6.1f} us a decision)"
        )
        figures.append(
            Figure(f"{mode}, 4 x {bot}", per_game * 1e3, "ms a game", growth * 1e3,
                   "one full mine growth")
        )  # fmt: skip
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
