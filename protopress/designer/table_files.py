"""Spreadsheet files in and out: CSV and XLSX read into rows with cell addresses,
bounded in size, formula-looking CSV cells quoted; and the problems of a table."""

from __future__ import annotations

import csv
import datetime
import io
import os
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from protopress.components.loader import (
    MAX_CATALOG_BYTES,
    read_limited,
)
from protopress.components.problems import InvalidInput, Problem, printable
from protopress.components.suggest import did_you_mean
from protopress.files import open_regular

EXCEL_SUFFIXES = (".xlsx", ".xlsm")
TABLE_SUFFIXES = (".csv", *EXCEL_SUFFIXES)
LIST_SUFFIX = "[]"  # a header `cost[]`: the cells are lists joined by "+"
JSON_SUFFIX = ":json"  # a header `extra:json`: every cell is JSON text
EMPTY_TEXT = '""'  # a cell holding two double quotes is the empty string
NEW_CATALOG_SCHEMA = "schemas/catalog.schema.json"
NEW_CATALOG_VERSION = "0.1.0"

EXACT_FLOAT_INT = 2**53  # xlsx stores numbers as doubles
MAX_XLSX_UNPACKED = 256 * 1024 * 1024  # a workbook's XML, unpacked
JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
# A table's shape, checked while it is read: every row is padded to the widest,
# so a single far cell must not make millions of empty ones.
MAX_TABLE_ROWS = 20_000
MAX_TABLE_COLUMNS = 500
# A CSV cell spreadsheet tools would run as a formula starts with one of these;
# export puts a ' in front (the tools' own "this is text" mark), import removes it.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# --------------------------------------------------------------------------
# Errors


class TableError(Exception):
    """The table cannot be read at all (unknown sheet, unsupported file, no openpyxl)."""


class UnreadableTable(TableError):
    """The file is no readable table: a damaged workbook, or one that unpacks too large.
    Invalid input (exit 1), where the other TableErrors are the command's use (exit 2)."""


@dataclass(frozen=True)
class TableProblem:
    """A problem at one cell (or one row, or the whole table) of a spreadsheet."""

    file: str
    sheet: str | None
    row: int | None  # 1-based row number in the sheet
    column: int | None  # 0-based column index
    message: str
    pointer: str = ""  # where the value lands in the catalog, when known

    @property
    def cell(self) -> str:
        if self.row is None:
            return ""
        if self.column is None:
            return str(self.row)
        return f"{column_letter(self.column)}{self.row}"

    @property
    def address(self) -> str:
        """cards.xlsx:Sheet1!D14, cards.csv!D14, cards.csv row 14, or the table alone."""
        table = f"{self.file}:{self.sheet}" if self.sheet else self.file
        if self.row is None:
            return table
        if self.column is None:
            return f"{table} row {self.row}"
        return f"{table}!{self.cell}"

    def __str__(self) -> str:
        return f"{printable(self.address)}: {printable(self.message)}"

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "sheet": self.sheet,
            "cell": self.cell,
            "pointer": self.pointer,
            "message": self.message,
        }


def _sort_key(problem: TableProblem | Problem) -> tuple[object, ...]:
    if isinstance(problem, TableProblem):
        return (
            1,
            problem.file,
            problem.sheet or "",
            problem.row or 0,
            -1 if problem.column is None else problem.column,
            problem.message,
        )
    return (0, problem.file, problem.line, problem.column, problem.pointer, problem.message)


class InvalidTable(InvalidInput[TableProblem | Problem]):
    """A table (or the catalog it would make) is not valid; carries every problem.

    problems mixes TableProblem (a cell of the table) and Problem (a line of
    the catalog the table is imported into); both print as one line.
    """

    def __init__(self, problems: Sequence[TableProblem | Problem]):
        self.problems = sorted(set(problems), key=_sort_key)
        Exception.__init__(self, "\n".join(map(str, self.problems)))


