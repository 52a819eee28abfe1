"""Play whole games with bots: one record per game, an action log to replay it."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from protopress.rules.bot_names import make_bot, not_repeatable
from protopress.rules.core import (
    Action,
    AnyGame,
    RulesFault,
    checked_apply,
    codec_of,
    derive_seed,
    outcome_of,
)
from protopress.rules.spec import GameSpec, Outcome, OutcomeKind, versus_outcome
from protopress.rules.used import UseRecorder
from protopress.words import plural

LOG_FORMAT = "protopress-log/1"
MAX_DECISIONS = 20_000  # a game that needs more has hit a rules-coverage limit
PERSON = "person"  # a seat a person took (the playtest table), in an action log's bots


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
    outcome: Outcome | None = None  # None only in records read from before outcomes

    def __post_init__(self) -> None:
        if self.outcome is None:
            self.outcome = versus_outcome(self.scores, self.winners)

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
            **({"outcome": self.outcome.to_json()} if self.outcome else {}),
            **({"extra": self.extra} if self.extra else {}),
        }

    @classmethod
    def from_json(cls, data: dict) -> GameRecord:
        fields = {"extra": {}, **data}
        if isinstance(fields.get("outcome"), dict):
            fields["outcome"] = Outcome.from_json(fields["outcome"], fields["scores"])
        return cls(**fields)


def play(
    game: AnyGame,
    catalog: Any,
    bot_names: list[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    record_use: bool = True,
) -> tuple[Any, GameRecord, list[Action]]:
    """One game: (final state, record, actions taken).

    record_use: for a game whose record does not say `used`, the kit records which
    components each seat used (rules/used.py) and adds it to the record's extras."""
    options = options or {}
    state = game.setup(catalog, len(bot_names), random.Random(seed), options)
    recorder = UseRecorder.watching(game, catalog, state, len(bot_names)) if record_use else None
    bots = [make_bot(name, derive_seed(seed, "bot", seat)) for seat, name in enumerate(bot_names)]
    actions: list[Action] = []
    limit = False
    while not game.is_over(state):
        legal = game.legal_actions(state) if len(actions) < MAX_DECISIONS else []
        if not legal:
            limit = True
            break
        mover = game.to_move(state)
        if mover is None:  # `protopress conform` names it too
            raise RulesFault(
                f"{game.id}: to_move returned None (no seat) while is_over says the game runs"
            )
        action = bots[mover].choose(game, state, legal)
        if recorder is None:
            game.apply(state, action)
        else:
            recorder.apply(game, state, mover, action)
        actions.append(action)
    record = record_of(game, state, seed, bot_names, len(actions), limit, recorder=recorder)
    return state, record, actions


def record_of(
    game: AnyGame,
    state: Any,
    seed: int,
    bot_names: Sequence[str],
    decisions: int,
    limit: bool = False,
    index: int = 0,
    recorder: UseRecorder | None = None,
) -> GameRecord:
    """The record of a game played to state: its scores, outcome and the game's own
    extras, with the components each seat used when a recorder watched the game."""
    return GameRecord(
        index=index,
        seed=seed,
        bots=list(bot_names),
        scores=list(game.scores(state)),
        winners=list(game.winners(state)),
        turns=state.turns,
        decisions=decisions,
        limit=limit,
        extra=game.record(state) if recorder is None else recorder.record(game.record(state)),
        outcome=outcome_of(game, state),
    )


def seats(bot_names: list[str], players: int) -> list[str]:
    """One bot per seat: the names given, the last one repeated for the rest."""
    if not bot_names:
        bot_names = ["random"]
    return [bot_names[min(seat, len(bot_names) - 1)] for seat in range(players)]


