"""Bots choose an action for the seat to move: at random, or greedily by a
one-step look-ahead on the game's heuristic. Each bot has its own seeded
generator, apart from the game's, so bots never change the game's dice."""

from __future__ import annotations

import random

from protopress.rules.core import Action, Game, IllegalAction


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: Game, state) -> Action:
        return self.rng.choice(game.legal_actions(state))


class GreedyBot:
    """Try every legal action on a copy of the state; keep the best for this seat.

    Chance inside an action (a die roll, a card draw) is sampled from the copy's
    generator, which is the game's own: the look-ahead sees one possible future.
    """

    name = "greedy"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: Game, state) -> Action:
        seat = game.to_move(state)
        actions = game.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        if seat is None:
            raise IllegalAction("the game is over: no seat to choose for")
        best, best_value = [], float("-inf")
        for action in actions:
            trial = state.copy()
            game.apply(trial, action)
            value = game.heuristic(trial, seat)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return self.rng.choice(best)


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int):
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
