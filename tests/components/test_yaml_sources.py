"""YAML catalogs and layouts: the same schemas, problems located as precisely as in
JSON (file:line:column /pointer), and only JSON's values read, safely."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import InvalidInput, load_catalog
from protopress.components.yamlsource import (
    LOADERS,
    MAX_ALIASED_VALUES,
    MAX_DEPTH,
    YamlRefused,
    parse_yaml,
)
from protopress.components.yamltext import yaml_text
from protopress.generators.layout import layouts_for, load_layout

ROOT = Path(__file__).resolve().parents[2]

CATALOG = """\
# a designer's own game, in YAML
game: yaml-game
title: YAML Game
version: "1"
kinds:
  resource-token:
    collection: tokens
    size: token
    fields:
      resource: {type: reference, to: symbols}
      value: {type: integer, minimum: 1, maximum: 5}
symbols:
  - id: gold   # a comment after a value
    name: Gold
    shape: circle
    colour: "#d4a017"
tokens:
  - id: t1
    resource: gold
    value: 2
"""


def _write(tmp_path, text, name="cat.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _problems(path):
    with pytest.raises(InvalidInput) as raised:
        load_catalog(path)
    return raised.value.problems


def _where(problem):
    return problem.line, problem.column, problem.pointer, problem.message


def test_comments_are_allowed_and_the_catalog_is_the_json_one(tmp_path):
    catalog = load_catalog(_write(tmp_path, CATALOG))
    [token] = catalog.of_kind("resource-token")
    assert (token.id, token["resource"], token["value"]) == ("t1", "gold", 2)
    document = parse_yaml(CATALOG)[0]
    as_json = _write(tmp_path, json.dumps(document), "cat.json")
    assert load_catalog(as_json).components == catalog.components


def test_schema_problem_in_a_nested_value_is_located(tmp_path):
    path = _write(tmp_path, CATALOG.replace("    value: 2", "    value: two"))
    [problem] = _problems(path)
    assert problem.file == str(path)
    assert _where(problem) == (
        20,
        12,
        "/tokens/0/value",
        "expected an integer from 1 to 5, found 'two'",
    )


def test_unknown_key_is_located_at_the_key_with_did_you_mean(tmp_path):
    path = _write(tmp_path, CATALOG.replace("    value: 2", "    valeu: 2"))
    [problem] = _problems(path)
    assert _where(problem) == (
        20, 5, "/tokens/0/valeu", "unknown property 'valeu' (did you mean 'value'?)"
    )  # fmt: skip


def test_unknown_collection_is_located_at_its_key(tmp_path):
    path = _write(tmp_path, CATALOG.replace("tokens:\n  - id: t1", "tokenz:\n  - id: t1"))
    [problem] = _problems(path)
    assert _where(problem)[2:] == ("/tokenz", "unknown property 'tokenz' (did you mean 'tokens'?)")
    assert problem.line == 17


@pytest.mark.parametrize("loader", LOADERS)
def test_syntax_error_has_its_line_and_column(tmp_path, loader):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml("a: 1\nb: [1, 2\nc: 3\n", LOADERS[loader])
    [problem] = raised.value.problems
    assert (problem.line, problem.column) == (3, 2)
    assert problem.message.startswith("invalid YAML: ")


def test_syntax_error_in_a_catalog_file(tmp_path):
    path = _write(tmp_path, CATALOG.replace("    name: Gold", "    name: Gold: x"))
    [problem] = _problems(path)
    assert (problem.file, problem.line, problem.column) == (str(path), 14, 15)
    assert problem.message.startswith("invalid YAML: mapping values are not allowed")


@pytest.mark.parametrize("loader", LOADERS)
def test_duplicate_keys_are_refused(loader):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml("a: 1\nb:\n  c: 1\n  c: 2\n", LOADERS[loader])
    [problem] = raised.value.problems
    assert (problem.line, problem.column, problem.pointer) == (4, 3, "/b/c")
    assert problem.message == "duplicate key (first at line 3, column 3)"


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(
    "value",
    ["!!python/object/apply:os.system ['echo hi']", "!!python/name:os.system",
     "!!str text", "!custom text", "!!binary aGk=", "!!timestamp 2024-01-01", "! text"],
)  # fmt: skip
def test_every_tag_is_refused_at_its_value(loader, value):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml(f"a:\n  b: {value}\n", LOADERS[loader])
    [problem] = raised.value.problems
    assert (problem.line, problem.column, problem.pointer) == (2, 6, "/a/b")
    assert "is not allowed: write plain values, lists and objects" in problem.message


def test_a_python_tag_in_a_catalog_runs_nothing(tmp_path, monkeypatch):
    import os

    monkeypatch.setattr(os, "system", lambda *_: pytest.fail("os.system was called"))
    path = _write(tmp_path, "game: !!python/object/apply:os.system ['true']\n")
    [problem] = _problems(path)
    assert (problem.line, problem.pointer) == (1, "/game")


# A value, how YAML 1.1 or 1.2 readers take it, and what protopress says.
SCALARS = {
    "no": "'no' is a boolean to YAML 1.1 readers; write true or false, or text in quotes",
    "on": "'on' is a boolean to YAML 1.1 readers; write true or false, or text in quotes",
    "True": "'True' is a boolean to YAML 1.1 readers; write true or false, or text in quotes",
    "NULL": "'NULL' is null to YAML readers; write null, or text in quotes",
    "1_000": "'1_000' is a number in a YAML-only notation; write the number as JSON writes it, "
    "or text in quotes",
    "0o17": "'0o17' is a number in a YAML-only notation; write the number as JSON writes it, "
    "or text in quotes",
    "017": "'017' is a number in a YAML-only notation; write the number as JSON writes it, "
    "or text in quotes",
    "0x1f": "'0x1f' is a number in a YAML-only notation; write the number as JSON writes it, "
    "or text in quotes",
    "1:30": "'1:30' is a number in a YAML-only notation; write the number as JSON writes it, "
    "or text in quotes",
    "+1": "'+1' is a number in a YAML-only notation; write the number as JSON writes it, "
    "or text in quotes",
    ".5": "'.5' is a number in a YAML-only notation; write the number as JSON writes it, "
    "or text in quotes",
    "2024-05-01": "'2024-05-01' is a date to YAML readers; write the date in quotes",
    "2024-05-01 10:00:00": "'2024-05-01 10:00:00' is a date to YAML readers; write the date in quotes",
    ".inf": "'.inf' is infinity or not-a-number, which JSON has not; write a number, "
    "or text in quotes",
    ".nan": "'.nan' is infinity or not-a-number, which JSON has not; write a number, "
    "or text in quotes",
    "1e400": "1e400 is too large for a number (at most about 1.8e308)",
}


@pytest.mark.parametrize("text", SCALARS)
def test_a_non_json_scalar_is_a_located_problem(text):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml(f"game: g\nvalue: {text}\n")
    [problem] = raised.value.problems
    assert (problem.line, problem.column, problem.pointer) == (2, 8, "/value")
    assert problem.message == SCALARS[text]


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("false", False), ("null", None), ("~", None), ("", None), ("12", 12),
     ("-0.5", -0.5), ("1e3", 1000.0), ("3d6", "3d6"), ("'no'", "no"), ('"2024-05-01"', "2024-05-01"),
     ("yes please", "yes please"), ("|\n  two\n  lines", "two\nlines\n")],
)  # fmt: skip
def test_json_scalars_and_text_are_read_as_json_reads_them(text, value):
    assert parse_yaml(f"value: {text}\n")[0] == {"value": value}


@pytest.mark.parametrize(
    ("text", "pointer", "message"),
    [("1: x", "/1", "a key must be text: write '1' in quotes"),
     ("true: x", "/true", "a key must be text: write 'true' in quotes"),
     ("? [a]\n: x", "", "a key must be text, not a list or an object"),
     ("<<: {a: 1}", "/<<", "merge keys (<<) are not read: write the keys out")],
)  # fmt: skip
def test_keys_must_be_text(text, pointer, message):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml(text)
    [problem] = raised.value.problems
    assert (problem.pointer, problem.message) == (pointer, message)


def test_quoted_keys_that_look_like_numbers_are_text():
    assert parse_yaml("'1': x\n\"true\": y\n")[0] == {"1": "x", "true": "y"}


def _laughs(levels: int) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("loader", LOADERS)
def test_a_billion_laughs_stops_at_the_alias_limit(loader):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml(_laughs(9), LOADERS[loader])  # 10**9 strings, if expanded
    [problem] = raised.value.problems
    assert problem.message.startswith(f"aliases repeat more than {MAX_ALIASED_VALUES:,} values")
    assert problem.pointer.startswith("/a")


def test_a_few_aliases_are_followed_and_located_where_written():
    value, positions = parse_yaml("base: &b {size: poker}\nother: *b\n")
    assert value == {"base": {"size": "poker"}, "other": {"size": "poker"}}
    assert value["base"] is not value["other"]
    assert positions.locate("/other") == (2, 8)
    assert positions.locate("/other/size") == (1, 17)  # inside the alias: where it is written


def test_an_alias_into_itself_is_refused():
    with pytest.raises(YamlRefused) as raised:
        parse_yaml("a: &x [1, *x]\n")
    assert raised.value.problems[0].message == "an alias repeats a value it is part of"


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 100_000])
def test_deep_nesting_is_refused_without_recursion(loader, levels):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml("a: " + "[" * levels + "]" * levels + "\n", LOADERS[loader])
    [problem] = raised.value.problems
    assert (
        problem.message == "YAML nested too deeply: expected at most 64 levels of lists and objects"
    )


def test_nesting_of_exactly_the_limit_is_read():
    inner = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert parse_yaml(f"a: {inner}\n")[0]["a"]


def test_aliases_cannot_nest_past_the_depth_limit():
    half = MAX_DEPTH // 2 + 2
    text = f"a: &a {'[' * half}{']' * half}\nb: {'[' * half}*a{']' * half}\n"
    with pytest.raises(YamlRefused) as raised:
        parse_yaml(text)
    assert "nested too deeply" in raised.value.problems[0].message


def test_the_size_limit_is_the_json_one(tmp_path, monkeypatch):
    from protopress.components import loader

    monkeypatch.setattr(loader, "MAX_CATALOG_BYTES", 1024 * 1024)
    path = _write(tmp_path, "# padding\n" * 200_000)
    [problem] = _problems(path)
    assert _where(problem) == (1, 1, "", "file is larger than 1 MiB")


def test_a_file_that_is_not_utf8_is_located(tmp_path):
    path = tmp_path / "cat.yaml"
    path.write_bytes(b"game: g\ntitle: \xff\n")
    [problem] = _problems(path)
    assert (problem.line, problem.message) == (2, "file is not UTF-8 text")


def test_an_empty_file_holds_no_document(tmp_path):
    [problem] = _problems(_write(tmp_path, "# only a comment\n"))
    assert problem.message == "the file holds no YAML document"


def test_builtin_catalogs_written_as_yaml_read_back_the_same():
    for path in sorted((ROOT / "protopress" / "games").glob("*/catalog.json")):
        document = json.loads(path.read_text())
        for loader in LOADERS.values():
            assert parse_yaml(yaml_text(document), loader)[0] == document, path


def test_yaml_text_quotes_what_would_read_as_something_else():
    document = {"words": ["no", "1e3", "2024-05-01", "null", "", "~", "0o17", "3d6", "<<"]}
    text = yaml_text(document)
    assert "- 3d6\n" in text and '- "no"\n' in text and '- "1e3"\n' in text
    assert parse_yaml(text)[0] == document


# ---- layouts -------------------------------------------------------------

BASE_LAYOUT = """\
kind: card
size: poker
uses: [parts.yml]
front:
  - {name: title, type: text, x: 5, y: 5, w: 40, h: 10, text: "{title}"}
  - {type: fragment, use: frame}
