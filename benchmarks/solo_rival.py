"""Stonespine Architects solo: where the rival's reputation comes from, how often
each challenge is met, and the player's win rate with 95% intervals.

    .venv/bin/python benchmarks/solo_rival.py [--catalog FILE] [--bot greedy:4]
        [--games 300] [--difficulty normal --difficulty hard] [--workers 2]

Each game is played in this process's workers with the real rules engine and
bot (the same `play` loop as `protopress simulate`, seeded from --seed and the
game's index as the balance lab does). The rival's market tokens are split by
how it got them:

- **collected**: the tokens on its card, drawn when the player had no more gold
  than the card;
- **leftovers**: every token left on the market when the player passed.

Its reputation is split into the last card's base and condition, the stars on
its chamber cards, and the stars of each kind of token. For challenges, "met"
counts every game whose final dungeon satisfies the card's condition, claimed
or not (so an 18-star challenge met in 99% of games says nothing about whether
it was on offer); "claimed" and "scored" count the cards the player held.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from figures import Figure, add_json_option, write_json

from protopress.balance.intervals import mean_interval, wilson_interval
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects import rival as rival_module
from protopress.games.stonespine_architects.spec import SPEC
from protopress.rules.bot_names import make_bot
from protopress.rules.simulate import MAX_DECISIONS, derive_seed

GAME = SPEC.new_game()  # with its BotSupport, as the commands play it

_TARGET: list = [None]  # the rival of the game being played (not the bots' copies)
_SOURCES: dict[str, list] = {"collected": [], "leftovers": []}


def _tally(source: str, original):
    def wrapper(self, tokens):
        tokens = list(tokens)
        if self is _TARGET[0]:
            _SOURCES[source].extend(tokens)
        return original(self, tokens)

    return wrapper


rival_module.Rival.collect = _tally("collected", rival_module.Rival.collect)  # type: ignore[method-assign]
rival_module.Rival.take_market = _tally("leftovers", rival_module.Rival.take_market)  # type: ignore[method-assign]

_CATALOGS: dict[str, object] = {}


def _catalog(path: str):
    if path not in _CATALOGS:
        _CATALOGS[path] = load_catalog(path)
    return _CATALOGS[path]


def play_one(job: tuple[str, str, str, int]) -> dict:
    path, bot, difficulty, seed = job
    catalog = _catalog(path)
    options = {"solo": True, "difficulty": difficulty}
    state = GAME.setup(catalog, 1, random.Random(seed), options)
    _TARGET[0] = state.rival
    for pile in _SOURCES.values():
        pile.clear()
    player = make_bot(bot, derive_seed(seed, "bot", 0))
    decisions = 0
    while not GAME.is_over(state) and decisions < MAX_DECISIONS:
        GAME.apply(state, player.choose(GAME, state))
        decisions += 1
    record = GAME.record(state)
    board = state.boards[0]
    scoring = state.table.scoring
    dungeon = board.dungeon()
    paths = board.path(state.table)
    met = {
        c.id: scoring.condition_holds(c.condition, dungeon, paths) for c in state.table.challenges
    }
    claimed = [c.id for c in board.challenges]
    return {
        "won": record["won"],
        "player": record["player_total"],
        "rival_total": record["rival_total"],
        "margin": record["margin"],
        "rival": record["rival"],
        "categories": {k: v[0] for k, v in record["categories"].items()},
        "collected": [(t.element, t.stars) for t in _SOURCES["collected"]],
        "leftovers": [(t.element, t.stars) for t in _SOURCES["leftovers"]],
        "met": met,
        "claimed": claimed,
        "scored": [c for c in claimed if met[c]],
        "last_card": record["rival_cards"][-1],
        "final_gold": record["final_gold"],
        "bought": sum(len(p) for p in board.placed),
    }


def _mean(values) -> str:
    m = mean_interval(list(values))
    return f"{m['mean']:6.1f} ({m['low']:.1f}-{m['high']:.1f})"


def report(games: list[dict], difficulty: str, bot: str) -> list[Figure]:
    """Prints the games' analysis; the win rate and the mean margin as figures."""
    n = len(games)
    wins = sum(g["won"] for g in games)
    low, high = wilson_interval(wins, n)
    print(f"\n== {difficulty}, {bot}, {n} games ==")
    print(f"player wins {wins / n:.1%} (95% {low:.1%}-{high:.1%})")
    print(f"player total  {_mean(g['player'] for g in games)}")
    print(f"rival total   {_mean(g['rival_total'] for g in games)}")
    print(f"margin        {_mean(g['margin'] for g in games)}"
          f"  sd {statistics.pstdev(g['margin'] for g in games):.1f}")  # fmt: skip
    print("player categories: " + ", ".join(
        f"{k} {statistics.fmean(g['categories'][k] for g in games):.1f}"
        for k in games[0]["categories"]))  # fmt: skip
    print(f"player tokens placed {statistics.fmean(g['bought'] for g in games):.1f}")
    print("rival reputation:")
    for part in ("base", "condition", "chamber_stars"):
        print(f"  {part:<22}{statistics.fmean(g['rival'][part] for g in games):6.1f}")
    for source in ("collected", "leftovers"):
        stars = statistics.fmean(sum(s for _, s in g[source]) for g in games)
        count = statistics.fmean(len(g[source]) for g in games)
        print(f"  token stars, {source:<9}{stars:6.1f}   ({count:.1f} tokens a game)")
        elements = sorted({e for g in games for e, _ in g[source]})
        print("      by element: " + ", ".join(
            f"{e} {statistics.fmean(sum(x == e for x, _ in g[source]) for g in games):.1f}"
            for e in elements))  # fmt: skip
    print("by the last rival card (its base and condition count): share, base + condition, wins")
    for card in sorted({g["last_card"] for g in games}):
        mine = [g for g in games if g["last_card"] == card]
        print(
            f"  {card:<22}{len(mine) / n:5.0%}"
            f"{statistics.fmean(g['rival']['base'] + g['rival']['condition'] for g in mine):7.1f}"
            f"{sum(g['won'] for g in mine) / len(mine):7.0%}"
        )
    print("challenges: met (any game) / claimed / scored when claimed")
    for cid in games[0]["met"]:
        met = sum(g["met"][cid] for g in games)
        claimed = sum(cid in g["claimed"] for g in games)
        scored = sum(cid in g["scored"] for g in games)
        rate = f"{scored / claimed:.0%}" if claimed else "-"
        print(f"  {cid:<26}{met / n:5.0%}  {claimed / n:5.0%}  {rate:>5}")
    margin = statistics.fmean(g["margin"] for g in games)
    return [
        Figure(f"{difficulty}, {bot}: player wins", wins / n, "share", better="higher"),
        Figure(f"{difficulty}, {bot}: mean margin", margin, "points", better="higher"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--catalog", default=str(builtin_catalog_path("stonespine-architects")))
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--difficulty", action="append", choices=("normal", "hard"))
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    add_json_option(parser)
    args = parser.parse_args()
    print(f"catalog {args.catalog}")
    figures = []
    for difficulty in args.difficulty or ["normal", "hard"]:
        jobs = [
            (args.catalog, args.bot, difficulty, derive_seed(args.seed, "game", i))
            for i in range(args.games)
        ]
        with ProcessPoolExecutor(args.workers) as pool:
            games = list(pool.map(play_one, jobs, chunksize=8))
        figures += report(games, difficulty, args.bot)
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
