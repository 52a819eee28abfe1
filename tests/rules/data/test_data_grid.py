"""Board grids in the rules language, each construct with a worked example: a tiny
catalog of tiles, a rule in words, and the cells and numbers worked out by hand.

The tiny catalog's tiles, in catalog order (3 copies each): grove (a grove, banks on
every edge), pond (a pond, banks on every edge), ford (a meadow with a brook from its
top edge to its bottom edge: n and s brook, e and w bank), rill (a meadow with a brook
from left to right: e and w brook, n and s bank).

Cells are numbered row by row from the top left and named like a chess board's: on a
grid 3 wide, cell 4 is b2 (the second column of the second row).
"""

import json
import random
from pathlib import Path

import pytest
from tiny_rules import invoke, start_game, write_game

from protopress.components.loader import load_catalog
from protopress.rules.core import IllegalAction, RulesFault
from protopress.rules.data.grid import geometry
from protopress.rules.data.model import HOLE
from protopress.rules.data.spec import data_spec

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "brookfield"
RULES = EXAMPLE / "rules.yaml"

SIDE = {"type": "text", "enum": ["brook", "bank"]}
CATALOG = {
    "game": "tiles", "title": "Tiles", "version": "1.0.0",
    "kinds": {"tile": {"collection": "tiles", "size": {"width": "30mm", "height": "30mm"},
                       "fields": {"terrain": {"type": "text"}, "n": SIDE, "e": SIDE, "s": SIDE,
                                  "w": SIDE}}},
    "tiles": [
        {"id": "grove", "count": 3, "terrain": "grove", "n": "bank", "e": "bank", "s": "bank", "w": "bank"},
        {"id": "pond", "count": 3, "terrain": "pond", "n": "bank", "e": "bank", "s": "bank", "w": "bank"},
        {"id": "ford", "count": 3, "terrain": "meadow", "n": "brook", "e": "bank", "s": "brook", "w": "bank"},
        {"id": "rill", "count": 3, "terrain": "meadow", "n": "bank", "e": "brook", "s": "bank", "w": "brook"},
    ],
}  # fmt: skip
GROVE, POND, FORD, RILL = 0, 1, 2, 3  # tiles are numbered in catalog order
_ = HOLE  # a free cell

RULES_HEAD = """
rules: 1
game: tiles
players: {min: 1, max: 2}
options:
  size: {whole: 3, min: 2, max: 8, says: the field's width}
zones:
  bag: {holds: tile, seen: nobody, setup: all}
  hand: {holds: tile, seen: everyone, each: true}
  field: {holds: tile, seen: everyone, each: true, grid: {shape: SHAPE, width: WIDTH, height: 3}}
turn:
  choose:
    lay:
      each: tile
      from: my.hand
      onto: my.field
"""


def start(tmp_path, lay="", score="0", shape="square", width="3", options=None):
    """A one-player game of the tiny catalog; its state, the hand and field piles."""
    head = RULES_HEAD.replace("SHAPE", shape).replace("WIDTH", width)
    text = (
        head + lay + f"      do: [{{place: tile}}]\nend: [turns >= 9]\nscore: {json.dumps(score)}\n"
    )
    game, state = start_game(write_game(tmp_path, CATALOG, text), players=1, options=options)
    zones = {zone.name: zone.first for zone in game.layout.zones}
    return game, state, state.piles[zones["hand"]], state.piles[zones["field"]]


def cells(game, state):
    return [(action.tile, action.cell) for action in game.legal_actions(state)]


# --- where a grid's cells touch ---


def test_square_cells_touch_on_four_sides():
    # 3 x 3: the centre b2 (4) touches b1 (1) above, c2 (5) right, b3 (7) below, a2 (3) left;
    # the corner a1 (0) only b1 (1) to its right and a2 (3) below it
    grid = geometry("square", 3, 3)
    assert [(t.side, t.cell) for t in grid.touching[4]] == [("n", 1), ("e", 5), ("s", 7), ("w", 3)]
    assert [(t.side, t.facing, t.cell) for t in grid.touching[0]] == [("e", "w", 1), ("s", "n", 3)]
    assert grid.labels[4] == "b2" and grid.cells["c3"] == 8


