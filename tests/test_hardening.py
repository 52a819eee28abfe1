"""Regression tests for what the fuzz tests (tests/fuzz) found, and the input limits:
every bad input gets a clear refusal (exit 1 or 2), never a traceback or exit 70."""

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.loader import MAX_JSON_DEPTH, parse_json_text
from protopress.designer import TableError, import_table
from protopress.games import builtin_specs
from protopress.generators.layout import load_layout

MINI = Path(__file__).parent / "data" / "mini-game"
DEEP = "[" * 100_000 + "]" * 100_000
MIDDLE = "[" * 600 + "]" * 600  # parsed by json, then too deep for recursive checks


def invoke(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False, input=input)
    assert "Traceback" not in result.output
    return result


def problems_of(path, loader=load_catalog):
    with pytest.raises(InvalidInput) as raised:
        loader(path)
    return [str(problem) for problem in raised.value.problems]


# --- JSON limits: nesting, non-JSON numbers, size -----------------------------------


@pytest.mark.parametrize("text", [DEEP, MIDDLE, '{"a":' * 600 + "1" + "}" * 600])
def test_deeply_nested_json_is_one_located_problem(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    (line,) = problems_of(path)
    assert line.startswith(f"{path}:1:")
    assert "JSON nested too deeply: expected at most 64 levels of lists and objects" in line


def test_the_too_deep_value_is_located_by_line_and_pointer(tmp_path):
    nested = "[" * 70 + "]" * 70
    path = tmp_path / "c.json"
    second = f' "cards": [{{"id": "a", "extra": {nested}}}]}}'
    path.write_text('{"game": "x",\n' + second)
    (line,) = problems_of(path)
    column = second.index("[[") + 1 + MAX_JSON_DEPTH - 3  # the 65th list or object
    pointer = "/cards/0/extra" + "/0" * (MAX_JSON_DEPTH - 3)
    assert line.startswith(f"{path}:2:{column} {pointer}: JSON nested")


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("Infinity", "1:1", "Infinity is not a JSON value (expected a number)"),
        ('{"a": [1, NaN]}', "1:11", "NaN is not a JSON value (expected a number)"),
        ('{"a":\n -Infinity}', "2:2", "-Infinity is not a JSON value (expected a number)"),
        ("[" + "1" * 5000 + "]", "1:2", "a number of 5000 digits; expected at most 4300"),
        ("[1, 1e400]", "1:5", "1e400 is too large for a number (at most about 1.8e308)"),
    ],
)
def test_numbers_json_does_not_have_are_located(tmp_path, text, where, message):
    path = tmp_path / "n.json"
    path.write_text(text)
    assert problems_of(path) == [f"{path}:{where} /: invalid JSON: {message}"]


def test_a_huge_file_is_refused_before_it_is_read_whole(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as file:
        file.truncate(200 * 1024 * 1024)  # sparse: 200 MB of zero bytes
    assert problems_of(path) == [f"{path}:1:1 /: file is larger than 64 MiB"]


def test_a_component_count_of_a_billion_is_refused_with_the_range(tmp_path):
    document = json.loads((MINI / "catalog.json").read_text())
    document["cards"][0]["count"] = 10**9
    path = tmp_path / "c.json"
    path.write_text(json.dumps(document, indent=2))
    (line,) = problems_of(path)
    assert line.endswith("/cards/0/count: expected at most 10000, found 1000000000")


def test_json_cells_share_the_limits():
    assert parse_json_text("[1, 2]") == [1, 2]
    for text, message in [
        (DEEP, "JSON nested too deeply"),
        (MIDDLE, "JSON nested too deeply"),
        ("[NaN]", "invalid JSON: NaN is not a JSON value (expected a number) (character 2)"),
    ]:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_json_text(text)


# --- every JSON reader goes through the limited parser ------------------------------


SCORE_STATE_GAMES = [s.id for s in builtin_specs() if hasattr(s.engine_module(), "score_state")]


@pytest.mark.parametrize("game", SCORE_STATE_GAMES)
@pytest.mark.parametrize("text", [DEEP, MIDDLE, "NaN"])
def test_score_states_are_read_with_the_limits(tmp_path, game, text):
    state = tmp_path / "state.json"
    state.write_text(text)
    result = invoke("score", game, state)
    assert result.exit_code == 1
    assert result.output.startswith(f"{state}:1:")


@pytest.mark.parametrize("text", [DEEP, MIDDLE])
def test_action_logs_and_solo_saves_are_read_with_the_limits(tmp_path, text):
    log = tmp_path / "log.json"
    log.write_text(text)
    result = invoke("replay", log)
    assert result.exit_code == 1 and "JSON nested too deeply" in result.output
    for option in ("--resume", "--save"):
        result = invoke("solo", "stonespine-architects", option, log, input="")
        assert result.exit_code == 1 and "JSON nested too deeply" in result.output


def test_layouts_are_read_with_the_limits(tmp_path):
    path = tmp_path / "card.json"
    path.write_text(MIDDLE)
    assert "JSON nested too deeply" in problems_of(path, load_layout)[0]


# --- semantic checks on schema-invalid documents ------------------------------------


def _catalog_with(tmp_path, game, change):
    document = json.loads(builtin_catalog_path(game).read_text())
    change(document)
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(document, indent=1))
    return problems_of(path)


