"""import and export-table for a kind the catalog declares: columns are its declared
fields, cells converted to the declared types, problems located by cell."""

import json

from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import load_catalog

KINDS = {
    "resource-token": {
        "collection": "tokens",
        "size": "token",
        "fields": {
            "resource": {"type": "reference", "to": "symbols"},
            "value": {"type": "integer", "minimum": 1, "maximum": 5},
            "weight": {"type": "number"},
            "rare": {"type": "boolean"},
            "marks": {"type": "list", "of": {"type": "text"}},
        },
        "required": ["resource"],
    }
}
SYMBOLS = [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
           {"id": "wood", "name": "Wood", "shape": "square", "colour": "#8b5a2b"}]  # fmt: skip


def _catalog(tmp_path, name="cat.json"):
    path = tmp_path / name
    document = {"game": "t", "title": "T", "version": "1", "kinds": KINDS, "symbols": SYMBOLS}
    path.write_text(json.dumps(document, indent=2))
    return path


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_declared_kind_imports_with_typed_cells(tmp_path):
    target = _catalog(tmp_path)
    table = tmp_path / "tokens.csv"
    table.write_text(
        "id,count,resource,value,weight,rare,marks\n"
        "g1,3,gold,2,1.5,yes,star+moon\n"
        "w1,,wood,5,2,false,[]\n"
    )
    result = invoke("import", table, "--kind", "resource-token", "-o", target)
    assert result.exit_code == 0, result.output
    assert "2 resource-token components imported" in result.output
    document = json.loads(target.read_text())
    assert document["tokens"] == [
        {"id": "g1", "count": 3, "resource": "gold", "value": 2, "weight": 1.5, "rare": True,
         "marks": ["star", "moon"]},
        {"id": "w1", "resource": "wood", "value": 5, "weight": 2, "rare": False, "marks": []},
    ]  # fmt: skip
    assert document["symbols"] == SYMBOLS  # the rest of the catalog is kept


def test_the_collection_name_works_as_the_kind_too(tmp_path):
    table = tmp_path / "tokens.csv"
    table.write_text("id,resource\ng1,gold\n")
    result = invoke("import", table, "--kind", "tokens", "-o", _catalog(tmp_path))
    assert result.exit_code == 0, result.output


def test_declared_kind_problems_are_located_by_cell(tmp_path):
    target = _catalog(tmp_path)
    before = target.read_text()
    table = tmp_path / "tokens.csv"
    table.write_text("id,resource,value,valeu\ng1,glod,two,1\ng2,gold,9,\n")
    result = invoke("import", table, "--kind", "resource-token", "-o", target)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert f"{table}!D1: unknown column 'valeu': 'valeu' is not a field of a resource-token " \
        "(did you mean 'value'?)" in lines  # fmt: skip
    assert f"{table}!C2: expected an integer, found 'two'" in lines
    assert target.read_text() == before  # nothing written


def test_reference_and_range_problems_are_located_by_cell(tmp_path):
    target = _catalog(tmp_path)
    table = tmp_path / "tokens.csv"
    table.write_text("id,resource,value\ng1,glod,2\ng2,gold,9\n")
    result = invoke("import", table, "--kind", "resource-token", "-o", target)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert f"{table}!B2: 'glod' is not a symbol of this catalog (did you mean 'gold'?)" in lines
    assert f"{table}!C3: expected at most 5, found 9" in lines


def test_a_missing_required_column_is_named(tmp_path):
    table = tmp_path / "tokens.csv"
    table.write_text("id,value\ng1,2\n")
    result = invoke("import", table, "--kind", "resource-token", "-o", _catalog(tmp_path))
    assert result.exit_code == 1
    assert f"{table} row 1: no 'resource' column: every resource-token needs one" in result.output


def test_a_declared_kind_without_its_catalog_is_a_usage_error(tmp_path):
    table = tmp_path / "tokens.csv"
    table.write_text("id,resource\ng1,gold\n")
    result = invoke("import", table, "--kind", "resource-token", "-o", tmp_path / "new.json")
    assert result.exit_code == 2
    assert (
        "unknown kind 'resource-token' (did you mean 'market-token'?); a kind a catalog "
        "declares is known when the catalog is given (-o)"
    ) in result.output


def test_export_table_round_trips_a_declared_kind(tmp_path):
    source = _catalog(tmp_path)
    table = tmp_path / "tokens.csv"
    table.write_text(
        "id,count,resource,value,rare,marks\ng1,3,gold,2,true,star+moon\nw1,,wood,,,\n"
    )
    assert invoke("import", table, "--kind", "resource-token", "-o", source).exit_code == 0
    exported = tmp_path / "out.csv"
    result = invoke("export-table", source, "--kind", "resource-token", "-o", exported)
    assert result.exit_code == 0, result.output
    assert exported.read_text().splitlines() == [
        "id,count,resource,value,rare,marks",
        "g1,3,gold,2,true,star+moon",
        "w1,,wood,,,",
    ]
    copy = _catalog(tmp_path, "copy.json")
    again = invoke("import", exported, "--kind", "resource-token", "-o", copy)
    assert again.exit_code == 0, again.output
    assert load_catalog(copy).components == load_catalog(source).components
