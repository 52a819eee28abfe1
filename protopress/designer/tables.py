"""Spreadsheets to catalogs and back.

A designer keeps a deck in a spreadsheet: one row per component, one column
per field. `import_table` turns a .csv or .xlsx table into a catalog
collection, converting each cell by the kind's JSON Schema and reporting every
problem at its cell (`cards.xlsx:Sheet1!D14: expected an integer, found 'two'`);
`export_table` writes a collection back as a table, so that importing it again
gives exactly the same components. The table format is described in
docs/spreadsheets.md.

openpyxl (the `excel` extra) is imported only when an .xlsx file is read or
written; CSV needs nothing beyond the standard library.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
import os
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from protopress.atomic import write_atomic
from protopress.components.catalog import Catalog
from protopress.components.loader import (
    MAX_CATALOG_BYTES,
    catalog_findings,
    locate,
    parse_json_file,
    parse_json_text,
    read_limited,
)
from protopress.components.problems import InvalidInput, Problem, printable
from protopress.components.schemas import (
    CATALOG_SCHEMA,
    Kind,
    kinds,
    schema_documents,
)
from protopress.components.suggest import did_you_mean, nearest
from protopress.files import open_regular

EXCEL_SUFFIXES = (".xlsx", ".xlsm")
TABLE_SUFFIXES = (".csv", *EXCEL_SUFFIXES)
LIST_SUFFIX = "[]"  # a header `cost[]`: the cells are lists joined by "+"
JSON_SUFFIX = ":json"  # a header `extra:json`: every cell is JSON text
EMPTY_TEXT = '""'  # a cell holding two double quotes is the empty string
NEW_CATALOG_SCHEMA = "schemas/catalog.schema.json"
NEW_CATALOG_VERSION = "0.1.0"

_INTEGER = re.compile(r"[-+]?\d+")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_JSON_INTEGER = re.compile(r"-?(?:0|[1-9]\d*)")
_SAFE_KEY = re.compile(r"[^.\s:\[\]]+")  # a key that can be a segment of a dotted header
_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}
_EXACT_FLOAT_INT = 2**53  # xlsx stores numbers as doubles
MAX_XLSX_UNPACKED = 256 * 1024 * 1024  # a workbook's XML, unpacked
_MAX_DIGITS = 4300  # the longest integer text int() converts (sys.get_int_max_str_digits)
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


def _sort_key(problem):
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


class InvalidTable(InvalidInput):
    """A table (or the catalog it would make) is not valid; carries every problem.

    problems mixes TableProblem (a cell of the table) and Problem (a line of
    the catalog the table is imported into); both print as one line.
    """

    def __init__(self, problems: list[TableProblem | Problem]):
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

    def problem(self, row: int | None, column: int | None, message: str, pointer: str = ""):
        return TableProblem(self.file, self.sheet, row, column, message, pointer)

    def address(self, row: int | None, column: int | None = None) -> str:
        return self.problem(row, column, "").address


def _excel():
    """openpyxl, or None when the excel extra is not installed."""
    try:
        import openpyxl
    except ImportError:
        return None
    return openpyxl


def _no_excel(verb: str) -> TableError:
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


def _csv_rows(path: Path, name: str):
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
        rows = []
        for row in reader:
            _check_shape(name, None, reader.line_num, len(row), len(rows) + 1)
            rows.append(tuple(_unquote_formula(cell) for cell in row))
        return rows
    except csv.Error as error:
        raise InvalidTable(
            [TableProblem(name, None, reader.line_num, None, f"not valid CSV: {error}")]
        ) from None


def _read_xlsx(path: Path, name: str, sheet: str | None) -> Table:
    openpyxl = _excel()
    if openpyxl is None:
        raise _no_excel("reading")
    with open_regular(path) as stream:  # a missing file is an OSError, as for CSV; a FIFO too
        size = os.fstat(stream.fileno()).st_size
    if size > MAX_CATALOG_BYTES:
        limit = MAX_CATALOG_BYTES // (1024 * 1024)
        raise InvalidTable([TableProblem(name, None, None, None, f"larger than {limit} MiB")])
    try:  # a small workbook may unpack to gigabytes (a zip bomb): count before reading
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(item.file_size for item in archive.infolist())
    except (zipfile.BadZipFile, ValueError) as error:
        raise TableError(f"{name}: not a readable .xlsx file ({error})") from None
    if unpacked > MAX_XLSX_UNPACKED:
        limit = MAX_XLSX_UNPACKED // (1024 * 1024)
        raise TableError(f"{name}: the workbook unpacks to more than {limit} MiB")
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # zip, XML and openpyxl's own errors alike
        raise TableError(f"{name}: not a readable .xlsx file ({error})") from None
    try:
        if sheet is None:
            if not workbook.worksheets:
                raise TableError(f"{name}: the workbook has no worksheet")
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
            raise TableError(f"{name}: not a readable .xlsx file ({error})") from None
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


def _xlsx_rows(worksheet, name: str) -> list[tuple]:
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


def _quote_formula(cell):
    """A CSV cell as written: text a spreadsheet would run as a formula gets a ' first.

    Numbers are left alone (-3 stays a number), and text already starting
    with ' before a formula character or another ' gets one more, so that
    _unquote_formula gives back exactly the original.
    """
    if not isinstance(cell, str) or _JSON_NUMBER.fullmatch(cell):
        return cell
    if cell.startswith(_FORMULA_START) or _is_quoted(cell):
        return "'" + cell
    return cell


def _is_quoted(text: str) -> bool:
    return text.startswith("'") and text[1:2] != "" and text[1:].startswith((*_FORMULA_START, "'"))


def _unquote_formula(cell: str) -> str:
    """The cell text before _quote_formula: one leading ' removed where it added one."""
    return cell[1:] if _is_quoted(cell) else cell