def column_letter(index: int) -> str:
    """The spreadsheet name of a 0-based column index: 0 -> A, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters


# --------------------------------------------------------------------------
# Reading tables


@dataclass(frozen=True)
class Row:
    number: int  # 1-based row number in the sheet
    values: tuple  # one value per column: str (CSV), or str/int/float/bool/None (xlsx)


@dataclass
class Table:
    """A header and the non-empty rows beneath it, each knowing its sheet position."""

    file: str  # as shown in messages
    sheet: str | None  # xlsx only
    header: list[str]
    header_row: int
    rows: list[Row] = field(default_factory=list)

    def problem(
        self, row: int | None, column: int | None, message: str, pointer: str = ""
    ) -> TableProblem:
        return TableProblem(self.file, self.sheet, row, column, message, pointer)

    def address(self, row: int | None, column: int | None = None) -> str:
        return self.problem(row, column, "").address


def openpyxl_module() -> ModuleType | None:
    """openpyxl, or None when the excel extra is not installed."""
    try:
        import openpyxl
    except ImportError:
        return None
    return openpyxl


def no_excel(verb: str) -> TableError:
    return TableError(f"{verb} .xlsx needs the excel extra: pip install 'protopress[excel]'")


def read_table(path: Path | str, sheet: str | None = None, display: str | None = None) -> Table:
    """The table in a .csv (UTF-8, with or without BOM) or .xlsx file (default: its first sheet).

    The header is the first non-empty row; completely empty rows are skipped.
    Raises TableError when the file cannot be read as a table, InvalidTable
    when a CSV file is not UTF-8 text. OSError propagates.
    """
    path = Path(path)
    name = display or str(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        if sheet is not None:
            raise TableError(f"{name}: a CSV file has no sheets (got --sheet {sheet!r})")
        return _table(name, None, _csv_rows(path, name))
    if suffix in EXCEL_SUFFIXES:
        return _read_xlsx(path, name, sheet)
    raise TableError(f"{name}: a table is a .csv or .xlsx file")


def _csv_rows(path: Path, name: str) -> list[tuple[str, ...]]:
    data = read_limited(path)
    if len(data) > MAX_CATALOG_BYTES:
        limit = MAX_CATALOG_BYTES // (1024 * 1024)
        raise InvalidTable([TableProblem(name, None, None, None, f"larger than {limit} MiB")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InvalidTable(
            [
                TableProblem(
                    name,
                    None,
                    line,
                    None,
                    "not UTF-8 text (save the table as CSV UTF-8)",
                )
            ]
        ) from None
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=lambda d: (first_line.count(d), d == ","))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        rows: list[tuple[str, ...]] = []
        for row in reader:
            _check_shape(name, None, reader.line_num, len(row), len(rows) + 1)
            rows.append(tuple(_unquote_formula(cell) for cell in row))
        return rows
    except csv.Error as error:
        raise InvalidTable(
            [TableProblem(name, None, reader.line_num, None, f"not valid CSV: {error}")]
        ) from None


def _read_xlsx(path: Path, name: str, sheet: str | None) -> Table:
    openpyxl = openpyxl_module()
    if openpyxl is None:
        raise no_excel("reading")
    with open_regular(path) as stream:  # a missing file is an OSError, as for CSV; a FIFO too
        size = os.fstat(stream.fileno()).st_size
    if size > MAX_CATALOG_BYTES:
        limit = MAX_CATALOG_BYTES // (1024 * 1024)
        raise InvalidTable([TableProblem(name, None, None, None, f"larger than {limit} MiB")])
    try:  # a small workbook may unpack to gigabytes (a zip bomb): count before reading
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(item.file_size for item in archive.infolist())
    except (zipfile.BadZipFile, ValueError) as error:
        raise UnreadableTable(f"{name}: not a readable .xlsx file ({error})") from None
    if unpacked > MAX_XLSX_UNPACKED:
        limit = MAX_XLSX_UNPACKED // (1024 * 1024)
        raise UnreadableTable(f"{name}: the workbook unpacks to more than {limit} MiB")
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # zip, XML and openpyxl's own errors alike
        raise UnreadableTable(f"{name}: not a readable .xlsx file ({error})") from None
    try:
        if sheet is None:
            if not workbook.worksheets:
                raise UnreadableTable(f"{name}: the workbook has no worksheet")
            worksheet = workbook.worksheets[0]
        elif sheet in workbook.sheetnames:
            worksheet = workbook[sheet]
        else:
            names = ", ".join(repr(s) for s in workbook.sheetnames)
            raise TableError(
                f"{name} has no sheet {sheet!r}{did_you_mean(sheet, workbook.sheetnames)}; "
                f"its sheets are {names}"
            )
        try:  # read-only workbooks parse a sheet's XML only now
            rows = _xlsx_rows(worksheet, name)
        except InvalidTable:
            raise
        except Exception as error:  # XML, zip and openpyxl's own errors alike
            raise UnreadableTable(f"{name}: not a readable .xlsx file ({error})") from None
        return _table(name, worksheet.title, rows)
    finally:
        workbook.close()


def _check_shape(name: str, sheet: str | None, row: int, width: int, count: int) -> None:
    """Refuse a table beyond MAX_TABLE_ROWS rows or MAX_TABLE_COLUMNS columns."""
    if width > MAX_TABLE_COLUMNS:
        message = f"row {row} has {width} cells; a table has at most {MAX_TABLE_COLUMNS} columns"
        raise InvalidTable([TableProblem(name, sheet, row, None, message)])
    if count > MAX_TABLE_ROWS:
        message = f"more than {MAX_TABLE_ROWS} rows (row {row})"
        raise InvalidTable([TableProblem(name, sheet, row, None, message)])


def _xlsx_rows(worksheet: Any, name: str) -> list[tuple]:  # openpyxl's ReadOnlyWorksheet
    """A read-only sheet's values, row by row as stored, with the shape bounded.

    openpyxl's iter_rows fills every missing row and column up to the farthest
    cell (one cell at row 10^11 means 10^11 rows); reading the stored rows
    ourselves keeps only cells that hold something and checks their position
    first. Missing rows stay as empty rows, so row numbers still name cells.
    """
    from openpyxl.worksheet._reader import WorkSheetParser

    workbook = worksheet.parent
    rows: list[tuple] = []
    with worksheet._get_source() as source:
        parser = WorkSheetParser(source, worksheet._shared_strings, data_only=True,
                                 epoch=workbook.epoch, date_formats=workbook._date_formats,
                                 timedelta_formats=workbook._timedelta_formats)  # fmt: skip
        for number, cells in parser.parse():
            values = {cell["column"]: cell["value"] for cell in cells if cell["value"] is not None}
            if not values:
                continue
            _check_shape(name, worksheet.title, number, max(values), number)
            rows.extend([()] * (number - 1 - len(rows)))
            rows.append(tuple(values.get(column) for column in range(1, max(values) + 1)))
    return rows


def quote_formula(cell: object) -> object:
    """A CSV cell as written: text a spreadsheet would run as a formula gets a ' first.

    Numbers are left alone (-3 stays a number), and text already starting
    with ' before a formula character or another ' gets one more, so that
    _unquote_formula gives back exactly the original.
    """
    if not isinstance(cell, str) or JSON_NUMBER.fullmatch(cell):
        return cell
    if cell.startswith(_FORMULA_START) or _is_quoted(cell):
        return "'" + cell
    return cell


def _is_quoted(text: str) -> bool:
    return text.startswith("'") and text[1:2] != "" and text[1:].startswith((*_FORMULA_START, "'"))


def _unquote_formula(cell: str) -> str:
    """The cell text before quote_formula: one leading ' removed where it added one."""
    return cell[1:] if _is_quoted(cell) else cell


def is_empty(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _table(name: str, sheet: str | None, rows: list[tuple]) -> Table:
    width = max((len(row) for row in rows), default=0)
    numbered = [
        Row(number, tuple(row) + (None,) * (width - len(row)))
        for number, row in enumerate(rows, start=1)
        if not all(is_empty(value) for value in row)
    ]
    if not numbered:
        return Table(name, sheet, [], 1)
    first, *rest = numbered
    header = ["" if is_empty(value) else cell_text(value).strip() for value in first.values]
    return Table(name, sheet, header, first.number, rest)


def number_text(value: int | float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < EXACT_FLOAT_INT:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def cell_text(value: object) -> str:
    """The text of a cell value (xlsx cells may be numbers, booleans or dates)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)
