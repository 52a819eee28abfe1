"""`protopress check --rules`: a bounded simulation of a rules file, reported at its rules.

A few dozen games of random bots, each stopped at a turn cap, say what a reading of
the file cannot: a game that does not end (and which of the `end:` conditions never
held), and an action no one took (and whether it was ever allowed). It is evidence,
not proof: a cap reached or an action not taken in these games may come in others.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Any

from protopress.components.jsonpos import pointer_of
from protopress.components.problems import Problem
from protopress.rules.core import derive_seed
from protopress.rules.data.engine import DataGame
from protopress.rules.data.load import Finding

CHECK_GAMES = 24  # a few dozen games: enough to see most actions, quick enough to run often
TURN_CAP = 1_000  # turns of one game; Cottage Market plays 24 to 48


class Severity(Enum):
    ERROR = "error"  # the game as written cannot be played to its end
    WARNING = "warning"  # it plays, but a rule looks unreachable


@dataclass(frozen=True)
class PlayFinding:
    """What the bounded simulation found, at the rule it concerns."""

    severity: Severity
    problem: Problem

    def __str__(self) -> str:
        return f"{self.severity.value} {self.problem}"


@dataclass(frozen=True)
class PlayCheck:
    """The games played and what they showed."""

    games: int
    players: int
    cap: int
    ended: int  # games that reached an end condition within the cap
    findings: tuple[PlayFinding, ...]


def check_play(
    game: DataGame,
    catalog: Any,
    players: int,
    seed: int = 0,
    games: int = CHECK_GAMES,
    cap: int = TURN_CAP,
    options: dict[str, Any] | None = None,
) -> PlayCheck:
    """Play `games` games of random bots on the rules of game (at most `cap` decisions
    each) and report what never happened. Setup raises InvalidInput as in play."""
    model = game.model(catalog)
    codec = game.actions
    taken: Counter[str] = Counter()
    offered: Counter[str] = Counter()
    held = [0] * len(model.end)
    ended = stuck = 0
    for index in range(games):
        game_seed = derive_seed(seed, "check", index)
        state = game.setup(catalog, players, random.Random(game_seed), options or {})
        picker = random.Random(derive_seed(game_seed, "random bots"))
        decisions = 0
        while not game.is_over(state) and decisions < cap:
            legal = game.legal_actions(state)
            if not legal:
                stuck += 1
                break
            offered.update({codec.encode(action)[0] for action in legal})
            action = picker.choice(legal)  # every seat a random bot
            taken[codec.encode(action)[0]] += 1
            game.apply(state, action)
            decisions += 1
        if game.is_over(state):
            ended += 1
            env: list[Any] = [None] * model.env_size
            for i, end in enumerate(model.end):
                held[i] += bool(end(state, state.seat, env))
    source = game.source
    findings: list[PlayFinding] = []
    if ended < games:
        severity = Severity.ERROR if ended == 0 else Severity.WARNING
        unended = games - ended
        why = f"{unended} of {games} random games did not end within {cap} turns"
        if stuck:
            why += f" ({stuck} stopped with no action allowed and the game not over)"
        # model.end: the file's plain conditions (not last_round, last_turns), then tracks'
        plain = [f"/end/{i}" for i, item in enumerate(source.document["end"])
                 if not isinstance(item, dict)]  # fmt: skip
        for i, count in enumerate(held):
            if not count:
                message = f"this end condition never held: {why}"
                pointer = plain[i] if i < len(plain) else "/end"
                findings.append(PlayFinding(severity, source.locate(Finding(pointer, message))))
        if all(held):
            findings.append(PlayFinding(severity, source.locate(Finding("/end", why))))
    for verb in source.document["turn"]["choose"]:
        if taken[verb]:
            continue
        if offered[verb]:
            message = f"no one took this action in {games} random games (it was allowed {offered[verb]} times)"  # fmt: skip
        else:
            message = f"no one could take this action in {games} random games: it was never allowed"
        where = Finding(pointer_of(["turn", "choose", verb]), message, at_key=True)
        findings.append(PlayFinding(Severity.WARNING, source.locate(where)))
    return PlayCheck(games, players, cap, ended, tuple(findings))