@pytest.mark.parametrize(
    ("game", "change", "pointer"),
    [
        # each raised TypeError (unhashable, or unorderable) in a check beyond the schema
        ("stonespine-architects", lambda d: d["rival_cards"][0].update(difficulty=["plain"]),
         "/rival_cards/0/difficulty"),
        ("stonespine-architects",
         lambda d: d["blueprint_cards"][0]["positions"][0].update(row=[0]),
         "/blueprint_cards/0/positions/0/row"),
        ("gem-rush", lambda d: d["gems"][8].pop("id"), "/gems/8"),
        ("gem-rush",
         lambda d: next(t for t in d["room_tiles"] if "doors" in t and "N" in t["doors"])[
             "doors"]["N"].update(cost=[["fire-ruby"]]),
         "/cost/0"),
        ("gem-rush",
         lambda d: next(t for t in d["room_tiles"] if t["type"] == "tunnel").update(
             tunnel=[["N", 1], ["E", "W"]]),
         "/tunnel/0/1"),
    ],
)  # fmt: skip
def test_checks_beyond_the_schema_survive_wrong_types(tmp_path, game, change, pointer):
    assert any(pointer in line for line in _catalog_with(tmp_path, game, change))


# --- layouts --------------------------------------------------------------------------


def _layout(tmp_path, **changes):
    document = json.loads((MINI / "layouts" / "card.json").read_text())
    document.pop("$schema")
    document.update(changes)
    path = tmp_path / "card.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"front": True}, "/front: expected a list"),  # was TypeError: bool is not iterable
        ({"fonts": {"big": "a\u0000b.ttf"}}, "/fonts/big: font file 'a\\x00b.ttf' cannot be used"),
        ({"fonts": {"long": "x" * 300 + ".ttf"}}, "/fonts/long: font file"),
        ({"size": {"width": "0mm", "height": "88mm"}}, "/size/width: expected a size above 0"),
        ({"size": {"width": -63, "height": "88mm"}}, "/size/width: expected a size above 0"),
        ({"size": {"width": "1000000in", "height": "88mm"}},
         "/size/width: '1000000in' is out of range: expected -1000 to 1000 mm"),
        ({"safe": "99999999999999999999mm"}, "/safe: '99999999999999999999mm' is out of range"),
    ],
)  # fmt: skip
def test_layout_refusals_are_located(tmp_path, changes, message):
    assert any(message in line for line in problems_of(_layout(tmp_path, **changes), load_layout))


# --- the command line -----------------------------------------------------------------


def test_score_refuses_a_game_without_score_states_as_a_usage_error(tmp_path):
    state = tmp_path / "state.json"
    state.write_text("{}")
    result = invoke("score", "gem-rush", state)  # was exit 70: KeyError on the schema name
    assert result.exit_code == 2
    assert "gem-rush has no score state to score" in result.output
    assert "dragonstone-mine, gemstone-caverns, stonespine-architects" in result.output


