"""Bots choose an action for the seat to move: at random, or greedily by a one-step
look-ahead on the game's heuristic (the search bot is rules/mcts.py; bots by
name, rules/bot_names.py). Each bot has its own seeded generator, apart from
the game's, so bots never change the game's dice, and every look-ahead works on
a seat copy (rules/information.py): the bot does not know the dice to come or
the hidden cards, only what its seat sees. A game's fast look-ahead, if it has
one, comes from its BotSupport (rules/bot_support.py). A game whose fast
`action_values` reads only what the seat sees for some decisions says so in
its seat view (`in_sight`); the greedy bot then judges those on the state
itself, as a copy would judge them, without making one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from protopress.rules.bot_support import bot_support
from protopress.rules.core import A, Action, AnyGame, Game, IllegalAction
from protopress.rules.information import judged_in_sight, seat_copy


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: AnyGame, state: Any, legal: Sequence[Action] | None = None) -> Action:
        """legal: the position's legal actions when the caller has listed them already."""
        return self.rng.choice(game.legal_actions(state) if legal is None else legal)


class GreedyBot:
    """Try every legal action on seat copies of the state; keep the best for this seat.

    Each of `samples` seat copies re-seeds chance and resamples hidden
    information from the bot's own generator; every action is tried on the
    same copies (common random numbers), and the mean heuristic decides. With
    one sample, a decision the game judges in sight needs no copy.
    """

    name = "greedy"

    def __init__(self, seed: int, samples: int = 1):
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, game: AnyGame, state: Any, legal: Sequence[Action] | None = None) -> Action:
        seat = game.to_move(state)
        actions = game.legal_actions(state) if legal is None else legal
        if len(actions) == 1:
            return actions[0]
        if seat is None:
            raise IllegalAction("the game is over: no seat to choose for")
        if self.samples == 1:  # one copy: its values are the totals (0.0 + v == v)
            if judged_in_sight(game, state, seat):
                base = state  # its values read nothing the seat cannot see: no copy needed
            else:
                base = seat_copy(game, state, seat, self.rng)
            fast = bot_support(game).best_actions
            if fast is not None:
                return self.rng.choice(fast(game, base, seat, actions))
            totals = action_values(game, base, seat, actions)
        else:
            bases = [seat_copy(game, state, seat, self.rng) for _ in range(self.samples)]
            totals = [0.0] * len(actions)
            for base in bases:  # summed base by base, in order: the same floats as one at a time
                values = action_values(game, base, seat, actions)
                totals = [total + value for total, value in zip(totals, values, strict=True)]
        return best_of(actions, totals, self.rng)


def greedy_action(game: Game[Any, A], state: Any, rng: random.Random) -> A:
    """The greedy move of the seat to move, judged on state itself (a playout's world
    is already a seat copy), ties broken by rng: a playout policy for the search bot."""
    actions, seat = game.legal_actions(state), game.to_move(state)
    if seat is None:
        raise IllegalAction("the game is over: no seat to choose for")
    if len(actions) == 1:
        return actions[0]
    fast = bot_support(game).best_actions
    if fast is not None:
        return rng.choice(fast(game, state, seat, actions))
    return best_of(actions, action_values(game, state, seat, actions), rng)


def best_of(actions: Sequence[A], values: list[float], rng: random.Random) -> A:
    """The action of the highest value, ties broken by rng."""
    best = max(values)
    return rng.choice([a for a, v in zip(actions, values, strict=True) if v == best])


def action_values(game: AnyGame, state: Any, seat: int, actions: Sequence[Any]) -> list[float]:
    """game.heuristic(trial, seat) after each action, each applied to its own copy:
    by the game's fast action_values when its BotSupport has one (tested against
    reference_values), else by the book."""
    fast = bot_support(game).action_values
    if fast is not None:
        return fast(game, state, seat, actions)
    return reference_values(game, state, seat, actions)


def reference_values(
    game: AnyGame, state: Any, seat: int, actions: Sequence[Action]
) -> list[float]:
    """The heuristic after each action by the book: copy, apply, judge."""
    values = []
    for action in actions:
        trial = state.copy()
        game.apply(trial, action)
        values.append(game.heuristic(trial, seat))
    return values
