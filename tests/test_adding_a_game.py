"""docs/architecture.md's "How to add a game", followed literally with a small game.

The game, Tile Pick, lives in a temporary folder: its files are the ones the
how-to's tree lists (read from the doc, so the two stay in step), and it is
registered with one call, the run-time twin of the how-to's BUILTIN line. Then
every command that takes a game runs on it.

Tile Pick: the catalog's tiles (each copy a tile) are shuffled into a row; on
your turn you take the tile at either end of the row; when the row is empty,
each player scores the points of the tiles they took.
"""

import fnmatch
import json
import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import protopress
from protopress import games as registry
from protopress.cli import cli

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
GAME_ID = "tile-pick"
PACKAGE = "tile_pick"

FILES = {
    "__init__.py": '"""Tile Pick: take a tile from either end of the row."""\n',
    "spec.py": """
from pathlib import Path

from protopress.rules.spec import GameSpec, OutcomeKind

SPEC = GameSpec(
    id="tile-pick",
    title="Tile Pick",
    min_players=2,
    max_players=3,
    engine="tile_pick.rules:TilePick",
    outcomes=(OutcomeKind.VERSUS,),
    checks=("tile_pick.checks",),
    catalog_checks=("tile_pick.catalog_checks",),
    first_mover=0,
    folder=Path(__file__).parent,
    collections={"tiles": "tile"},
    commands={"tile-points": "tile_pick.commands:tile_points"},
)
""",
    "rules.py": """
from dataclasses import dataclass

from protopress.rules.core import IllegalAction, top_seats

ENDS = ("left", "right")


def points_of(catalog):
    return {tile.id: tile["points"] for tile in catalog.of_kind("tile")}


@dataclass
class Row:
    rng: object
    row: list
    taken: list
    points: dict
    seat: int = 0
    turns: int = 0

    def copy(self):
        return Row(self.rng, list(self.row), [list(t) for t in self.taken], self.points,
                   self.seat, self.turns)


class TilePick:
    def setup(self, catalog, players, rng, options):
        row = [tile.id for tile in catalog.of_kind("tile") for _ in range(tile.count)]
        rng.shuffle(row)
        return Row(rng, row, [[] for _ in range(players)], points_of(catalog))

    def to_move(self, state):
        return None if self.is_over(state) else state.seat

    def legal_actions(self, state):
        return [] if self.is_over(state) else [("take", end) for end in ENDS]

    def apply(self, state, action):
        if action not in self.legal_actions(state):
            raise IllegalAction(f"not a legal action: {action!r}")
        tile = state.row.pop(0 if action[1] == "left" else -1)
        state.taken[state.seat].append(tile)
        state.seat = (state.seat + 1) % len(state.taken)
        state.turns += 1

    def is_over(self, state):
        return not state.row

    def scores(self, state):
        return [sum(state.points[t] for t in taken) for taken in state.taken]

    def winners(self, state):
        return top_seats(self.scores(state))

    def heuristic(self, state, seat):
        return self.scores(state)[seat]

    def record(self, state):
        return {"tiles": [len(taken) for taken in state.taken]}


def score_state(catalog, state_json):
    points = points_of(catalog)
    unknown = [t for t in state_json["taken"] if t not in points]
    if unknown:
        raise ValueError(f"no tile {unknown[0]!r}")
    return {"total": sum(points[t] for t in state_json["taken"])}


def format_score(result):
    return f"total {result['total']}"
""",
    "checks.py": """
from protopress.validators.findings import Check, Finding


def _blank(catalog, seed):
    for tile in catalog.of_kind("tile"):
        if tile["points"] == 0:
            yield Finding("warning", tile.id, "scores nothing", "blank-tiles")


CHECKS = (Check("blank-tiles", ("tile",), _blank),)
""",
    "catalog_checks.py": """
from protopress.components.explain import Located
from protopress.components.semantics import count_of, items_of


def a_row(document):
    tiles = sum(count_of(tile) for _, tile in items_of(document, "tiles"))
    if 0 < tiles < 2:
        yield Located("/tiles", f"a row of {tiles} tile leaves the second player nothing")


CATALOG_CHECKS = (a_row,)
""",
    "commands.py": '''
import click

from protopress.cli.common import game_spec, load_for
from tile_pick.rules import points_of


@click.command("tile-points")
def tile_points():
    """Print each Tile Pick tile's points."""
    for tile, points in points_of(load_for(game_spec("tile-pick"), None)).items():
        click.echo(f"{tile} {points}")
''',
    "catalog.json": {
        "game": GAME_ID,
        "title": "Tile Pick",
        "version": "1.0",
        "tiles": [
            {"id": "gold", "count": 2, "points": 3},
            {"id": "stone", "count": 3, "points": 1},
            {"id": "dust", "count": 1, "points": 0},
        ],
    },
    "layouts/tile.json": {
        "kind": "tile",
        "size": {"width": "30mm", "height": "30mm"},
        "safe": "2mm",
        "front": [
            {"type": "rect", "bleed": True, "fill": "#f0e0c0"},
            {
                "type": "text",
                "x": 3,
                "y": 8,
                "w": 24,
                "h": 14,
                "text": "{points}",
                "font": "sans-bold",
                "size": 20,
                "align": "center",
                "valign": "middle",
            },
        ],
    },  # fmt: skip
    "schemas/tile.schema.json": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tile",
        "description": "Tile Pick: a tile and its points.",
        "type": "object",
        "properties": {
            "id": {"$ref": "common.schema.json#/$defs/id"},
            "count": {"$ref": "common.schema.json#/$defs/count"},
            "points": {"type": "integer", "minimum": 0, "maximum": 9},
        },
        "required": ["id", "points"],
        "additionalProperties": False,
    },
    "schemas/score-state-tile-pick.schema.json": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "score-state-tile-pick",
        "type": "object",
        "properties": {"taken": {"type": "array", "items": {"type": "string"}, "maxItems": 99}},
        "required": ["taken"],
        "additionalProperties": False,
    },
}


