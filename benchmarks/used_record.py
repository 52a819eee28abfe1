"""The kit's record of components used (rules/used.py): what it costs a balance run.

Each case plays the same seeded games, greedy in every seat, the way a balance
worker plays them (rules.simulate.play), three ways in one run:

- off (the baseline): the kit records nothing (`play(..., record_use=False)`);
- on: as a balance run plays: the game's own `used` wins, so the kit's recorder
  is not run (one look at the record of the new game);
- kit: the game's record without `used` (the engine subclassed), so the kit's
  recorder watches every action: what a designer's rules without `used` pay.

Games per CPU second (process time: the machine is shared), each game played the
three ways in turn; each figure is the best of --repeats rounds. Compare the
ratios, not the figures alone.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from typing import Any

from figures import Figure, add_json_option, write_json

from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.core import derive_seed
from protopress.rules.plugins import resolve_spec
from protopress.rules.simulate import play

CASES = [  # (label, game, players, options, games per round)
    ("dragonstone-mine level 2, 2 x greedy", "dragonstone-mine", 2, {"level": "2"}, 60),
    ("gem-rush crisis, 2 x greedy", "gem-rush", 2, {}, 12),
    ("gem-rush rush, 2 x greedy", "gem-rush", 2, {"mode": "rush"}, 12),
]


def without_used(game_id: str) -> Any:
    """A new engine of game_id whose record leaves out `used`: the kit records it."""
    spec = resolve_spec(game_id, None)
    engine = spec.engine_class()

    def record(self: Any, state: Any) -> dict[str, Any]:
        return {k: v for k, v in engine.record(self, state).items() if k != "used"}

    forgetful = type(f"{engine.__name__}WithoutUsed", (engine,), {"record": record})
    return replace(spec, engine=forgetful).new_game()


def rates(ways: dict[str, tuple[Any, bool]], catalog: Any, players: int, options: dict,
          games: int) -> dict[str, float]:  # fmt: skip
    """Games per CPU second of each way, each game played every way in turn (so that
    the machine's load falls alike on all of them)."""
    seconds = dict.fromkeys(ways, 0.0)
    for index in range(games):
        seed = derive_seed(1, "game", index)
        for way, (game, record_use) in ways.items():
            started = time.process_time()
            play(game, catalog, ["greedy"] * players, seed, options, record_use=record_use)
            seconds[way] += time.process_time() - started
    return {way: games / spent for way, spent in seconds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="games per round, scaled")
    add_json_option(parser)
    args = parser.parse_args()
    figures = []
    print(f"{'case':40} {'off':>8} {'on':>8} {'kit':>8} {'on/off':>7} {'kit/off':>8}")
    for label, game_id, players, options, games in CASES:
        count = max(1, round(games * args.scale))
        catalog = load_catalog(builtin_catalog_path(game_id))
        own = resolve_spec(game_id, None).new_game()
        kit = without_used(game_id)
        ways = {"off": (own, False), "on": (own, True), "kit": (kit, True)}
        best = dict.fromkeys(ways, 0.0)
        for _ in range(args.repeats):
            for way, rate in rates(ways, catalog, players, options, count).items():
                best[way] = max(best[way], rate)
        print(
            f"{label:40} {best['off']:8.1f} {best['on']:8.1f} {best['kit']:8.1f} "
            f"{best['on'] / best['off']:7.2f} {best['kit'] / best['off']:8.2f}"
        )
        for way, says in (("on", "the game's own used"), ("kit", "the kit's recorder")):
            figures.append(
                Figure(
                    f"{label}, {says}",
                    best[way],
                    "games/CPU s",
                    best["off"],
                    "nothing recorded",
                    better="higher",
                )  # fmt: skip
            )
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
