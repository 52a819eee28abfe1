"""A strength ladder for the bots (issue 17): MCTS against greedy on common seeds.

Each rung plays the same seeded games for every budget, with the bots' seats
rotated game by game (run_balance(rotate=True)), and reports 95% intervals
(Wilson for shares, the normal interval for mean differences):

- DragonStone Mine level 2, two players: MCTS's share of wins against greedy;
- Gem Rush Rush, two players: the same;
- Gem Rush Crisis, four MCTS players: the share of games whose team reaches
  Expert (60 points), and the team score;
- Gemstone Caverns, two players: MCTS's score minus greedy's;
- Stonespine Architects, two players: MCTS's share of wins against greedy;
- Stonespine Architects solo (the normal rival; the hard one as
  stonespine-solo-hard): the player's share of wins against the rival and the
  margin, player minus rival, for each bot on the same seeds (a `greedy`
  budget gives the reference row, as in Crisis).

Issue 17's goals: at least 70% wins in the first two, Expert in at least half
of the Crisis games, a positive mean difference in Caverns; Stonespine solo
has none (how hard the rival is depends on how well the player plays, and
this shows by how much). Each rung runs at every budget given, so the output
is also the curve of strength against budget.

    nice .venv/bin/python benchmarks/ladder.py --games 40 --crisis-games 8 --budgets 25,50,100

--rush-turns N sets how many turns the Rush search's playouts run (the game's
RUSH_SEARCH_TURNS, 3; before: 1), to measure the setting against the old one.
"""

from __future__ import annotations

import argparse
import time

from figures import Figure, add_json_option, write_json

from protopress.balance import run_balance
from protopress.balance.intervals import mean_interval, proportion
from protopress.games.gem_rush import lookahead as gem_rush_lookahead
from protopress.games.gem_rush.spec import DIFFICULTY_TARGETS

RUNGS = {
    "dragonstone-l2": ("dragonstone-mine", 2, {"level": 2}, "wins"),
    "rush": ("gem-rush", 2, {"mode": "rush"}, "wins"),
    # the team plays for the difficulty it is measured at (the rulebook: the target is
    # chosen before play), so that a search judging a finished game aims at Expert
    "crisis": ("gem-rush", 4, {"target": DIFFICULTY_TARGETS["Expert"]}, "expert"),
    "caverns": ("gemstone-caverns", 2, {}, "margin"),
    "stonespine": ("stonespine-architects", 2, {}, "wins"),
    "stonespine-solo": ("stonespine-architects", 1, {"solo": True}, "solo"),
    "stonespine-solo-hard": (
        "stonespine-architects",
        1,
        {"solo": True, "difficulty": "hard"},
        "solo",
    ),
}
GOALS = {
    "dragonstone-l2": "MCTS wins >= 70%",
    "rush": "MCTS wins >= 70%",
    "crisis": "Expert in >= 50%",
    "caverns": "MCTS - greedy > 0",
    "stonespine": None,  # issue 17 names no goal for these
    "stonespine-solo": None,
    "stonespine-solo-hard": None,
}


def rung(name: str, bot: str, games: int, seed: int) -> dict:
    game, players, options, measure = RUNGS[name]
    bots = [bot] if measure in ("expert", "solo") else [bot, "greedy"]
    started = time.perf_counter()
    run = run_balance(game, game, games, players, bots, seed, options, workers=1, rotate=True)
    elapsed = time.perf_counter() - started
    records = run.records
    result: dict = {"rung": name, "bot": bot, "games": len(records), "seconds": round(elapsed, 1)}
    # games stopped at the decision limit: a turn that never ends (Gem Rush's mine
    # cart rides once were one) shows here, not only as a rung that takes hours
    result["limits"] = sum(r.limit for r in records)
    if measure == "expert":
        reached = sum("Expert" in r.outcome.targets_reached for r in records if r.outcome)
        result["expert"] = proportion(reached, len(records))
        result["team_score"] = mean_interval(
            [r.outcome.team_score or 0 for r in records if r.outcome]
        )
        result["met"] = result["expert"]["rate"] >= 0.5
        return result
    if measure == "solo":
        outcomes = [r.outcome for r in records if r.outcome is not None]
        result["wins"] = proportion(sum(o.seat_won(0) for o in outcomes), len(records))
        result["margin"] = mean_interval([m for o in outcomes if (m := o.margin()) is not None])
        result["met"] = None  # no goal
        return result
    # the bot under test is bots[0], seated at index % players by the rotation (its
    # name does not tell the seats apart when both bots are the same, as greedy's rung)
    seats = [r.index % players for r in records]
    assert all(r.bots[s] == bot for r, s in zip(records, seats, strict=True))
    wins = sum(r.winners == [s] for r, s in zip(records, seats, strict=True))
    ties = sum(len(r.winners) > 1 and s in r.winners for r, s in zip(records, seats, strict=True))
    margins = [r.scores[s] - r.scores[1 - s] for r, s in zip(records, seats, strict=True)]
    result["wins"] = proportion(wins, len(records))
    result["ties"] = ties
    result["margin"] = mean_interval(margins)
    result["met"] = None
    if GOALS[name] is not None:
        result["met"] = (
            result["margin"]["mean"] > 0 if measure == "margin" else result["wins"]["rate"] >= 0.7
        )
    return result


