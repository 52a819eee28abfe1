"""Spreadsheets: bounded shape while reading, and formula-safe CSV export that reads back."""

import csv
import importlib.util
import zipfile

import pytest

from protopress.designer import InvalidTable, export_table, read_table, table_to_components
from protopress.designer.table_files import MAX_TABLE_COLUMNS, MAX_TABLE_ROWS

needs_openpyxl = pytest.mark.skipif(
    importlib.util.find_spec("openpyxl") is None, reason="needs openpyxl"
)

SHEET = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>title</t></is></c></row>
{rows}</sheetData></worksheet>"""  # noqa: E501


def _workbook(path, rows: str) -> None:
    """A minimal .xlsx whose first sheet holds rows (raw <row> XML after a header)."""
    from openpyxl import Workbook

    Workbook().save(path)
    with zipfile.ZipFile(path) as source:
        parts = {name: source.read(name) for name in source.namelist()}
    parts["xl/worksheets/sheet1.xml"] = SHEET.format(rows=rows).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in parts.items():
            target.writestr(name, data)


def test_a_very_wide_csv_row_is_refused_at_its_row(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("id,title\n" + "a" + "," * 989_000 + "\n")
    with pytest.raises(InvalidTable) as raised:
        read_table(path)
    assert str(raised.value.problems[0]) == (
        f"{path} row 2: row 2 has 989001 cells; a table has at most {MAX_TABLE_COLUMNS} columns"
    )


def test_a_csv_with_too_many_rows_is_refused(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("id,title\n" + "a,b\n" * (MAX_TABLE_ROWS + 5))
    with pytest.raises(InvalidTable, match=f"more than {MAX_TABLE_ROWS} rows"):
        read_table(path)


@needs_openpyxl
def test_an_xlsx_cell_at_row_99_999_999_999_is_refused_without_filling_the_rows(tmp_path):
    path = tmp_path / "cards.xlsx"
    far = '<row r="99999999999"><c r="A99999999999" t="inlineStr"><is><t>x</t></is></c></row>'
    _workbook(path, far)
    with pytest.raises(InvalidTable, match=f"more than {MAX_TABLE_ROWS} rows"):
        read_table(path)


@needs_openpyxl
def test_a_wide_sparse_xlsx_is_refused(tmp_path):
    path = tmp_path / "cards.xlsx"
    rows = "".join(
        f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>c{n}</t></is></c>'
        f'<c r="XFD{n}" t="inlineStr"><is><t>x</t></is></c></row>'
        for n in range(2, 2000)
    )
    _workbook(path, rows)
    with pytest.raises(InvalidTable, match="row 2 has 16384 cells; a table has at most"):
        read_table(path)


@needs_openpyxl
def test_empty_rows_between_keep_the_row_numbers(tmp_path):
    path = tmp_path / "cards.xlsx"
    _workbook(path, '<row r="5"><c r="A5" t="inlineStr"><is><t>c5</t></is></c>'
                    '<c r="B5" t="inlineStr"><is><t>Five</t></is></c></row>')  # fmt: skip
    table = read_table(path)
    assert [row.number for row in table.rows] == [5]


FORMULAS = ["=cmd|' /C calc'!A0", '=HYPERLINK("http://x","y")', "+1+2", "-x", "@SUM(A1)",
            "'=already", "''", "'Tis", "'", "plain", "-3"]  # fmt: skip


@pytest.mark.parametrize("spaced", [False, True])
def test_csv_export_quotes_formula_cells_and_import_reads_them_back(tmp_path, spaced):
    """spaced adds cells with a leading tab or CR: the column is then written as JSON."""
    texts = FORMULAS + (["\tlead", "\rlead"] if spaced else [])
    cards = [{"id": f"c{n}", "title": text} for n, text in enumerate(texts)]
    document = {"game": "deck", "title": "Deck", "version": "1", "cards": cards}
    path = tmp_path / "cards.csv"
    export_table(document, "card", path)
    with path.open(newline="") as stream:
        cells = [cell for row in csv.reader(stream) for cell in row]
    for cell in cells:
        assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
        assert not cell.startswith("-") or cell == "-3", cell
    if not spaced:
        assert {"'=cmd|' /C calc'!A0", "'-x", "''=already", "'''", "'Tis", "-3"} <= set(cells)
    assert table_to_components(read_table(path), "card") == cards
