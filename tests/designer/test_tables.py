"""Spreadsheets to catalogs and back: conversion by schema, errors at their cells,
lossless round trips for every kind of the built-in catalogs."""

import importlib.util
import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from protopress.components import BUILTIN_GAMES, InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.schemas import kind_of_collection
from protopress.designer import (
    InvalidTable,
    TableError,
    export_table,
    import_table,
    read_table,
    table_to_components,
)
from protopress.designer.table_files import column_letter

MINI_GAME = Path(__file__).resolve().parent.parent / "data" / "mini-game" / "catalog.json"

GEMS = [
    {"id": "fire-ruby", "name": "Fire Ruby", "special": False, "colour": "#d7263d", "shape": "drop"},
    {"id": "obsidian", "name": "Obsidian", "special": False, "colour": "#2b2d33", "shape": "hexagon"},
    {"id": "electrum", "name": "Electrum", "special": False, "colour": "#c9a227", "shape": "star"},
    {"id": "diamond-dust", "name": "Diamond Dust", "special": True, "colour": "#e8eef2", "shape": "diamond"},
]  # fmt: skip

# openpyxl is the optional `excel` extra: without it, only the xlsx tests are skipped.
needs_excel = pytest.mark.skipif(
    importlib.util.find_spec("openpyxl") is None, reason="needs the excel extra (openpyxl)"
)

MINE = {"game": "mine", "title": "Mine", "version": "1.0", "gems": GEMS}

ROOM_HEADER = [
    "id", "count", "title", "type", "doors.N.cost", "doors.N.points",
    "doors.E.cost", "doors.E.points", "ability", "text", "mine_cart",
]  # fmt: skip

ROOM_ROWS = [
    ["eddy", "2", "Eddy", "action", "fire-ruby + obsidian", "2", "", "",
     '[{"op": "take_discard", "count": 2}]', "Take the top 2 cards of the discard pile.", ""],
    ["shaft", "", "Shaft", "movement", "electrum", "1", "[]", "0",
     '[{"op": "score", "points": -1}]', "Lose 1 point.", "yes"],
]  # fmt: skip

EDDY = {
    "id": "eddy",
    "count": 2,
    "title": "Eddy",
    "type": "action",
    "doors": {"N": {"cost": ["fire-ruby", "obsidian"], "points": 2}},
    "ability": [{"op": "take_discard", "count": 2}],
    "text": "Take the top 2 cards of the discard pile.",
}
SHAFT = {
    "id": "shaft",
    "title": "Shaft",
    "type": "movement",
    "doors": {"N": {"cost": ["electrum"], "points": 1}, "E": {"cost": [], "points": 0}},
    "ability": [{"op": "score", "points": -1}],
    "text": "Lose 1 point.",
    "mine_cart": True,
}


def write_csv(path, header, rows, *, bom=False, delimiter=","):
    lines = [header, *rows]

    def quoted(cell):
        cell = str(cell)
        if any(c in cell for c in f'"{delimiter}\n'):
            return '"' + cell.replace('"', '""') + '"'
        return cell

    text = "\n".join(delimiter.join(quoted(c) for c in line) for line in lines) + "\n"
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode("utf-8"))
    return path


def write_xlsx(path, header, rows, sheet="Rooms", extra_sheets=()):
    import openpyxl

    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = sheet
    for name in extra_sheets:
        workbook.create_sheet(name)
    worksheet.append(header)
    for row in rows:
        worksheet.append([None if cell == "" else cell for cell in row])
    workbook.save(path)
    return path


def typed(rows):
    """The rows as a designer types them in Excel: numbers and booleans as such."""
    result = []
    for row in rows:
        cells = []
        for cell in row:
            if cell.lstrip("-").isdigit():
                cells.append(int(cell))
            elif cell == "yes":
                cells.append(True)
            else:
                cells.append(cell)
        result.append(cells)
    return result


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A folder with a catalog of gems (mine.json); messages name files relative to it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.json").write_text(json.dumps(MINE, indent=2))
    return tmp_path


def problems_of(call, *args, **kwargs) -> list[str]:
    with pytest.raises(InvalidTable) as raised:
        call(*args, **kwargs)
    return [str(problem) for problem in raised.value.problems]


# -- reading and converting --------------------------------------------------