def test_balance_with_an_invalid_catalog_lists_its_problems(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": ')
    result = invoke("balance", "gemstone-caverns", "--games", 2, "--workers", 1, "--catalog", bad)
    assert result.exit_code == 1  # was exit 70: InvalidInput escaped
    assert f"{bad}:1:10 /: invalid JSON" in result.output
    result = invoke("balance", "gemstone-caverns", "--games", 2, "--workers", 1,
                    "--compare", bad, "gemstone-caverns")  # fmt: skip
    assert result.exit_code == 1


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    folder = tmp_path_factory.mktemp("logs")
    assert invoke("simulate", "gemstone-caverns", "--games", 1, "--log-dir", folder).exit_code == 0
    return json.loads((folder / "game-00000.json").read_text())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"scores": 3}, "/scores: expected a list of numbers, one per seat"),  # was TypeError
        ({"players": "two"}, "/players: expected a number of players, found 'two'"),
        ({"actions": 5}, "/actions: expected a list of actions"),
        ({"game": "chess"}, "/game: expected a game with a rules engine"),
        ({"options": {"level": 2}}, "/options/level: unknown option 'level'; options: none"),
        (
            {"options": {"level": [2]}},
            "/options/level: expected text, a whole number or true/false",
        ),
        ({"catalog": "a\u0000b"}, "/catalog: expected a built-in game id or a catalog file"),
        ({"seed": 1.5}, "/seed: expected an integer seed, found 1.5"),
    ],
)
def test_replay_names_what_is_wrong_with_a_log(tmp_path, log, change, message):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log | change, indent=1))
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert f"{path}:" in result.output and message in result.output


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("game", "/: missing required property 'game' (a game with a rules engine: "),
        ("players", "/: missing required property 'players' (a number of players)"),
        ("seed", "/: missing required property 'seed' (an integer seed)"),
        ("actions", "/: missing required property 'actions' (a list of actions)"),
    ],
)
def test_replay_names_what_a_log_lacks(tmp_path, log, key, message):
    path = tmp_path / "log.json"
    path.write_text(json.dumps({name: value for name, value in log.items() if name != key}))
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert f"{path}:1:1 {message}" in result.output
    assert "None" not in result.output  # was "found None", Python's word for what is not there


def test_replay_refuses_a_catalog_of_another_game(tmp_path, log):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log | {"catalog": "gem-rush"}))
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert "the log plays gemstone-caverns but its catalog is of gem-rush" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "gem-rush", "--games", 10**12],
        ["balance", "gem-rush", "--games", 10**12],
        ["render", MINI / "catalog.json", "--bleed", "26mm"],
        ["render", MINI / "catalog.json", "--bleed", "99999999999999999999mm"],
        ["render", MINI / "catalog.json", "--crop-offset", "-1mm"],
        ["render", "--alignment-test", "--back-offset", "inf,0"],  # was exit 70 (reportlab)
        ["render", "--alignment-test", "--back-offset", "1e308,nan"],
    ],
)
def test_absurd_numbers_in_options_are_usage_errors(args):
    result = invoke(*args)
    assert result.exit_code == 2
    assert "Invalid value for" in result.output
    assert "range" in result.output


# --- spreadsheets ---------------------------------------------------------------------


def _csv(tmp_path, rows):
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    path = tmp_path / "cards.csv"
    path.write_text(buffer.getvalue())
    return path


@pytest.mark.parametrize(
    ("kind", "header", "cell", "message"),
    [
        ("card", "count", "1" * 5000, "expected an integer, found a number of 5000 digits"),
        ("point-gem", "value", "9" * 5000, "is not one of 1, 3, 10"),  # an integer enum
        ("card", "stats:json", "[" * 600 + "]" * 600, "JSON nested too deeply"),
        ("card", "stats:json", "[NaN]", "NaN is not a JSON value"),
        ("card", "stats:json", "1e400", "1e400 is too large"),  # was Infinity in the catalog
    ],
)
def test_cells_past_the_limits_are_problems_at_their_cell(tmp_path, kind, header, cell, message):
    path = _csv(tmp_path, [["id", "title", header], ["ace", "Ace", cell]])
    with pytest.raises(InvalidInput) as raised:
        import_table(path, kind)
    lines = [str(problem) for problem in raised.value.problems]
    assert any(line.startswith(f"{path}!C2: ") and message in line for line in lines), lines


def test_a_long_number_in_a_free_field_stays_text(tmp_path):
    path = _csv(tmp_path, [["id", "title", "power"], ["ace", "Ace", "1" * 5000]])
    (card,) = import_table(path, "card")["cards"]
    assert card["power"] == "1" * 5000


