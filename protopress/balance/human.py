"""Games people played at the playtest table, kept in a balance store beside the
bots' games (`protopress balance GAME --store FILE --add-replay LOG.json`).

A human game is the record of a finished action log whose `bots` name the people's
seats `person` (web/table.py writes such logs), with those seats and a digest of
the game, so that one game is added once. The bots' statistics never count
human games: a person plays another game than a bot (they learn, they try things,
they stop early), and a store's bot numbers must stay those of its settings and
seed alone. The human games are summed up apart: how many, and how the people's
seats and the bots' seats at those tables did.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protopress.rules.core import AnyGame
from protopress.rules.simulate import PERSON, GameRecord, record_of


class NotAHumanGame(ValueError):
    """An action log that cannot join a store as a human game (said in one line)."""


@dataclass(frozen=True)
class HumanGame:
    """A finished game people played: its record (`bots` names their seats PERSON),
    their seats, and the digest of the game it was read from."""

    record: GameRecord
    people: tuple[int, ...]
    digest: str  # of the game's seed, players, options, seats and actions

    def to_json(self) -> dict[str, Any]:
        return {"human": list(self.people), "digest": self.digest, **self.record.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HumanGame:
        fields = dict(data)
        people = tuple(int(seat) for seat in fields.pop("human"))
        digest = str(fields.pop("digest"))
        return cls(GameRecord.from_json(fields), people, digest)


def is_human_line(data: object) -> bool:
    """Whether a store line holds a human game (else a bot game's record)."""
    return isinstance(data, dict) and "human" in data


def human_game(game: AnyGame, state: Any, log: Mapping[str, Any], index: int) -> HumanGame:
    """The human game of a log replayed to state; NotAHumanGame when no seat was a
    person's or the game is not over (a log stopped early tells nothing of a result)."""
    seats = [str(who) for who in log["bots"]]
    people = tuple(seat for seat, who in enumerate(seats) if who == PERSON)
    if not people:
        raise NotAHumanGame(
            f"no seat was a {PERSON}'s (its bots list names none): a bot game, which "
            "protopress balance plays itself"
        )
    if not game.is_over(state):
        raise NotAHumanGame(
            f"the game is unfinished (it ends after {len(log['actions'])} actions): only a "
            "finished game joins a store"
        )
    record = record_of(game, state, log["seed"], seats, len(log["actions"]), index=index)
    return HumanGame(record, people, game_digest(log))


def game_digest(log: Mapping[str, Any]) -> str:
    """The same game gives the same digest, whatever file it is in."""
    game = {key: log.get(key) for key in ("game", "seed", "players", "options", "bots", "actions")}
    return hashlib.sha256(json.dumps(game, sort_keys=True).encode()).hexdigest()


def human_summary(games: Sequence[HumanGame]) -> dict[str, Any] | None:
    """How the people's seats and the bots' seats at their tables did; None without
    human games. Never part of the bots' statistics (see the module docstring)."""
    if not games:
        return None
    people = [_seat(game, seat) for game in games for seat in game.people]
    bots = [
        _seat(game, seat)
        for game in games
        for seat in range(len(game.record.scores))
        if seat not in game.people
    ]
    return {
        "games": len(games),
        "in_statistics": False,
        "people": _side(people),
        "bots": _side(bots),
    }


def _seat(game: HumanGame, seat: int) -> tuple[bool, int]:
    outcome = game.record.outcome
    won = outcome.seat_won(seat) if outcome is not None else game.record.winners == [seat]
    return won, game.record.scores[seat]


def _side(seats: Sequence[tuple[bool, int]]) -> dict[str, Any]:
    scores = [score for _, score in seats]
    return {
        "seats": len(seats),
        "wins": sum(won for won, _ in seats),
        "mean_score": round(sum(scores) / len(scores), 2) if scores else None,
    }


def human_lines(summary: Mapping[str, Any] | None) -> list[str]:
    """The human games in words, saying that the other numbers leave them out."""
    if not summary:
        return []
    games, people, bots = summary["games"], summary["people"], summary["bots"]
    said = (
        f"{games} game{'s' if games != 1 else ''} played by people at the table "
        f"{'are' if games != 1 else 'is'} kept apart (every other figure is the bots' games "
        f"alone): the people's seats won {people['wins']} of {people['seats']} "
        f"(mean score {people['mean_score']:g})"
    )
    if bots["seats"]:
        said += (
            f", the bots' seats at those tables {bots['wins']} of {bots['seats']} "
            f"(mean score {bots['mean_score']:g})"
        )
    return [said + "."]