def test_csv_import_converts_by_the_schema(work):
    write_csv(work / "rooms.csv", ROOM_HEADER, ROOM_ROWS)
    document = import_table("rooms.csv", "room-tile", output="mine.json")
    assert document["room_tiles"] == [EDDY, SHAFT]
    assert list(document["room_tiles"][0]) == ["id", "count", "title", "type", "doors", "ability", "text"]  # fmt: skip
    written = json.loads((work / "mine.json").read_text())
    assert written == document
    assert written["gems"] == GEMS
    assert load_catalog(work / "mine.json").copies("room-tile") == 3


@needs_excel
def test_xlsx_import_of_typed_cells(work):
    write_xlsx(work / "rooms.xlsx", ROOM_HEADER, typed(ROOM_ROWS))
    document = import_table("rooms.xlsx", "room-tile", output="mine.json")
    assert document["room_tiles"] == [EDDY, SHAFT]


@needs_excel
def test_xlsx_import_of_text_cells_and_a_chosen_sheet(work):
    import openpyxl

    write_xlsx(work / "rooms.xlsx", ROOM_HEADER, ROOM_ROWS, sheet="Rooms", extra_sheets=["Notes"])
    workbook = openpyxl.load_workbook(work / "rooms.xlsx")
    workbook.move_sheet("Notes", offset=-1)  # the rooms are no longer the first sheet
    workbook.save(work / "rooms.xlsx")
    assert import_table("rooms.xlsx", "room_tiles", sheet="Rooms", output="mine.json")[
        "room_tiles"
    ] == [EDDY, SHAFT]
    table = read_table(work / "rooms.xlsx", display="rooms.xlsx")
    assert (table.sheet, table.header, table.rows) == ("Notes", [], [])


def test_chamber_cards_with_lists_and_empty_values(tmp_path):
    header = ["id", "count", "title", "doors", "elements", "slots", "stars", "gold", "symbol"]
    rows = [
        ["fungus-grotto", "2", "Fungus Grotto", "N", "[]", "3", "2", "1", "rune"],
        ["dead-end", "", "Dead End", '""', "monster + trap", "2", "-1", "0", "moon"],
    ]
    table = read_table(write_csv(tmp_path / "chambers.csv", header, rows))
    assert table_to_components(table, "chamber-card") == [
        {"id": "fungus-grotto", "count": 2, "title": "Fungus Grotto", "doors": "N",
         "elements": [], "slots": 3, "stars": 2, "gold": 1, "symbol": "rune"},
        {"id": "dead-end", "title": "Dead End", "doors": "", "elements": ["monster", "trap"],
         "slots": 2, "stars": -1, "gold": 0, "symbol": "moon"},
    ]  # fmt: skip


def test_csv_with_bom_semicolons_blank_rows_and_spaces(tmp_path):
    path = tmp_path / "chambers.csv"
    path.write_bytes("\ufeffid;title;elements\n\n ab ; Ab Cd ;monster+ trap\n;;\nc;C;\n".encode())
    table = read_table(path, display="chambers.csv")
    assert table.header == ["id", "title", "elements"]
    assert [row.number for row in table.rows] == [3, 5]
    converted = table_to_components(table, "chamber-card")
    assert converted == [
        {"id": "ab", "title": "Ab Cd", "elements": ["monster", "trap"]},
        {"id": "c", "title": "C"},
    ]


def test_enum_values_keep_their_type(tmp_path):
    pads = write_csv(tmp_path / "pads.csv", ["id", "title", "level", "players", "rows"],
                     [["pad", "Pad", "1", "4", "Gems + Stacks"]])  # fmt: skip
    assert table_to_components(read_table(pads), "score-pad") == [
        {"id": "pad", "title": "Pad", "level": "1", "players": 4, "rows": ["Gems", "Stacks"]}
    ]
    cards = write_csv(tmp_path / "cards.csv", ["id", "title", "level", "text", "effect", "cost"],
                      [["dig", "Dig", "2", "Mine.", '[{"op": "mine"}]', "red+blue"]])  # fmt: skip
    assert table_to_components(read_table(cards), "action-card")[0]["level"] == 2


