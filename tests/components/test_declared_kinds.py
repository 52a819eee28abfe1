"""Kinds a catalog declares: each problem located (file, line, pointer) and explained."""

import json

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import InvalidInput, load_catalog

KINDS = {
    "resource-token": {
        "collection": "tokens",
        "size": "token",
        "fields": {
            "resource": {"type": "reference", "to": "symbols"},
            "value": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
            "side": {"type": "text", "enum": ["light", "dark"]},
        },
        "required": ["resource"],
    }
}
SYMBOLS = [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"}]


def _write(tmp_path, tokens, kinds=KINDS):
    """A catalog with one token per line, so that each problem's line is known."""
    head = {"game": "t", "title": "T", "version": "1", "kinds": kinds, "symbols": SYMBOLS}
    text = json.dumps(head)[:-1] + ',\n"tokens": [\n'
    text += ",\n".join(json.dumps(token) for token in tokens) + "\n]}\n"
    path = tmp_path / "cat.json"
    path.write_text(text)
    return path


def _problems(path):
    with pytest.raises(InvalidInput) as raised:
        load_catalog(path)
    return raised.value.problems


CASES = {
    "unknown field": ({"id": "a", "resource": "gold", "valeu": 2}, "/tokens/0/valeu",
                      "unknown property 'valeu' (did you mean 'value'?)"),
    "wrong type": ({"id": "a", "resource": "gold", "value": "two"}, "/tokens/0/value",
                   "expected an integer from 1 to 5, found 'two'"),
    "missing required": ({"id": "a"}, "/tokens/0",
                         "missing required property 'resource' (the id of a symbol)"),
    "bad reference": ({"id": "a", "resource": "glod"}, "/tokens/0/resource",
                      "'glod' is not a symbol of this catalog (did you mean 'gold'?)"),
    "enum": ({"id": "a", "resource": "gold", "side": "lite"}, "/tokens/0/side",
             "'lite' is not one of 'light', 'dark' (did you mean 'light'?)"),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_component_problem_is_located(tmp_path, case):
    token, pointer, message = CASES[case]
    path = _write(tmp_path, [{"id": "ok", "resource": "gold"}, token])
    pointer = pointer.replace("/tokens/0", "/tokens/1")
    [problem] = _problems(path)
    assert (problem.file, problem.line, problem.pointer, problem.message) == (
        str(path),
        4,
        pointer,
        message,
    )
    assert problem.column >= 1


def test_size_out_of_range_is_located(tmp_path):
    kinds = {"board": {"collection": "boards", "size": {"width": "2000mm", "height": 300},
                       "fields": {}}}  # fmt: skip
    path = _write(tmp_path, [], kinds)
    path.write_text(path.read_text().replace('"tokens"', '"boards"'))
    [problem] = _problems(path)
    assert problem.pointer == "/kinds/board/size/width"
    assert problem.line == 1
    assert problem.message == "'2000mm' is out of range: expected 10 to 1000 mm"


def test_declaration_problems(tmp_path):
    kinds = {
        "board": {"collection": "boards", "size": "pokr",
                  "fields": {"title": {"type": "txt"}, "n": {"type": "integer", "default": "x"}},
                  "required": ["titel"]},
        "gem": {"collection": "gems", "fields": {}},
        "ref": {"collection": "refs", "fields": {"to": {"type": "reference", "to": "symbol"}}},
    }  # fmt: skip
    messages = {p.pointer: p.message for p in _problems(_write(tmp_path, [], kinds))}
    assert messages["/kinds/board/fields/title/type"].endswith("(did you mean 'text'?)")
    assert messages["/kinds/board/required/0"] == "'titel' is not a field (did you mean 'title'?)"
    assert messages["/kinds/board/fields/n/default"] == "default expected an integer, found 'x'"
    assert "did you mean 'poker'?" in messages["/kinds/board/size"]
    assert messages["/kinds/gem"].startswith("'gem' is a built-in kind")
    assert messages["/kinds/ref/fields/to/to"] == (
        "'symbol' is not a collection (did you mean 'symbols'?)"
    )


def test_unknown_collection_stays_refused(tmp_path):
    path = _write(tmp_path, [{"id": "a", "resource": "gold"}])
    path.write_text(path.read_text().replace('"tokens": [', '"tokenz": ['))
    [problem] = _problems(path)
    assert problem.pointer == "/tokenz"
    assert problem.message == "unknown property 'tokenz' (did you mean 'tokens'?)"


def test_defaults_and_collection(tmp_path):
    catalog = load_catalog(_write(tmp_path, [{"id": "a", "resource": "gold"}]))
    [token] = catalog.of_kind("resource-token")
    assert token["value"] == 1
    assert "value" not in catalog.document["tokens"][0]


def test_schema_command_writes_declared_kinds(tmp_path):
    path = _write(tmp_path, [{"id": "a", "resource": "gold"}])
    result = CliRunner().invoke(cli, ["schema", "--catalog", str(path), "-o", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    schema = json.loads((tmp_path / "s" / "resource-token.schema.json").read_text())
    assert schema["properties"]["side"]["enum"] == ["light", "dark"]
    assert schema["additionalProperties"] is False
    catalog = json.loads((tmp_path / "s" / "catalog.schema.json").read_text())
    assert catalog["properties"]["tokens"]["items"] == {"$ref": "resource-token.schema.json"}


def _render(tmp_path, cards):
    catalog = {"game": "t", "title": "T", "version": "1", "symbols": SYMBOLS, "cards": cards}
    layout = {"kind": "card", "size": "poker", "front": [
        {"type": "text", "x": 5, "y": 5, "w": 40, "h": 10, "text": "{title}"},
        {"type": "icons", "x": 5, "y": 20, "icon_size": 5, "items": "{cost}", "from": "symbols"}]}  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(catalog, indent=1))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout))
    args = ["render", str(tmp_path / "cat.json"), "--layouts", str(tmp_path / "layouts"),
            "-o", str(tmp_path / "out"), "-q"]  # fmt: skip
    return CliRunner().invoke(cli, args)


def test_card_field_unknown_to_layout_is_a_warning(tmp_path):
    result = _render(tmp_path, [{"id": "a", "titel": "A", "cost": ["gold"]}])
    path = tmp_path / "cat.json"
    line = path.read_text().splitlines().index('   "titel": "A",') + 1
    assert (
        f"warning {path}:{line}:4 /cards/0/titel: field 'titel' is not used by card.json "
        "(did you mean 'title'?)"
    ) in result.output
    # the layout's {title}, which no card has, is a problem of the same run: nothing written
    layout = tmp_path / "layouts" / "card.json"
    column = layout.read_text().index('"{title}"') + 1
    assert (
        f"{layout}:1:{column} /front/0/text: 'title' is not a field of any card "
        "(did you mean 'titel'?)"
    ) in result.output
    assert result.exit_code == 1
    assert not (tmp_path / "out").exists()


def test_unknown_id_in_drawn_list_is_a_problem(tmp_path):
    result = _render(tmp_path, [{"id": "a", "title": "A", "cost": ["gold", "glod"]}])
    assert result.exit_code == 1
    path = tmp_path / "cat.json"
    assert f"{path}:" in result.output
    assert "/cards/0/cost/1: 'glod' is not one of the symbols (card.json draws cost from symbols)"
    assert "(did you mean 'gold'?)" in result.output
    assert not (tmp_path / "out").exists()
