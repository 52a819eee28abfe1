"""What every game module provides, and the errors the engine raises.

A game is defined once, as a `Game`: setup, whose decision it is, the legal
actions of that decision, applying one, the end, the scores. Every random
choice draws from the `random.Random` that lives in the state, so a seed plus
the list of actions replays a game exactly. States copy cheaply (each game
writes its own `copy`); nothing on the hot path deep-copies.

Actions are small immutable values so that they can be compared, hashed,
written to a JSON log and read back: typed actions (rules/actions.py) that a
game declares with its codec as `actions`, or plain tuples (verb first).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar

from protopress.rules.actions import PLAIN_ACTIONS, ActionCodec, PlainActions
from protopress.rules.spec import Outcome, versus_outcome

Action = tuple  # a typed action (a NamedTuple: rules/actions.py) or a plain tuple, verb first

S = TypeVar("S")  # a game's state
A = TypeVar("A", bound=Hashable)  # a game's action


class IllegalAction(ValueError):
    """An action that is not among the legal ones: never silently applied."""


class RulesFault(Exception):
    """A game's rules broke the engine contract: a method raised, or returned what the
    contract does not allow. The message names the rules (file and line where known)
    and the method: the designer's to mend, not a bug of protopress (exit 1)."""


class State(Protocol):
    rng: random.Random
    turns: int  # completed turns, for statistics

    def copy(self) -> State: ...


class Game(Protocol[S, A]):
    """The contract of an engine: Game[MyState, MyAction] names its state and actions,
    so that mypy checks a game's methods against them (see docs/own-rules.md)."""

    id: str  # the game id, e.g. "gemstone-caverns"
    min_players: int
    max_players: int

    def setup(self, catalog: Any, players: int, rng: random.Random, options: Any) -> S: ...

    def to_move(self, state: S) -> int | None:
        """The seat whose decision it is, or None when the game is over."""

    def legal_actions(self, state: S) -> Sequence[A]: ...

    def apply(self, state: S, action: A) -> None:
        """Apply a legal action to state in place (callers copy first if needed)."""

    def is_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> list[int]: ...

    def winners(self, state: S) -> list[int]:
        """Seats that won (several on a tie)."""

    def heuristic(self, state: S, seat: int) -> float:
        """How good the position looks for seat; greedy bots maximise it."""

    def record(self, state: S) -> dict[str, Any]:
        """Game-specific figures for statistics (per-component use, modes, ...)."""


AnyGame = Game[Any, Any]  # what the bots and the play loop take: any game at all


def codec_of(game: object) -> ActionCodec | PlainActions:
    """The codec of the game's actions: the one it declares as `actions`, else plain tuples."""
    declared = getattr(game, "actions", None)
    return declared if isinstance(declared, ActionCodec) else PLAIN_ACTIONS


def checked_apply(game: AnyGame, state: Any, action: Action) -> None:
    """Apply action after checking it is legal; IllegalAction names what was possible."""
    legal = game.legal_actions(state)
    if action not in legal:
        words = codec_of(game).words
        shown = ", ".join(map(words, legal[:8])) + (" ..." if len(legal) > 8 else "")
        raise IllegalAction(
            f"{words(action)} is not legal for seat {game.to_move(state)} now; legal: {shown}"
        )
    game.apply(state, action)


def outcome_of(game: AnyGame, state: Any) -> Outcome:
    """The game's typed outcome; a game without its own `outcome` is a versus game."""
    own = getattr(game, "outcome", None)
    if own is not None:
        return own(state)
    return versus_outcome(list(game.scores(state)), list(game.winners(state)))


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for a sub-stream (game number, seat, ...): stable across runs and machines."""
    text = ":".join(str(part) for part in (seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def top_seats(values: Sequence[float]) -> list[int]:
    best = max(values)
    return [seat for seat, value in enumerate(values) if value == best]