def test_the_generic_card_rule(tmp_path):
    header = ["id", "title", "text", "cost[]", "points", "rare", "ratio", "code", "extra:json",
              "blank", "plain"]  # fmt: skip
    rows = [["dawn", "1984", "Gain 3.", "sun + moon", "3", "TRUE", "1.5", "007", '{"a": [1]}',
             '""', "sun+moon"]]  # fmt: skip
    table = read_table(write_csv(tmp_path / "cards.csv", header, rows))
    assert table_to_components(table, "card") == [
        {"id": "dawn", "title": "1984", "text": "Gain 3.", "cost": ["sun", "moon"], "points": 3,
         "rare": True, "ratio": 1.5, "code": "007", "extra": {"a": [1]}, "blank": "",
         "plain": "sun+moon"}
    ]  # fmt: skip


def test_every_conversion_error_at_its_cell(work):
    header = ["id", "count", "title", "type", "doors.N.cost", "doors.N.points", "ability",
              "text", "mine_cart", "doors.E.points"]  # fmt: skip
    rows = [
        ["eddy", "two", "Eddy", "action", "fire-ruby", "x", "[]", "T", "maybe", "1.5"],
        ["hall", "3", "Hall", "action", "fire-ruby++obsidian", "1", "draw 2", "T", "no", ""],
        ["pit", "1", "Pit", "action", "electrum", "1", '[{"op": ', "T", "", ""],
    ]
    write_csv(work / "rooms.csv", header, rows)
    expected = [
        "rooms.csv!B2: expected an integer, found 'two'",
        "rooms.csv!F2: expected an integer, found 'x'",
        "rooms.csv!I2: expected true or false, found 'maybe'",
        "rooms.csv!J2: expected an integer, found '1.5'",
        "rooms.csv!E3: an empty item in the list 'fire-ruby++obsidian' (items are joined by '+')",
        "rooms.csv!G3: expected a list written as JSON, such as [{...}], found 'draw 2'",
        "rooms.csv!G4: invalid JSON: Expecting value (character 8)",
    ]
    assert problems_of(table_to_components, read_table("rooms.csv"), "room-tile") == expected
    before = (work / "mine.json").read_bytes()
    assert problems_of(import_table, "rooms.csv", "room-tile", output="mine.json") == expected
    assert (work / "mine.json").read_bytes() == before


@needs_excel
def test_xlsx_addresses_name_the_sheet(work):
    rows = [["eddy", 2, "Eddy", "action", "fire-ruby", "two", None, None, "[]", "T", None]]
    write_xlsx(work / "rooms.xlsx", ROOM_HEADER, rows, sheet="Sheet1")
    assert problems_of(import_table, "rooms.xlsx", "room-tile", output="mine.json") == [
        "rooms.xlsx:Sheet1!F2: expected an integer, found 'two'"
    ]
    rows[0][5] = 2.5
    write_xlsx(work / "rooms.xlsx", ROOM_HEADER, rows, sheet="Sheet1")
    assert problems_of(import_table, "rooms.xlsx", "room-tile", output="mine.json") == [
        "rooms.xlsx:Sheet1!F2: expected an integer, found 2.5"
    ]


@needs_excel
def test_schema_problems_map_back_to_their_cells(work):
    rows = [list(row) for row in ROOM_ROWS]
    rows[0][4] = "fire-rubby + obsidian"  # a misspelt gem in a "+" list
    rows[0][3] = "acton"
    rows[1][5] = "25"  # points above the maximum
    rows[1][8] = '[{"op": "draw", "count": 0}]'
    rows.append(["eddy", "", "Again", "action", "diamond-dust", "1", "", "", "[]", "T", ""])
    write_xlsx(work / "rooms.xlsx", ROOM_HEADER, rows, sheet="Sheet1")
    before = (work / "mine.json").read_bytes()
    assert problems_of(import_table, "rooms.xlsx", "room-tile", output="mine.json") == [
        "rooms.xlsx:Sheet1!D2: 'acton' is not one of 'action', 'movement', 'free', 'tunnel' (did you mean 'action'?)",
        "rooms.xlsx:Sheet1!E2: 'fire-rubby' is not a gem of this catalog (did you mean 'fire-ruby'?)",
        "rooms.xlsx:Sheet1!F3: expected at most 20, found 25",
        "rooms.xlsx:Sheet1!I3: /0/count: expected an integer from 1 to 20 or one of 'X', 'hand', found 0",
        "rooms.xlsx:Sheet1!A4: duplicate room-tile id 'eddy' (first used at rooms.xlsx:Sheet1!A2)",
        "rooms.xlsx:Sheet1!E4: 'diamond-dust' is a special gem; door costs are paid in standard gems",
    ]  # fmt: skip
    assert (work / "mine.json").read_bytes() == before
    assert [p.name for p in work.iterdir() if p.name.startswith(".")] == []