def how_to() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("## How to add a game\n", 1)[1].split("\n## ", 1)[0]


def tree_of_the_how_to() -> list[str]:
    """The files of a game's folder as the how-to's tree lists them (<kind> as *)."""
    block = re.search(r"```\nprotopress/games/<package>/\n(.*?)```", how_to(), re.S)
    assert block, "the how-to shows the folder of a game as a tree"
    return [line.split()[0].replace("<kind>", "*") for line in block[1].splitlines()]


def registration_line() -> tuple[str, str]:
    """The how-to's BUILTIN line, as (game id, package) placeholders."""
    line = re.search(r'^\s*"(<id>)": "protopress\.games\.(<package>)",$', how_to(), re.M)
    assert line, "the how-to shows the BUILTIN line"
    return line[1], line[2]


@pytest.fixture
def tile_pick(tmp_path, monkeypatch):
    """The game's folder, written and registered; unregistered afterwards."""
    folder = tmp_path / "src" / PACKAGE
    for name, content in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name == "catalog.json":  # the kit's catalog schema, as an editor finds it
            shipped = Path(protopress.__file__).parent / "components" / "schemas"
            content = {
                "$schema": os.path.relpath(shipped / "catalog.schema.json", folder)
            } | content
        text = content if isinstance(content, str) else json.dumps(content, indent=2)
        path.write_text(text.lstrip(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(registry, "BUILTIN", dict(registry.BUILTIN))
    game_id, package = registration_line()
    registry.register(game_id.replace("<id>", GAME_ID), package.replace("<package>", PACKAGE))
    yield folder
    monkeypatch.undo()
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    registry.builtin_spec.cache_clear()
    registry.spec_for.cache_clear()


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="protopress")


def test_the_game_folder_is_the_tree_of_the_how_to():
    tree = tree_of_the_how_to()
    written = list(FILES)
    assert [name for name in written if not any(fnmatch.fnmatch(name, p) for p in tree)] == []
    assert [p for p in tree if not any(fnmatch.fnmatch(name, p) for name in written)] == []


def test_the_how_to_registers_a_game_with_one_builtin_line():
    assert registration_line() == ("<id>", "<package>")
    assert "one line in `BUILTIN`" in how_to()


def test_every_command_that_takes_a_game_runs_on_a_registered_game(tile_pick, tmp_path):
    listed = {entry["game"]: entry for entry in json.loads(invoke("games", "--json").output)}
    assert listed[GAME_ID]["players"] == [2, 3]
    assert listed[GAME_ID]["kinds"] == {"tile": {"designs": 3, "copies": 6}}

    help_text = re.sub(r"-\n\s*", "-", invoke("--help").output)  # ids wrap at a hyphen
    assert f"{GAME_ID}." in help_text and "tile-points" in help_text
    own = invoke("tile-points")
    assert own.exit_code == 0, own.output
    assert own.output == "gold 3\nstone 1\ndust 0\n"

    validated = invoke("validate", GAME_ID)
    assert (validated.exit_code, validated.stdout) == (0, f"ok {GAME_ID}.json\n")
    one_tile = tmp_path / "one-tile.json"
    one_tile.write_text(
        '{"game": "tile-pick", "title": "T", "version": "1",\n'
        ' "tiles": [{"id": "gold", "points": 3}]}'
    )
    refused = invoke("validate", one_tile)
    assert refused.exit_code == 1
    assert refused.stdout == (
        f"{one_tile}:2:11 /tiles: a row of 1 tile leaves the second player nothing\n"
    )
    checked = json.loads(invoke("check", GAME_ID, "--json").output)
    assert [(f["component"], f["check"]) for f in checked["findings"]] == [("dust", "blank-tiles")]

    rendered = invoke("render", GAME_ID, "-o", tmp_path / "out")
    assert rendered.exit_code == 0, rendered.output
    assert list((tmp_path / "out").glob("*.pdf"))

    assert "tiles" in json.loads(invoke("schema", "catalog").output)["properties"]
    assert json.loads(invoke("schema", "tile").output)["title"] == "tile"
    assert "tile                 tiles" in invoke("schema").output

    logs = tmp_path / "logs"
    played = invoke("simulate", GAME_ID, "--games", "3", "--log-dir", logs, "--bot", "greedy")
    assert played.exit_code == 0, played.output
    assert played.output.startswith(f"{GAME_ID}: 3 games, 2 players")
    replayed = invoke("replay", logs / "game-00000.json")
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.startswith(f"{GAME_ID}: 6 actions replayed")

    balanced = invoke("balance", GAME_ID, "--games", "4", "--workers", "1")
    assert balanced.exit_code == 0, balanced.output

    # two golds and a stone, worked by hand: 3 + 3 + 1
    state = tmp_path / "state.json"
    state.write_text('{"taken": ["gold", "stone", "gold"]}')
    scored = invoke("score", GAME_ID, state)
    assert (scored.exit_code, scored.output) == (0, "total 7\n")
    state.write_text('{"taken": "gold"}')
    refused = invoke("score", GAME_ID, state)
    assert refused.exit_code == 1 and refused.output.startswith(f"{state}:1:")


def test_nothing_of_a_registered_game_is_left_after_its_test():
    assert GAME_ID not in registry.known_ids()
    assert "tiles" not in json.loads(invoke("schema", "catalog").output)["properties"]