def _is_empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _table(name: str, sheet: str | None, rows: list[tuple]) -> Table:
    width = max((len(row) for row in rows), default=0)
    numbered = [
        Row(number, tuple(row) + (None,) * (width - len(row)))
        for number, row in enumerate(rows, start=1)
        if not all(_is_empty(value) for value in row)
    ]
    if not numbered:
        return Table(name, sheet, [], 1)
    first, *rest = numbered
    header = ["" if _is_empty(value) else _text(value).strip() for value in first.values]
    return Table(name, sheet, header, first.number, rest)


# --------------------------------------------------------------------------
# Walking the kind's schema


@dataclass(frozen=True)
class _Node:
    """A subschema and the file its local $refs resolve in."""

    schema: object
    file: str


_FREE = _Node(True, "")


def _resolve(node: _Node) -> _Node:
    for _ in range(32):
        schema = node.schema
        if not (isinstance(schema, dict) and "$ref" in schema):
            return node
        file, _, fragment = schema["$ref"].partition("#")
        file = file or node.file
        target = schema_documents()[file]
        for token in filter(None, fragment.split("/")):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        node = _Node(target, file)
    return node


def _types(schema) -> set[str] | None:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind is None:
        return None
    return {kind} if isinstance(kind, str) else set(kind)


def _is_structure(node: _Node) -> bool:
    """An object or a list: a value that holds other values."""
    types = _types(_resolve(node).schema)
    return bool(types) and types <= {"object", "array"}


def _holds_structures(node: _Node) -> bool:
    """An object, or a list of objects or lists: its cell is JSON text."""
    node = _resolve(node)
    types = _types(node.schema)
    if types == {"object"}:
        return True
    return types == {"array"} and _is_structure(_Node(node.schema.get("items", True), node.file))


def _name_allowed(key: str, names: _Node) -> bool:
    schema = _resolve(names).schema
    if not isinstance(schema, dict):
        return schema is not False
    if "enum" in schema and key not in schema["enum"]:
        return False
    return not ("pattern" in schema and not re.search(schema["pattern"], key))


def _child(node: _Node, key: str) -> _Node | None:
    """The schema of property key of an object node; None when it cannot exist."""
    node = _resolve(node)
    schema = node.schema
    if schema is False:
        return None
    if not isinstance(schema, dict):
        return _FREE
    types = _types(schema)
    if types is not None and "object" not in types:
        return None
    properties = schema.get("properties", {})
    if key in properties:
        return _Node(properties[key], node.file)
    for pattern, sub in schema.get("patternProperties", {}).items():
        if re.search(pattern, key):
            return _Node(sub, node.file)
    if "propertyNames" in schema and not _name_allowed(
        key, _Node(schema["propertyNames"], node.file)
    ):
        return None
    extra = schema.get("additionalProperties", True)
    if extra is False:
        return None
    return _FREE if extra is True else _Node(extra, node.file)


