"""The search tiers' cost: seconds a search-bot move and a game, per built-in game.

Each case plays seeded two-player games of a built-in game at its default
settings, the tier's search bot against greedy (seats alternating game by
game), and times every move of each bot in CPU seconds of this process (on a
shared machine the wall clock also counts the other work's turns; the load
average is printed), and each game on the wall clock. The baseline is
greedy's move in the same games. The tiers (protopress/rules/bot_names.py SEARCH_TIERS) promise:
mcts:fast's move well under a second in every built-in game at its default
settings. Strength against greedy is benchmarks/ladder.py's
(`--budgets mcts:fast,mcts:strong`); docs/balance.md, "Search tiers", has both.

--head-to-head plays the tiers against each other instead, on ladder rungs
(benchmarks/ladder.py RUNGS), seats rotated game by game: strong's share of
the games decided with its 95% Wilson interval, and the mean score margin.
Against greedy both tiers can win about as often (greedy loses to either
for the same reasons), so whether strong is stronger than fast is read here.

--agreement asks mcts:fast, mcts:fast with another seed and mcts:strong with
that other seed for their move at every decision with a choice of greedy
games on ladder rungs: how often strong picks fast's move, against how often
fast picks it again with a new seed.

    nice python benchmarks/search_tiers.py --games 3
    nice python benchmarks/search_tiers.py --head-to-head stonespine=300,caverns=80
    nice python benchmarks/search_tiers.py --agreement stonespine=10,caverns=5
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from figures import Figure, add_json_option, write_json
from ladder import RUNGS

from protopress.balance.intervals import mean_interval, proportion
from protopress.balance.run import run_balance, seat_bots
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games import builtin_ids
from protopress.rules.bot_names import SEARCH_TIERS, make_bot
from protopress.rules.core import derive_seed
from protopress.rules.plugins import resolve_spec


def timed_games(game_id: str, bot: str, games: int, seed: int) -> dict[str, list[float]]:
    """CPU seconds of each move by bot and by greedy over the games, and each game's
    seconds on the wall clock."""
    spec = resolve_spec(game_id)
    game = spec.new_game()
    catalog = load_catalog(builtin_catalog_path(game_id))
    options = spec.parse_options({})
    moves: dict[str, list[float]] = {bot: [], "greedy": [], "game": []}
    for index in range(games):
        names = seat_bots([bot, "greedy"], index, rotate=True)
        game_seed = derive_seed(seed, "game", index)
        state = game.setup(catalog, 2, random.Random(game_seed), options)
        bots = [make_bot(n, derive_seed(game_seed, "bot", s)) for s, n in enumerate(names)]
        started = time.perf_counter()
        while not game.is_over(state):
            legal = game.legal_actions(state)
            if not legal:
                break
            seat = game.to_move(state)
            before = time.process_time()
            action = bots[seat].choose(game, state, legal)
            moves[names[seat]].append(time.process_time() - before)
            game.apply(state, action)
        moves["game"].append(time.perf_counter() - started)
    return moves


def head_to_head(rung_name: str, games: int, seed: int) -> dict:
    """mcts:strong against mcts:fast on a ladder rung, seats rotated game by game: strong's
    share of the games decided (a tie is neither), its 95% Wilson interval and the mean
    score margin, strong minus fast."""
    game_id, players, options, _ = RUNGS[rung_name]
    started = time.process_time()
    run = run_balance(game_id, game_id, games, players, ["mcts:strong", "mcts:fast"], seed,
                      options, workers=1, rotate=True)  # fmt: skip
    cpu = time.process_time() - started
    seats = [record.index % players for record in run.records]  # strong's seat
    wins = sum(r.winners == [s] for r, s in zip(run.records, seats, strict=True))
    losses = sum(s not in r.winners for r, s in zip(run.records, seats, strict=True))
    margins = [r.scores[s] - r.scores[1 - s] for r, s in zip(run.records, seats, strict=True)]
    return {"rung": rung_name, "games": len(run.records), "wins": proportion(wins, wins + losses),
            "ties": len(run.records) - wins - losses, "margin": mean_interval(margins),
            "cpu_seconds": cpu}  # fmt: skip


def agreement(rung_name: str, games: int, seed: int) -> dict:
    """How often mcts:strong picks mcts:fast's move, against how often mcts:fast picks
    its own move again with another seed: at every decision with a choice in greedy
    games of a ladder rung. More playouts that change few decisions beyond what a new
    seed changes cannot make the search much stronger."""
    game_id, players, options, _ = RUNGS[rung_name]
    spec = resolve_spec(game_id)
    game = spec.new_game()
    catalog = load_catalog(builtin_catalog_path(game_id))
    parsed = spec.parse_options(options)
    positions = same_as_fast = fast_again = 0
    for index in range(games):
        game_seed = derive_seed(seed, "game", index)
        state = game.setup(catalog, players, random.Random(game_seed), parsed)
        greedy = [make_bot("greedy", derive_seed(game_seed, "bot", s)) for s in range(players)]
        while not game.is_over(state):
            legal = game.legal_actions(state)
            if not legal:
                break
            seat = game.to_move(state)
            if len(legal) > 1:
                asked = derive_seed(game_seed, "asked", positions)
                fast = make_bot("mcts:fast", asked).choose(game, state, legal)
                again = make_bot("mcts:fast", asked + 1).choose(game, state, legal)
                strong = make_bot("mcts:strong", asked + 1).choose(game, state, legal)
                positions += 1
                same_as_fast += strong == fast
                fast_again += again == fast
            game.apply(state, greedy[seat].choose(game, state, legal))
    return {"rung": rung_name, "games": games, "positions": positions,
            "strong_as_fast": proportion(same_as_fast, positions),
            "fast_again": proportion(fast_again, positions)}  # fmt: skip


def head_to_head_line(result: dict) -> str:
    wins, margin = result["wins"], result["margin"]
    verdict = (
        "strong is stronger"
        if wins["low"] > 0.5
        else "fast is stronger"
        if wins["high"] < 0.5
        else "not told apart"
    )
    return (
        f"| {result['rung']} | {result['games']} | {wins['count']} of {wins['trials']}: "
        f"{wins['rate']:.0%} ({wins['low']:.0%}-{wins['high']:.0%}) | {result['ties']} "
        f"| {margin['mean']:+.1f} ({margin['low']:+.1f} to {margin['high']:+.1f}) "
        f"| {verdict} | {result['cpu_seconds']:.0f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per game and tier")
    parser.add_argument("--tiers", default=",".join(SEARCH_TIERS), help="tiers, comma-separated")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--head-to-head",
        metavar="RUNG=GAMES,...",
        help="mcts:strong against mcts:fast on these ladder rungs, so many games each",
    )
    parser.add_argument(
        "--agreement",
        metavar="RUNG=GAMES,...",
        help="how often mcts:strong picks mcts:fast's move, in greedy games of these rungs",
    )
    add_json_option(parser)
    args = parser.parse_args()
    if args.agreement:
        results = []
        for item in args.agreement.split(","):
            name, _, games = item.partition("=")
            result = agreement(name, int(games or 10), args.seed)
            results.append(result)
            same, again = result["strong_as_fast"], result["fast_again"]
            print(f"{name}, {result['positions']} decisions: strong picks fast's move in "
                  f"{same['rate']:.0%} ({same['low']:.0%}-{same['high']:.0%}), fast with "
                  f"another seed in {again['rate']:.0%} ({again['low']:.0%}-{again['high']:.0%})",
                  flush=True)  # fmt: skip
        write_json(args.json, [], results)
        return
    if args.head_to_head:
        print(f"load average {os.getloadavg()[0]:.1f}; mcts:strong against mcts:fast")
        print("| rung | games | strong's wins of the games decided | ties "
              "| margin, strong - fast | | CPU |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        results = []
        for item in args.head_to_head.split(","):
            name, _, games = item.partition("=")
            result = head_to_head(name, int(games or 40), args.seed)
            results.append(result)
            print(head_to_head_line(result), flush=True)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
        figures = [Figure(f"{r['rung']}: strong's wins against fast", r["wins"]["rate"], "share",
                          better="higher") for r in results]  # fmt: skip
        write_json(args.json, figures, results)
        return
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; moves in CPU seconds")
    print("| game | bot | moves | mean move | slowest move | greedy's mean move | s a game |")
    print("|---|---|---|---|---|---|---|")
    figures, details = [], []
    for game_id in builtin_ids():
        for tier in args.tiers.split(","):
            bot = f"mcts:{tier}"
            moves = timed_games(game_id, bot, args.games, args.seed)
            mean, slowest = statistics.mean(moves[bot]), max(moves[bot])
            greedy = statistics.mean(moves["greedy"])
            per_game = statistics.mean(moves["game"])
            print(f"| {game_id} | {bot} | {len(moves[bot])} | {mean:.3f} s | {slowest:.3f} s "
                  f"| {greedy * 1000:.1f} ms | {per_game:.1f} |", flush=True)  # fmt: skip
            figures.append(Figure(f"{game_id}, {bot}: mean move", round(mean, 4), "s",
                                  round(greedy, 6), "greedy's mean move"))  # fmt: skip
            details.append({"game": game_id, "bot": bot, "moves": len(moves[bot]), "mean": mean,
                            "slowest": slowest, "greedy_mean": greedy,
                            "seconds_a_game": per_game})  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    write_json(args.json, figures, details)


if __name__ == "__main__":
    main()
