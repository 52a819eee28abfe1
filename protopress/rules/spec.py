"""What a game is, declared once: `GameSpec`, and the typed `Outcome` of a game.

Every list of games the kit shows (CLI choices, engines, checks, the balance
lab's first-mover and difficulty figures) is read from the specs, so adding a
game is writing its spec and registering it in one place.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

from protopress.rules.bot_support import BotSupport, load_bot_support
from protopress.rules.options import Option, Options, parse_options


class OutcomeKind(Enum):
    VERSUS = "versus"  # seats play against each other; the best score wins
    TEAM = "team"  # every seat wins or loses together (Gem Rush Crisis)
    SOLO = "solo"  # one player against the game or an automated rival


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as the balance lab and the summaries read it.

    team_won and solo_won are None when they do not apply; rival_score is the
    automated rival's score in a solo game against one.
    """

    kind: OutcomeKind
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    team_won: bool | None = None
    team_score: int | None = None
    targets_reached: tuple[str, ...] = ()
    solo_won: bool | None = None
    rival_score: int | None = None

    def seat_won(self, seat: int) -> bool:
        """Team and solo: the shared result; versus: the seat is the only winner."""
        if self.kind is OutcomeKind.TEAM:
            return bool(self.team_won)
        if self.kind is OutcomeKind.SOLO:
            return bool(self.solo_won) if self.solo_won is not None else seat in self.winners
        return self.winners == (seat,)

    def margin(self) -> int | None:
        """Winner minus runner-up (versus); player minus rival (solo); None for a team."""
        if self.kind is OutcomeKind.TEAM:
            return None
        if self.kind is OutcomeKind.SOLO or len(self.scores) < 2:
            return None if self.rival_score is None else self.scores[0] - self.rival_score
        first, second = sorted(self.scores, reverse=True)[:2]
        return first - second

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "winners": list(self.winners)}
        if self.kind is OutcomeKind.TEAM:
            data.update(
                team_won=self.team_won,
                team_score=self.team_score,
                targets_reached=list(self.targets_reached),
            )
        if self.kind is OutcomeKind.SOLO:
            data.update(solo_won=self.solo_won, rival_score=self.rival_score)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], scores: list[int]) -> Outcome:
        return cls(
            kind=OutcomeKind(data["kind"]),
            scores=tuple(scores),
            winners=tuple(data.get("winners", ())),
            team_won=data.get("team_won"),
            team_score=data.get("team_score"),
            targets_reached=tuple(data.get("targets_reached", ())),
            solo_won=data.get("solo_won"),
            rival_score=data.get("rival_score"),
        )


def versus_outcome(scores: list[int], winners: list[int]) -> Outcome:
    """Seats against each other; one seat alone plays solo (for a score, no rival)."""
    kind = OutcomeKind.SOLO if len(scores) == 1 else OutcomeKind.VERSUS
    return Outcome(kind, tuple(scores), tuple(winners))


@dataclass(frozen=True)
class GameSpec:
    """Everything the kit needs to know about a game to offer it everywhere.

    engine is "module:Class" (imported on first use, so listing games stays
    cheap) or the engine class itself (a designer's rules file). checks are
    modules defining CHECKS. first_mover is the seat that always starts, or
    None when the start rotates or is drawn. difficulty_targets are a team
    game's named point targets, in rising order. bot_support is what the game
    offers its bots beyond the rules (rules/bot_support.py), "module:NAME" or the
    object itself, resolved for each new engine; None: the bots play by the book.
    internal_fields are state fields no seat is shown (rules/observe.py).
    """

    id: str
    title: str
    min_players: int
    max_players: int
    engine: str | type
    outcomes: tuple[OutcomeKind, ...] = (OutcomeKind.VERSUS,)
    options: tuple[Option, ...] = ()
    checks: tuple[str, ...] = ()
    first_mover: int | None = 0
    difficulty_targets: Mapping[str, int] = field(default_factory=dict)
    solo_rival: bool = False  # a solo game against an automated rival (the solo command)
    folder: Path | None = None  # the game's folder: catalog.json, layouts/
    rulings: str | None = None  # where the rulings are written down (docs path)
    # What the game adds to the shared layers, loaded only when used (protopress.games):
    # its own commands (name -> "module:NAME" of a click command), its solo companion
    # ("module:NAME" of a protopress.companion.SoloCompanion) and its catalog
    # collections (collection -> kind; the <kind>.schema.json is the kit's or in the
    # game folder's schemas/), composed into the catalog schema at load.
    commands: Mapping[str, str] = field(default_factory=dict)
    solo_companion: str | None = None
    collections: Mapping[str, str] = field(default_factory=dict)
    # modules defining CATALOG_CHECKS: checks of its collections that the schema
    # cannot state, run whenever a catalog is loaded (located like schema errors)
    catalog_checks: tuple[str, ...] = ()
    bot_support: str | BotSupport | None = None
    # the state's fields that are the engine's bookkeeping (caches, copy-sharing marks,
    # derived helpers): never drawn at the playtest table (rules/observe.py), like
    # the fields whose names start with `_`
    internal_fields: tuple[str, ...] = ()

    @property
    def catalog_path(self) -> Path | None:
        if self.folder is None:
            return None
        path = self.folder / "catalog.json"
        return path if path.is_file() else None

    @property
    def layouts_dir(self) -> Path | None:
        if self.folder is None:
            return None
        path = self.folder / "layouts"
        return path if path.is_dir() else None

    def engine_class(self) -> type:
        if isinstance(self.engine, type):
            return self.engine
        module_name, _, class_name = self.engine.partition(":")
        return getattr(importlib.import_module(module_name), class_name)

    def engine_module(self) -> ModuleType:
        """The module of the engine (score_state and format_score live there)."""
        return importlib.import_module(self.engine_class().__module__)

    def new_game(self) -> Any:
        """A new engine; it reads its id and player range from this spec (one home for
        them), and carries the spec's bot support, resolved once."""
        game = self.engine_class()()
        game.spec = self
        game.bot_support = load_bot_support(self.bot_support)
        game.id, game.min_players, game.max_players = self.id, self.min_players, self.max_players
        return game

    def parse_options(self, given: Mapping[str, object]) -> Options:
        return parse_options(self.options, given)