def _known_names(node: _Node) -> list[str]:
    """Property names an object node declares (for did-you-mean)."""
    node = _resolve(node)
    schema = node.schema if isinstance(node.schema, dict) else {}
    names = list(schema.get("properties", {}))
    if "propertyNames" in schema:
        enum = _resolve(_Node(schema["propertyNames"], node.file)).schema
        if isinstance(enum, dict):
            names += [name for name in enum.get("enum", []) if isinstance(name, str)]
    return names


def _kind_node(kind: Kind) -> _Node:
    return _Node(schema_documents()[kind.schema_file], kind.schema_file)


def resolve_kind(kind: str) -> Kind:
    """A kind by its name (room-tile) or its collection (room_tiles); TableError if unknown."""
    known = kinds()
    if kind in known:
        return known[kind]
    for candidate in known.values():
        if candidate.collection == kind:
            return candidate
    raise TableError(f"unknown kind {kind!r}{did_you_mean(kind, known)}")


# --------------------------------------------------------------------------
# Converting cells


class _Bad(Exception):
    """A cell that cannot be converted; the message says what was expected."""


class _NoMatch(_Bad):
    """A value outside an enum: kept as it is, so the schema explains it (with did-you-mean)."""

    def __init__(self, fallback):
        super().__init__("no match")
        self.fallback = fallback


