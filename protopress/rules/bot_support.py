"""What a game offers its bots beyond the rules, declared in one place: a `BotSupport`.

The bots play every game by the book: they copy the state, apply an action and
ask the engine's `heuristic`. A game may make them faster or stronger with a
fast look-ahead, a playout policy for the search and the search's own
settings. All of it is optional and lives in one frozen object, named by the
game's spec (`GameSpec.bot_support`, "module:NAME" like `engine`, so listing
games imports none of it) and set on each engine that `GameSpec.new_game`
makes. An engine without one is played by the book (`BY_THE_BOOK`).

Each callable takes the engine first, then what the bots hand it. A fast path
must give exactly what the book gives: the games' tests/games/*/test_fast.py
hold each one to it on thousands of positions.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

EXPLORATION = 0.7  # UCB1's constant, for rewards in [0, 1]
RESULT_SHARE = 0.5  # of a playout's reward: the result's share; the rest, the scaled heuristic

# Each takes the game's own state and actions (typed by the game: Any here).
# (game, state, seat, actions) -> heuristic(seat) after each action, as copy + apply gives it
ActionValues = Callable[[Any, Any, int, Sequence[Any]], list[float]]
# (game, state, seat, actions) -> the actions of the highest such value, in order
BestActions = Callable[[Any, Any, int, Sequence[Any]], Sequence[Any]]
# (game, state, rng) -> the playout move of the seat to move
PlayoutPolicy = Callable[[Any, Any, random.Random], Any]
# (game, state, rng, legal) -> the position after the playout move (state, or another object)
PlayoutStep = Callable[[Any, Any, random.Random, Sequence[Any]], Any]
# (game, state) -> how many turns a playout from state runs (None: to the end of the game)
PlayoutTurns = Callable[[Any, Any], "int | None"]


@dataclass(frozen=True)
class SearchSettings:
    """What a game may tune of its own search (DragonStone Mine does: docs/balance.md,
    "How strong are the bots"); a search bot's own setting wins."""

    exploration: float = EXPLORATION
    result_share: float = RESULT_SHARE
    widen_levels: float | None = None  # None: the search's default, or every level with fast priors

    def __post_init__(self) -> None:
        if not self.exploration >= 0:
            raise ValueError(f"search exploration must be 0 or more, not {self.exploration!r}")
        if not 0 <= self.result_share <= 1:
            raise ValueError(f"search result_share must lie in [0, 1], not {self.result_share!r}")
        if self.widen_levels is not None and not self.widen_levels >= 1:
            raise ValueError(f"search widen_levels must be 1 or more, not {self.widen_levels!r}")


@dataclass(frozen=True)
class BotSupport:
    """A game's optional help for its bots; every part None plays that part by the book.

    action_values: the heuristic for seat after each action, the same floats as
        copy, apply and heuristic give (bots.reference_values), found faster.
    best_actions: the actions of the highest of those values, in their order
        (the greedy bot's ties), found without valuing each.
    playout_policy: the search's playout move for the seat to move, ties broken
        with rng; the search plays it to the end of the turn in progress.
    playout_step: playout_policy's move, played: the position after it (state
        itself, or another object such as the look-ahead's own trial), with the
        same choice and the same draws of rng; only with playout_policy.
    playout_turns: how many turns a playout from a position runs (None: to the
        end of the game); without it, the search's default (one).
    search: the search's exploration, result share and widened levels.
    """

    action_values: ActionValues | None = None
    best_actions: BestActions | None = None
    playout_policy: PlayoutPolicy | None = None
    playout_step: PlayoutStep | None = None
    playout_turns: PlayoutTurns | None = None
    search: SearchSettings = field(default_factory=SearchSettings)

    def __post_init__(self) -> None:
        if self.playout_step is not None and self.playout_policy is None:
            raise ValueError("a playout_step needs the playout_policy it plays")


BY_THE_BOOK = BotSupport()


def bot_support(game: Any) -> BotSupport:
    """The engine's BotSupport (set by GameSpec.new_game); an engine made without its
    spec, or whose spec declares none, is played by the book."""
    return getattr(game, "bot_support", BY_THE_BOOK)


def load_bot_support(declared: str | BotSupport | None) -> BotSupport:
    """The BotSupport a spec declares: "module:NAME" imported now, the object itself,
    or None (BY_THE_BOOK); ValueError naming a module that is not there or what the
    name holds instead."""
    if declared is None:
        return BY_THE_BOOK
    if isinstance(declared, BotSupport):
        return declared
    module_name, _, name = declared.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"bot_support {declared!r}: {error}") from None
    found = getattr(module, name, None)
    if not isinstance(found, BotSupport):
        raise ValueError(
            f"bot_support {declared!r} names {type(found).__name__}, not a "
            "protopress.rules.bot_support.BotSupport"
        )
    return found
