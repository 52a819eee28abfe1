"""Bots choose an action for the seat to move: at random, greedily by a one-step
look-ahead on the game's heuristic, or by Monte Carlo tree search (rules/mcts.py).
Each bot has its own seeded generator, apart from the game's, so bots never
change the game's dice, and every look-ahead works on a seat copy
(rules/information.py): the bot does not know the dice to come or the hidden
cards, only what its seat sees. A game whose fast `action_values` reads only
what the seat sees for some decisions says so in its seat view (`in_sight`);
the greedy bot then judges those on the state itself, as a copy would judge
them, without making one."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from protopress.rules.core import Action, Game, IllegalAction
from protopress.rules.information import judged_in_sight, seat_copy


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: Game, state, legal: Sequence[Action] | None = None) -> Action:
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

    def choose(self, game: Game, state, legal: Sequence[Action] | None = None) -> Action:
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
            fast = getattr(game, "best_actions", None)
            if fast is not None:
                return self.rng.choice(fast(base, seat, actions))
            totals = action_values(game, base, seat, actions)
        else:
            bases = [seat_copy(game, state, seat, self.rng) for _ in range(self.samples)]
            totals = [0.0] * len(actions)
            for base in bases:  # summed base by base, in order: the same floats as one at a time
                values = action_values(game, base, seat, actions)
                totals = [total + value for total, value in zip(totals, values, strict=True)]
        return best_of(actions, totals, self.rng)


def greedy_action(game: Game, state, rng: random.Random) -> Action:
    """The greedy move of the seat to move, judged on state itself (a playout's world
    is already a seat copy), ties broken by rng: a playout policy for the search bot."""
    actions, seat = game.legal_actions(state), game.to_move(state)
    if seat is None:
        raise IllegalAction("the game is over: no seat to choose for")
    if len(actions) == 1:
        return actions[0]
    fast = getattr(game, "best_actions", None)
    if fast is not None:
        return rng.choice(fast(state, seat, actions))
    return best_of(actions, action_values(game, state, seat, actions), rng)


def best_of(actions: Sequence[Action], values: list[float], rng: random.Random) -> Action:
    """The action of the highest value, ties broken by rng."""
    best = max(values)
    return rng.choice([a for a, v in zip(actions, values, strict=True) if v == best])


def action_values(game: Game, state, seat: int, actions: Sequence[Action]) -> list[float]:
    """game.heuristic(trial, seat) after each action, each applied to its own copy.

    A game may offer `action_values(state, seat, actions)` that gives the same
    values faster (without copies); each such fast path is tested against this.
    A game may also offer `best_actions(state, seat, actions)`: the actions of the
    highest of these values, in order (the greedy choice's ties), found without
    valuing each; greedy bots then take their pick from it.
    """
    fast = getattr(game, "action_values", None)
    if fast is not None:
        return fast(state, seat, actions)
    return reference_values(game, state, seat, actions)


def reference_values(game: Game, state, seat: int, actions: Sequence[Action]) -> list[float]:
    """The heuristic after each action by the book: copy, apply, judge."""
    values = []
    for action in actions:
        trial = state.copy()
        game.apply(trial, action)
        values.append(game.heuristic(trial, seat))
    return values


BOTS = ("random", "greedy", "mcts")


def make_bot(name: str, seed: int):
    """A bot by name: random, greedy, greedy:SAMPLES, mcts, mcts:PLAYOUTS or mcts:MSms."""
    kind, _, budget = name.partition(":")
    if kind == "random" and not budget:
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed, _count(name, budget, 1))
    if kind == "mcts":
        from protopress.rules.mcts import MctsBot, budget_of

        return MctsBot(seed, budget_of(name, budget))
    raise ValueError(f"unknown bot {name!r}; bots: random, greedy[:SAMPLES], mcts[:PLAYOUTS|:MSms]")


def timed(name: str) -> bool:
    """Whether the bot of this name searches for a time in milliseconds a move: its
    moves then depend on the machine's speed, so its games do not repeat for the
    same seed (False for a name that is no bot: make_bot says what is wrong)."""
    kind, _, budget = name.partition(":")
    if kind != "mcts":
        return False
    from protopress.rules.mcts import budget_of

    try:
        return budget_of(name, budget).millis is not None
    except ValueError:
        return False


def not_repeatable(names: Iterable[str]) -> str | None:
    """A sentence saying that games played by these bots do not repeat for the same
    seed, when one of them searches by time; None when they all repeat."""
    by_time = sorted({name for name in names if timed(name)})
    if not by_time:
        return None
    return (
        f"{', '.join(by_time)} "
        + ("budgets its" if len(by_time) == 1 else "budget their")
        + " moves by time: "
        "these games depend on the machine's speed and differ from run to run with the "
        "same seed (a budget in playouts, such as mcts:200, repeats them)."
    )


def _count(name: str, text: str, default: int) -> int:
    if not text:
        return default
    if not text.isdigit() or not 1 <= int(text) <= 10_000:
        raise ValueError(f"bot {name!r}: expected a whole number from 1 to 10000 after ':'")
    return int(text)
