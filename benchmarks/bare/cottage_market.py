"""Baseline of data_rules.py: Cottage Market's rules written plainly in Python, with
no engine, no action classes and no chance layer; the same bots (random: any legal
action; greedy: each legal action tried on a copy of the game and judged by the
rules' bot value, ties broken at random; the copy is the whole game, deck order and
all, as a plain program would take it: the value reads no card of the deck). Plays --games games (seeds 0, 1, ...) and
reports the seconds a game and the turns a game.

The cards and resources come from the example's catalog.json (its cards' cost,
points and produces; its symbols, in order, are the resources). The rules, as
examples/cottage-market/rules.py says them: each player starts with `start_gold` of
the first resource; the top three cards of the shuffled deck are the market; on a
turn the mover first gains what their built cards produce, then takes 1 of any
resource or builds an affordable market card (alike cards are one choice), paying
its cost, the slot refilled from the deck; the game ends after `rounds` rounds or
when the market is empty; a built card scores its points plus 1.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from report import report

MARKET = 3


class Game:
    __slots__ = ("deck", "market", "held", "built", "seat", "turns", "last_turn", "resources")

    def copy(self) -> Game:
        other = Game()
        other.deck, other.market = list(self.deck), list(self.market)
        other.held = [dict(held) for held in self.held]
        other.built = [list(built) for built in self.built]
        other.seat, other.turns, other.last_turn = self.seat, self.turns, self.last_turn
        other.resources = self.resources
        return other


def new_game(cards, resources, players, rng, rounds, start_gold) -> Game:
    game = Game()
    game.deck = [card for card in cards for _ in range(card["count"])]
    rng.shuffle(game.deck)
    game.market = [game.deck.pop() for _ in range(MARKET)]
    game.resources = resources
    game.held = [{name: 0 for name in resources} for _ in range(players)]
    for held in game.held:
        held[resources[0]] = start_gold
    game.built = [[] for _ in range(players)]
    game.seat, game.turns, game.last_turn = 0, 0, rounds * players
    produce(game)
    return game


def produce(game: Game) -> None:
    held = game.held[game.seat]
    for card in game.built[game.seat]:
        if card["produces"] in held:
            held[card["produces"]] += 1


def can_pay(held: dict, cost: dict) -> bool:
    return all(held[name] >= n for name, n in cost.items())


def legal(game: Game) -> list[tuple[str, object]]:
    held = game.held[game.seat]
    actions: list[tuple[str, object]] = [("take", name) for name in game.resources]
    seen = set()
    for slot, card in enumerate(game.market):
        if card["id"] not in seen and can_pay(held, card["cost"]):
            seen.add(card["id"])
            actions.append(("build", slot))
    return actions


def apply(game: Game, action: tuple[str, object]) -> None:
    verb, what = action
    held = game.held[game.seat]
    if verb == "take":
        held[what] += 1
    else:
        card = game.market[what]
        for name, n in card["cost"].items():
            held[name] -= n
        game.built[game.seat].append(card)
        if game.deck:
            game.market[what] = game.deck.pop()
        else:
            del game.market[what]
    game.turns += 1
    game.seat = (game.seat + 1) % len(game.held)
    if not over(game):
        produce(game)


def over(game: Game) -> bool:
    return game.turns >= game.last_turn or not game.market


def score(game: Game, seat: int) -> int:
    return sum(card["points"] + 1 for card in game.built[seat])


def value(game: Game, seat: int) -> float:
    producers = sum(card["produces"] is not None for card in game.built[seat])
    return score(game, seat) + 0.4 * sum(game.held[seat].values()) + 0.8 * producers


def greedy(game: Game, actions, rng: random.Random):
    seat = game.seat
    values = []
    for action in actions:
        trial = game.copy()
        apply(trial, action)
        values.append(value(trial, seat))
    best = max(values)
    return rng.choice([action for action, v in zip(actions, values, strict=True) if v == best])


def random_bot(game: Game, actions, rng: random.Random):
    return rng.choice(actions)


BOTS = {"greedy": greedy, "random": random_bot}


def play(cards, resources, bots: list[str], seed: int, rounds: int, start_gold: int) -> int:
    """One game; its turns."""
    rng = random.Random(seed)
    game = new_game(cards, resources, len(bots), rng, rounds, start_gold)
    choosers = [BOTS[name] for name in bots]
    generators = [random.Random(seed * 100 + seat) for seat in range(len(bots))]
    while not over(game):
        actions = legal(game)
        seat = game.seat
        action = (
            actions[0] if len(actions) == 1 else choosers[seat](game, actions, generators[seat])
        )
        apply(game, action)
    return game.turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("catalog", type=Path, help="the example's catalog.json")
    parser.add_argument("--bots", nargs="+", choices=list(BOTS), required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--start-gold", type=int, default=2)
    args = parser.parse_args()
    document = json.loads(args.catalog.read_text(encoding="utf-8"))
    resources = [symbol["id"] for symbol in document["symbols"]]
    cards = []
    for card in document["cards"]:
        cost: dict[str, int] = {}
        for name in card.get("cost") or ():
            cost[name] = cost.get(name, 0) + 1
        cards.append({"id": card["id"], "count": card.get("count", 1), "cost": cost,
                      "points": int(card.get("points") or 0), "produces": card.get("produces")})  # fmt: skip
    play(cards, resources, args.bots, 0, args.rounds, args.start_gold)  # warmed, as the kit's
    turns = 0
    start = time.perf_counter()
    for seed in range(args.games):
        turns += play(cards, resources, args.bots, seed, args.rounds, args.start_gold)
    seconds = time.perf_counter() - start
    report({"per_game": seconds / args.games, "turns_per_game": turns / args.games})


if __name__ == "__main__":
    main()
