"""What every game module provides, and the errors the engine raises.

A game is defined once, as a `Game`: setup, whose decision it is, the legal
actions of that decision, applying one, the end, the scores. Every random
choice draws from the `random.Random` that lives in the state, so a seed plus
the list of actions replays a game exactly. States copy cheaply (each game
writes its own `copy`); nothing on the hot path deep-copies.

Actions are small immutable values (tuples of strings and integers) so that
they can be compared, hashed, written to a JSON log and read back.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any, Protocol

from protopress.rules.spec import Outcome, versus_outcome

Action = tuple


class IllegalAction(ValueError):
    """An action that is not among the legal ones: never silently applied."""


class State(Protocol):
    rng: random.Random
    turns: int  # completed turns, for statistics

    def copy(self) -> State: ...


class Game(Protocol):
    id: str  # the game id, e.g. "gemstone-caverns"
    min_players: int
    max_players: int

    def setup(self, catalog, players: int, rng: random.Random, options: dict) -> State: ...

    def to_move(self, state) -> int | None:
        """The seat whose decision it is, or None when the game is over."""

    def legal_actions(self, state) -> Sequence[Action]: ...

    def apply(self, state, action: Action) -> None:
        """Apply a legal action to state in place (callers copy first if needed)."""

    def is_over(self, state) -> bool: ...

    def scores(self, state) -> list[int]: ...

    def winners(self, state) -> list[int]:
        """Seats that won (several on a tie)."""

    def heuristic(self, state, seat: int) -> float:
        """How good the position looks for seat; greedy bots maximise it."""

    def record(self, state) -> dict[str, Any]:
        """Game-specific figures for statistics (per-component use, modes, ...)."""


def checked_apply(game: Game, state, action: Action) -> None:
    """Apply action after checking it is legal; IllegalAction names what was possible."""
    legal = game.legal_actions(state)
    if action not in legal:
        shown = ", ".join(map(_show, legal[:8])) + (" ..." if len(legal) > 8 else "")
        raise IllegalAction(
            f"{_show(action)} is not legal for seat {game.to_move(state)} now; legal: {shown}"
        )
    game.apply(state, action)


def outcome_of(game: Game, state) -> Outcome:
    """The game's typed outcome; a game without its own `outcome` is a versus game."""
    own = getattr(game, "outcome", None)
    if own is not None:
        return own(state)
    return versus_outcome(list(game.scores(state)), list(game.winners(state)))


def _show(action) -> str:
    return " ".join(str(part) for part in action) if isinstance(action, tuple) else str(action)


def derive_seed(seed: int, *parts) -> int:
    """A seed for a sub-stream (game number, seat, ...): stable across runs and machines."""
    text = ":".join(str(part) for part in (seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def as_action(value) -> Action:
    """An action read back from JSON: lists become tuples, all the way down."""
    if isinstance(value, list):
        return tuple(as_action(item) for item in value)
    return value


def top_seats(values: Sequence[float]) -> list[int]:
    best = max(values)
    return [seat for seat, value in enumerate(values) if value == best]