"""
PARTS = """\
fragments:
  frame:
    - {type: rect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333"}
"""


def test_a_yaml_layout_extends_and_uses_yaml_files(tmp_path):
    (tmp_path / "base.yaml").write_text(BASE_LAYOUT)
    (tmp_path / "parts.yml").write_text(PARTS)
    (tmp_path / "card.yaml").write_text(
        "kind: card\nextends: base.yaml\nfront:\n  - {name: title, type: text, x: 5, y: 8, w: 40, h: 10, "
        'text: "{title}!"}\n'
    )
    layout = load_layout(tmp_path / "card.yaml")
    assert [e["type"] for e in layout.front] == ["text", "rect"]
    assert layout.front[0]["text"] == "{title}!"


def test_a_layout_problem_in_a_yaml_fragment_file_is_located(tmp_path):
    (tmp_path / "base.yaml").write_text(BASE_LAYOUT)
    (tmp_path / "parts.yml").write_text(PARTS.replace("type: rect", "type: rekt"))
    with pytest.raises(InvalidInput) as raised:
        load_layout(tmp_path / "base.yaml")
    [problem] = raised.value.problems
    assert problem.file == str(tmp_path / "parts.yml")
    assert (problem.line, problem.pointer) == (3, "/fragments/frame/0/type")
    assert "'rekt'" in problem.message and "did you mean 'rect'" in problem.message


def test_an_unknown_fragment_in_a_yaml_layout_is_located(tmp_path):
    (tmp_path / "parts.yml").write_text(PARTS)
    (tmp_path / "base.yaml").write_text(BASE_LAYOUT.replace("use: frame", "use: frme"))
    with pytest.raises(InvalidInput) as raised:
        load_layout(tmp_path / "base.yaml")
    [problem] = raised.value.problems
    assert (problem.line, problem.column, problem.pointer) == (6, 27, "/front/1/use")
    assert problem.message == "unknown fragment 'frme' (did you mean 'frame'?)"


def test_a_layouts_folder_may_hold_yaml(tmp_path):
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "parts.yml").write_text(PARTS)
    (folder / "card.yml").write_text(BASE_LAYOUT)
    catalog = load_catalog(_write(tmp_path, "game: g\ntitle: G\nversion: '1'\ncards: []\n"))
    assert layouts_for(["card"], folder, catalog)["card"].source == folder / "card.yml"


def test_two_layouts_of_one_kind_are_refused(tmp_path):
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "card.json").write_text("{}")
    (folder / "card.yaml").write_text("{}")
    with pytest.raises(InvalidInput) as raised:
        layouts_for(["card"], folder)
    assert (
        raised.value.problems[0].message == "two layouts of card: card.json and card.yaml; keep one"
    )


# ---- commands ------------------------------------------------------------


def test_validate_check_and_render_read_yaml(tmp_path):
    path = _write(tmp_path, CATALOG)
    (tmp_path / "token.yaml").write_text(
        "kind: resource-token\nfront:\n  - {type: text, x: 2, y: 2, w: 20, h: 8, text: '{value}'}\n"
    )
    path.write_text(
        CATALOG.replace("    size: token\n", "    size: token\n    layout: token.yaml\n")
    )
    runner = CliRunner()
    assert runner.invoke(cli, ["validate", str(path)]).exit_code == 0
    result = runner.invoke(cli, ["render", str(path), "-o", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "resource-token-sheets.pdf").is_file()


def test_validate_reports_yaml_problems_one_per_line(tmp_path):
    path = _write(tmp_path, CATALOG.replace("    value: 2", "    value: 9\n    valeu: 2"))
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}:21:5 /tokens/0/valeu: unknown property 'valeu' (did you mean 'value'?)" in (
        result.output
    )
    assert f"{path}:20:12 /tokens/0/value: expected at most 5, found 9" in result.output


def test_import_writes_a_yaml_catalog_that_reads_back(tmp_path):
    table = tmp_path / "cards.csv"
    table.write_text('id,title,text\nace,no,2024-05-01\nking,King,"1e3 gems"\n')
    runner = CliRunner()
    for target in (tmp_path / "cards.yaml", tmp_path / "cards.json"):
        result = runner.invoke(cli, ["import", str(table), "--kind", "card", "-o", str(target)])
        assert result.exit_code == 0, result.output
    assert "{" not in (tmp_path / "cards.yaml").read_text()  # block YAML, not JSON
    cards = load_catalog(tmp_path / "cards.yaml").components
    assert cards == load_catalog(tmp_path / "cards.json").components
    assert [(c.id, c["title"], c["text"]) for c in cards["card"]] == [
        ("ace", "no", "2024-05-01"),
        ("king", "King", "1e3 gems"),
    ]


def test_import_into_an_existing_yaml_catalog_is_refused_to_keep_its_comments(tmp_path):
    table = tmp_path / "cards.csv"
    table.write_text("id,title\nace,Ace\n")
    target = _write(tmp_path, CATALOG)
    result = CliRunner().invoke(cli, ["import", str(table), "--kind", "card", "-o", str(target)])
    assert result.exit_code == 1
    assert result.output.startswith(f"{target}:1:1 /: import rewrites the whole catalog")
    assert target.read_text() == CATALOG


def test_an_unused_card_field_is_located_in_a_yaml_catalog(tmp_path):
    path = _write(tmp_path, "game: g\ntitle: G\nversion: '1'\ncards:\n  - id: a\n    titel: A\n")
    result = CliRunner().invoke(cli, ["render", str(path), "-o", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    assert (
        f"{path}:6:5 /cards/0/titel: field 'titel' is not used by card.json (did you mean 'title'?)"
    ) in result.output


def test_watch_sees_yaml_layouts(tmp_path):
    from protopress.generators.watch import snapshot

    folder = tmp_path / "layouts"
    folder.mkdir()
    for name in ("card.yaml", "token.yml", "board.json", "notes.txt"):
        (folder / name).write_text("{}")
    catalog = _write(tmp_path, CATALOG)
    watched = {path.name for path in snapshot(catalog, folder)}
    assert watched == {"cat.yaml", "card.yaml", "token.yml", "board.json"}


def test_preview_places_a_yaml_catalog_problem_beside_its_component(tmp_path):
    from protopress.web.preview import Preview

    path = _write(tmp_path, CATALOG.replace("    value: 2", "    value: 9"))
    model, faces = Preview(path)._build()
    assert faces is None
    [problem] = model["placed"]["t1"]
    assert problem.startswith("cat.yaml:20:12 /tokens/0/value: expected at most 5")


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(
    ("text", "where"),
    [("a: é\nbéé: ü \x01\n", (2, 8, "")), ("ü: é\nüü: [ü, no]\n", (2, 9, "/üü/1")),
     ("éé: {a: 1, a: 2}\n", (1, 12, "/éé/a"))],
)  # fmt: skip
def test_columns_count_characters_after_non_ascii_text(loader, text, where):
    with pytest.raises(YamlRefused) as raised:
        parse_yaml(text, LOADERS[loader])
    [problem] = raised.value.problems
    assert (problem.line, problem.column, problem.pointer) == where
