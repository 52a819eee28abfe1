"""What the conformance suite's checks work on and give: the game under test
(Subject), one seeded game of the suite (Case) as it was played (Played), a walk
over its decisions replayed from setup (Walk), a located Finding, and the shape
of a check (Check). The checks (conform_checks.py) and the suite that runs them
(conform.py) both import them from here."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from protopress.rules.core import Action
from protopress.rules.simulate import GameRecord
from protopress.rules.spec import GameSpec


@dataclass(frozen=True)
class Finding:
    """One way a game fails a check, located: which game (seed and seats) and which
    decision (None for a finding about the whole game)."""

    check: str
    seed: int
    players: int
    decision: int | None
    message: str

    def __str__(self) -> str:
        where = "" if self.decision is None else f", decision {self.decision}"
        return f"{self.check}: seed {self.seed}, {self.players} players{where}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Subject:
    """The game under test: a way to make a fresh engine, its catalog and options."""

    game_id: str
    new_game: Callable[[], Any]
    catalog: Any
    options: Mapping[str, object]
    spec: GameSpec | None


@dataclass(frozen=True)
class Case:
    """One seeded game of the suite."""

    seed: int
    players: int
    bots: tuple[str, ...]


@dataclass
class Played:
    """A case played once by simulate.play: the engine it was played on, its final
    state, record and actions. Checks walk it again from setup, so they can look at
    any decision."""

    case: Case
    game: Any
    final: Any
    record: GameRecord
    actions: list[Action]

    def finding(self, check: str, decision: int | None, message: str) -> Finding:
        return Finding(check, self.case.seed, self.case.players, decision, message)


class Walk:
    """The positions of a played game, replayed from setup; `decision` says where the
    walk is, so that an error raised by the game is located."""

    def __init__(self, subject: Subject, played: Played, examined: int):
        self.subject, self.played, self.decision = subject, played, 0
        self.examined = examined
        total = len(played.actions)
        self.stride = max(1, math.ceil(total / max(1, examined)))

    def again(self) -> Walk:
        """A new walk over the same decisions."""
        return Walk(self.subject, self.played, self.examined)

    def setup(self) -> Any:
        played = self.played
        return played.game.setup(
            self.subject.catalog,
            played.case.players,
            random.Random(played.case.seed),
            dict(self.subject.options),
        )

    def positions(self) -> Iterator[tuple[int, Any, Action | None]]:
        """(decision, live state, the action played there; None at the end) at every
        examined decision and the last position; the caller must not change the state
        in ways it does not undo (it is advanced by the played actions after)."""
        game, actions = self.played.game, self.played.actions
        state = self.setup()
        for index, action in enumerate(actions):
            self.decision = index
            if index % self.stride == 0:
                yield index, state, action
            game.apply(state, action)
        self.decision = len(actions)
        yield len(actions), state, None


Check = Callable[[Subject, Played, Walk], list[Finding]]
