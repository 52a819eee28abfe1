"""Stonespine Architects solo games per second: a greedy player against the
rival, at normal and hard difficulty.

Baselines, measured in the same run on the same seeds:

- a solo game played by the random bot: the rules engine's own cost (setup,
  legal actions, applying them, the rival, final scoring) without the greedy
  bot's one-step look-ahead, which copies the state and scores every legal
  action;
- final scoring alone: `score_dungeon` on each finished dungeon (paths through
  dungeon.path_score, blueprint, stars, challenges), the least a game can cost.

Ratios against them are comparable across machines; the figures alone are not
(the machine is shared). Each figure is the best of --repeats runs.
"""

from __future__ import annotations

import argparse

from figures import Figure, add_json_option, write_json
from timing import best

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects.scoring import score_dungeon
from protopress.games.stonespine_architects.spec import SPEC
from protopress.rules.simulate import play

GAME = SPEC.new_game()  # with its BotSupport, as the commands play it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    add_json_option(parser)
    args = parser.parse_args()
    figures = []

    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    seeds = range(args.seed, args.seed + args.games)
    play(GAME, catalog, ["greedy"], args.seed)  # warm the catalog tables

    for difficulty in ("normal", "hard"):
        options = {"difficulty": difficulty}
        finished = []

        def greedy_games(options=options, finished=finished):
            finished.clear()
            for seed in seeds:
                finished.append(play(GAME, catalog, ["greedy"], seed, options))

        def random_games(options=options):
            for seed in seeds:
                play(GAME, catalog, ["random"], seed, options)

        greedy = best(greedy_games, args.repeats) / args.games
        states = [state for state, _, _ in finished]
        boards = [state.boards[0] for state in states]
        scoring = states[0].table.scoring

        def scoring_only(boards=boards, scoring=scoring):
            for board in boards:
                score_dungeon(
                    scoring,
                    board.dungeon(),
                    blueprint=board.blueprint.positions,
                    priority_place=1,
                    goal_place=1,
                    challenges=board.challenges,
                )

        base = best(scoring_only, args.repeats) / args.games
        random_game = best(random_games, args.repeats) / args.games
        records = [record for _, record, _ in finished]
        wins = sum(r.extra["won"] for r in records)
        margin = sum(r.extra["margin"] for r in records) / len(records)
        decisions = sum(r.decisions for r in records) / len(records)
        print(f"{difficulty}: {args.games} solo games, greedy player")
        print(f"  baseline, final scoring alone:   {base * 1e3:8.3f} ms per game")
        print(
            f"  baseline, random-bot game:        {random_game * 1e3:8.3f} ms per game "
            f"({random_game / base:.0f}x scoring)"
        )
        print(
            f"  greedy-bot game:                  {greedy * 1e3:8.3f} ms per game "
            f"({1 / greedy:.0f} games/s; {greedy / base:.0f}x scoring, "
            f"{greedy / random_game:.1f}x random)"
        )
        print(
            f"  {decisions:.0f} decisions per game; the greedy player won {wins} "
            f"({wins / args.games:.0%}), mean margin {margin:+.1f}"
        )
        figures += [
            Figure(f"{difficulty}: greedy-bot game", greedy * 1e3, "ms a game", random_game * 1e3,
                   "random-bot game"),
            Figure(f"{difficulty}: random-bot game", random_game * 1e3, "ms a game", base * 1e3,
                   "final scoring alone"),
        ]  # fmt: skip
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
