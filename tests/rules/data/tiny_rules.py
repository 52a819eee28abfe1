"""A tiny game for the rules-as-data tests: a catalog and a rules file written into a
test's folder, a game set up from them, its legal actions as a log writes them, and the
command line run on it. Each test file keeps its own catalog, rules head and end
condition and passes them in; only the helpers that work on them live here.

Imported as `from tiny_rules import ...`: pytest puts a test file's folder on sys.path.
"""

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from protopress.cli import cli
from protopress.components.loader import load_catalog
from protopress.rules.data.engine import DataGame
from protopress.rules.data.model import DataState
from protopress.rules.data.spec import data_spec


def write_game(
    folder: Path, catalog: Mapping[str, Any], rules: str, name: str = "rules.yaml"
) -> Path:
    """Write catalog.json and the rules text into folder; the rules file's path."""
    (folder / "catalog.json").write_text(json.dumps(catalog))
    path = folder / name
    path.write_text(rules)
    return path


def start_game(
    rules: Path,
    players: int = 2,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
) -> tuple[DataGame, DataState]:
    """The game of a rules file, set up with the catalog.json beside it."""
    game: DataGame = data_spec(rules).new_game()
    catalog = load_catalog(rules.parent / "catalog.json")
    return game, game.setup(catalog, players, random.Random(seed), options or {})


@dataclass(frozen=True)
class TinyRules:
    """A test file's tiny game: a rules file is its head, a test's body, then the end
    (YAML list lines under `end:`, such as "- turns >= 4": the file's own unless a test
    passes another) and the score."""

    catalog: Mapping[str, Any]
    head: str
    end: str

    def write(self, folder: Path, body: str, end: str | None = None, score: str = "0") -> Path:
        """Write the catalog and the rules file of body into folder; the rules' path."""
        ending = self.end if end is None else end
        text = self.head + body + f"\nend:\n  {ending}\nscore: {json.dumps(score)}\n"
        return write_game(folder, self.catalog, text)

    def start(
        self,
        folder: Path,
        body: str,
        players: int = 2,
        seed: int = 1,
        options: Mapping[str, Any] | None = None,
        end: str | None = None,
        score: str = "0",
    ) -> tuple[DataGame, DataState]:
        """The game of body, set up for players from seed."""
        return start_game(self.write(folder, body, end=end, score=score), players, seed, options)


def logged(game: DataGame, actions: Iterable[Any]) -> list[list[Any]]:
    """Actions as a log writes them: each encoded as a list of names and numbers."""
    return [game.actions.encode(action) for action in actions]


def legal(game: DataGame, state: DataState) -> list[list[Any]]:
    """The legal actions of state, as a log writes them."""
    return logged(game, game.legal_actions(state))


def invoke(*args: object) -> Result:
    """The command line run with args (paths and numbers as text)."""
    return CliRunner().invoke(cli, [str(arg) for arg in args])


def merged_into(into: dict[str, Any], more: Mapping[str, Any]) -> dict[str, Any]:
    """into with more merged in: nested mappings key by key, anything else replaced."""
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merged_into(into[key], value)
        else:
            into[key] = value
    return into