def test_a_missing_required_value_points_at_its_empty_cell(work):
    rows = [list(row) for row in ROOM_ROWS]
    rows[1][5] = ""  # doors.N.points of shaft
    rows[0][9] = ""  # the text of eddy
    write_csv(work / "rooms.csv", ROOM_HEADER, rows)
    assert problems_of(import_table, "rooms.csv", "room-tile", output="mine.json") == [
        "rooms.csv!J2: missing required property 'text'",
        "rooms.csv!F3: missing required property 'points' (an integer from 0 to 20)",
    ]


def test_problems_outside_the_collection_keep_the_catalogs_lines(work, at):
    text = json.dumps({**MINE, "totals": {"room_tiles": 5}}, indent=2)
    (work / "mine.json").write_text(text)
    write_csv(work / "rooms.csv", ROOM_HEADER, ROOM_ROWS)
    assert problems_of(import_table, "rooms.csv", "room-tile", output="mine.json") == [
        f"{at(text, '5', name='mine.json')} /totals/room_tiles: "
        "declares 5 room_tiles but the components add up to 3 copies"
    ]


def test_header_problems(work):
    header = ["id", "titel", "type", "doors.N.cots", "doors.Q.cost", "text", "text", "", "ability",
              "ability.0"]  # fmt: skip
    rows = [["eddy", "Eddy", "action", "", "", "T", "T", "stray", "[]", ""]]
    write_csv(work / "rooms.csv", header, rows)
    assert problems_of(import_table, "rooms.csv", "room-tile", output="mine.json") == [
        "rooms.csv row 1: no 'doors' column: every room-tile needs one",
        "rooms.csv row 1: no 'title' column: every room-tile needs one",
        "rooms.csv!B1: unknown column 'titel': 'titel' is not a field of a room-tile (did you mean 'title'?)",
        "rooms.csv!D1: unknown column 'doors.N.cots': 'cots' is not a field of 'doors.N' (did you mean 'doors.N.cost'?)",
        "rooms.csv!E1: unknown column 'doors.Q.cost': 'Q' is not a field of 'doors'; expected 'N', 'E', 'S', 'W'",
        "rooms.csv!G1: column 'text' repeats column F",
        "rooms.csv!H1: this column has values but no header",
        "rooms.csv!J1: unknown column 'ability.0': 'ability' is not an object, so 'ability.0' is not a field",
    ]  # fmt: skip


def test_an_empty_table(work):
    (work / "rooms.csv").write_text("\n\n")
    assert problems_of(import_table, "rooms.csv", "room-tile") == [
        "rooms.csv!A1: the table is empty: expected a header row"
    ]


def test_a_csv_that_is_not_utf8(work):
    (work / "rooms.csv").write_bytes(b"id,title\ncaf\xe9,Caf\xe9\n")
    assert problems_of(read_table, "rooms.csv") == [
        "rooms.csv row 2: not UTF-8 text (save the table as CSV UTF-8)"
    ]


@needs_excel
def test_unknown_sheet_names_the_sheets(work):
    write_xlsx(work / "rooms.xlsx", ROOM_HEADER, ROOM_ROWS, sheet="Rooms", extra_sheets=["Notes"])
    with pytest.raises(TableError) as raised:
        read_table("rooms.xlsx", sheet="Romos")
    assert str(raised.value) == (
        "rooms.xlsx has no sheet 'Romos' (did you mean 'Rooms'?); its sheets are 'Rooms', 'Notes'"
    )


def test_unknown_kind_and_file_type(work):
    with pytest.raises(
        TableError, match=r"unknown kind 'room-tiel' \(did you mean 'room-tile'\?\)"
    ):
        import_table("rooms.csv", "room-tiel")
    (work / "rooms.ods").write_text("")
    with pytest.raises(TableError, match="a table is a .csv or .xlsx file"):
        read_table("rooms.ods")
    with pytest.raises(FileNotFoundError):
        read_table("missing.csv")