def test_hex_cells_touch_on_six_sides_with_every_second_row_shifted_right():
    # the 2nd row is shifted half a cell right, so b2 (4) touches b1 and c1 above it,
    # a2 and c2 beside it, b3 and c3 below it; b1 (1) in an unshifted row touches
    # a1 and c1 beside it and a2 (3), b2 (4) below it
    grid = geometry("hex", 3, 3)
    assert [(t.side, t.cell) for t in grid.touching[4]] == [
        ("ne", 2), ("e", 5), ("se", 8), ("sw", 7), ("w", 3), ("nw", 1),
    ]  # fmt: skip
    assert sorted(t.cell for t in grid.touching[1]) == [0, 2, 3, 4]


# --- placing a tile ---


def test_an_empty_grid_takes_the_first_tile_anywhere_and_place_puts_it_there(tmp_path):
    # touch: the first tile may go on any of the 9 free cells
    game, state, hand, field = start(tmp_path, "      touch: true\n")
    hand[:] = [FORD]
    assert [cell for _, cell in cells(game, state)] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]  # fmt: skip
    game.apply(state, game.actions.decode(["lay", "ford", "b2"]))
    assert field == [_, _, _, _, FORD, _, _, _, _] and hand == []


def test_touch_and_matching_edges(tmp_path):
    # A ford lies on b2: brook to its top and bottom, banks left and right. A tile must
    # touch a laid tile, and on each side where it touches one, its edge must be the
    # neighbour's facing edge (brook meets brook, bank meets bank):
    #   grove (all banks): b1 (its s bank vs the ford's n brook) no; a2 (e bank vs w bank)
    #     yes; c2 (w bank vs e bank) yes; b3 (n bank vs s brook) no
    #   rill (brook e and w): a2 (e brook vs bank) no; c2 (w brook vs bank) no; b1 and b3
    #     (n/s bank vs brook) no: nowhere
    #   ford: b1 (s brook vs n brook) yes; a2, c2 (banks) yes; b3 (n brook vs s brook) yes
    match = "      touch: true\n      match: edge(tile, side) == edge(neighbour, facing)\n"
    game, state, hand, field = start(tmp_path, match)
    hand[:] = [GROVE, RILL, FORD]
    field[4] = FORD
    assert cells(game, state) == [
        ("grove", "a2"), ("grove", "c2"), ("ford", "b1"), ("ford", "a2"), ("ford", "c2"), ("ford", "b3"),
    ]  # fmt: skip
    with pytest.raises(IllegalAction):
        game.apply(state, game.actions.decode(["lay", "rill", "c2"]))
    with pytest.raises(IllegalAction):
        game.apply(state, game.actions.decode(["lay", "ford", "b2"]))  # taken
    game.apply(state, game.actions.decode(["lay", "grove", "c2"]))
    assert field[5] == GROVE and hand == [RILL, FORD]


def test_edges_a_catalog_lacks_are_a_rules_fault(tmp_path):
    # tiles with square edges (n, e, s, w) on a hex grid: the first free cell touching
    # the tile on b2 is b1, whose se side touches it: the tiles have no 'se' edge
    match = "      match: edge(tile, side) == edge(neighbour, facing)\n"
    game, state, hand, field = start(tmp_path, match, shape="hex")
    hand[:] = [GROVE]
    field[4] = FORD
    with pytest.raises(RulesFault, match="the catalog's tiles have no side 'se'"):
        game.legal_actions(state)


def test_a_match_on_tags_without_touch(tmp_path):
    # "a pond may not lie beside a grove", any cell otherwise: grove on a1; a pond may not
    # go on b1 or a2 (beside it); the other 6 free cells are open
    game, state, hand, field = start(tmp_path, "      match: not (tile.terrain == 'pond' and neighbour.terrain == 'grove')\n")  # fmt: skip
    hand[:] = [POND]
    field[0] = GROVE
    assert [cell for _, cell in cells(game, state)] == ["c1", "b2", "c2", "a3", "b3", "c3"]


def test_hex_touch(tmp_path):
    # one tile on b2 of a 3 x 3 hex grid: the cells that touch it are b1, c1, a2, c2, b3, c3
    game, state, hand, field = start(tmp_path, "      touch: true\n", shape="hex")
    hand[:] = [GROVE]
    field[4] = POND
    assert [cell for _, cell in cells(game, state)] == ["b1", "c1", "a2", "c2", "b3", "c3"]