def test_a_workbook_with_a_damaged_sheet_is_a_table_error(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    import zipfile

    workbook = openpyxl.Workbook()
    workbook.active.append(["id", "title"])
    workbook.save(tmp_path / "good.xlsx")
    damaged = tmp_path / "cards.xlsx"
    with (
        zipfile.ZipFile(tmp_path / "good.xlsx") as source,
        zipfile.ZipFile(damaged, "w") as target,
    ):
        for item in source.infolist():
            data = source.read(item)
            if item.filename.startswith("xl/worksheets/"):
                data = data[: len(data) // 2] + b"<<<"
            target.writestr(item, data)
    with pytest.raises(TableError, match="not a readable .xlsx file"):
        import_table(damaged, "card")  # was an XML ParseError from the lazy sheet reader


@pytest.mark.parametrize(
    ("text", "where"),
    [('"\\ud800"', "1:2"), ('{"a": "x\\udc00y"}', "1:9"), ('{"k\\udfff": 1}', "1:4")],
)
def test_half_characters_are_refused_where_they_are_written(tmp_path, text, where):
    path = tmp_path / "s.json"
    path.write_text(text)  # was a UnicodeEncodeError from the schema validator
    assert problems_of(path) == [
        f"{path}:{where} /: invalid JSON: a \\u escape of half a character (a lone surrogate); "
        "expected a whole one"
    ]


def test_a_whole_character_written_as_a_pair_is_fine(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('"\\ud83d\\udc8e"')
    assert problems_of(path) == [f"{path}:1:1 /: expected an object, found '\U0001f48e'"]


def test_a_date_cell_under_a_json_header_is_a_problem_at_its_cell(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    import datetime

    workbook = openpyxl.Workbook()
    workbook.active.append(["id", "title", "stats:json"])
    workbook.active.append(["ace", "Ace", datetime.datetime(2024, 5, 1)])
    path = tmp_path / "cards.xlsx"
    workbook.save(path)
    with pytest.raises(InvalidInput) as raised:
        import_table(path, "card")  # was a TypeError writing the catalog: a datetime is no JSON
    assert [str(p) for p in raised.value.problems] == [
        f"{path}:Sheet!C2: expected JSON text, found datetime.datetime(2024, 5, 1, 0, 0)"
    ]


def test_a_folder_name_that_is_not_utf8_makes_a_readable_title(tmp_path):
    name = b"caf\xe9-game".decode("utf-8", "surrogateescape")  # as Python gets it from argv
    result = invoke("new", tmp_path / name)  # was a UnicodeEncodeError writing the catalog
    assert result.exit_code == 0, result.output
    catalog = json.loads((tmp_path / name / "catalog.json").read_text(encoding="utf-8"))
    assert catalog["title"] == "Caf\ufffd game" and catalog["game"] == "caf-game"


# --- valid catalogs the engines must refuse in words ------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.pop("level"), "no scoring table for level smiley"),  # was KeyError 'level'
        (
            lambda t: t["points"].pop("per_gem"),
            "scoring table 'scoring-smiley' has no points for per_gem",
        ),  # fmt: skip
    ],
)
def test_dragonstone_simulate_names_what_its_scoring_table_lacks(tmp_path, change, message):
    document = json.loads(builtin_catalog_path("dragonstone-mine").read_text())
    change(document["scoring_tables"][0])
    document.pop("totals")
    path = tmp_path / "dragonstone.json"
    path.write_text(json.dumps(document))
    result = invoke("simulate", "dragonstone-mine", "--games", 1, "--catalog", path)
    assert result.exit_code == 2
    assert message in result.output


def test_a_workbook_that_unpacks_to_gigabytes_is_refused_before_reading(tmp_path):
    import zipfile

    path = tmp_path / "bomb.xlsx"
    with (
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive,
        archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member,
    ):
        block = b" " * (1024 * 1024)
        for _ in range(300):  # 300 MiB of spaces, a few hundred KiB packed
            member.write(block)
    assert path.stat().st_size < 2 * 1024 * 1024
    with pytest.raises(TableError, match="unpacks to more than 256 MiB"):
        import_table(path, "card")