def test_xlsx_without_openpyxl(work, monkeypatch):
    (work / "rooms.xlsx").write_bytes(b"PK not read: the import fails first")
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # `import openpyxl` raises ImportError
    with pytest.raises(TableError) as raised:
        read_table("rooms.xlsx")
    assert (
        str(raised.value) == "reading .xlsx needs the excel extra: pip install 'protopress[excel]'"
    )
    with pytest.raises(TableError, match=r"writing \.xlsx needs the excel extra"):
        export_table(MINE, "gem", work / "gems.xlsx")
    assert not (work / "gems.xlsx").exists()
    write_csv(work / "rooms.csv", ROOM_HEADER, ROOM_ROWS)  # CSV needs no extra
    assert import_table("rooms.csv", "room-tile", output="mine.json")["room_tiles"] == [EDDY, SHAFT]


# -- new catalogs and existing ones -----------------------------------------


def test_a_new_catalog_is_named_after_the_output(work):
    cards = write_csv(work / "deck.csv", ["id", "count", "title", "cost[]"],
                      [["dawn", "3", "Dawn", "sun"]])  # fmt: skip
    document = import_table(cards, "card", output=work / "star_fall.json")
    assert document == {  # no $schema: no schema file lies beside it to name
        "game": "star-fall",
        "title": "Star fall",
        "version": "0.1.0",
        "cards": [{"id": "dawn", "count": 3, "title": "Dawn", "cost": ["sun"]}],
    }
    assert json.loads((work / "star_fall.json").read_text()) == document
    assert load_catalog(work / "star_fall.json").copies("card") == 3
    assert import_table(cards, "card")["game"] == "deck"  # without output: nothing written
    assert sorted(p.name for p in work.iterdir()) == ["deck.csv", "mine.json", "star_fall.json"]


def test_a_new_catalog_names_the_schema_file_beside_it(work):
    cards = write_csv(work / "deck.csv", ["id", "count", "title"], [["dawn", "3", "Dawn"]])
    (work / "schemas").mkdir()
    (work / "schemas" / "catalog.schema.json").write_text("{}")
    document = import_table(cards, "card", output=work / "star_fall.json")
    assert document["$schema"] == "schemas/catalog.schema.json"
    assert list(document)[:2] == ["$schema", "game"]
    assert (work / document["$schema"]).is_file()


def test_importing_adds_or_replaces_one_collection(work):
    chambers = dict(MINE, totals={"gems": 4}, symbols=[
        {"id": "sun", "name": "Sun", "shape": "circle"}])  # fmt: skip
    (work / "mine.json").write_text(json.dumps(chambers))
    write_csv(work / "rooms.csv", ROOM_HEADER, ROOM_ROWS)
    document = import_table("rooms.csv", "room-tile", output="mine.json")
    assert list(document) == ["game", "title", "version", "gems", "totals", "room_tiles", "symbols"]
    write_csv(work / "rooms.csv", ROOM_HEADER, ROOM_ROWS[1:])
    document = import_table("rooms.csv", "room-tile", output="mine.json")
    assert list(document) == ["game", "title", "version", "gems", "totals", "room_tiles", "symbols"]
    assert document["room_tiles"] == [SHAFT]
    assert json.loads((work / "mine.json").read_text()) == document


def test_an_output_that_is_not_a_catalog(work):
    (work / "broken.json").write_text('{"game": ')
    write_csv(work / "rooms.csv", ROOM_HEADER, ROOM_ROWS)
    with pytest.raises(InvalidInput) as raised:
        import_table("rooms.csv", "room-tile", output="broken.json")
    assert str(raised.value).startswith("broken.json:1:10 /: invalid JSON")


# -- exporting and round trips ----------------------------------------------


def collections():
    for game in BUILTIN_GAMES:
        document = json.loads(builtin_catalog_path(game).read_text(encoding="utf-8"))
        for collection, items in document.items():
            if kind_of_collection(collection) is not None and items:
                yield pytest.param(game, collection, id=f"{game}-{collection}")