def simulate(
    game: AnyGame,
    catalog: Any,
    bot_names: list[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> list[GameRecord]:
    """Records of `games` games; game i is seeded from (seed, i) alone."""
    records = []
    for index in range(games):
        _, record, _ = play(game, catalog, bot_names, derive_seed(seed, "game", index), options)
        record.index = index
        records.append(record)
    return records


def log_of(
    game: AnyGame,
    catalog_ref: str,
    version: str,
    bot_names: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None,
    actions: Sequence[Action],
    record: GameRecord,
    rules: str | None = None,
) -> dict[str, Any]:
    """An action log: with typed options, so that it replays exactly."""
    spec = getattr(game, "spec", None)
    typed = spec.parse_options(options or {}) if spec else dict(options or {})
    codec = codec_of(game)
    return {
        "format": LOG_FORMAT,
        "game": game.id,
        "catalog": catalog_ref,
        "catalog_version": version,
        "players": len(bot_names),
        "bots": list(bot_names),
        "seed": seed,
        "options": typed,
        **({"rules": rules} if rules else {}),
        "limit": record.limit,  # stopped at the decision limit: the game is not over
        "actions": [codec.encode(action) for action in actions],
        "scores": record.scores,
    }


def replay(game: AnyGame, catalog: Any, log: Mapping[str, Any]) -> Any:
    """The final state of a logged game, every action checked for legality."""
    state = game.setup(catalog, log["players"], random.Random(log["seed"]), log.get("options", {}))
    decode = codec_of(game).decode
    for number, raw in enumerate(log["actions"]):
        try:
            checked_apply(game, state, decode(raw))
        except ValueError as error:
            raise ValueError(f"action {number}: {error}") from None
    return state


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def log_problems(
    log: object, engines: Iterable[str] | Mapping[str, GameSpec]
) -> list[tuple[str, str]]:
    """(JSON pointer, message) for each way log is not an action log that replay can run.

    engines are the game ids with a rules engine, or a mapping of them to their
    specs (then the options are checked against the game's declared ones). Whether the actions are legal
    is replay's business; this checks the shape: format, game, players, seed,
    options (text, whole numbers or true/false), actions (lists), recorded scores (numbers).
    """
    if not isinstance(log, dict):
        return [("", "expected an action log (a JSON object with game, players, seed, actions)")]
    problems = []
    fmt = log.get("format", LOG_FORMAT)
    if fmt != LOG_FORMAT:
        problems.append(("/format", f"expected {LOG_FORMAT!r}, found {fmt!r}"[:200]))
    game = log.get("game")
    known = ", ".join(sorted(engines))
    if "game" not in log:
        problems.append(_missing("game", f"a game with a rules engine: {known}"))
    elif not isinstance(game, str) or game not in engines:
        problems.append(
            ("/game", f"expected a game with a rules engine ({known}), found {game!r}"[:300])
        )
    for key, what in (("players", "a number of players"), ("seed", "an integer seed")):
        if key not in log:
            problems.append(_missing(key, what))
        elif not _is_int(log[key]):
            problems.append((f"/{key}", f"expected {what}, found {log[key]!r}"[:200]))
    if "catalog" in log:
        catalog = log["catalog"]
        if not isinstance(catalog, str) or not catalog or "\0" in catalog or len(catalog) > 4096:
            problems.append(("/catalog", "expected a built-in game id or a catalog file name"))
    options = log.get("options", {})
    if not isinstance(options, dict):
        problems.append(("/options", "expected an object of game options"))
    else:
        spec = engines.get(game) if isinstance(engines, Mapping) and isinstance(game, str) else None
        for key, value in options.items():
            pointer = f"/options/{_escape(key)}"
            if not isinstance(value, str | int):  # bool is an int
                problems.append(
                    (pointer, f"expected text, a whole number or true/false, found {value!r}"[:200])
                )
            elif spec is not None:
                try:
                    spec.parse_options({key: value})
                except ValueError as error:
                    problems.append((pointer, str(error)[:300]))
    actions = log.get("actions")
    if "actions" not in log:
        problems.append(_missing("actions", "a list of actions"))
    elif not isinstance(actions, list):
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


def _missing(key: str, what: str) -> tuple[str, str]:
    """A key the log lacks, said as the catalog's schema problems say it, at the log itself."""
    return ("", f"missing required property {key!r} ({what})"[:300])


def _escape(key: str) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


# --- what a set of records says -----------------------------------------------------


def summarize_records(records: list[GameRecord], players: int) -> dict:
    """simulate's summary: per seat, ties and lengths; the team or solo result when there is one."""
    games = len(records)
    wins = [sum(r.winners == [seat] for r in records) for seat in range(players)]
    summary: dict = {
        "games": games,
        "mean_scores": [sum(r.scores[seat] for r in records) / games for seat in range(players)],
        "wins": wins,
        "win_rates": [w / games for w in wins],
        "ties": sum(len(r.winners) > 1 for r in records),
        "mean_turns": sum(r.turns for r in records) / games,
        "limits": sum(r.limit for r in records),
    }
    outcomes = [r.outcome for r in records if r.outcome is not None]
    team = [o for o in outcomes if o.kind is OutcomeKind.TEAM]
    if team:
        summary["team"] = _team_summary(team)
        summary["ties"] = 0  # a team game has no ties: all seats share the result
    solo = [o for o in outcomes if o.kind is OutcomeKind.SOLO and o.rival_score is not None]
    if solo:
        summary["solo"] = _solo_summary(solo)
    return summary


def _team_summary(outcomes: list[Outcome]) -> dict:
    games = len(outcomes)
    scores = sorted(o.team_score or 0 for o in outcomes)
    reached: dict[str, int] = {}
    for o in outcomes:
        for name in o.targets_reached:
            reached[name] = reached.get(name, 0) + 1
    return {
        "won": sum(bool(o.team_won) for o in outcomes),
        "win_rate": sum(bool(o.team_won) for o in outcomes) / games,
        "mean_score": sum(scores) / games,
        "min_score": scores[0],
        "median_score": scores[games // 2],
        "max_score": scores[-1],
        "targets_reached": reached,
    }


def _solo_summary(outcomes: list[Outcome]) -> dict:
    games = len(outcomes)
    won = sum(bool(o.solo_won) for o in outcomes)
    margins = sorted(o.scores[0] - (o.rival_score or 0) for o in outcomes)
    return {
        "player_win_rate": won / games,
        "rival_win_rate": 1 - won / games,
        "mean_player": sum(o.scores[0] for o in outcomes) / games,
        "mean_rival": sum(o.rival_score or 0 for o in outcomes) / games,
        "mean_margin": sum(margins) / games,
        "margins": margins,
    }


def summary_lines(game_id: str, summary: dict, bot_names: list[str], seed: int) -> list[str]:
    """simulate's text summary, saying a team's or a solo player's result where it applies."""
    players = len(bot_names)
    head = f"{plural(summary['games'], 'game')}, {plural(players, 'player')}, seed {seed}"
    lines = [f"{game_id}: {head}"]
    team = summary.get("team")
    for seat in range(players):
        line = f"  seat {seat} ({bot_names[seat]}): mean score {summary['mean_scores'][seat]:.2f}"
        if team is None:
            line += f", wins {summary['wins'][seat]} ({summary['win_rates'][seat]:.1%})"
        lines.append(line)
    if team is not None:
        lines.append(
            f"  the team won {team['won']} of {summary['games']} ({team['win_rate']:.1%}); "
            f"team score mean {team['mean_score']:.1f}, median {team['median_score']}, "
            f"range {team['min_score']}-{team['max_score']}"
        )
        if team["targets_reached"]:
            reached = ", ".join(
                f"{name} {count / summary['games']:.0%}"
                for name, count in team["targets_reached"].items()
            )
            lines.append(f"  targets reached: {reached}")
    solo = summary.get("solo")
    if solo is not None:
        lines.append(
            f"  against the rival: player wins {solo['player_win_rate']:.1%}, "
            f"rival wins {solo['rival_win_rate']:.1%}; mean player {solo['mean_player']:.1f}, "
            f"mean rival {solo['mean_rival']:.1f}, mean margin {solo['mean_margin']:+.1f}"
        )
    ties = "" if team is not None else f"ties {summary['ties']}, "
    lines.append(
        f"  {ties}mean turns {summary['mean_turns']:.1f}, games at a limit {summary['limits']}"
    )
    by_time = not_repeatable(bot_names)
    if by_time:
        lines.append(f"  {by_time}")
    return lines