def test_a_grid_sized_by_an_option(tmp_path):
    # width: size (an option, 3 by default); --option size=5: 5 x 3 = 15 free cells
    game, state, hand, field = start(tmp_path, width="size", options={"size": 5})
    assert field == [HOLE] * 15
    hand[:] = [GROVE]
    game.apply(state, game.actions.decode(["lay", "grove", "e3"]))  # the last cell
    assert field[14] == GROVE
    assert game.record(state)["field"][0][13:] == [None, "grove"]


# --- grid scores ---

# A field 4 wide and 3 high, laid by hand (G grove, P pond, F ford, . free):
#   row 1:  G G P .      cells 0  1  2  3
#   row 2:  . G P G            4  5  6  7
#   row 3:  F G . G            8  9 10 11
FIELD = [GROVE, GROVE, POND, _, _, GROVE, POND, GROVE, FORD, GROVE, _, GROVE]


def scored(tmp_path, score, shape="square"):
    game, state, _hand, field = start(tmp_path, score=score, shape=shape, width="4")
    field[:] = FIELD
    return game.scores(state)[0]


def test_largest_group(tmp_path):
    # groves: 0-1 side by side, 1 above 5, 5 above 9: a group of 4; 7 above 11: a group of 2
    assert scored(tmp_path, "largest_group(t for t in my.field if t.terrain == 'grove')") == 4
    # every laid tile: 0 1 2 5 6 7 9 11 8 (through 9) are one group of 9
    assert scored(tmp_path, "largest_group(t for t in my.field)") == 9


def test_largest_group_square_or_hex(tmp_path):
    # groves on b1 (cell 1) and a2 (cell 2) of a field 2 wide and 3 high: corner to
    # corner on a square grid (largest group 1); on a hex grid the shifted 2nd row puts
    # a2 below-right of a1, touching b1 on its ne side: one group of 2
    groves = "largest_group(t for t in my.field if t.terrain == 'grove')"
    for shape, expected in (("square", 1), ("hex", 2)):
        folder = tmp_path / shape
        folder.mkdir()
        game, state, _hand, field = start(folder, score=groves, shape=shape, width="2")
        field[:] = [_, GROVE, GROVE, _, _, _]
        assert game.scores(state)[0] == expected, shape


def test_adjacent_pairs(tmp_path):
    # pairs of laid tiles sharing a side: across 0-1 1-2 5-6 6-7 8-9, down 1-5 5-9 2-6 7-11
    # a pond beside a grove: 1-2, 5-6, 6-7 = 3; alike terrain: 0-1 1-5 5-9 2-6 7-11 = 5
    pond_grove = "adjacent_pairs(a.terrain == 'pond' and b.terrain == 'grove' or a.terrain == 'grove' and b.terrain == 'pond' for a, b in my.field)"  # fmt: skip
    assert scored(tmp_path, pond_grove) == 3
    assert scored(tmp_path, "adjacent_pairs(a.terrain == b.terrain for a, b in my.field)") == 5


def test_rows_and_columns(tmp_path):
    # rows holding a pond and a grove: row 1 (G G P) and row 2 (G P G), not row 3 (F G): 2
    both = "rows(1 if count(t for t in line if t.terrain == 'pond') > 0 and count(t for t in line if t.terrain == 'grove') > 0 else 0 for line in my.field)"  # fmt: skip
    assert scored(tmp_path, both) == 2
    # full columns (3 tiles): column 1 G . F no, column 2 G G G yes, column 3 P P . no,
    # column 4 . G G no: 1; 5 points each: 5
    assert scored(tmp_path, "columns(5 if count(line) == 3 else 0 for line in my.field)") == 5
    # tiles per row, added up: 3 + 3 + 3
    assert scored(tmp_path, "rows(count(line) for line in my.field)") == 9


def test_going_through_a_grid_skips_its_free_cells(tmp_path):
    # FIELD has 9 tiles on 12 cells: count 9; 1 for each grove (cells 0 1 5 7 9 11): 6;
    # not empty
    assert scored(tmp_path, "count(my.field)") == 9
    assert scored(tmp_path, "sum(1 for t in my.field if t.terrain == 'grove')") == 6
    assert scored(tmp_path, "0 if empty(my.field) else 1") == 1


