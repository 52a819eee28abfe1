"""The designer workflow from the command line: new, render, export, import."""

import json

from click.testing import CliRunner

from protopress.cli import cli


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_new_project_renders_and_round_trips_through_a_spreadsheet(tmp_path):
    folder = tmp_path / "my-game"
    created = invoke("new", folder)
    assert created.exit_code == 0, created.output
    assert f"wrote {folder / 'catalog.json'}" in created.output
    rendered = invoke("render", folder / "catalog.json", "--layouts", folder / "layouts",
                      "-o", tmp_path / "out")  # fmt: skip
    assert rendered.exit_code == 0, rendered.output
    assert "warning" not in rendered.output
    table = tmp_path / "cards.xlsx"
    assert (
        invoke("export-table", folder / "catalog.json", "--kind", "card", "-o", table).exit_code
        == 0
    )
    copy = tmp_path / "copy.json"
    (copy).write_text((folder / "catalog.json").read_text())
    imported = invoke("import", table, "--kind", "card", "-o", copy)
    assert imported.exit_code == 0, imported.output
    assert invoke("diff", folder / "catalog.json", copy).stdout == ""
    again = invoke("new", folder)
    assert again.exit_code == 2


def test_bad_cells_are_reported_with_their_address(tmp_path):
    table = tmp_path / "cards.csv"
    table.write_text("id,title,count\nace,Ace,two\nking,King,1\nqueen,,x\n")
    result = invoke("import", table, "--kind", "card", "-o", tmp_path / "catalog.json")
    assert result.exit_code == 1
    assert f"{table}!C2: expected an integer, found 'two'" in result.output
    assert f"{table}!C4: expected an integer, found 'x'" in result.output
    assert not (tmp_path / "catalog.json").exists()


def test_import_reports_the_rows_it_imported_not_another_collections_size(tmp_path):
    catalog = tmp_path / "cat.json"
    catalog.write_text(json.dumps({
        "game": "t", "title": "T", "version": "1",
        "symbols": [{"id": s, "name": s, "shape": "circle", "colour": "#112233"}
                    for s in ("a", "b", "c")],
    }))  # fmt: skip
    table = tmp_path / "cards.csv"
    table.write_text("id,title\n" + "".join(f"c{n},Card {n}\n" for n in range(5)))
    result = invoke("import", table, "--kind", "card", "-o", catalog)
    assert result.exit_code == 0, result.output
    assert f"5 card components imported from {table}" in result.output