def line(result: dict) -> str:
    head = f"| {result['rung']} | {result['bot']} | {result['games']} |"
    if "expert" in result:
        e, t = result["expert"], result["team_score"]
        body = (
            f" Expert {e['rate']:.0%} ({e['low']:.0%}-{e['high']:.0%}) |"
            f" team {t['mean']:.1f} ({t['low']:.1f} to {t['high']:.1f}) |"
        )
    else:
        w, m = result["wins"], result["margin"]
        ties = f", ties {result['ties']}" if "ties" in result else ""  # solo: none to count
        body = (
            f" wins {w['rate']:.0%} ({w['low']:.0%}-{w['high']:.0%}){ties} |"
            f" margin {m['mean']:+.1f} ({m['low']:+.1f} to {m['high']:+.1f}) |"
        )
    goal = GOALS[result["rung"]] or "no goal in issue 17"
    if result["met"] is not None:
        goal += ": met" if result["met"] else ": not met"
    if result["limits"]:
        goal += f"; stopped at the decision limit: {result['limits']}"
    return f"{head}{body} {goal} | {result['seconds']:.0f} s |"


def rung_figures(result: dict) -> list[Figure]:
    """A rung's shares and means (no baseline: greedy is the opponent in the same games)."""
    name = f"{result['rung']}, {result['bot']}"
    if "expert" in result:
        return [
            Figure(f"{name}: Expert reached", result["expert"]["rate"], "share", better="higher"),
            Figure(f"{name}: team score", result["team_score"]["mean"], "points", better="higher"),
        ]
    return [
        Figure(f"{name}: wins", result["wins"]["rate"], "share", better="higher"),
        Figure(f"{name}: margin", result["margin"]["mean"], "points", better="higher"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per two-player rung")
    parser.add_argument("--crisis-games", type=int, default=8, help="games per Crisis rung")
    parser.add_argument(
        "--budgets",
        default="25,50,100",
        help="MCTS playouts a move (or bot names), comma-separated",
    )
    parser.add_argument("--rungs", default=",".join(RUNGS), help="which rungs, comma-separated")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--rush-turns",
        type=int,
        help="turns the Rush search's playouts run (default: the game's RUSH_SEARCH_TURNS)",
    )
    add_json_option(parser)
    args = parser.parse_args()
    if (
        args.rush_turns is not None
    ):  # read by the Gem Rush BotSupport's playout_turns; the games run here (workers=1)
        gem_rush_lookahead.RUSH_SEARCH_TURNS = args.rush_turns
    print(
        "| rung | bot | games | MCTS result (95% interval) | score margin or team score | goal | time |"
    )
    print("|---|---|---|---|---|---|---|")
    results = []
    for name in args.rungs.split(","):
        for budget in args.budgets.split(","):
            games = args.crisis_games if RUNGS[name][3] == "expert" else args.games
            bot = f"mcts:{budget}" if budget.isdigit() else budget  # e.g. greedy, mcts:250ms
            result = rung(name, bot, games, args.seed)
            results.append(result)
            print(line(result), flush=True)
    write_json(
        args.json, [figure for result in results for figure in rung_figures(result)], results
    )


if __name__ == "__main__":
    main()
