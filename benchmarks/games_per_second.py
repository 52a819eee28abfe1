"""Complete games per second for each rules engine, with random and greedy bots.

Baseline, in the same run: a trivial game (a dice race: walk or roll until
someone reaches 10) played through the same simulate loop, so ratios show what
each game's rules cost on top of the engine's own loop.
"""

from __future__ import annotations

import argparse
import random
import time

from figures import Figure, add_json_option, write_json

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games import known_ids
from protopress.rules.core import top_seats
from protopress.rules.registry import game_for
from protopress.rules.simulate import simulate


class _Race:
    id, min_players, max_players = "dice-race", 1, 8

    class State:
        def __init__(self, players, rng):
            self.positions, self.seat, self.turns, self.rng = [0] * players, 0, 0, rng

        def copy(self):
            other = _Race.State.__new__(_Race.State)
            other.positions, other.seat, other.turns = list(self.positions), self.seat, self.turns
            other.rng = random.Random()
            other.rng.setstate(self.rng.getstate())
            return other

    def setup(self, catalog, players, rng, options):
        return self.State(players, rng)

    def to_move(self, state):
        return None if self.is_over(state) else state.seat

    def legal_actions(self, state):
        return [("walk",), ("roll",)]

    def apply(self, state, action):
        state.positions[state.seat] += 1 if action == ("walk",) else state.rng.randint(1, 6)
        state.seat = (state.seat + 1) % len(state.positions)
        state.turns += 1

    def is_over(self, state):
        return max(state.positions) >= 10

    def scores(self, state):
        return list(state.positions)

    def winners(self, state):
        return top_seats(state.positions)

    def heuristic(self, state, seat):
        return state.positions[seat]

    def record(self, state):
        return {}


CASES = [  # (game, players, bots, options)
    ("gemstone-caverns", 4, ["random"], {}),
    ("gemstone-caverns", 4, ["greedy"], {}),
    ("dragonstone-mine", 4, ["random"], {"level": "smiley"}),
    ("dragonstone-mine", 4, ["greedy"], {"level": "smiley"}),
    ("dragonstone-mine", 4, ["random"], {"level": "2"}),
    ("dragonstone-mine", 4, ["greedy"], {"level": "2"}),
]


def rate(game, catalog, players, bots, options, games, seed) -> float:
    start = time.perf_counter()
    simulate(game, catalog, bots * players if len(bots) == 1 else bots, games, seed, options)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    add_json_option(parser)
    args = parser.parse_args()
    figures = []
    baseline = rate(_Race(), None, 4, ["random"], {}, args.games * 50, args.seed)
    print(f"baseline dice race, 4 random bots: {baseline:,.0f} games/s")
    for game_id, players, bots, options in CASES:
        if game_id not in known_ids():
            continue
        catalog = load_catalog(builtin_catalog_path(game_id))
        per_second = rate(game_for(game_id), catalog, players, bots, options, args.games, args.seed)
        label = f"{game_id} {options.get('level', '')} {players} x {bots[0]}".replace("  ", " ")
        print(
            f"{label:<40} {per_second:8.1f} games/s ({baseline / per_second:,.0f}x the baseline's time)"
        )
        figures.append(Figure(label, 1e3 / per_second, "ms a game", 1e3 / baseline, "dice race"))
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
