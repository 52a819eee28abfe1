"""Play whole games with bots: one record per game, an action log to replay it."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from protopress.rules.bots import make_bot
from protopress.rules.core import as_action, checked_apply, derive_seed

LOG_FORMAT = "protopress-log/1"
MAX_DECISIONS = 20_000  # a game that needs more has hit a rules-coverage limit


@dataclass
class GameRecord:
    index: int
    seed: int
    bots: list[str]
    scores: list[int]
    winners: list[int]
    turns: int
    decisions: int
    limit: bool = False  # stopped at MAX_DECISIONS or with no legal action
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "index": self.index,
            "seed": self.seed,
            "bots": self.bots,
            "scores": self.scores,
            "winners": self.winners,
            "turns": self.turns,
            "decisions": self.decisions,
            "limit": self.limit,
            **({"extra": self.extra} if self.extra else {}),
        }


def play(game, catalog, bot_names: list[str], seed: int, options: dict | None = None):
    """One game: (final state, record, actions taken)."""
    options = options or {}
    state = game.setup(catalog, len(bot_names), random.Random(seed), options)
    bots = [make_bot(name, derive_seed(seed, "bot", seat)) for seat, name in enumerate(bot_names)]
    actions, limit = [], False
    while not game.is_over(state):
        if len(actions) >= MAX_DECISIONS or not game.legal_actions(state):
            limit = True
            break
        action = bots[game.to_move(state)].choose(game, state)
        game.apply(state, action)
        actions.append(action)
    record = GameRecord(
        index=0,
        seed=seed,
        bots=list(bot_names),
        scores=list(game.scores(state)),
        winners=list(game.winners(state)),
        turns=state.turns,
        decisions=len(actions),
        limit=limit,
        extra=game.record(state),
    )
    return state, record, actions


def seats(bot_names: list[str], players: int) -> list[str]:
    """One bot per seat: the names given, the last one repeated for the rest."""
    if not bot_names:
        bot_names = ["random"]
    return [bot_names[min(seat, len(bot_names) - 1)] for seat in range(players)]


def simulate(game, catalog, bot_names: list[str], games: int, seed: int, options=None):
    """Records of `games` games; game i is seeded from (seed, i) alone."""
    records = []
    for index in range(games):
        _, record, _ = play(game, catalog, bot_names, derive_seed(seed, "game", index), options)
        record.index = index
        records.append(record)
    return records


def log_of(game, catalog_ref: str, version: str, bot_names, seed, options, actions, record) -> dict:
    return {
        "format": LOG_FORMAT,
        "game": game.id,
        "catalog": catalog_ref,
        "catalog_version": version,
        "players": len(bot_names),
        "bots": list(bot_names),
        "seed": seed,
        "options": options or {},
        "actions": [list(action) for action in actions],
        "scores": record.scores,
    }


def replay(game, catalog, log: dict):
    """The final state of a logged game, every action checked for legality."""
    state = game.setup(catalog, log["players"], random.Random(log["seed"]), log.get("options", {}))
    for number, raw in enumerate(log["actions"]):
        try:
            checked_apply(game, state, as_action(raw))
        except ValueError as error:
            raise ValueError(f"action {number}: {error}") from None
    return state


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def log_problems(log, engines) -> list[tuple[str, str]]:
    """(JSON pointer, message) for each way log is not an action log that replay can run.

    engines are the game ids with a rules engine. Whether the actions are legal
    is replay's business; this checks the shape: format, game, players, seed,
    options (text values), actions (lists), recorded scores (numbers).
    """
    if not isinstance(log, dict):
        return [("", "expected an action log (a JSON object with game, players, seed, actions)")]
    problems = []
    fmt = log.get("format", LOG_FORMAT)
    if fmt != LOG_FORMAT:
        problems.append(("/format", f"expected {LOG_FORMAT!r}, found {fmt!r}"[:200]))
    game = log.get("game")
    if not isinstance(game, str) or game not in engines:
        known = ", ".join(sorted(engines))
        problems.append(
            ("/game", f"expected a game with a rules engine ({known}), found {game!r}"[:300])
        )
    for key, what in (("players", "a number of players"), ("seed", "an integer seed")):
        if not _is_int(log.get(key)):
            problems.append((f"/{key}", f"expected {what}, found {log.get(key)!r}"[:200]))
    if "catalog" in log:
        catalog = log["catalog"]
        if not isinstance(catalog, str) or not catalog or "\0" in catalog or len(catalog) > 4096:
            problems.append(("/catalog", "expected a built-in game id or a catalog file name"))
    options = log.get("options", {})
    if not isinstance(options, dict):
        problems.append(("/options", "expected an object of game options"))
    else:
        for key, value in options.items():
            if not isinstance(value, str):
                problems.append(
                    (f"/options/{_escape(key)}", f"expected a text value, found {value!r}"[:200])
                )
    actions = log.get("actions")
    if not isinstance(actions, list):
        problems.append(("/actions", "expected a list of actions"))
    else:
        for index, action in enumerate(actions):
            if not isinstance(action, list):
                problems.append(
                    (f"/actions/{index}", f"expected an action (a list), found {action!r}"[:200])
                )
    if "scores" in log:
        scores = log["scores"]
        if not isinstance(scores, list) or not all(
            isinstance(s, int | float) and not isinstance(s, bool) for s in scores
        ):
            problems.append(("/scores", "expected a list of numbers, one per seat"))
    return problems


def _escape(key: str) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