@pytest.mark.parametrize("suffix", [".csv", pytest.param(".xlsx", marks=needs_excel)])
@pytest.mark.parametrize(("game", "collection"), list(collections()))
def test_round_trip_of_every_builtin_kind(tmp_path, game, collection, suffix):
    source = builtin_catalog_path(game)
    original = json.loads(source.read_text(encoding="utf-8"))
    catalog = tmp_path / "catalog.json"
    shutil.copy(source, catalog)
    kind = kind_of_collection(collection).name
    table = tmp_path / f"{collection}{suffix}"

    export_table(load_catalog(catalog), kind, table)
    assert table_to_components(read_table(table), kind) == original[collection]
    document = import_table(table, kind, output=catalog)
    assert document == original
    assert json.loads(catalog.read_text(encoding="utf-8")) == original


def test_export_header_order_and_cells(tmp_path):
    path = tmp_path / "rooms.csv"
    header = export_table({**MINE, "room_tiles": [SHAFT, EDDY]}, "room-tile", path)
    assert header == ["id", "count", "title", "type", "doors.N.cost", "doors.N.points",
                      "doors.E.cost", "doors.E.points", "ability", "text", "mine_cart"]  # fmt: skip
    assert path.read_text().splitlines() == [
        ",".join(header),
        'shaft,,Shaft,movement,electrum,1,[],0,"[{""op"": ""score"", ""points"": -1}]",Lose 1 point.,true',
        'eddy,2,Eddy,action,fire-ruby+obsidian,2,,,"[{""op"": ""take_discard"", ""count"": 2}]",'
        "Take the top 2 cards of the discard pile.,",
    ]


def test_export_of_free_fields_chooses_headers_that_read_back(tmp_path):
    cards = [
        {"id": "a", "title": "A", "cost": ["sun", "moon"], "code": "12", "note": " padded ",
         "stats": {"hp": 3, "tags": ["x"]}, "misc": {}, "flag": False, "ratio": 2.0},
        {"id": "b", "title": "B", "cost": [], "code": "x", "stats": {"hp": 1}, "misc": {"k": None},
         "rows": [{"cost": 1}], "multi": "line 1\nline 2", "formula": "=1+2"},
    ]  # fmt: skip
    document = {"game": "deck", "title": "Deck", "version": "1", "cards": cards}
    suffixes = (".csv", ".xlsx") if importlib.util.find_spec("openpyxl") else (".csv",)
    for suffix in suffixes:
        path = tmp_path / f"cards{suffix}"
        header = export_table(document, "card", path)
        assert header == ["id", "title", "cost[]", "code:json", "note:json", "stats.hp",
                          "stats.tags[]", "misc:json", "flag", "ratio", "rows[]", "multi",
                          "formula"]  # fmt: skip
        assert table_to_components(read_table(path), "card") == cards


def test_export_of_an_empty_collection_writes_the_fields(tmp_path):
    path = tmp_path / "chambers.csv"
    export_table(MINE, "chamber-card", path)
    assert path.read_text() == "id,count,title,doors,elements,slots,stars,gold,symbol\n"


def test_export_to_an_unknown_file_type(tmp_path):
    with pytest.raises(TableError, match="a table is a .csv or .xlsx file"):
        export_table(MINE, "gem", tmp_path / "gems.txt")


def test_export_accepts_a_catalog_path(tmp_path):
    path = tmp_path / "cards.csv"
    export_table(MINI_GAME, "card", path)
    assert path.read_text() == textwrap.dedent("""\
        id,count,title,text,cost[],rare
        dawn,3,Dawn,Gain one sun.,sun,
        dusk,2,Dusk,Trade a sun for two moons.,sun+moon,
        eclipse,,Eclipse,Every player discards a moon.,moon+moon+sun,true
        """)


def test_column_letters():
    assert [column_letter(i) for i in (0, 3, 25, 26, 27, 701, 702)] == [
        "A", "D", "Z", "AA", "AB", "ZZ", "AAA"
    ]  # fmt: skip


def test_a_table_without_ids(work):
    write_csv(work / "rooms.csv", ["title", "type", "doors.N.points"], [["Eddy", "action", "x"]])
    assert problems_of(import_table, "rooms.csv", "room-tile") == [
        "rooms.csv row 1: no 'id' column: every room-tile needs one",
        "rooms.csv!C2: expected an integer, found 'x'",
    ]