def test_a_shared_board_takes_each_players_tiles_in_turn(tmp_path):
    # one board for both players; each lays from their own hand onto it, touching:
    # seat 0 lays a grove on b2, then seat 1 may only lay beside it (b1, a2, c2, b3)
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    text = RULES_HEAD.replace("players: {min: 1, max: 2}", "players: {min: 2, max: 2}")
    text = text.replace("field: {holds: tile, seen: everyone, each: true, grid: {shape: SHAPE, width: WIDTH, height: 3}}",
                        "board: {holds: tile, seen: everyone, grid: {shape: square, width: 3, height: 3}}")  # fmt: skip
    text = text.replace("onto: my.field", "onto: board") + "      touch: true\n"
    text += "      do: [{place: tile}]\nend: [turns >= 9]\nscore: 0\n"
    (tmp_path / "rules.yaml").write_text(text)
    game = data_spec(tmp_path / "rules.yaml").new_game()
    state = game.setup(load_catalog(tmp_path / "catalog.json"), 2, random.Random(1), {})
    first = {zone.name: zone.first for zone in game.layout.zones}
    state.piles[first["hand"]][:] = [GROVE]
    state.piles[first["hand"] + 1][:] = [POND]
    game.apply(state, game.actions.decode(["lay", "grove", "b2"]))
    assert [cell for _, cell in cells(game, state)] == ["b1", "a2", "c2", "b3"]
    game.apply(state, game.actions.decode(["lay", "pond", "c2"]))
    assert state.piles[first["board"]] == [_, _, _, _, GROVE, POND, _, _, _]


# --- the example game through every command ---


def test_the_example_simulates_and_replays(tmp_path):
    result = invoke("simulate", "brookfield", "--rules", RULES, "--games", "3", "--players", "3",
                    "--log-dir", tmp_path, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    log = json.loads((tmp_path / "game-00000.json").read_text())
    assert log["actions"][0][0] in ("lay", "compost") and not game["limit"]
    replay = invoke("replay", tmp_path / "game-00000.json", "--rules", RULES)
    assert replay.exit_code == 0, replay.output
    assert "groves" in replay.output and "columns" in replay.output


def test_the_example_renders(tmp_path):
    result = invoke("render", EXAMPLE / "catalog.json", "--layouts", EXAMPLE / "layouts",
                    "-o", tmp_path, "--layout", "sheets")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tile-sheets.pdf").stat().st_size > 0


def test_the_example_balances_and_greedy_beats_random(tmp_path):
    out = tmp_path / "balance.json"
    result = invoke("balance", "brookfield", "--rules", RULES, "--games", "12", "--rotate",
                    "--bot", "greedy", "--bot", "random", "--json", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    run = json.loads(out.read_text())
    assert run["game"] == "brookfield"
    # the seats take turns with the bots (--rotate); greedy aims at the score, random not
    greedy_wins = sum(record["bots"][seat] == "greedy"
                      for record in run["records"] for seat in record["winners"])  # fmt: skip
    assert greedy_wins >= 10


def test_the_example_conforms():
    result = invoke("conform", "brookfield", "--rules", RULES, "--games", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "brookfield conforms"


def test_the_search_bot_plays_the_example():
    result = invoke("simulate", "brookfield", "--rules", RULES, "--games", "1", "--bot", "mcts:30",
                    "--bot", "random", "--option", "rounds=3", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    assert game["decisions"] == 6 and not game["limit"]


# --- mistakes in grids: test_data_problems.py holds them with every rules-file mistake ---


def test_the_readmes_field_by_hand():
    """The field worked out in examples/brookfield/README.md, scored by its rules.yaml:
    groves a1 b1 b2 joined (3), meadows a2 and b3 only corner to corner (1), three
    pond-orchard pairs sharing a side (2 x 3 = 6), no row of four terrains, no full
    column, and tiles without flowers (0)."""
    spec = data_spec(RULES)
    game = spec.new_game()
    catalog = load_catalog(EXAMPLE / "catalog.json")
    state = game.setup(catalog, 2, random.Random(0), {})
    ids = game.model(catalog).cards.ids
    named = {"G": "grove-dry", "M": "meadow-ford", "P": "pond-rill", "O": "orchard-ford"}
    rows = ["GGP.", "MGO.", ".MPO", "...."]
    field = [ids.index(named[c]) if c != "." else HOLE for row in rows for c in row]
    first = next(zone.first for zone in game.layout.zones if zone.name == "field")
    state.piles[first][:] = field
    assert game.score_lines(state, 0) == [
        ("groves", 3), ("meadows", 1), ("orchards", 6), ("rows", 0), ("columns", 0), ("flowers", 0),
    ]  # fmt: skip
    assert game.scores(state)[0] == 10
