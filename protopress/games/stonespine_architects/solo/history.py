"""The finished solo games, kept in `solo-history.json` beside the save: date,
difficulty, seed, both scores and the result, each game once."""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import json
from pathlib import Path

from protopress.atomic import write_atomic
from protopress.components.loader import parse_json_file
from protopress.components.problems import InvalidInput
from protopress.games.stonespine_architects.solo.engine import Engine
from protopress.games.stonespine_architects.solo.errors import SessionError

HISTORY_FORMAT = "protopress-solo-history"
FIELDS = ("date", "difficulty", "seed", "you", "rival", "result")


def history_path(save_path: Path) -> Path:
    return Path(save_path).parent / "solo-history.json"


def read_history(path: Path) -> list[dict]:
    """The games recorded in path (none when it does not exist); SessionError if damaged."""
    if not path.exists():
        return []
    try:
        data = parse_json_file(path, str(path))
    except InvalidInput as invalid:
        raise SessionError(f"{path}: damaged history: {invalid.problems[0].message}") from None
    if not isinstance(data, dict) or data.get("format") != HISTORY_FORMAT:
        raise SessionError(f"{path}: not a protopress solo history")
    games = data.get("games")
    if not isinstance(games, list) or not all(isinstance(g, dict) for g in games):
        raise SessionError(f"{path}: damaged history: the games are not a list")
    return games


def game_id(engine: Engine) -> str:
    """The same game (difficulty, seed, answers) has the same id, so it is kept once."""
    text = json.dumps([engine.difficulty, engine.seed, engine.answers])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def record(path: Path, engine: Engine, now: datetime.datetime | None = None) -> bool:
    """Add a finished game to the history; False when it is already there."""
    result = engine.result
    if result is None:
        raise ValueError("only a finished game goes into the history")
    games = read_history(path)
    ident = game_id(engine)
    if any(g.get("id") == ident for g in games):
        return False
    when = (now or datetime.datetime.now()).replace(microsecond=0)
    games.append(
        {
            "id": ident,
            "date": when.isoformat(sep=" "),
            "difficulty": engine.difficulty,
            "seed": engine.seed,
            "you": result.player,
            "rival": result.rival,
            "result": "won" if result.won else "lost",
        }
    )
    document = {"format": HISTORY_FORMAT, "version": 1, "games": games}
    write_atomic(path, (json.dumps(document, indent=2) + "\n").encode("utf-8"))
    return True


def history_csv(games: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(games)
    return out.getvalue()
