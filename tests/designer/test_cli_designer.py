"""The designer workflow from the command line: new, render, export, import."""

import json

import pytest
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


def _workbook_bytes(tmp_path, damage: str) -> bytes:
    """A workbook whose sheet is cut in half ("damaged") or that unpacks to 300 MiB ("bomb")."""
    import zipfile

    import openpyxl

    path = tmp_path / "made.xlsx"
    if damage == "bomb":
        with (
            zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive,
            archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member,
        ):
            for _ in range(300):
                member.write(b" " * (1024 * 1024))
        return path.read_bytes()
    book = openpyxl.Workbook()
    book.active.append(["id", "title"])
    book.save(tmp_path / "good.xlsx")
    with (
        zipfile.ZipFile(tmp_path / "good.xlsx") as source,
        zipfile.ZipFile(path, "w") as target,
    ):
        for item in source.infolist():
            data = source.read(item)
            if item.filename.startswith("xl/worksheets/"):
                data = data[: len(data) // 2] + b"<<<"
            target.writestr(item, data)
    return path.read_bytes()


@pytest.mark.parametrize(
    ("damage", "message"),
    [("damaged", "not a readable .xlsx file"), ("bomb", "unpacks to more than 256 MiB")],
)
def test_an_unreadable_workbook_is_invalid_input_in_one_line(tmp_path, damage, message):
    """Exit 1 and one line naming the file, not the usage banner and exit 2."""
    table = tmp_path / "cards.xlsx"
    table.write_bytes(_workbook_bytes(tmp_path, damage))
    result = CliRunner().invoke(
        cli, ["import", str(table), "--kind", "card", "-o", str(tmp_path / "cat.json")]
    )
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and str(table) in lines[0], result.output
    assert message in result.output and "Usage:" not in result.output
    assert not (tmp_path / "cat.json").exists()