def _number_text(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < _EXACT_FLOAT_INT:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def _text(value) -> str:
    """The text of a cell value (xlsx cells may be numbers, booleans or dates)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number_text(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def _found(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _expected(what: str, value) -> _Bad:
    return _Bad(f"expected {what}, found {_found(value)}")


def _integer(value):
    if isinstance(value, bool):
        raise _expected("an integer", value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        raise _expected("an integer", value)
    text = _text(value)
    if _INTEGER.fullmatch(text):
        return _whole(text, "an integer")
    if _JSON_NUMBER.fullmatch(text) and math.isfinite(float(text)) and float(text).is_integer():
        return int(float(text))
    raise _expected("an integer", value)


def _whole(text: str, what: str) -> int:
    """int(text) for a text of digits; _Bad past the digits Python converts."""
    digits = len(text.lstrip("+-"))
    if digits > _MAX_DIGITS:
        raise _Bad(f"expected {what}, found a number of {digits} digits")
    return int(text)


def _number(value):
    if isinstance(value, bool):
        raise _expected("a number", value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        raise _expected("a number", value)
    text = _text(value)
    if _INTEGER.fullmatch(text):
        return _whole(text, "a number")
    if _JSON_NUMBER.fullmatch(text.lstrip("+")) and math.isfinite(float(text)):
        return float(text)
    raise _expected("a number", value)


def _boolean(value):
    if isinstance(value, bool):
        return value
    text = _text(value).lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _expected("true or false", value)


def _string(value):
    text = _text(value)
    return "" if text == EMPTY_TEXT else text


def _free(value):
    """A field the schema leaves open: numbers and true/false convert, the rest is text."""
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else _text(value)
    text = _text(value)
    if text == EMPTY_TEXT:
        return ""
    if _JSON_INTEGER.fullmatch(text) and len(text.lstrip("-")) <= _MAX_DIGITS:
        return int(text)
    if _JSON_NUMBER.fullmatch(text) and math.isfinite(float(text)):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _json(value):
    if isinstance(value, bool | int) or (isinstance(value, float) and math.isfinite(value)):
        return value  # an xlsx number or boolean is already a JSON value
    if not isinstance(value, str):  # a date or time cell
        raise _expected("JSON text", value)
    try:
        return parse_json_text(value)
    except json.JSONDecodeError as error:
        raise _Bad(f"invalid JSON: {error.msg} (character {error.pos + 1})") from None
    except ValueError as error:  # nested too deeply
        raise _Bad(str(error)) from None


def _enum(value, options: list):
    for option in options:  # the very value, type included (1 is not True)
        if type(option) is type(value) and option == value:
            return option
    text = _text(value)
    for option in options:
        if _text(option) == text:
            return option
    if (
        _INTEGER.fullmatch(text)
        and len(text) <= _MAX_DIGITS
        and any(type(o) is int for o in options)
    ):
        raise _NoMatch(int(text))
    raise _NoMatch(text)


def _list(value, items: _Node):
    text = _text(value)
    if text.startswith("["):
        parsed = _json(text)
        if not isinstance(parsed, list):
            raise _expected("a list", value)
        return parsed
    if _is_structure(items):
        raise _expected("a list written as JSON, such as [{...}]", value)
    parts = [part.strip() for part in text.split("+")]
    if len(parts) > 1 and not all(parts):
        raise _Bad(f"an empty item in the list {_found(text)} (items are joined by '+')")
    result = []
    for number, part in enumerate(parts, start=1):
        try:
            result.append(_by_schema(part, items))
        except _NoMatch as no_match:
            result.append(no_match.fallback)
        except _Bad as bad:
            where = f" (item {number} of {_found(text)})" if len(parts) > 1 else ""
            raise _Bad(f"{bad}{where}") from None
    return result


def _object(value):
    text = _text(value)
    if not text.startswith("{"):
        raise _expected('an object written as JSON, such as {"key": 1}', value)
    return _json(text)


def _by_schema(value, node: _Node):
    """The cell value converted to what the schema expects (raises _Bad, _NoMatch)."""
    node = _resolve(node)
    schema = node.schema
    if not isinstance(schema, dict):
        return _free(value)
    if "const" in schema:
        return _enum(value, [schema["const"]])
    if "enum" in schema:
        return _enum(value, schema["enum"])
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            return _any(value, [_Node(option, node.file) for option in schema[keyword]])
    types = _types(schema)
    if types is None or len(types) != 1:
        return _free(value)
    (kind,) = types
    if kind == "integer":
        return _integer(value)
    if kind == "number":
        return _number(value)
    if kind == "boolean":
        return _boolean(value)
    if kind == "array":
        return _list(value, _Node(schema.get("items", True), node.file))
    if kind == "object":
        return _object(value)
    if kind == "null":
        return _enum(value, [None])
    return _string(value)


def _any(value, options: list[_Node]):
    no_match, failures = None, []
    for option in options:
        try:
            return _by_schema(value, option)
        except _NoMatch as error:
            no_match = no_match or error
        except _Bad as error:
            failures.append(str(error))
    if no_match is not None:
        raise no_match
    expected = [f.removeprefix("expected ").rsplit(", found ", 1)[0] for f in failures]
    raise _expected(" or ".join(expected), value)


# --------------------------------------------------------------------------
# Columns


@dataclass(frozen=True)
class _Column:
    index: int
    header: str
    path: tuple[str, ...]
    mode: str  # "auto" (by the schema), "list" (header ends with []), "json" (:json)
    node: _Node

    @property
    def field(self) -> str:
        return ".".join(self.path)


def _parse_header(header: str) -> tuple[str, str]:
    if header.endswith(JSON_SUFFIX):
        return header[: -len(JSON_SUFFIX)].strip(), "json"
    if header.endswith(LIST_SUFFIX):
        return header[: -len(LIST_SUFFIX)].strip(), "list"
    return header, "auto"


def _column(index: int, header: str, root: _Node, kind: Kind) -> _Column | str:
    """The column a header names, or a message saying why it cannot be one."""
    base, mode = _parse_header(header)
    path = tuple(segment.strip() for segment in base.split("."))
    if not all(path):
        return f"{header!r} is not a field name (dotted headers look like doors.N.cost)"
    node = root
    for depth, segment in enumerate(path):
        child = _child(node, segment)
        if child is None:
            parent = ".".join(path[:depth])
            types = _types(_resolve(node).schema)
            if parent and types is not None and "object" not in types:
                return f"unknown column {header!r}: {parent!r} is not an object, so {base!r} is not a field"
            names = _known_names(node)
            match = nearest(segment, names)
            hint = f" (did you mean {'.'.join((*path[:depth], match))!r}?)" if match else ""
            if not match and 0 < len(names) <= 12:
                hint = "; expected " + ", ".join(repr(name) for name in names)
            where = f"{parent!r}" if parent else f"a {kind.name}"
            return f"unknown column {header!r}: {segment!r} is not a field of {where}{hint}"
        node = child
    return _Column(index, header, path, mode, node)


def _columns(table: Table, kind: Kind) -> tuple[list[_Column], list[TableProblem], set[str]]:
    """The table's columns, header problems, and the required fields it has no column for.

    A missing required column is not a header problem: table_to_components
    converts what is there, import_table reports it once (not on every row).
    """
    root = _kind_node(kind)
    columns, problems = [], []
    seen: dict[tuple, _Column] = {}
    for index, header in enumerate(table.header):
        if not header:
            if any(not _is_empty(row.values[index]) for row in table.rows):
                problems.append(
                    table.problem(table.header_row, index, "this column has values but no header")
                )
            continue
        column = _column(index, header, root, kind)
        if isinstance(column, str):
            problems.append(table.problem(table.header_row, index, column))
            continue
        if column.path in seen:
            first = seen[column.path]
            problems.append(
                table.problem(
                    table.header_row,
                    index,
                    f"column {header!r} repeats column {column_letter(first.index)}",
                )
            )
            continue
        seen[column.path] = column
        columns.append(column)
    for column in columns:
        for other in columns:
            if len(other.path) < len(column.path) and column.path[: len(other.path)] == other.path:
                problems.append(
                    table.problem(
                        table.header_row,
                        column.index,
                        f"column {column.header!r} sets part of column {other.header!r} "
                        f"({column_letter(other.index)}); keep one of them",
                    )
                )
    present = {column.path[0] for column in columns}
    required = _resolve(root).schema.get("required", []) if table.header else []
    missing = {name for name in required if name not in present}
    return columns, problems, missing


def _convert(value, column: _Column):
    if column.mode == "json":
        return _json(value)
    node = column.node
    if column.mode == "list":
        schema = _resolve(node).schema
        is_list = isinstance(schema, dict) and _types(schema) == {"array"}
        items = _Node(schema.get("items", True), _resolve(node).file) if is_list else _FREE
        return _list(value, items)
    try:
        return _by_schema(value, node)
    except _NoMatch as no_match:
        return no_match.fallback


def _cell(value) -> object:
    """A cell value with surrounding whitespace removed from text."""
    return value.strip() if isinstance(value, str) else value


def _ordered(item: dict, kind: Kind) -> dict:
    """id, count, then the schema's property order, then the other fields as given."""
    order = dict.fromkeys(["id", "count", *_known_names(_kind_node(kind))])
    rank = {name: position for position, name in enumerate(order)}
    return dict(sorted(item.items(), key=lambda pair: rank.get(pair[0], len(rank))))


@dataclass
class _Converted:
    components: list[dict]
    rows: list[Row]  # the row of each component
    columns: list[_Column]
    problems: list[TableProblem]
    missing: set[str]  # required fields without a column
    bad_cells: set[tuple[int, int]]  # (row, column) that could not be converted


def _convert_table(table: Table, kind: Kind) -> _Converted:
    columns, problems, missing = _columns(table, kind)
    if not table.header:
        problems.append(table.problem(1, 0, "the table is empty: expected a header row"))
    components, rows, bad = [], [], set()
    for row in table.rows:
        item: dict = {}
        for column in columns:
            value = _cell(row.values[column.index])
            if _is_empty(value):
                continue
            try:
                converted = _convert(value, column)
            except _Bad as error:
                problems.append(table.problem(row.number, column.index, str(error)))
                bad.add((row.number, column.index))
                continue
            target = item
            for key in column.path[:-1]:
                target = target.setdefault(key, {})
                if not isinstance(target, dict):  # a header conflict, reported already
                    break
            else:
                target[column.path[-1]] = converted
        components.append(_ordered(item, kind))
        rows.append(row)
    return _Converted(components, rows, columns, problems, missing, bad)


def table_to_components(table: Table, kind: str) -> list[dict]:
    """One component per non-empty row, each cell converted by the kind's schema.

    Raises InvalidTable with every header and conversion problem at once.
    Whether the components are valid (ranges, references, required fields) is
    import_table's business.
    """
    converted = _convert_table(table, resolve_kind(kind))
    if converted.problems:
        raise InvalidTable(converted.problems)
    return converted.components


# --------------------------------------------------------------------------
# Importing into a catalog


def _slug(stem: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")[:64].strip("-")
    return slug or "my-game"


def _title(stem: str) -> str:
    # a file name's bytes that are not UTF-8 come as surrogate escapes: show them as U+FFFD
    stem = stem.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    words = re.sub(r"[-_\s]+", " ", stem).strip()
    return (words[:1].upper() + words[1:] if words else "My Game")[:80]


def new_catalog(stem: str) -> dict:
    """An empty catalog named after a file stem."""
    return {
        "$schema": NEW_CATALOG_SCHEMA,
        "game": _slug(stem),
        "title": _title(stem),
        "version": NEW_CATALOG_VERSION,
    }


def _place(document: dict, collection: str, components: list[dict]) -> dict:
    """document with collection set to components, in catalog order when it is new."""
    if collection in document:
        return {key: components if key == collection else value for key, value in document.items()}
    order = list(schema_documents()[CATALOG_SCHEMA]["properties"])
    rank = order.index(collection)
    result, placed = {}, False
    for key, value in document.items():
        if not placed and key in order and order.index(key) > rank:
            result[collection] = components
            placed = True
        result[key] = value
    if not placed:
        result[collection] = components
    return result


def catalog_text(document: Mapping) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


class _CellMap:
    """Finds the cell of a JSON pointer inside the imported collection."""

    def __init__(self, table: Table, converted: _Converted, collection: str):
        self.table = table
        self.converted = converted
        self.collection = collection
        self.id_column = next((c for c in converted.columns if c.path == ("id",)), None)

    def row_of(self, tokens: list[str]) -> Row | None:
        if len(tokens) < 2 or tokens[0] != self.collection or not tokens[1].isdigit():
            return None
        index = int(tokens[1])
        rows = self.converted.rows
        return rows[index] if index < len(rows) else None

    def column_of(self, rest: list[str], message: str) -> tuple[_Column | None, list[str]]:
        columns = self.converted.columns
        best = max(
            (c for c in columns if tuple(rest[: len(c.path)]) == c.path),
            key=lambda c: len(c.path),
            default=None,
        )
        if best is not None:
            return best, rest[len(best.path) :]
        required = re.match(r"missing required property '([^']*)'", message)
        if required:
            wanted = (*rest, required.group(1))
            for column in columns:
                if column.path[: len(wanted)] == wanted:
                    return column, []
        for column in columns:
            if column.path[: len(rest)] == tuple(rest):
                return column, []
        return self.id_column, []

    def address_of(self, pointer: str) -> str | None:
        """The cell address of a pointer (for messages that mention other components)."""
        tokens = _tokens(pointer)
        row = self.row_of(tokens)
        if row is None:
            return None
        column, _ = self.column_of(tokens[2:], "")
        return self.table.address(row.number, column.index if column else None)

    def problem(self, pointer: str, message: str) -> TableProblem | None:
        tokens = _tokens(pointer)
        if not tokens or tokens[0] != self.collection:
            return None
        message = re.sub(
            rf"/{re.escape(self.collection)}/\d+(?:/[^\s)'\"]*)?",
            lambda match: self.address_of(match.group(0)) or match.group(0),
            message,
        )
        if len(tokens) == 1:
            return self.table.problem(None, None, message, pointer)
        row = self.row_of(tokens)
        if row is None:
            return self.table.problem(None, None, message, pointer)
        rest = tokens[2:]
        column, inner = self.column_of(rest, message)
        if column is None:
            return self.table.problem(row.number, None, message, pointer)
        if (row.number, column.index) in self.converted.bad_cells:
            return None  # the conversion problem of this cell says it already
        required = re.match(r"missing required property '([^']*)'", message)
        if not rest and required and required.group(1) in self.converted.missing:
            return None  # reported once, at the header
        if inner and (column.mode == "json" or _holds_structures(column.node)):
            message = f"{''.join('/' + t for t in inner)}: {message}"
        return self.table.problem(row.number, column.index, message, pointer)


def imported_count(document: Mapping, kind: str) -> int:
    """How many components of kind a document from import_table holds: the
    table's rows, whatever other collections come before it in the catalog."""
    return len(document.get(resolve_kind(kind).collection) or [])


def import_table(
    path: Path | str,
    kind: str,
    sheet: str | None = None,
    output: Path | str | None = None,
    display: str | None = None,
) -> dict:
    """The catalog document with the table's components as the kind's collection.

    When output is an existing catalog, only that kind's collection is replaced
    (or added); otherwise a new catalog is named after output's file stem (or
    the table's). The document is validated like any catalog: problems inside
    the collection are reported at their cells, the rest at the catalog's
    file:line. With output, the catalog is written atomically, and only when
    valid. Raises InvalidTable, InvalidInput (output is not a catalog), TableError.
    """
    path = Path(path)
    target = Path(output) if output is not None else None
    kind_ = resolve_kind(kind)
    table = read_table(path, sheet, display)
    converted = _convert_table(table, kind_)
    problems: list = list(converted.problems)
    problems += [
        table.problem(table.header_row, None, f"no {name!r} column: every {kind_.name} needs one")
        for name in converted.missing
    ]
    if not table.header or "id" in converted.missing:
        raise InvalidTable(problems)

    source_name, source_text = None, None
    if target is not None and target.exists():
        source_name = str(target)
        base = parse_json_file(target, source_name)
        if not isinstance(base, dict):
            raise InvalidInput(
                [Problem(source_name, 1, 1, "", "expected a catalog (a JSON object)")]
            )
        source_text = target.read_text(encoding="utf-8-sig")
    else:
        base = new_catalog((target or path).stem)
    document = _place(base, kind_.collection, converted.components)
    text = catalog_text(document)
    if source_text is None:
        source_name, source_text = str(target or f"{_slug((target or path).stem)}.json"), text

    findings = catalog_findings(document)
    cells = _CellMap(table, converted, kind_.collection)
    elsewhere = []
    for finding in findings:
        if _tokens(finding.pointer)[:1] == [kind_.collection]:
            problem = cells.problem(finding.pointer, finding.message)
            if problem is not None:
                problems.append(problem)
        else:
            elsewhere.append(finding)
    problems += locate(source_name, source_text, elsewhere)
    if problems:
        raise InvalidTable(problems)
    if target is not None:
        write_atomic(target, text.encode("utf-8"))
    return document


# --------------------------------------------------------------------------
# Exporting


def _is_scalar(value) -> bool:
    return isinstance(value, str | int | float | bool) and not (
        isinstance(value, float) and not math.isfinite(value)
    )


def _stored(value, excel: bool):
    """What reading the cell back gives (before conversion)."""
    if not excel:
        return value
    if isinstance(value, str):
        return value.replace("\r\n", "\n").replace("\r", "\n")
    if isinstance(value, float) and value.is_integer() and abs(value) < _EXACT_FLOAT_INT:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _EXACT_FLOAT_INT:
        return float(value)
    return value


def _same(a, b) -> bool:
    """Equal as JSON, types included (1, 1.0 and true differ)."""
    try:
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    except (TypeError, ValueError):
        return False


def _item_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _candidates(value, excel: bool) -> list:
    """Cell values that may stand for value, the most natural first."""
    if isinstance(value, str):
        return [value if value else EMPTY_TEXT]
    if isinstance(value, bool):
        return [value] if excel else [_item_text(value)]
    if isinstance(value, int | float):
        return [value, _item_text(value)] if excel else [_item_text(value)]
    if isinstance(value, list):
        found = []
        if value and all(_is_scalar(item) for item in value):
            found.append("+".join(_item_text(item) for item in value))
        found.append(json.dumps(value, ensure_ascii=False))
        return found
    return [json.dumps(value, ensure_ascii=False)]


def _encode(value, column: _Column, excel: bool):
    """The cell for value in column, or None when the column cannot hold it."""
    candidates = (
        [json.dumps(value, ensure_ascii=False)]
        if column.mode == "json"
        else _candidates(value, excel)
    )
    for candidate in candidates:
        stored = _cell(_stored(candidate, excel))
        if _is_empty(stored):
            continue
        try:
            if _same(_convert(stored, column), value):
                return candidate
        except _Bad:
            continue
    return None


def _flattens(values: list) -> bool:
    return bool(values) and all(
        isinstance(v, dict) and v and all(_SAFE_KEY.fullmatch(k) for k in v) for v in values
    )


def _key_order(values: list[dict], node: _Node, first: tuple[str, ...] = ()) -> list[str]:
    order = list(first) + _known_names(node)
    seen = {key for value in values for key in value}
    keys = [key for key in dict.fromkeys(order) if key in seen]
    for value in values:
        keys += [key for key in value if key not in keys]
    return keys


def _leaves(items: list, node: _Node, prefix: tuple[str, ...], first=()) -> list[tuple]:
    """(path, node, values, present) for every column, nested objects flattened.

    items holds one dict per component (None where the component lacks this
    object); values and present say, per component, what its cell holds.
    """
    result = []
    for key in _key_order([item for item in items if item is not None], node, first):
        child = _child(node, key) or _FREE
        present = [item is not None and key in item for item in items]
        values = [item[key] if given else None for item, given in zip(items, present, strict=True)]
        if _flattens([value for value, given in zip(values, present, strict=True) if given]):
            result += _leaves(
                [v if given else None for v, given in zip(values, present, strict=True)],
                child,
                (*prefix, key),
            )
        else:
            result.append(((*prefix, key), child, values, present))
    return result


def _export_rows(items: list[dict], kind: Kind, excel: bool) -> tuple[list[str], list[list]]:
    root = _kind_node(kind)
    if not items:
        return list(dict.fromkeys(["id", *_known_names(root)])), []
    columns_cells = []
    for path, node, values, present in _leaves(items, root, (), ("id", "count")):
        base = ".".join(path)
        attempts = [(base, "auto")]
        if all(isinstance(v, list) for v, p in zip(values, present, strict=True) if p):
            attempts.append((base + LIST_SUFFIX, "list"))
        attempts.append((base + JSON_SUFFIX, "json"))
        for header, mode in attempts:
            column = _Column(len(columns_cells), header, path, mode, node)
            cells = [
                _encode(value, column, excel) if given else None
                for value, given in zip(values, present, strict=True)
            ]
            if all(cell is not None for cell, given in zip(cells, present, strict=True) if given):
                columns_cells.append((header, cells))
                break
        else:
            raise TableError(f"cannot write the values of {base!r} as cells")
    header = [h for h, _ in columns_cells]
    rows = [[cells[i] for _, cells in columns_cells] for i in range(len(items))]
    return header, rows


def _catalog_document(catalog) -> Mapping:
    if isinstance(catalog, Catalog):
        return catalog.document
    if isinstance(catalog, Mapping):
        return catalog
    from protopress.components.loader import load_catalog

    return load_catalog(catalog).document


def export_table(catalog, kind: str, path: Path | str, display: str | None = None) -> list[str]:
    """Write a kind's components as a .csv or .xlsx table; return its header.

    catalog is a Catalog, a catalog document, or a catalog file's path. One row
    per component: id and count first, then the schema's property order,
    nested objects as dotted headers, lists joined by "+", lists of objects as
    JSON text. Importing the table gives back exactly the same components.
    """
    path = Path(path)
    kind_ = resolve_kind(kind)
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise TableError(f"{display or path}: a table is a .csv or .xlsx file")
    items = list(_catalog_document(catalog).get(kind_.collection) or [])
    excel = suffix in EXCEL_SUFFIXES
    if excel and _excel() is None:
        raise _no_excel("writing")
    header, rows = _export_rows(items, kind_, excel)
    data = _xlsx_bytes(kind_.collection, header, rows) if excel else _csv_bytes(header, rows)
    write_atomic(path, data)
    return header


def _csv_bytes(header: list[str], rows: list[list]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if cell is None else _quote_formula(cell) for cell in row])
    return buffer.getvalue().encode("utf-8")


def _xlsx_bytes(title: str, header: list[str], rows: list[list]) -> bytes:
    openpyxl = _excel()
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31])
    sheet.freeze_panes = "A2"
    for index, name in enumerate(header):
        longest = max(
            [len(name)] + [len(_text(row[index])) for row in rows if row[index] is not None]
        )
        sheet.column_dimensions[column_letter(index)].width = min(max(8, longest + 2), 60)
    bold = Font(bold=True)
    cells = []
    for name in header:
        cell = WriteOnlyCell(sheet, value=name)
        cell.font = bold
        cells.append(cell)
    sheet.append(cells)
    for row in rows:
        values = []
        for value in row:
            cell = WriteOnlyCell(sheet, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text, even when it starts with "="
            values.append(cell)
        sheet.append(values)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
